//! A static judgement of a race for one side: the points its cars can expect
//! from how their values compare with the others', plus a small share of
//! how far ahead of the field they are.
//!
//! A car's value is its distance and its bonus; finished cars are above
//! every racing car, retired ones below. The inner lane only breaks exact
//! ties: measured against the farthest-forward driver, any real weight on it
//! lost points, since lane 1 is where a car is boxed in most easily (its one
//! way round, `O`, is 3 long). The danger of boxes is left to the drivers'
//! lookahead, which sees the zero moves happen (a static penalty for a
//! blocked car also measured worse).

use super::super::car::{CarId, Run};
use super::super::result::car_points;
use super::super::state::State;

/// Weight of the continuous part against the points.
const SPREAD: f64 = 0.05;
/// Value of one lane further in: a tie-break, nothing more.
const LANE: f64 = 0.01;
/// Value of a bonus step still to use.
const BONUS: f64 = 0.3;
/// How far (in sectors to the finish) one sector of lead is worth one unit
/// of the chance model's scale: far from the finish a lead is less sure.
const CERTAINTY: f64 = 20.0;

/// A car's value: comparable across cars, higher is better.
pub fn value(state: &State, car: CarId) -> f64 {
    let c = &state.cars()[car];
    let finish = f64::from(state.finish());
    match c.run {
        Run::OnLine(r) | Run::Finished(r) | Run::Classified(r) => finish + 40.0 - f64::from(r),
        Run::Racing => {
            let lane = (4.0 - f64::from(state.logical_lane(car))) * LANE;
            f64::from(c.d) + lane + BONUS * f64::from(state.bonus(car))
        }
        Run::Zero | Run::Out(..) => f64::from(c.d) - finish,
    }
}

/// Points for a car expected to place `rank`-th (1-based, fractional).
fn points_at(players: usize, rank: f64) -> f64 {
    let low = rank.floor().max(1.0);
    let share = rank - low;
    let at = |r: f64| f64::from(car_points(players, r as usize));
    at(low) * (1.0 - share) + at(low + 1.0) * share
}

/// How good `state` is for `side` (a seat, or a team in the team variant):
/// the points its cars can expect. Car `j` is taken to end ahead of car `i`
/// with a chance that grows smoothly with how far ahead it is now, and the
/// more smoothly the farther the finish still is; a car's expected place is
/// one plus those chances, its points read off the table between places.
pub fn judge(state: &State, side: usize) -> f64 {
    let n = state.cars().len();
    let values: Vec<f64> = (0..n).map(|c| value(state, c)).collect();
    let ahead = state
        .cars()
        .iter()
        .filter(|c| c.racing())
        .map(|c| c.d)
        .max();
    let left = ahead.map_or(0, |d| state.finish() - d).max(0);
    let scale = 1.0 + f64::from(left) / CERTAINTY;
    let mean = values.iter().sum::<f64>() / n as f64;
    let players = state.seats();
    (0..n)
        .filter(|&c| state.side(state.owner(c)) == side)
        .map(|i| {
            let rank = 1.0
                + (0..n)
                    .filter(|&j| j != i)
                    .map(|j| 1.0 / (1.0 + ((values[i] - values[j]) / scale).exp()))
                    .sum::<f64>();
            points_at(players, rank) + SPREAD * (values[i] - mean)
        })
        .sum()
}
