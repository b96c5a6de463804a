//! Whole moves: every distinct end of the side to move's bounce chain, each reached once.
//!
//! A depth-first walk over single steps. Every position reached after a step
//! (an intermediate bounce point or an end) is recorded by its Zobrist hash
//! in a stamped open-addressing set, so chains that reach the same position
//! (same segments drawn, same ball) by other orders are walked and reported
//! once. Goals and dead ends stop a chain: the first winning and the first
//! losing end are reported (every winning end is as good as another).

use super::field::{Dir, Field};
use super::position::{Position, Step};

/// How a whole move ends, for the side that plays it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// The ball stops on an untouched point; the opponent moves.
    Pass,
    /// A goal in the opponent's goal (or the opponent is stuck).
    Win,
    /// An own goal, or the chain runs into a dead end.
    Loss,
}

/// Reusable scratch of the generator (the seen-set and the path).
pub struct MoveGen {
    keys: Vec<u64>,
    stamps: Vec<u32>,
    stamp: u32,
    count: usize,
    path: Vec<Dir>,
    /// Single steps walked since creation (for budgets and benches).
    pub steps: u64,
    won: bool,
    lost: bool,
    stop: bool,
}

impl Default for MoveGen {
    fn default() -> Self {
        MoveGen::new()
    }
}

/// How often (in steps) the generator asks whether to stop.
pub const CHECK_EVERY: u64 = 128;

impl MoveGen {
    pub fn new() -> MoveGen {
        MoveGen {
            keys: vec![0; 1024],
            stamps: vec![0; 1024],
            stamp: 0,
            count: 0,
            path: Vec::with_capacity(64),
            steps: 0,
            won: false,
            lost: false,
            stop: false,
        }
    }

    fn insert(&mut self, key: u64) -> bool {
        if (self.count + 1) * 2 > self.keys.len() {
            self.grow();
        }
        let mask = self.keys.len() - 1;
        let mut i = (key as usize) & mask;
        loop {
            if self.stamps[i] != self.stamp {
                self.stamps[i] = self.stamp;
                self.keys[i] = key;
                self.count += 1;
                return true;
            }
            if self.keys[i] == key {
                return false;
            }
            i = (i + 1) & mask;
        }
    }

    fn grow(&mut self) {
        let old: Vec<u64> = (0..self.keys.len())
            .filter(|&i| self.stamps[i] == self.stamp)
            .map(|i| self.keys[i])
            .collect();
        let cap = self.keys.len() * 2;
        self.keys = vec![0; cap];
        self.stamps = vec![0; cap];
        self.stamp = 1;
        self.count = 0;
        for k in old {
            self.insert(k);
        }
    }

    /// Calls `visit(end, outcome, path)` for every distinct whole move of the
    /// side to move from `pos` (from mid-chain too: the rest of the chain).
    /// `visit` returns `false` to stop; `stop(steps)` is asked every
    /// [`CHECK_EVERY`] steps and returns `true` to abort. Returns whether the
    /// enumeration was complete.
    pub fn generate(
        &mut self,
        f: &Field,
        pos: &Position,
        stop: &mut dyn FnMut(u64) -> bool,
        visit: &mut dyn FnMut(&Position, Outcome, &[Dir]) -> bool,
    ) -> bool {
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.stamps.iter_mut().for_each(|s| *s = 0);
            self.stamp = 1;
        }
        self.count = 0;
        self.path.clear();
        self.won = false;
        self.lost = false;
        self.stop = false;
        self.dfs(f, pos, stop, visit);
        !self.stop
    }

    fn dfs(
        &mut self,
        f: &Field,
        pos: &Position,
        stop: &mut dyn FnMut(u64) -> bool,
        visit: &mut dyn FnMut(&Position, Outcome, &[Dir]) -> bool,
    ) {
        let mover = pos.side;
        let mut free = pos.free(f);
        while free != 0 {
            let d = free.trailing_zeros() as Dir;
            free &= free - 1;
            self.steps += 1;
            if self.steps.is_multiple_of(CHECK_EVERY) && stop(self.steps) {
                self.stop = true;
                return;
            }
            let mut child = *pos;
            let step = child.step(f, d);
            self.path.push(d);
            let report = match step {
                Step::Goal { winner } => Some(if winner == mover {
                    Outcome::Win
                } else {
                    Outcome::Loss
                }),
                Step::Stuck => Some(if child.side == mover {
                    Outcome::Loss
                } else {
                    Outcome::Win
                }),
                Step::Pass => self.insert(child.hash).then_some(Outcome::Pass),
                Step::Bounce => {
                    if self.insert(child.hash) {
                        self.dfs(f, &child, stop, visit);
                    }
                    None
                }
            };
            if let Some(outcome) = report {
                let fresh = match outcome {
                    Outcome::Win => !std::mem::replace(&mut self.won, true),
                    Outcome::Loss => !std::mem::replace(&mut self.lost, true),
                    Outcome::Pass => true,
                };
                if fresh && !visit(&child, outcome, &self.path) {
                    self.stop = true;
                }
            }
            self.path.pop();
            if self.stop {
                return;
            }
        }
    }

    /// Every whole move, collected (for tests and simple robots); `None` if
    /// more than `max_steps` steps were needed.
    pub fn collect(
        &mut self,
        f: &Field,
        pos: &Position,
        max_steps: u64,
    ) -> Option<Vec<(Position, Outcome, Vec<Dir>)>> {
        let mut out = Vec::new();
        let start = self.steps;
        let done = self.generate(
            f,
            pos,
            &mut |s| s - start >= max_steps,
            &mut |p, o, path| {
                out.push((*p, o, path.to_vec()));
                true
            },
        );
        done.then_some(out)
    }
}
