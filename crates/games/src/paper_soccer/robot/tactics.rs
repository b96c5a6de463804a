//! Exact short tactics for the levels that do not search deep: a goal now, or a whole move that forces one on the next turn.
//!
//! Levels 1 and 2 look two whole moves ahead at most, so a goal that takes
//! one quiet turn to set up (every reply of the opponent leaves the ball
//! where it can be scored) is beyond their horizon. Missing it would make a
//! robot pass over a won game, which no player expects of even the easiest
//! robot; finding it costs a few generations per root move, because a root
//! move is dropped at the first reply that leaves no goal.

use std::cell::Cell;

use super::super::field::{Dir, Field};
use super::super::movegen::{MoveGen, Outcome};
use super::super::position::Position;
use crate::Budget;

/// A whole move that wins now, else one after which every reply of the
/// opponent leaves the side to move a winning move; `None` when there is
/// neither, or the budget ran out before one was found. Budget nodes are
/// move generations.
pub fn goal_within_two(f: &Field, pos: &Position, budget: &Budget<'_>) -> Option<Vec<Dir>> {
    let mut outer = MoveGen::new();
    let mut replies = MoveGen::new();
    let mut answers = MoveGen::new();
    // Counted in a cell: the replies' visitor adds to it while their stop check reads it.
    let generations = Cell::new(1u64);
    let out_of_budget = || budget.exhausted(generations.get());
    let mut roots = Vec::new();
    let complete = outer.generate(f, pos, &mut |_| out_of_budget(), &mut |p, o, path| {
        roots.push((*p, o, path.to_vec()));
        o != Outcome::Win
    });
    if let Some(win) = roots.iter().position(|m| m.1 == Outcome::Win) {
        return Some(roots.swap_remove(win).2);
    }
    if !complete {
        return None;
    }
    // Moves that bring the ball nearest the goal it attacks are tried first:
    // a goal next turn starts from there.
    roots.retain(|m| m.1 == Outcome::Pass);
    roots.sort_by_key(|m| std::cmp::Reverse(super::progress(f, pos.side, &m.0)));
    for (after, _, path) in roots {
        if out_of_budget() {
            return None;
        }
        let mut forced = true;
        generations.set(generations.get() + 1);
        let complete = replies.generate(f, &after, &mut |_| out_of_budget(), &mut |reply, o, _| {
            forced = match o {
                Outcome::Win => false,
                // A reply that loses on the spot is the opponent's loss.
                Outcome::Loss => true,
                Outcome::Pass => {
                    generations.set(generations.get() + 1);
                    let mut scores = false;
                    answers.generate(f, reply, &mut |_| false, &mut |_, o, _| {
                        scores = o == Outcome::Win;
                        !scores
                    });
                    scores
                }
            };
            forced
        });
        if complete && forced {
            return Some(path);
        }
    }
    None
}
