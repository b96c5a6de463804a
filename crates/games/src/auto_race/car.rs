//! A car: where it is, whether it still races, its lap bonus, and its letter.

use crate::Seat;

/// A car's index: a player's cars are `2s` (letter `A`+s) and `2s+1`
/// (`a`+s); in the team variant seat `s` has car `s` only.
pub type CarId = usize;

/// Most cars in a race: 8 players with two each.
pub const MAX_CARS: usize = 16;

/// Why a car left the race before the finish.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Why {
    /// Rule 8: it could not move and made the zero move.
    Zero,
    /// Rule 9: it led three rounds in a row in which nobody moved forward.
    Braking,
    /// Rule 13: it was a whole lap behind after a round.
    Lapped,
    /// Rule 14: the leader drove through it on the inner lane.
    BackMarker,
    /// Its player resigned or went away.
    Withdrawn,
}

impl Why {
    pub const ALL: [Why; 5] = [
        Why::Zero,
        Why::Braking,
        Why::Lapped,
        Why::BackMarker,
        Why::Withdrawn,
    ];

    /// Its letter in the state string.
    pub fn code(self) -> char {
        match self {
            Why::Zero => 'z',
            Why::Braking => 'b',
            Why::Lapped => 'l',
            Why::BackMarker => 'm',
            Why::Withdrawn => 'q',
        }
    }

    pub fn from_code(c: char) -> Option<Why> {
        Why::ALL.into_iter().find(|w| w.code() == c)
    }
}

/// Where a car is in the race.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Run {
    /// On the track, moving in its turn.
    Racing,
    /// Made the zero move this round; it stays on its cell until the round
    /// ends, then leaves (rule 8).
    Zero,
    /// Finished `rank`-th this round and stands on the finish line, in its
    /// lane, until the round ends (rule 10).
    OnLine(u8),
    /// Finished `rank`-th and left the track.
    Finished(u8),
    /// Still racing when the race was stopped (fewer than two players left):
    /// classified `rank`-th, after those who finished, in race order.
    Classified(u8),
    /// Left the race as the `seq`-th car to retire.
    Out(u8, Why),
}

/// One car.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Car {
    /// Sectors driven from the start line (negative on the grid behind it);
    /// `laps * sectors` on the finish line.
    pub d: i32,
    /// Physical lane 1-4 (see [`super::track`]).
    pub lane: u8,
    pub run: Run,
    /// Lap bonus steps left (rule 12), usable while the car is on lap `bonus_lap`.
    pub bonus: u8,
    pub bonus_lap: u8,
}

impl Car {
    /// Whether it occupies a cell of the track (the finish line is not one).
    pub fn on_track(&self) -> bool {
        matches!(self.run, Run::Racing | Run::Zero)
    }

    /// Whether it still has a move to make in some round.
    pub fn racing(&self) -> bool {
        self.run == Run::Racing
    }

    /// Whether it is still part of the race (on the track or on the line).
    pub fn in_race(&self) -> bool {
        matches!(self.run, Run::Racing | Run::Zero | Run::OnLine(_))
    }
}

/// The seat owning `car`, with `per` cars a seat.
pub fn owner(car: CarId, per: usize) -> Seat {
    car / per
}

/// The letter of `car`: the first car of seat `s` is `A`+s, the second `a`+s.
pub fn letter(car: CarId, per: usize) -> char {
    let seat = (car / per) as u8;
    if car.is_multiple_of(per) {
        char::from(b'A' + seat)
    } else {
        char::from(b'a' + seat)
    }
}

/// The car of `letter` among `cars` cars, `per` a seat.
pub fn from_letter(letter: char, cars: usize, per: usize) -> Option<CarId> {
    let car = match letter {
        'A'..='H' => (letter as usize - 'A' as usize) * per,
        'a'..='h' if per == 2 => (letter as usize - 'a' as usize) * 2 + 1,
        _ => return None,
    };
    (car < cars).then_some(car)
}

/// The seat letter (the upper-case car letter) of `seat`.
pub fn seat_letter(seat: Seat) -> char {
    char::from(b'A' + seat as u8)
}
