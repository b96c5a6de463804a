//! A move's consequences and the round's end: the allowance chain (rules
//! 4-6), the lap bonus (12), back-markers (14), the finish (10), zero moves
//! (8), lapped cars (13), braking (9), withdrawals, and the end of the race.

use super::car::{CarId, Run, Why};
use super::moves::Move;
use super::path::Drive;
use super::state::{BRAKING_ROUNDS, LAP_BONUS, LEADER_ALLOWANCE, State};
use crate::Seat;

/// Longest allowance the chain can carry (far above any real race).
const MAX_ALLOW: u32 = 99;

/// Applies an accepted drive of the car to move, then passes the turn on.
pub fn drive(state: &mut State, car: CarId, drive: &Drive, mv: Move) {
    retire(state, &drive.knocked, Why::BackMarker);
    let finish_rank = next_finish_rank(state);
    let allow = state.allow;
    let old_lap = state.lap_of(state.cars[car].d);
    let new_lap = state.lap_of(drive.d);
    let laps = i32::from(state.laps);
    let c = &mut state.cars[car];
    let used = drive.length.saturating_sub(u32::from(allow)) as u8;
    c.bonus = c.bonus.saturating_sub(used);
    c.d = drive.d;
    c.lane = drive.lane;
    if c.bonus == 0 || new_lap != i32::from(c.bonus_lap) {
        c.bonus = 0;
        c.bonus_lap = 0;
    }
    if drive.finished {
        c.run = Run::OnLine(finish_rank);
    } else if new_lap > old_lap && new_lap >= 1 && new_lap < laps {
        // The first car across the line after lap k wins that lap (rule 12).
        if new_lap == i32::from(state.awarded) + 1 {
            state.awarded = new_lap as u8;
            c.bonus = LAP_BONUS;
            c.bonus_lap = new_lap as u8;
        }
    }
    state.fwd |= drive.forward;
    chain(state, drive.length);
    state.last = Some((car, mv));
    advance(state);
}

/// The zero move (rule 8): the car stays put until the round ends.
pub fn zero(state: &mut State, car: CarId) {
    let c = &mut state.cars[car];
    c.run = Run::Zero;
    c.bonus = 0;
    c.bonus_lap = 0;
    chain(state, 0);
    state.last = Some((car, Move::Zero));
    advance(state);
}

/// The next car's allowance: the leader's length + 2, else the previous car's + 1.
fn chain(state: &mut State, length: u32) {
    let extra = if state.moved == 0 { 2 } else { 1 };
    state.allow = (length + extra).min(MAX_ALLOW) as u8;
    state.moved = state.moved.saturating_add(1);
}

fn next_finish_rank(state: &State) -> u8 {
    let done = state
        .cars
        .iter()
        .filter(|c| matches!(c.run, Run::OnLine(_) | Run::Finished(_)))
        .count();
    done as u8 + 1
}

/// Takes `cars` out of the race for `why`. Cars leaving together are numbered
/// back to front, so that of two level ones the car ahead ranks higher (rule 15).
fn retire(state: &mut State, cars: &[CarId], why: Why) {
    let order = state.race_order_all();
    let mut leaving: Vec<CarId> = cars.to_vec();
    leaving.sort_by_key(|c| std::cmp::Reverse(order.iter().position(|o| o == c)));
    for car in leaving {
        let seq = state
            .cars
            .iter()
            .filter(|c| matches!(c.run, Run::Out(..)))
            .count() as u8
            + 1;
        let c = &mut state.cars[car];
        c.run = Run::Out(seq, why);
        c.bonus = 0;
        c.bonus_lap = 0;
    }
}

/// Passes the turn to the next racing car of the round, or ends the round.
fn advance(state: &mut State) {
    state.turn += 1;
    skip_to_racing(state);
}

/// Moves the turn on from the current index to a car still racing, or ends the round.
fn skip_to_racing(state: &mut State) {
    while state.turn < state.order.len() && !state.cars[state.order[state.turn]].racing() {
        state.turn += 1;
    }
    if state.turn >= state.order.len() {
        end_round(state);
    }
}

/// After the last car of the round: zero-move cars and finishers leave,
/// lapped cars leave, braking is judged, and the next round's order is fixed.
fn end_round(state: &mut State) {
    let zeros: Vec<CarId> = cars_where(state, |r| r == Run::Zero);
    retire(state, &zeros, Why::Zero);
    for c in &mut state.cars {
        if let Run::OnLine(rank) = c.run {
            c.run = Run::Finished(rank);
        }
    }
    let lapped = lapped(state);
    retire(state, &lapped, Why::Lapped);
    if state.fwd {
        state.still = 0;
    } else {
        state.still += 1;
    }
    if state.still >= BRAKING_ROUNDS {
        state.still = 0;
        if let Some(&leader) = state.race_order().first() {
            retire(state, &[leader], Why::Braking);
        }
    }
    state.round += 1;
    state.fwd = false;
    state.order = state.race_order();
    state.turn = 0;
    state.allow = LEADER_ALLOWANCE;
    state.moved = 0;
    stop_if_decided(state);
}

/// Racing cars a whole lap behind the car farthest ahead, finishers included (rule 13).
fn lapped(state: &State) -> Vec<CarId> {
    let finish = state.finish();
    let ahead = state
        .cars
        .iter()
        .filter_map(|c| match c.run {
            Run::Racing => Some(c.d),
            Run::Finished(_) => Some(finish),
            _ => None,
        })
        .max();
    let Some(ahead) = ahead else {
        return Vec::new();
    };
    let lap = state.track.sectors();
    cars_where(state, |r| r == Run::Racing)
        .into_iter()
        .filter(|&c| ahead - state.cars[c].d >= lap)
        .collect()
}

fn cars_where(state: &State, pick: impl Fn(Run) -> bool) -> Vec<CarId> {
    (0..state.cars.len())
        .filter(|&c| pick(state.cars[c].run))
        .collect()
}

/// `seat` leaves: its cars still in the race retire (finished ones keep
/// their places), the turn passes on if it was theirs, and the race stops if
/// that leaves fewer than two sides racing.
pub fn withdraw(state: &mut State, seat: Seat) {
    if state.over() || seat >= state.seats() {
        return;
    }
    let mine: Vec<CarId> = state
        .cars_of(seat)
        .filter(|&c| state.cars[c].on_track())
        .collect();
    if mine.is_empty() {
        return;
    }
    let on_turn = state.to_move().is_some_and(|c| mine.contains(&c));
    retire(state, &mine, Why::Withdrawn);
    if on_turn {
        // The chain goes on from the last car that moved.
        skip_to_racing(state);
    }
    stop_if_decided(state);
}

/// Stops the race when it is decided: fewer than two sides still racing
/// (the one left would finish ahead of every car that left). Robots race on
/// to the end when no phone's car does, as the original runs every race to
/// its end: the places of the cars already out depend on it. Cars on the
/// line finish, zero-move cars retire, racing cars are classified in race order.
fn stop_if_decided(state: &mut State) {
    let racing: Vec<CarId> = cars_where(state, |r| r == Run::Racing);
    let mut sides: Vec<usize> = racing.iter().map(|&c| state.side(state.owner(c))).collect();
    sides.sort_unstable();
    sides.dedup();
    if sides.len() >= 2 {
        return;
    }
    let zeros = cars_where(state, |r| r == Run::Zero);
    retire(state, &zeros, Why::Zero);
    let mut rank = next_finish_rank(state);
    for c in &mut state.cars {
        if let Run::OnLine(r) = c.run {
            c.run = Run::Finished(r);
        }
    }
    for car in state.race_order() {
        let c = &mut state.cars[car];
        c.run = Run::Classified(rank);
        c.bonus = 0;
        c.bonus_lap = 0;
        rank += 1;
    }
    state.order.clear();
    state.turn = 0;
    state.allow = LEADER_ALLOWANCE;
    state.moved = 0;
    state.still = 0;
    state.fwd = false;
}

impl State {
    /// Every car on the track in race order (racing or not), for numbering retirements.
    fn race_order_all(&self) -> Vec<CarId> {
        let mut cars: Vec<CarId> = (0..self.cars.len()).collect();
        cars.sort_by_key(|&c| (-self.cars[c].d, self.logical_lane(c)));
        cars
    }
}
