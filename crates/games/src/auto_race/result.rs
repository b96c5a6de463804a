//! Placings and points: finishers in finishing order, retired cars by the
//! distance they covered (rule 15), points per car and per player or team
//! (rule 16), and the series a chain of rematches makes.

use super::car::{CarId, Run};
use super::state::State;
use crate::{Seat, Standing};

/// Points per car place with up to 3 players (rule 16).
const SMALL: [u32; 6] = [9, 6, 4, 3, 2, 1];
/// Points per car place with 4 or more players.
const LARGE: [u32; 5] = [5, 4, 3, 2, 1];

/// Points for the car placed `place`-th (1-based) in a race of `players`.
pub fn car_points(players: usize, place: usize) -> u32 {
    let table: &[u32] = if players <= 3 { &SMALL } else { &LARGE };
    table.get(place.wrapping_sub(1)).copied().unwrap_or(0)
}

/// Every car, best first: finished and classified cars by rank, then retired
/// ones by distance (farther first; of two level, the one that stayed longer,
/// which for cars leaving together is the one ahead). While the race runs
/// this is the provisional order, racing cars in race order after the finishers.
pub fn placing(state: &State) -> Vec<CarId> {
    let mut cars: Vec<CarId> = (0..state.cars().len()).collect();
    let racing = state.race_order();
    cars.sort_by_key(|&car| {
        let c = &state.cars()[car];
        match c.run {
            Run::OnLine(r) | Run::Finished(r) | Run::Classified(r) => (0, i64::from(r), 0),
            Run::Racing | Run::Zero => {
                let at = racing
                    .iter()
                    .position(|&o| o == car)
                    .unwrap_or(racing.len());
                (1, -i64::from(c.d), at as i64)
            }
            Run::Out(seq, _) => (2, -i64::from(c.d), -i64::from(seq)),
        }
    });
    cars
}

/// This race's points per seat: each player's two cars (team variant: his
/// team's two cars, for both partners).
pub fn race_points(state: &State) -> Vec<u32> {
    let players = state.seats();
    let mut per_side = vec![0; players];
    for (i, &car) in placing(state).iter().enumerate() {
        per_side[state.side(state.owner(car))] += car_points(players, i + 1);
    }
    (0..players).map(|s| per_side[state.side(s)]).collect()
}

/// One standing per seat: sides ranked by their best car (rule 16: a race
/// played on its own is judged by each player's first car; the points, and
/// the series they add up to, are the score), so no two sides tie; partners
/// share their team's place.
pub fn standings(state: &State) -> Vec<Standing> {
    let points = race_points(state);
    let placing = placing(state);
    let best = |side: usize| {
        placing
            .iter()
            .position(|&c| state.side(state.owner(c)) == side)
            .unwrap_or(usize::MAX)
    };
    let mut sides: Vec<(usize, Seat)> = (0..state.seats()).map(|s| (state.side(s), s)).collect();
    sides.sort_by_key(|&(side, _)| best(side));
    sides.dedup_by_key(|&mut (side, _)| side);
    (0..state.seats())
        .map(|seat| {
            let place = sides
                .iter()
                .position(|&(side, _)| side == state.side(seat))
                .unwrap_or(0)
                + 1;
            Standing {
                place: place as u8,
                score: Some(i64::from(points[seat])),
            }
        })
        .collect()
}

/// Races in a series: every player starts once from every place of the lot (rule 16).
pub fn series_length(state: &State) -> u32 {
    state.seats() as u32
}

/// Series points per seat with this race's counted (once it is over).
pub fn series_totals(state: &State) -> Vec<u32> {
    let now = if state.over() {
        race_points(state)
    } else {
        vec![0; state.seats()]
    };
    state.prior().iter().zip(now).map(|(p, n)| p + n).collect()
}
