//! The robot: whole-move choice at levels 1-3 (see [`choose`]).
//!
//! - Level 1: a random whole move that does not lose on the spot, among the
//!   half that bring the ball nearest the goal it attacks; a goal if it has
//!   one, or a move that forces one next turn ([`tactics`]).
//! - Level 2: a 2-ply search over whole moves with the row evaluation, after
//!   the same check for a goal within two turns.
//! - Level 3: iterative-deepening PVS, transposition table, killers, late
//!   move reductions, and the reachability evaluation with an exact check for
//!   a goal this turn (see [`search`], [`eval`]), until the budget ends.

pub mod eval;
pub mod search;
pub mod tactics;

use rand::Rng;
use rand::seq::SliceRandom;

use super::field::{Dir, Field};
use super::movegen::{MoveGen, Outcome};
use super::position::{Position, Side, Step};
use crate::{Budget, Level, MatchRng};

pub use search::{Eval, Report, Searcher};

/// Table size of a level-3 search made by [`choose`] (2^18 entries, 6 MB).
pub const TT_BITS: u32 = 18;

/// A whole remaining turn for the side to move, at `level`.
pub fn choose(
    f: &Field,
    pos: &Position,
    level: Level,
    budget: &Budget<'_>,
    rng: &mut MatchRng,
) -> Vec<Dir> {
    // Below level 3 the horizon is too short for a goal set up one turn
    // ahead; level 3's search sees it (and much more) by itself.
    if level < 3
        && let Some(path) = tactics::goal_within_two(f, pos, budget)
    {
        return path;
    }
    let path = match level {
        0 | 1 => level1(f, pos, budget, rng),
        2 => {
            let mut s = Searcher::new(12, Eval::Simple, 2);
            s.search(f, pos, budget, &mut |m| m.shuffle(rng)).path
        }
        _ => {
            let mut s = Searcher::new(TT_BITS, Eval::tuned(), 64);
            s.search(f, pos, budget, &mut |m| m.shuffle(rng)).path
        }
    };
    // A search that found nothing (no time even for the root's moves) walks.
    if path.is_empty() {
        walk(f, pos, rng)
    } else {
        path
    }
}

/// A random walk to the end of the turn, avoiding steps that lose on the spot.
pub fn walk(f: &Field, pos: &Position, rng: &mut MatchRng) -> Vec<Dir> {
    let mut p = *pos;
    let mover = p.side;
    let mut path = Vec::new();
    loop {
        let free = p.free(f);
        let dirs: Vec<Dir> = (0..8).filter(|d| free >> d & 1 == 1).collect();
        if dirs.is_empty() {
            return path;
        }
        let safe: Vec<Dir> = dirs
            .iter()
            .copied()
            .filter(|&d| {
                let mut q = p;
                let step = q.step(f, d);
                match step {
                    Step::Stuck => false,
                    Step::Goal { winner } => winner == mover,
                    _ => true,
                }
            })
            .collect();
        let pick = if safe.is_empty() { &dirs } else { &safe };
        let d = pick[rng.gen_range(0..pick.len())];
        path.push(d);
        if p.step(f, d) != Step::Bounce {
            return path;
        }
    }
}

fn level1(f: &Field, pos: &Position, budget: &Budget<'_>, rng: &mut MatchRng) -> Vec<Dir> {
    let mut mg = MoveGen::new();
    let mut moves: Vec<(Position, Outcome, Vec<Dir>)> = Vec::new();
    mg.generate(
        f,
        pos,
        &mut |_| budget.clock.elapsed_ms() >= budget.millis,
        &mut |p, o, path| {
            moves.push((*p, o, path.to_vec()));
            o != Outcome::Win
        },
    );
    if let Some(w) = moves.iter().find(|m| m.1 == Outcome::Win) {
        return w.2.clone();
    }
    let mut safe: Vec<_> = moves.into_iter().filter(|m| m.1 == Outcome::Pass).collect();
    if safe.is_empty() {
        return walk(f, pos, rng);
    }
    safe.shuffle(rng);
    safe.sort_by_key(|m| std::cmp::Reverse(progress(f, pos.side, &m.0)));
    let half = safe.len().div_ceil(2);
    safe.swap_remove(rng.gen_range(0..half)).2
}

/// How far `p`'s ball has come towards the goal `side` attacks: the larger,
/// the nearer (the order every level tries its moves in).
pub(crate) fn progress(f: &Field, side: Side, p: &Position) -> i32 {
    let (_, y) = f.xy(p.ball);
    if side == 0 { -y } else { y }
}
