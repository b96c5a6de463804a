//! Level 3's third ply, for the time two plies leave: the best candidates
//! of the two-ply search are answered with the opponent's most dangerous
//! replies, and each reply with every combination of ours.

use super::combos::{Final, Tree, expand};
use super::search::{After, Meter, after, value};
use crate::Side;
use crate::intelball::board::other;

/// Candidates and replies looked at three plies deep.
const CANDIDATES: usize = 64;
const REPLIES: usize = 48;

/// The index of the best of `searched` (two-ply values and root indexes)
/// three plies deep, or `None` if the budget ran out before the first.
pub(super) fn refine(
    tree: &Tree,
    searched: &[(i32, usize)],
    start: After,
    me: Side,
    limit: u32,
    meter: &mut Meter<'_>,
) -> Option<usize> {
    let mut ranked = searched.to_vec();
    ranked.sort_by_key(|x| std::cmp::Reverse(x.0));
    let mut best: Option<(i32, usize)> = None;
    for &(_, i) in ranked.iter().take(CANDIDATES) {
        let fin = &tree.finals[i];
        let a = after(start, me, me, fin, limit);
        let v = if a.over {
            Some(value(a, fin, me, other(me)))
        } else {
            worst_line(fin, a, me, limit, best.map_or(i32::MIN, |b| b.0), meter)
        };
        match v {
            None => break,
            Some(v) if best.is_none_or(|b| v > b.0) => best = Some((v, i)),
            Some(_) => {}
        }
    }
    best.map(|b| b.1)
}

/// The value of `fin` for `me` against the opponent's most dangerous
/// replies, each answered by our best combination.
fn worst_line(
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
    let mut danger: Vec<(i32, &Final, After)> = replies
        .finals
        .iter()
        .map(|r| {
            let b = after(a, opp, me, r, limit);
            (value(b, r, me, me), r, b)
        })
        .collect();
    danger.sort_by_key(|d| d.0);
    let mut worst = i32::MAX;
    for &(v, reply, b) in danger.iter().take(REPLIES) {
        let answer = if b.over {
            Some(v)
        } else {
            best_answer(reply, b, me, limit, worst, meter)
        };
        worst = worst.min(answer?);
        if worst <= alpha {
            break;
        }
    }
    Some(worst)
}

/// Our best combination after `reply`, or `None` if the budget ran out.
/// Stops once it reaches `beta` (the reply is already no worse elsewhere).
fn best_answer(
    reply: &Final,
    b: After,
    me: Side,
    limit: u32,
    beta: i32,
    meter: &mut Meter<'_>,
) -> Option<i32> {
    let ours = expand(&reply.field, me);
    if meter.tick(ours.finals.len() as u64) {
        return None;
    }
    let mut best = i32::MIN;
    for fin in &ours.finals {
        let c = after(b, me, me, fin, limit);
        best = best.max(value(c, fin, me, other(me)));
        if best >= beta {
            break;
        }
        if meter.tick(1) {
            return None;
        }
    }
    Some(best)
}
