//! What the robots see in a position: whether a side can score in one
//! combination, and a static value.

use crate::Side;
use crate::intelball::board::{BLUE, Cell, Field, Spot, other};
use crate::intelball::rules::{is_offside, leap};

/// One goal, in evaluation points.
pub const GOAL: i32 = 10_000;

/// Whether the holder on `at` (of `side`) has a shot into the goal that the
/// goalkeeper does not catch.
fn open_shot(field: &Field, side: Side, at: Cell) -> bool {
    let goal_col: i16 = if side == BLUE { 13 } else { 0 };
    let dist = (goal_col - i16::from(at.col())).abs();
    for dr in [-dist, 0, dist] {
        let row = i16::from(at.row()) + dr;
        if !(1..=7).contains(&row) {
            continue;
        }
        let to = Spot::new(row as u8, goal_col as u8);
        let Some(path) = at.spot().between(to) else {
            continue;
        };
        if path.iter().any(|c| field.piece(*c).is_some()) {
            continue;
        }
        if leap(field, side, at, &path).is_none() {
            return true;
        }
    }
    false
}

/// Whether `side`, on turn, can score in one combination: gain the ball if
/// need be, pass along any chain, shoot.
pub fn can_score(field: &Field, side: Side) -> bool {
    let ball = field.ball;
    let mut starts: Vec<Field> = Vec::new();
    match field.holder() {
        Some(p) if p.side == side => starts.push(*field),
        holder => {
            for (a, piece) in field.team(side) {
                if piece.blocked || !a.near(ball) {
                    continue;
                }
                let mut pulled = *field;
                pulled.ball = a;
                starts.push(pulled);
                if holder.is_none() {
                    let mut stepped = *field;
                    stepped.shift(a, ball);
                    starts.push(stepped);
                }
            }
        }
    }
    starts.iter().any(|f| chain_scores(f, side))
}

/// Breadth-first over passes from the holder of `field`.
fn chain_scores(field: &Field, side: Side) -> bool {
    let mut seen: Vec<Cell> = vec![field.ball];
    let mut i = 0;
    while i < seen.len() {
        let at = seen[i];
        if open_shot(field, side, at) {
            return true;
        }
        for (b, p) in field.team(side) {
            if p.blocked || seen.contains(&b) || is_offside(side, at, b) {
                continue;
            }
            let clear = at
                .spot()
                .between(b.spot())
                .is_some_and(|path| path.iter().all(|c| field.piece(*c).is_none()));
            if clear {
                seen.push(b);
            }
        }
        i += 1;
    }
    false
}

/// How far the ball is towards `side`'s attack, 1..=12.
fn progress(side: Side, cell: Cell) -> i32 {
    let col = i32::from(cell.col());
    if side == BLUE { col } else { 13 - col }
}

fn distance(a: Cell, b: Cell) -> i32 {
    i32::from(a.row().abs_diff(b.row()).max(a.col().abs_diff(b.col())))
}

/// Positional value for `side` (no goals, no threats).
fn shape(field: &Field, side: Side) -> i32 {
    let ball = field.ball;
    let mut v = 0;
    let own_goal_col: i32 = if side == BLUE { 0 } else { 13 };
    let mut dists: Vec<i32> = Vec::with_capacity(6);
    for (c, p) in field.team(side) {
        if p.keeper {
            let off = (i32::from(c.col()) - own_goal_col).abs();
            v -= 40 * (off - 1).max(0);
            v -= 15 * (i32::from(c.row()) - 4).abs();
            continue;
        }
        dists.push(distance(c, ball));
        // Field players between the ball and their own goal defend.
        if progress(side, c) < progress(side, ball) {
            v += 12;
        }
    }
    dists.sort_unstable();
    v -= dists.iter().take(2).sum::<i32>() * 8;
    v
}

/// `field` as `side` will find it when its turn begins.
fn unblocked(field: &Field, side: Side) -> Field {
    let mut f = *field;
    f.unblock(side);
    f
}

/// The value of `field` for `me` when `to_move` is on turn, goals apart.
pub fn evaluate(field: &Field, me: Side, to_move: Side) -> i32 {
    let sign = |side: Side| if side == me { 1 } else { -1 };
    let mut v = shape(field, me) - shape(field, other(me));
    if can_score(field, to_move) {
        v += sign(to_move) * 7_000;
    } else if can_score(&unblocked(field, other(to_move)), other(to_move)) {
        v += sign(other(to_move)) * 1_500;
    }
    v += sign(BLUE) * 25 * (i32::from(field.ball.col()) * 2 - 13);
    match field.holder() {
        Some(p) => v += sign(p.side) * 250,
        None => {
            let near = |s: Side| {
                field
                    .team(s)
                    .filter(|(c, p)| !p.blocked && c.near(field.ball))
                    .count()
            };
            if near(to_move) > 0 {
                v += sign(to_move) * 150;
            }
        }
    }
    v
}
