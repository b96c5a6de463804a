//! Robot drivers. Every level picks among the distinct legal moves of
//! [`super::reach::outcomes`] and judges positions with [`eval::judge`]:
//!
//! - level 1 judges the position right after its move;
//! - level 2 drives the race on to the end of the next round for everyone
//!   (farthest-forward drivers) before judging, so it sees a car it boxes in
//!   make the zero move, what the allowance it leaves the next cars does,
//!   and whether its own car is trapped at its next turn;
//! - level 3 runs [`search`]: random playouts to the end of the next round,
//!   everyone driven by a noisy level 1, for the best level-2 moves.
//!
//! [`naive`] is the yardstick: always the farthest forward.

pub mod eval;
pub mod search;

use rand::Rng;

use super::car::CarId;
use super::moves::Move;
use super::reach::{Outcome, null, outcomes};
use super::round;
use super::state::State;
use crate::{Budget, Level, MatchRng, Seat};

/// Level-1 candidates that level 2 looks further into.
const LOOK_FURTHER: usize = 12;

/// The state after the car to move drives `outcome`.
pub fn after(state: &State, car: CarId, outcome: &Outcome) -> State {
    let mut next = state.clone();
    round::drive(&mut next, car, &outcome.drive, outcome.to_move());
    next
}

/// Plays the car to move's best move by `pick` (or its zero move).
pub fn step(state: &mut State, pick: impl FnOnce(&State, CarId, &[Outcome]) -> usize) {
    let Some(car) = state.to_move() else {
        return;
    };
    let outs = outcomes(state, car);
    if outs.is_empty() {
        round::zero(state, car);
        return;
    }
    let chosen = &outs[pick(state, car, &outs).min(outs.len() - 1)];
    round::drive(state, car, &chosen.drive, chosen.to_move());
}

/// The farthest-forward move: most distance, then the inner lane, then the shortest.
pub fn naive(state: &State, outs: &[Outcome]) -> usize {
    let key = |o: &Outcome| {
        (
            -o.drive.d,
            state.track().logical(o.drive.d, o.drive.lane),
            o.drive.length,
        )
    };
    (0..outs.len()).min_by_key(|&i| key(&outs[i])).unwrap_or(0)
}

/// Level 1's score of each move: the judgement right after it.
fn first_look(state: &State, car: CarId, outs: &[Outcome]) -> Vec<f64> {
    let side = state.side(state.owner(car));
    outs.iter()
        .map(|o| eval::judge(&after(state, car, o), side))
        .collect()
}

/// Drives the race on from `state` with `pick` to the end of the round
/// `rounds` rounds on (1: this one): at a round's end every car has moved
/// equally often, so none is judged with a move more than the others.
pub fn drive_on(
    state: &mut State,
    rounds: u32,
    mut pick: impl FnMut(&State, CarId, &[Outcome]) -> usize,
) -> usize {
    let end = state.round() + rounds;
    let mut moves = 0;
    while !state.over() && state.round() < end {
        step(state, &mut pick);
        moves += 1;
    }
    moves
}

/// Level 2's score of a move: the judgement at the end of the next round,
/// every car driven the farthest forward meanwhile. One round on would
/// judge the cars that move late in it with their big allowances spent and
/// the early ones not; two rounds also see a car boxed in at its next turn;
/// three (measured) trust the farthest-forward model too far.
fn round_look(state: &State, car: CarId, outcome: &Outcome) -> f64 {
    let side = state.side(state.owner(car));
    let mut next = after(state, car, outcome);
    // To the end of the next round: the rest of this one, and one more.
    let rounds = if next.round() == state.round() { 2 } else { 1 };
    drive_on(&mut next, rounds, |s, _, o| naive(s, o));
    eval::judge(&next, side)
}

/// Index of the highest score; ties go to the earlier move.
fn best(scores: &[f64]) -> usize {
    (0..scores.len())
        .max_by(|&a, &b| scores[a].total_cmp(&scores[b]).then(b.cmp(&a)))
        .unwrap_or(0)
}

/// A little noise to break ties between equal moves at random.
fn jitter(scores: &mut [f64], rng: &mut MatchRng) {
    for s in scores {
        *s += rng.gen_range(0.0..1e-6);
    }
}

/// Level 2's ranking: the best level-1 moves looked at to the round's end,
/// best first, with their scores.
fn ranked(state: &State, car: CarId, outs: &[Outcome], rng: &mut MatchRng) -> Vec<(usize, f64)> {
    let mut first = first_look(state, car, outs);
    jitter(&mut first, rng);
    let mut order: Vec<usize> = (0..outs.len()).collect();
    order.sort_by(|&a, &b| first[b].total_cmp(&first[a]));
    order.truncate(LOOK_FURTHER);
    let mut scored: Vec<(usize, f64)> = order
        .into_iter()
        .map(|i| (i, round_look(state, car, &outs[i]) + first[i] * 1e-3))
        .collect();
    scored.sort_by(|a, b| b.1.total_cmp(&a.1));
    scored
}

/// Every move of the car to move with its level-1 and level-2 scores, best
/// level-2 first (moves level 2 does not look further into score `NaN`):
/// for tuning the drivers.
pub fn explain(state: &State, rng: &mut MatchRng) -> Vec<(Move, f64, f64)> {
    let Some(car) = state.to_move() else {
        return Vec::new();
    };
    let outs = outcomes(state, car);
    let first = first_look(state, car, &outs);
    let second = ranked(state, car, &outs, rng);
    let mut rows: Vec<(Move, f64, f64)> = outs
        .iter()
        .enumerate()
        .map(|(i, o)| {
            let deeper = second.iter().find(|r| r.0 == i).map_or(f64::NAN, |r| r.1);
            (o.to_move(), first[i], deeper)
        })
        .collect();
    rows.sort_by(|a, b| {
        b.2.is_nan()
            .cmp(&a.2.is_nan())
            .reverse()
            .then(b.2.total_cmp(&a.2))
            .then(b.1.total_cmp(&a.1))
    });
    rows
}

/// The robot's move for `seat`, which must be on turn (otherwise the
/// deadline's move, which `play` will refuse).
pub fn choose(
    state: &State,
    seat: Seat,
    level: Level,
    budget: &Budget<'_>,
    rng: &mut MatchRng,
) -> Move {
    let Some(car) = state.to_move().filter(|&c| state.owner(c) == seat) else {
        return Move::Zero;
    };
    let outs = outcomes(state, car);
    if outs.is_empty() {
        return Move::Zero;
    }
    if outs.len() == 1 {
        return outs[0].to_move();
    }
    let index = match level {
        0 | 1 => {
            let mut scores = first_look(state, car, &outs);
            jitter(&mut scores, rng);
            best(&scores)
        }
        2 => ranked(state, car, &outs, rng)[0].0,
        _ => {
            let ranked = ranked(state, car, &outs, rng);
            search::best(state, car, &outs, &ranked, budget, rng)
        }
    };
    outs.get(index)
        .map_or_else(|| null(state, car), Outcome::to_move)
}
