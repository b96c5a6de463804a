//! Level 3: an iteratively deepened alpha-beta search over words, narrowed to the best few.
//!
//! Depth 1 is the best immediate gain; depth 2 adds the best reply the
//! opponent then has (with any word of the full dictionary: a player may
//! know rare words); depth 3 adds the robot's best follow-up, which is
//! where a threatened cut-off the opponent cannot parry pays. Each ply
//! keeps only its best words by immediate gain (a beam), plus the pass.
//! The score is the letter difference for the side to move; a finished
//! match (a base taken, two passes) scores `WIN` (10,000) for the winner.
//!
//! The budget counts expanded positions: a fixed node count gives the same
//! move for the same inputs, and a real clock is looked at before each
//! expansion (a few milliseconds at most), stopping at nine tenths of the
//! allowance so that the last one ends within it. When time runs out
//! the deepest finished iteration decides (or the current one, if its
//! first, previously best, move was searched through).

use rand::Rng;

use super::board::{Board, Capture, Colour};
use super::dictionary::NodeId;
use super::movegen::{self, Candidate, Search};
use super::robot;
use super::state::State;
use crate::{Budget, MatchRng};

/// A finished match, from the winner's side (plus the letter difference).
const WIN: i32 = 10_000;
/// Deeper than this the beams make no sense within a second.
const MAX_DEPTH: u32 = 4;
/// Root words searched.
const ROOT_BEAM: usize = 20;
/// Words searched per inner ply.
const BEAM: usize = 8;

/// A position inside the search.
#[derive(Clone)]
struct Pos {
    board: Board,
    side: Colour,
    passes: u8,
    over: bool,
    played: Vec<NodeId>,
}

impl Pos {
    /// Letters of the side to move minus the other's.
    fn diff(&self) -> i32 {
        self.board.count(self.side) as i32 - self.board.count(self.side.other()) as i32
    }

    /// The value of a finished match for the side to move.
    fn finished(&self) -> i32 {
        let diff = self.diff();
        diff + diff.signum() * WIN
    }

    fn after_word(&self, c: &Candidate) -> Pos {
        let (board, capture) = robot::after(&self.board, self.side, c);
        let mut played = self.played.clone();
        let at = played.binary_search(&c.node).unwrap_or_else(|i| i);
        played.insert(at, c.node);
        Pos {
            board,
            side: self.side.other(),
            passes: 0,
            over: capture.base,
            played,
        }
    }

    fn after_pass(&self) -> Pos {
        Pos {
            board: self.board,
            side: self.side.other(),
            passes: self.passes + 1,
            over: self.passes >= 1,
            played: self.played.clone(),
        }
    }
}

struct Searcher<'a, 'b> {
    search: Search<'a>,
    robot: Colour,
    budget: &'b Budget<'b>,
    nodes: u64,
}

/// A gaining word with what it takes.
struct Choice {
    candidate: Candidate,
    capture: Capture,
}

impl Choice {
    /// Its value when nothing follows: the difference after it, or a win.
    fn value_now(&self, pos: &Pos) -> i32 {
        let diff = pos.diff() + self.capture.gain();
        if self.capture.base { diff + WIN } else { diff }
    }
}

impl Searcher<'_, '_> {
    /// The gaining words of the side to move, best immediate gain first
    /// (ties in generation order, so the search is deterministic).
    fn choices(&self, pos: &Pos) -> Vec<Choice> {
        let search = Search {
            side: pos.side,
            min_rank: if pos.side == self.robot {
                self.search.min_rank
            } else {
                0
            },
            played: &pos.played,
            ..self.search
        };
        let mut choices = Vec::new();
        movegen::for_each(&pos.board, &search, |candidate| {
            let capture = robot::capture(&pos.board, pos.side, &candidate);
            if capture.gain() > 0 {
                choices.push(Choice { candidate, capture });
            }
        });
        choices.sort_by_key(|c| std::cmp::Reverse(c.capture.gain()));
        choices
    }

    /// [`Searcher::choices`], charged to the budget; `None` once it is spent.
    fn expand(&mut self, pos: &Pos) -> Option<Vec<Choice>> {
        if self.budget.exhausted(self.nodes) {
            return None;
        }
        self.nodes += 1;
        Some(self.choices(pos))
    }

    /// The value of `pos` for its side to move, searched `depth` plies
    /// (fail-soft alpha-beta); `None` when the budget ran out.
    fn negamax(&mut self, pos: &Pos, depth: u32, mut alpha: i32, beta: i32) -> Option<i32> {
        if pos.over {
            return Some(pos.finished());
        }
        if depth == 0 {
            return Some(pos.diff());
        }
        let choices = self.expand(pos)?;
        if depth == 1 {
            let words = choices.iter().map(|c| c.value_now(pos));
            return Some(words.fold(pass_now(pos), i32::max));
        }
        let mut best = if pos.passes >= 1 {
            pass_now(pos)
        } else {
            -self.negamax(&pos.after_pass(), depth - 1, -beta, -alpha)?
        };
        alpha = alpha.max(best);
        for c in choices.iter().take(BEAM) {
            if alpha >= beta {
                break;
            }
            let child = pos.after_word(&c.candidate);
            let v = -self.negamax(&child, depth - 1, -beta, -alpha)?;
            best = best.max(v);
            alpha = alpha.max(v);
        }
        Some(best)
    }
}

/// Passing with nothing searched after it: the match ends if the other side
/// just passed, else the difference stands.
fn pass_now(pos: &Pos) -> i32 {
    if pos.passes >= 1 {
        -pos.after_pass().finished()
    } else {
        pos.diff()
    }
}

/// Level 3's word (`None`: pass).
pub fn best(
    state: &State,
    search: &Search<'_>,
    budget: &Budget<'_>,
    rng: &mut MatchRng,
) -> Option<Candidate> {
    // Aim at nine tenths of the clock: an expansion started just before the
    // end, on a busy machine, must still finish within the budget.
    let aim = Budget {
        millis: budget.millis - budget.millis / 10,
        ..*budget
    };
    let mut s = Searcher {
        search: *search,
        robot: search.side,
        budget: &aim,
        nodes: 0,
    };
    let root = Pos {
        board: *state.board(),
        side: search.side,
        passes: state.passes(),
        over: false,
        played: search.played.to_vec(),
    };
    // The root's words are found whatever the budget: every move rests at
    // least on the immediate gains.
    let mut choices = s.choices(&root);
    choices.truncate(ROOT_BEAM);
    // Root choice `i`: a word, or the pass when `i == choices.len()`.
    let mut values: Vec<(usize, i32)> = (0..choices.len())
        .map(|i| (i, choices[i].value_now(&root)))
        .chain([(choices.len(), pass_now(&root))])
        .collect();
    for depth in 2..=MAX_DEPTH {
        values.sort_by_key(|&(i, v)| (std::cmp::Reverse(v), i));
        let mut searched = Vec::new();
        let mut alpha = -2 * WIN;
        for &(i, _) in &values {
            let child = match choices.get(i) {
                Some(c) => root.after_word(&c.candidate),
                None => root.after_pass(),
            };
            // A window one below the best so far keeps ties exact.
            let Some(v) = s.negamax(&child, depth - 1, -2 * WIN, 1 - alpha) else {
                break;
            };
            alpha = alpha.max(-v);
            searched.push((i, -v));
        }
        let complete = searched.len() == values.len();
        // Cut short: the moves searched at this depth (the previous best
        // first) replace the rest, which were worse one ply shallower.
        if !searched.is_empty() {
            values = searched;
        }
        if !complete {
            break;
        }
    }
    let top = values.iter().map(|v| v.1).max()?;
    let ties: Vec<usize> = values.iter().filter(|v| v.1 == top).map(|v| v.0).collect();
    let pick = ties[rng.gen_range(0..ties.len())];
    choices.get(pick).map(|c| c.candidate)
}
