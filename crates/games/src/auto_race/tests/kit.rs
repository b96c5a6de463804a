//! Test helpers: races built from a short description, and moves played
//! through the `Game` trait.

use std::sync::Arc;

use rand::SeedableRng;

use super::car::from_letter;
use super::notation::parse_car;
use super::state::{LEADER_ALLOWANCE, State};
use super::track::Track;
use super::*;
use crate::{Effect, MatchRng, Reason, Seat};

pub fn game() -> AutoRace {
    AutoRace::default()
}

pub fn rng(seed: u64) -> MatchRng {
    MatchRng::seed_from_u64(seed)
}

pub fn mv(text: &str) -> Move {
    text.parse().unwrap_or_else(|e| panic!("{text}: {e}"))
}

pub fn ring() -> Track {
    Track::ring(30)
}

pub fn zigzag() -> Track {
    builtin::tracks()[1].clone()
}

/// The shipped track whose width changes: 4 lanes to sector 11, 3 in 12-16
/// and 2 in 17-19 (turning left), 3 in 20-24 and 4 in 25-39 (turning right).
pub fn gorge() -> Track {
    builtin::tracks()[2].clone()
}

/// A race at the start of a round, leader to move (with cars on the line or
/// after a zero move, pick the car to move with [`turn_of`]): `cars` lists every car as
/// `letter=d.lane[status]` (the state string's car syntax, physical lanes),
/// e.g. `"A=10.1 a=8.2 B=9.4 b=5.3"`. Two cars a seat, or one with `team`.
pub fn race_on(track: &Track, seats: usize, laps: u8, team: bool, cars: &str) -> State {
    let per = if team { 1 } else { 2 };
    let mut list = vec![None; seats * per];
    for token in cars.split_whitespace() {
        let (name, car) = token.split_once('=').expect("letter=d.lane");
        let letter = name.chars().next().expect("a letter");
        let id = from_letter(letter, seats * per, per).expect("a car of the race");
        list[id] = Some(parse_car(car).unwrap_or_else(|e| panic!("{token}: {e}")));
    }
    let cars = list
        .into_iter()
        .enumerate()
        .map(|(i, c)| c.unwrap_or_else(|| panic!("car {i} not given")))
        .collect();
    let teams = team.then(|| (0..seats).map(|s| (s / 2) as u8).collect());
    let mut state = State {
        track: Arc::new(track.clone()),
        laps,
        per,
        teams,
        robots: vec![None; seats],
        grid: (0..seats).collect(),
        race: 1,
        prior: vec![0; seats],
        round: 1,
        order: Vec::new(),
        turn: 0,
        allow: LEADER_ALLOWANCE,
        moved: 0,
        still: 0,
        fwd: false,
        awarded: 0,
        cars,
        last: None,
    };
    // Cars on the line (or after a zero move) are in the round's order too.
    let mut order: Vec<CarId> = (0..state.cars.len())
        .filter(|&c| state.cars[c].in_race())
        .collect();
    order.sort_by_key(|&c| (-state.cars[c].d, state.logical_lane(c)));
    state.order = order;
    if state.cars.iter().all(|c| c.racing() || !c.in_race()) {
        state
            .check()
            .unwrap_or_else(|e| panic!("{cars:?}: {e}", cars = state.cars));
    }
    state
}

/// [`race_on`] the 30-sector ring, two cars a seat.
pub fn race(seats: usize, laps: u8, cars: &str) -> State {
    race_on(&ring(), seats, laps, false, cars)
}

/// The same round with car `letter` to move and allowance `allow`; the cars
/// before it in the order count as moved.
pub fn turn_of(mut state: State, letter: char, allow: u8) -> State {
    let n = state.cars.len();
    let car = from_letter(letter, n, state.per).expect("a car");
    state.turn = state
        .order
        .iter()
        .position(|&c| c == car)
        .expect("in the order");
    state.moved = state.turn as u8;
    state.allow = allow;
    state.check().unwrap_or_else(|e| panic!("{e}"));
    state
}

/// The car with `letter`.
pub fn car_of(state: &State, letter: char) -> CarId {
    from_letter(letter, state.cars.len(), state.per).expect("a car")
}

/// Plays a move the rules must accept, by whoever is on turn.
pub fn ok(state: State, text: &str) -> State {
    ok_effect(state, text).0
}

/// [`ok`], with the effect.
pub fn ok_effect(state: State, text: &str) -> (State, Effect) {
    let seat = seat_on_turn(&state);
    let played = game()
        .play(state.clone(), seat, &mv(text), &mut rng(0))
        .unwrap_or_else(|r| panic!("{text} refused: {}\n{state}", r.reason.text(Lang::En)));
    (played.state, played.effect)
}

/// Plays a move the rules must refuse; returns the English reason and checks
/// that the state is unchanged and nothing was drawn.
pub fn refused(state: &State, text: &str) -> String {
    let seat = seat_on_turn(state);
    refused_for(state, seat, text)
}

/// [`refused`] for a given seat.
pub fn refused_for(state: &State, seat: Seat, text: &str) -> String {
    let mut r = rng(7);
    let before = r.clone();
    let refusal = game()
        .play(state.clone(), seat, &mv(text), &mut r)
        .expect_err(text);
    assert_eq!(&refusal.state, state, "a refusal changes nothing");
    assert_eq!(r, before, "a refusal draws nothing");
    refusal.reason.text(Lang::En)
}

pub fn seat_on_turn(state: &State) -> Seat {
    match game().status(state) {
        Status::Awaiting(seats) => seats[0],
        Status::Finished(_) => 0,
    }
}

/// Letters of the round's order, and the car to move.
pub fn order_text(state: &State) -> (String, Option<char>) {
    let (order, _) = state.order();
    let letters = order.iter().map(|&c| car::letter(c, state.per)).collect();
    (letters, state.to_move().map(|c| car::letter(c, state.per)))
}
