//! Levels 2 and 3: every combination of the side on turn, valued by
//! [`evaluate`]; level 3 also answers each with every reply of the
//! opponent (two plies, alpha cut-offs, best candidates first) for as long
//! as the budget lasts, then goes a ply deeper on the best.

use rand::Rng;

use super::combos::{Final, Tree, expand};
use super::eval::{GOAL, evaluate};
use crate::intelball::board::{RED, other};
use crate::intelball::code::Code;
use crate::intelball::position::Position;
use crate::intelball::rules::Ending;
use crate::{Budget, MatchRng, Side};

/// Counts positions and reads the clock every few of them. It stops a
/// tenth of the time (at most 50 ms) early: the answer must still be built
/// and sent, and a busy machine may pause the search at any point.
pub(super) struct Meter<'a> {
    budget: &'a Budget<'a>,
    nodes: u64,
    pub(super) out: bool,
}

impl Meter<'_> {
    pub(super) fn tick(&mut self, n: u64) -> bool {
        self.nodes += n;
        if !self.out && (self.budget.max_nodes.is_some() || self.nodes % 64 < n) {
            let margin = (self.budget.millis / 10).min(50);
            let late = self.budget.clock.elapsed_ms().saturating_add(margin) >= self.budget.millis;
            self.out = late || self.budget.exhausted(self.nodes);
        }
        self.out
    }
}

/// Where a combination leaves the match: goals so far for `me` minus the
/// opponent's, the time, and whether the match is over.
#[derive(Clone, Copy)]
pub(super) struct After {
    diff: i32,
    time: u32,
    pub(super) over: bool,
}

pub(super) fn after(prev: After, mover: Side, me: Side, fin: &Final, limit: u32) -> After {
    let goal = i32::from(fin.ending == Ending::Goal);
    let diff = prev.diff + if mover == me { goal } else { -goal };
    let time = prev.time + u32::from(mover == RED);
    After {
        diff,
        time,
        over: time >= limit,
    }
}

/// The value for `me` of a combination's end, `to_move` on turn next.
pub(super) fn value(a: After, fin: &Final, me: Side, to_move: Side) -> i32 {
    if a.over {
        return a.diff.signum() * 100 * GOAL;
    }
    a.diff * GOAL + evaluate(&fin.field, me, to_move)
}

/// Root combinations valued one ply deep, best first (ties in the rng's order).
fn ranked(
    pos: &Position,
    limit: u32,
    meter: &mut Meter<'_>,
    rng: &mut MatchRng,
) -> (Tree, Vec<(i32, usize)>, After) {
    let me = pos.turn;
    let tree = expand(&pos.field, me);
    meter.tick(tree.finals.len() as u64);
    let start = After {
        diff: pos.score[me] as i32 - pos.score[other(me)] as i32,
        time: pos.time,
        over: false,
    };
    let mut order: Vec<(i32, usize)> = tree
        .finals
        .iter()
        .enumerate()
        .map(|(i, fin)| {
            let a = after(start, me, me, fin, limit);
            (value(a, fin, me, other(me)) * 16 + rng.gen_range(0..16), i)
        })
        .collect();
    order.sort_by_key(|x| std::cmp::Reverse(x.0));
    (tree, order, start)
}

/// Level 2: the best combination one ply deep.
pub fn one_ply(pos: &Position, limit: u32, budget: &Budget<'_>, rng: &mut MatchRng) -> Vec<Code> {
    let mut meter = Meter {
        budget,
        nodes: 0,
        out: false,
    };
    let (tree, order, _) = ranked(pos, limit, &mut meter, rng);
    match order.first() {
        Some(&(_, i)) => tree.codes(&tree.finals[i]),
        None => vec![Code::End],
    }
}

/// Level 3: the combination whose worst reply is best, searching the
/// candidates in their one-ply order until the budget runs out; with time
/// left, the best of them three plies deep ([`super::deep`]). A goal in one
/// is played at once.
pub fn three_ply(pos: &Position, limit: u32, budget: &Budget<'_>, rng: &mut MatchRng) -> Vec<Code> {
    let me = pos.turn;
    let mut meter = Meter {
        budget,
        nodes: 0,
        out: false,
    };
    let (tree, order, start) = ranked(pos, limit, &mut meter, rng);
    let Some(&(_, first)) = order.first() else {
        return vec![Code::End];
    };
    if let Some(goal) = tree.finals.iter().find(|f| f.ending == Ending::Goal) {
        return tree.codes(goal);
    }
    let mut best = (i32::MIN, first);
    let mut searched = Vec::new();
    for &(_, i) in &order {
        if meter.out {
            break;
        }
        let fin = &tree.finals[i];
        let a = after(start, me, me, fin, limit);
        let worst = if a.over {
            Some(value(a, fin, me, other(me)))
        } else {
            worst_reply(fin, a, me, limit, best.0, &mut meter)
        };
        if let Some(v) = worst {
            searched.push((v, i));
            if v > best.0 {
                best = (v, i);
            }
        }
    }
    let deeper = if meter.out {
        None
    } else {
        super::deep::refine(&tree, &searched, start, me, limit, &mut meter)
    };
    if let Some(i) = deeper {
        return tree.codes(&tree.finals[i]);
    }
    tree.codes(&tree.finals[best.1])
}

/// The opponent's best reply to `fin` for `me`, or `None` if the budget ran
/// out first. Stops as soon as a reply is no better for `me` than `alpha`.
fn worst_reply(
    fin: &Final,
    a: After,
    me: Side,
    limit: u32,
    alpha: i32,
    meter: &mut Meter<'_>,
) -> Option<i32> {
    let opp = other(me);
    let replies = expand(&fin.field, opp);
    if meter.tick(replies.finals.len() as u64) {
        return None;
    }
    // Goals first: they cut the most.
    let mut order: Vec<&Final> = replies.finals.iter().collect();
    order.sort_by_key(|f| f.ending != Ending::Goal);
    let mut worst = i32::MAX;
    for reply in order {
        let b = after(a, opp, me, reply, limit);
        worst = worst.min(value(b, reply, me, me));
        if worst <= alpha {
            break;
        }
        if meter.tick(1) {
            return None;
        }
    }
    Some(worst)
}
