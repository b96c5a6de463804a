//! The robots: level 1 a teaching bot (gain the ball, shoot forward, run at
//! the ball), level 2 the best combination by a static value that fears the
//! opponent's open shot, level 3 a search over both sides' combinations:
//! two plies in full, then a third for the best candidates.

pub mod combos;
pub mod deep;
pub mod eval;
pub mod search;
pub mod simple;

use super::moves::Move;
use super::position::Position;
use crate::{Budget, Level, MatchRng};

/// The robot's whole turn from `pos` (the rest of it, if a combination is in progress).
pub fn choose(
    pos: &Position,
    limit: u32,
    level: Level,
    budget: &Budget<'_>,
    rng: &mut MatchRng,
) -> Move {
    let codes = match level {
        0 | 1 => simple::choose(pos, rng),
        2 => search::one_ply(pos, limit, budget, rng),
        _ => search::three_ply(pos, limit, budget, rng),
    };
    Move::codes(codes)
}
