//! Static evaluations, from the side to move's point of view.
//!
//! [`reach`] is a breadth-first walk over free segments from the ball
//! (ignoring who moves): it finds the steps to each goal, or that a goal is
//! cut off; [`stops`] counts turns rather than steps (a bounce is free).
//! [`full`] weighs those and a few local terms ([`features`]) with
//! [`Weights`] fitted to self-play and compiled in; [`simple`] only reads
//! the ball's row. [`scores_now`] is exact: whether the side to move can
//! score by bounces alone, which no distance shows.

use crate::paper_soccer::field::{Field, Kind, MAX_POINTS};
use crate::paper_soccer::position::Position;

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
        for q in free_neighbours(f, pos, p) {
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

/// The points one free segment away from `p`.
fn free_neighbours<'a>(f: &'a Field, pos: &Position, p: u16) -> impl Iterator<Item = u16> + 'a {
    let mut free = pos.free_at(f, p);
    std::iter::from_fn(move || {
        if free == 0 {
            return None;
        }
        let d = free.trailing_zeros() as usize;
        free &= free - 1;
        Some(f.nbr[p as usize][d])
    })
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
        for q in free_neighbours(f, pos, p) {
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

/// How many terms [`features`] gives.
pub const FEATURES: usize = 9;

/// Names of [`features`]' terms, in order (the weights file's keys).
pub const FEATURE_NAMES: [&str; FEATURES] = [
    "steps",
    "cut_off",
    "attack_near",
    "defence_near",
    "stops",
    "one_stop",
    "mobility",
    "bounces",
    "off_centre",
];

/// Turn-stop distance used for an unreachable goal (see [`stops`]).
pub const FAR_STOPS: i32 = 8;

/// Weights of [`features`]' terms, in evaluation units (a step of distance
/// was worth 12 by hand).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Weights(pub [i32; FEATURES]);

impl Weights {
    /// The hand-set evaluation of issue 13: steps, cut-off goals and a ball
    /// right in front of the goal attacked.
    pub const HAND: Weights = Weights([12, 200, 60, 0, 0, 0, 0, 0, 0]);

    /// The weights `measure/ps_tune` fitted to self-play games
    /// (`robot/weights.txt`, compiled in): the hand set if that text does not
    /// parse, which a unit test rules out.
    pub fn tuned() -> Weights {
        Weights::parse(include_str!("weights.txt")).unwrap_or(Weights::HAND)
    }

    /// Reads `name value` lines (`#` starts a comment); every feature exactly once.
    pub fn parse(text: &str) -> Option<Weights> {
        let mut w = [None; FEATURES];
        for line in text.lines() {
            let line = line.split('#').next().unwrap_or("").trim();
            if line.is_empty() {
                continue;
            }
            let mut words = line.split_whitespace();
            let (name, value) = (words.next()?, words.next()?.parse::<i32>().ok()?);
            let i = FEATURE_NAMES.iter().position(|&n| n == name)?;
            if words.next().is_some() || w[i].replace(value).is_some() {
                return None;
            }
        }
        let mut out = [0; FEATURES];
        for (o, v) in out.iter_mut().zip(w) {
            *o = v?;
        }
        Some(Weights(out))
    }
}

impl std::fmt::Display for Weights {
    fn fmt(&self, out: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for (name, w) in FEATURE_NAMES.iter().zip(self.0) {
            writeln!(out, "{name} {w}")?;
        }
        Ok(())
    }
}

/// Stops on the way from the ball to (top goal, bottom goal): each arrival
/// on an untouched point ends a turn there and costs one, a bounce costs
/// nothing ([`FAR_STOPS`] if cut off or further). Who moves is ignored: it
/// counts the mover's own turns, as if the other side passed.
pub fn stops(f: &Field, pos: &Position) -> (i32, i32) {
    const UNSEEN: u8 = u8::MAX;
    let mut dist = [UNSEEN; MAX_POINTS];
    // Each point enters each list at most once a level (only when its
    // distance drops to that level), so neither overflows.
    let mut now = [0u16; MAX_POINTS];
    let mut next = [0u16; MAX_POINTS];
    let (mut now_len, mut next_len) = (1, 0);
    now[0] = pos.ball;
    dist[pos.ball as usize] = 0;
    let (mut top, mut bottom) = (FAR_STOPS, FAR_STOPS);
    let mut level = 0u8;
    loop {
        while now_len > 0 {
            now_len -= 1;
            let p = now[now_len];
            if dist[p as usize] != level {
                continue;
            }
            for q in free_neighbours(f, pos, p) {
                match f.kind[q as usize] {
                    Kind::TopGoal => top = top.min(level as i32),
                    Kind::BottomGoal => bottom = bottom.min(level as i32),
                    _ if pos.touched(f, q) => {
                        if dist[q as usize] > level {
                            dist[q as usize] = level;
                            now[now_len] = q;
                            now_len += 1;
                        }
                    }
                    _ => {
                        if dist[q as usize] > level + 1 {
                            dist[q as usize] = level + 1;
                            next[next_len] = q;
                            next_len += 1;
                        }
                    }
                }
            }
        }
        level += 1;
        if next_len == 0 || (top < FAR_STOPS && bottom < FAR_STOPS) || level as i32 >= FAR_STOPS {
            return (top, bottom);
        }
        std::mem::swap(&mut now, &mut next);
        (now_len, next_len) = (next_len, 0);
    }
}

/// The terms of level 3's evaluation, from the side to move's point of view
/// (positive is good for it); see [`FEATURE_NAMES`].
pub fn features(f: &Field, pos: &Position) -> [i32; FEATURES] {
    let (top, bottom) = reach(f, pos);
    let (att, def) = if pos.side == 0 {
        (top, bottom)
    } else {
        (bottom, top)
    };
    let cut_off = if att >= FAR && def < FAR {
        -1
    } else if def >= FAR && att < FAR {
        1
    } else {
        0
    };
    let (top_stops, bottom_stops) = stops(f, pos);
    let (att_stops, def_stops) = if pos.side == 0 {
        (top_stops, bottom_stops)
    } else {
        (bottom_stops, top_stops)
    };
    let free = pos.free(f);
    let bounces = if free == 0 {
        0
    } else {
        free_neighbours(f, pos, pos.ball)
            .filter(|&q| pos.touched(f, q))
            .count() as i32
    };
    let (x, _) = f.xy(pos.ball);
    [
        def - att,
        cut_off,
        i32::from(att <= 2),
        i32::from(def <= 2),
        def_stops - att_stops,
        i32::from(att_stops == 1),
        free.count_ones() as i32,
        bounces,
        (2 * x - f.width as i32).abs(),
    ]
}

/// The largest evaluation short of [`SCORES_NOW`].
const EVAL_CAP: i32 = SCORES_NOW - 1;

/// The evaluation of level 3: a goal this turn, else `w` over [`features`].
pub fn full(f: &Field, pos: &Position, w: &Weights) -> i32 {
    if scores_now(f, pos) {
        return SCORES_NOW;
    }
    let x = features(f, pos);
    let score: i32 = x.iter().zip(w.0).map(|(x, w)| x * w).sum();
    score.clamp(-EVAL_CAP, EVAL_CAP)
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
