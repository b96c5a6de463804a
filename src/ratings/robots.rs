//! The fixed rating a robot plays at, drawn from its game's measured
//! results between levels ([`LevelResult`]): the middle level is 1500, the
//! rating a new player starts from, and each measured pair sets the gap
//! between its two levels (or a level and the game's yardstick) to the
//! Elo difference its score implies, `400 log10(s / (1 - s))`, at most 400:
//! a score of ten to one or better over a hundred games says no more than
//! "much stronger", and a perfect one would say infinitely so.

use super::Rating;
use crate::games::{Level, LevelResult};

/// The largest gap one measured pair sets.
const MAX_GAP: f64 = 400.0;
/// How unsure a robot's rating is: measured over hundreds of games.
const ROBOT_DEVIATION: f64 = 50.0;

/// The rating of a robot of `level`, among `levels`, from `results`. A level
/// no measurement reaches plays at 1500.
pub fn robot_rating(
    results: &[LevelResult],
    levels: std::ops::RangeInclusive<Level>,
    level: Level,
) -> Rating {
    let middle = levels.start() + (levels.end() - levels.start()) / 2;
    let mut known: Vec<(Option<Level>, f64)> = vec![(Some(middle), 1500.0)];
    // Each pass rates what one measured pair links to a rated node.
    for _ in 0..=results.len() {
        for r in results {
            let gap = gap(r.score);
            let stronger = known.iter().find(|(n, _)| *n == r.stronger).map(|k| k.1);
            let weaker = known.iter().find(|(n, _)| *n == r.weaker).map(|k| k.1);
            match (stronger, weaker) {
                (Some(s), None) => known.push((r.weaker, s - gap)),
                (None, Some(w)) => known.push((r.stronger, w + gap)),
                _ => {}
            }
        }
    }
    let rating = known
        .iter()
        .find(|(n, _)| *n == Some(level))
        .map_or(1500.0, |k| k.1);
    Rating {
        rating,
        deviation: ROBOT_DEVIATION,
        volatility: Rating::new_player().volatility,
    }
}

/// The Elo gap a score implies, capped at [`MAX_GAP`].
fn gap(score: f64) -> f64 {
    let s = score.clamp(0.0, 1.0);
    if s >= 1.0 {
        return MAX_GAP;
    }
    if s <= 0.0 {
        return -MAX_GAP;
    }
    (400.0 * (s / (1.0 - s)).log10()).clamp(-MAX_GAP, MAX_GAP)
}
