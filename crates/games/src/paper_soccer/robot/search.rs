//! Level 2 and 3 search: iterative-deepening PVS over whole moves, a Zobrist transposition table, killer moves, late move reductions.

use crate::Budget;
use crate::paper_soccer::field::{Dir, Field};
use crate::paper_soccer::movegen::{MoveGen, Outcome};
use crate::paper_soccer::position::Position;

use super::eval::{self, Weights};

pub const MATE: i32 = 1_000_000;
const MAX_PLY: usize = 64;
const EXACT: u8 = 0;
const LOWER: u8 = 1;
const UPPER: u8 = 2;
/// Late move reductions: from this remaining depth on, ...
const REDUCE_FROM_DEPTH: u32 = 3;
/// ... the moves after this many in the search order.
const REDUCE_AFTER: usize = 4;

#[derive(Clone, Copy, Default)]
struct Entry {
    key: u64,
    best: u64,
    score: i32,
    depth: i16,
    flag: u8,
}

/// Mate scores are stored relative to the node (distance from it), not the root.
fn to_tt(score: i32, ply: usize) -> i32 {
    if score > MATE - 1000 {
        score + ply as i32
    } else if score < -(MATE - 1000) {
        score - ply as i32
    } else {
        score
    }
}

fn from_tt(score: i32, ply: usize) -> i32 {
    if score > MATE - 1000 {
        score - ply as i32
    } else if score < -(MATE - 1000) {
        score + ply as i32
    } else {
        score
    }
}

/// Which evaluation a searcher uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Eval {
    /// Level 2: the ball's row.
    Simple,
    /// Level 3: reachability terms under these weights.
    Full(Weights),
}

impl Eval {
    /// Level 3's evaluation with the weights compiled in.
    pub fn tuned() -> Eval {
        Eval::Full(Weights::tuned())
    }
}

/// What a search found.
#[derive(Clone, Debug, Default)]
pub struct Report {
    pub path: Vec<Dir>,
    pub score: i32,
    /// The deepest completed iteration (whole moves).
    pub depth: u32,
    pub nodes: u64,
    pub root_moves: usize,
}

/// Root moves: end position, outcome, the steps reaching it.
pub type RootMoves = Vec<(Position, Outcome, Vec<Dir>)>;

pub struct Searcher {
    tt: Vec<Entry>,
    mg: MoveGen,
    kids: Vec<Vec<(Position, Outcome)>>,
    killers: [[u64; 2]; MAX_PLY],
    pub nodes: u64,
    stopped: bool,
    pub eval: Eval,
    pub max_depth: u32,
}

impl Searcher {
    /// A searcher with a table of `2^bits` entries.
    pub fn new(bits: u32, eval: Eval, max_depth: u32) -> Searcher {
        Searcher {
            tt: vec![Entry::default(); 1 << bits],
            mg: MoveGen::new(),
            kids: (0..MAX_PLY).map(|_| Vec::new()).collect(),
            killers: [[0; 2]; MAX_PLY],
            nodes: 0,
            stopped: false,
            eval,
            max_depth,
        }
    }

    fn evaluate(&self, f: &Field, pos: &Position) -> i32 {
        match &self.eval {
            Eval::Simple => eval::simple(f, pos),
            Eval::Full(w) => eval::full(f, pos, w),
        }
    }

    fn out_of_time(budget: &Budget<'_>) -> bool {
        budget.clock.elapsed_ms() >= budget.millis
    }

    #[allow(clippy::too_many_arguments)]
    fn negamax(
        &mut self,
        f: &Field,
        pos: &Position,
        depth: u32,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        budget: &Budget<'_>,
    ) -> i32 {
        self.nodes += 1;
        if self.nodes.is_multiple_of(64) && budget.exhausted(self.nodes) {
            self.stopped = true;
        }
        if self.stopped {
            return 0;
        }
        if depth == 0 || ply + 1 >= MAX_PLY {
            return self.evaluate(f, pos);
        }
        let mask = self.tt.len() - 1;
        let slot = (pos.hash as usize) & mask;
        let entry = self.tt[slot];
        let mut tt_best = 0;
        if entry.key == pos.hash {
            tt_best = entry.best;
            if entry.depth as u32 >= depth {
                let s = from_tt(entry.score, ply);
                if entry.flag == EXACT
                    || (entry.flag == LOWER && s >= beta)
                    || (entry.flag == UPPER && s <= alpha)
                {
                    return s;
                }
            }
        }
        let mut kids = std::mem::take(&mut self.kids[ply]);
        kids.clear();
        let mut win = false;
        let mut loss = false;
        let complete = self.mg.generate(
            f,
            pos,
            &mut |_| Self::out_of_time(budget),
            &mut |p, o, _| {
                match o {
                    Outcome::Win => {
                        win = true;
                        return false;
                    }
                    Outcome::Loss => loss = true,
                    Outcome::Pass => kids.push((*p, o)),
                }
                true
            },
        );
        if win {
            self.kids[ply] = kids;
            return MATE - ply as i32 - 1;
        }
        if !complete {
            self.stopped = true;
            self.kids[ply] = kids;
            return 0;
        }
        if kids.is_empty() {
            let _ = loss;
            self.kids[ply] = kids;
            return -(MATE - ply as i32 - 1);
        }
        let killers = self.killers[ply];
        let order = |p: &Position| -> i32 {
            if p.hash == tt_best {
                return i32::MAX;
            }
            if p.hash == killers[0] || p.hash == killers[1] {
                return i32::MAX - 1;
            }
            super::progress(f, pos.side, p)
        };
        kids.sort_by_cached_key(|(p, _)| std::cmp::Reverse(order(p)));
        let alpha0 = alpha;
        let mut best = -MATE - 1;
        let mut best_hash = 0;
        for (i, (child, _)) in kids.iter().enumerate() {
            let score = if i == 0 {
                -self.negamax(f, child, depth - 1, -beta, -alpha, ply + 1, budget)
            } else {
                // Late moves (after the first four in the order: the
                // table's move and the killers, then those that go furthest
                // forward) are first searched a whole move shallower, and
                // again at full depth only if they beat the best so far.
                let reduced = depth >= REDUCE_FROM_DEPTH && i >= REDUCE_AFTER;
                let mut s = -self.negamax(
                    f,
                    child,
                    depth - 1 - u32::from(reduced),
                    -alpha - 1,
                    -alpha,
                    ply + 1,
                    budget,
                );
                if reduced && s > alpha && !self.stopped {
                    s = -self.negamax(f, child, depth - 1, -alpha - 1, -alpha, ply + 1, budget);
                }
                if s > alpha && s < beta && !self.stopped {
                    -self.negamax(f, child, depth - 1, -beta, -alpha, ply + 1, budget)
                } else {
                    s
                }
            };
            if self.stopped {
                break;
            }
            if score > best {
                best = score;
                best_hash = child.hash;
            }
            if score > alpha {
                alpha = score;
            }
            if alpha >= beta {
                let k = &mut self.killers[ply];
                if k[0] != child.hash {
                    k[1] = k[0];
                    k[0] = child.hash;
                }
                break;
            }
        }
        self.kids[ply] = kids;
        if self.stopped {
            return 0;
        }
        let flag = if best <= alpha0 {
            UPPER
        } else if best >= beta {
            LOWER
        } else {
            EXACT
        };
        self.tt[slot] = Entry {
            key: pos.hash,
            best: best_hash,
            score: to_tt(best, ply),
            depth: depth as i16,
            flag,
        };
        best
    }

    /// The best whole move for the side to move, within `budget`. `order`
    /// permutes the root moves first (the caller's random tie-break).
    pub fn search(
        &mut self,
        f: &Field,
        pos: &Position,
        budget: &Budget<'_>,
        shuffle: &mut dyn FnMut(&mut RootMoves),
    ) -> Report {
        self.nodes = 0;
        self.stopped = false;
        self.killers = [[0; 2]; MAX_PLY];
        let mut root: RootMoves = Vec::new();
        self.mg.generate(
            f,
            pos,
            &mut |_| Self::out_of_time(budget),
            &mut |p, o, path| {
                root.push((*p, o, path.to_vec()));
                o != Outcome::Win
            },
        );
        let mut report = Report {
            root_moves: root.len(),
            ..Report::default()
        };
        if let Some(w) = root.iter().find(|m| m.1 == Outcome::Win) {
            report.path = w.2.clone();
            report.score = MATE;
            return report;
        }
        let (mut moves, losses): (Vec<_>, Vec<_>) =
            root.into_iter().partition(|m| m.1 == Outcome::Pass);
        if moves.is_empty() {
            report.path = losses.into_iter().next().map(|m| m.2).unwrap_or_default();
            report.score = -MATE;
            return report;
        }
        shuffle(&mut moves);
        if moves.len() == 1 {
            report.path = moves.swap_remove(0).2;
            return report;
        }
        let mut scores = vec![0i32; moves.len()];
        let mut best = 0usize;
        let mut best_score = -MATE - 1;
        for depth in 1..=self.max_depth {
            let mut alpha = -MATE - 1;
            let mut iter_best = None;
            for (i, m) in moves.iter().enumerate() {
                let s = if i == 0 {
                    -self.negamax(f, &m.0, depth - 1, -MATE - 1, -alpha, 1, budget)
                } else {
                    let s = -self.negamax(f, &m.0, depth - 1, -alpha - 1, -alpha, 1, budget);
                    if s > alpha && !self.stopped {
                        -self.negamax(f, &m.0, depth - 1, -MATE - 1, -alpha, 1, budget)
                    } else {
                        s
                    }
                };
                if self.stopped {
                    break;
                }
                scores[i] = if s > alpha { s } else { alpha.min(s) };
                if s > alpha {
                    alpha = s;
                    iter_best = Some((i, s));
                }
            }
            if let Some((i, s)) = iter_best {
                // Partial iterations count only when the old best was searched.
                if !self.stopped || i == 0 || s > best_score {
                    best = i;
                    best_score = s;
                }
            }
            if self.stopped {
                break;
            }
            report.depth = depth;
            best_score = alpha;
            // Best first for the next iteration; the others keep their order.
            let m = moves.remove(best);
            moves.insert(0, m);
            let s = scores.remove(best);
            scores.insert(0, s);
            best = 0;
            if alpha.abs() >= MATE - 100 || budget.exhausted(self.nodes) {
                break;
            }
        }
        report.nodes = self.nodes;
        report.score = best_score;
        report.path = moves.swap_remove(best).2;
        report
    }
}
