//! Static evaluations, from the side to move's point of view.
//!
//! [`reach`] is a breadth-first walk over free segments from the ball
//! (ignoring who moves): it finds the steps to each goal, or that a goal is
//! cut off. [`full`] scores a position from those distances (a cut-off own
//! goal is safety, a cut-off target is a lost attack); [`simple`] only reads
//! the ball's row. [`scores_now`] is exact: whether the side to move can
//! score by bounces alone, which no distance shows.

use crate::games::paper_soccer::field::{Field, Kind, MAX_POINTS};
use crate::games::paper_soccer::position::Position;

/// Distance used for an unreachable goal.
pub const FAR: i32 = 40;

/// Steps from the ball to (top goal, bottom goal) along free segments, [`FAR`] if cut off.
pub fn reach(f: &Field, pos: &Position) -> (i32, i32) {
    let mut seen = [0u64; MAX_POINTS.div_ceil(64)];
    let mut queue = [0u16; MAX_POINTS];
    let mut dist = [0u8; MAX_POINTS];
    let (mut head, mut tail) = (0, 1);
    queue[0] = pos.ball;
    seen[pos.ball as usize / 64] |= 1 << (pos.ball % 64);
    let (mut top, mut bottom) = (FAR, FAR);
    while head < tail {
        let p = queue[head];
        head += 1;
        let dp = dist[p as usize];
        match f.kind[p as usize] {
            Kind::TopGoal => {
                top = top.min(dp as i32);
                continue;
            }
            Kind::BottomGoal => {
                bottom = bottom.min(dp as i32);
                continue;
            }
            _ => {}
        }
        if top < FAR && bottom < FAR {
            break;
        }
        let mut free = pos.free_at(f, p);
        while free != 0 {
            let d = free.trailing_zeros() as usize;
            free &= free - 1;
            let q = f.nbr[p as usize][d];
            if seen[q as usize / 64] >> (q % 64) & 1 == 0 {
                seen[q as usize / 64] |= 1 << (q % 64);
                dist[q as usize] = dp + 1;
                queue[tail] = q;
                tail += 1;
            }
        }
    }
    (top, bottom)
}

/// A leaf where the side to move scores this turn, whatever the rest: below
/// every mate score, above every other evaluation.
pub const SCORES_NOW: i32 = 5000;

/// Whether the side to move can score in the goal it attacks without its
/// turn ending: a walk over free segments whose every point but the goal is
/// already touched (each arrival a bounce). Exact, not a guess: the walk
/// visits each point once, so it draws no segment twice and leaves every
/// point it bounces on by a segment still free.
pub fn scores_now(f: &Field, pos: &Position) -> bool {
    let target = if pos.side == 0 {
        Kind::TopGoal
    } else {
        Kind::BottomGoal
    };
    let mut seen = [0u64; MAX_POINTS.div_ceil(64)];
    let mut stack = [0u16; MAX_POINTS];
    let mut top = 1;
    stack[0] = pos.ball;
    seen[pos.ball as usize / 64] |= 1 << (pos.ball % 64);
    while top > 0 {
        top -= 1;
        let p = stack[top];
        let mut free = pos.free_at(f, p);
        while free != 0 {
            let d = free.trailing_zeros() as usize;
            free &= free - 1;
            let q = f.nbr[p as usize][d];
            match f.kind[q as usize] {
                kind if kind == target => return true,
                Kind::Field => {}
                _ => continue,
            }
            if seen[q as usize / 64] >> (q % 64) & 1 == 0 && pos.touched(f, q) {
                seen[q as usize / 64] |= 1 << (q % 64);
                stack[top] = q;
                top += 1;
            }
        }
    }
    false
}

/// The evaluation of level 3.
pub fn full(f: &Field, pos: &Position) -> i32 {
    if scores_now(f, pos) {
        return SCORES_NOW;
    }
    let (top, bottom) = reach(f, pos);
    let (att, def) = if pos.side == 0 {
        (top, bottom)
    } else {
        (bottom, top)
    };
    let mut score = 12 * (def - att);
    if att >= FAR && def < FAR {
        score -= 200;
    } else if def >= FAR && att < FAR {
        score += 200;
    }
    // A ball right in front of a goal: the side to move threatens it.
    if att <= 2 {
        score += 60;
    }
    score
}

/// The evaluation of level 2: how far up the field the ball is.
pub fn simple(f: &Field, pos: &Position) -> i32 {
    let (_, y) = f.xy(pos.ball);
    let from_top = y + 1;
    let from_bottom = f.length as i32 + 1 - y;
    let (att, def) = if pos.side == 0 {
        (from_top, from_bottom)
    } else {
        (from_bottom, from_top)
    };
    10 * (def - att)
}
