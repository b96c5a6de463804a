//! Players' ratings, per game: what a finished match does to them, and the
//! fixed ratings robots play at. Pure arithmetic over `skillratings` (no
//! I/O, no clock): Glicko-2 for games of one against one, Weng-Lin for
//! SMS football's teams and auto race's fields.
//!
//! Every rating is kept on one scale, Glicko's (a new player 1500 ± 350),
//! whatever system moved it: a Weng-Lin rating is mapped onto it by
//! [`scale`], so that `TOP` reads alike in every game.

mod robots;
mod scale;

use skillratings::glicko2::{Glicko2Config, Glicko2Rating, glicko2_rating_period};
use skillratings::weng_lin::{WengLinConfig, weng_lin_multi_team};
use skillratings::{MultiTeamOutcome, Outcomes};

use crate::games::{Contest, Side};

pub use robots::robot_rating;

/// Rated games a player needs in a game before his rating there is
/// established; until then it is shown with a `?` and kept off the
/// leaderboards (`TOP`, `/standings`), where one lucky first game would
/// otherwise make a leader: a new player's rating moves by hundreds.
pub const PROVISIONAL_GAMES: i64 = 10;

/// A player's rating in one game, on Glicko's scale.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rating {
    pub rating: f64,
    /// How unsure the rating is (Glicko's RD; a Weng-Lin sigma, scaled).
    pub deviation: f64,
    /// Glicko-2's volatility; Weng-Lin keeps none, and leaves it as it was.
    pub volatility: f64,
}

impl Rating {
    /// A player's rating before his first rated game.
    pub fn new_player() -> Rating {
        let fresh = Glicko2Rating::new();
        Rating {
            rating: fresh.rating,
            deviation: fresh.deviation,
            volatility: fresh.volatility,
        }
    }

    /// The rating as players read it: a whole number.
    pub fn points(&self) -> i64 {
        self.rating.round() as i64
    }

    fn glicko2(self) -> Glicko2Rating {
        Glicko2Rating {
            rating: self.rating,
            deviation: self.deviation,
            volatility: self.volatility,
        }
    }

    fn from_glicko2(r: Glicko2Rating) -> Rating {
        Rating {
            rating: r.rating,
            deviation: r.deviation,
            volatility: r.volatility,
        }
    }
}

/// One seat at a finished match, as the ratings see it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Entrant {
    pub side: Side,
    /// The seat's place (1 is best; a side's seats share theirs).
    pub place: u8,
    pub rating: Rating,
    /// A robot's rating is fixed: the match moves only the players'.
    pub fixed: bool,
}

/// The ratings after a match, one per entrant in order (a fixed one as it
/// was). Glicko-2 rates a game of one against one as a rating period of one
/// game; Weng-Lin rates teams by their places, ties as draws.
pub fn rate(contest: Contest, entrants: &[Entrant]) -> Vec<Rating> {
    let sides = sides_of(entrants);
    let rated = match contest {
        Contest::OneOnOne if sides.len() == 2 && entrants.len() == 2 => one_on_one(entrants),
        _ => field(entrants, &sides),
    };
    entrants
        .iter()
        .zip(rated)
        .map(|(e, new)| if e.fixed { e.rating } else { new })
        .collect()
}

/// The sides in order of first appearance.
fn sides_of(entrants: &[Entrant]) -> Vec<Side> {
    let mut sides: Vec<Side> = Vec::new();
    for e in entrants {
        if !sides.contains(&e.side) {
            sides.push(e.side);
        }
    }
    sides
}

fn one_on_one(entrants: &[Entrant]) -> Vec<Rating> {
    let (a, b) = (&entrants[0], &entrants[1]);
    let outcome = |me: &Entrant, other: &Entrant| match me.place.cmp(&other.place) {
        std::cmp::Ordering::Less => Outcome::Win,
        std::cmp::Ordering::Equal => Outcome::Draw,
        std::cmp::Ordering::Greater => Outcome::Loss,
    };
    vec![
        glicko2_period(a.rating, &[(b.rating, outcome(a, b))]),
        glicko2_period(b.rating, &[(a.rating, outcome(b, a))]),
    ]
}

/// Glicko-2's rating period: `player` after `results` against opponents
/// rated as they were before it.
pub fn glicko2_period(player: Rating, results: &[(Rating, Outcome)]) -> Rating {
    let results: Vec<(Glicko2Rating, Outcomes)> = results
        .iter()
        .map(|(opponent, outcome)| {
            let outcome = match outcome {
                Outcome::Win => Outcomes::WIN,
                Outcome::Draw => Outcomes::DRAW,
                Outcome::Loss => Outcomes::LOSS,
            };
            (opponent.glicko2(), outcome)
        })
        .collect();
    Rating::from_glicko2(glicko2_rating_period(
        &player.glicko2(),
        &results,
        &Glicko2Config::new(),
    ))
}

fn field(entrants: &[Entrant], sides: &[Side]) -> Vec<Rating> {
    let config = WengLinConfig::new();
    let teams: Vec<Vec<_>> = sides
        .iter()
        .map(|side| {
            entrants
                .iter()
                .filter(|e| e.side == *side)
                .map(|e| scale::to_weng_lin(&e.rating, &config))
                .collect()
        })
        .collect();
    let ranks: Vec<MultiTeamOutcome> = sides
        .iter()
        .map(|side| {
            let place = entrants
                .iter()
                .filter(|e| e.side == *side)
                .map(|e| e.place)
                .min()
                .unwrap_or(u8::MAX);
            MultiTeamOutcome::new(usize::from(place))
        })
        .collect();
    let input: Vec<(&[_], MultiTeamOutcome)> = teams
        .iter()
        .zip(&ranks)
        .map(|(team, rank)| (team.as_slice(), *rank))
        .collect();
    let after = weng_lin_multi_team(&input, &config);
    // Back to the entrants' order: each side's members in the order they came.
    let mut taken = vec![0usize; sides.len()];
    entrants
        .iter()
        .map(|e| {
            let t = sides.iter().position(|s| *s == e.side).unwrap_or(0);
            let member = taken[t];
            taken[t] += 1;
            let new = after[t][member];
            scale::from_weng_lin(&new, e.rating.volatility, &config)
        })
        .collect()
}

/// What a finished match meant for one seat, as `STAT` counts it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    Win,
    Draw,
    Loss,
}

impl Outcome {
    /// A seat's outcome against the others: first and not everyone first is
    /// a win; everyone first is a draw; anything else a loss (in a race,
    /// every place below the first).
    pub fn of(place: u8, places: &[u8]) -> Outcome {
        let all_first = places.iter().all(|p| *p == 1);
        match (place, all_first) {
            (1, true) => Outcome::Draw,
            (1, false) => Outcome::Win,
            _ => Outcome::Loss,
        }
    }
}

#[cfg(test)]
mod tests;
