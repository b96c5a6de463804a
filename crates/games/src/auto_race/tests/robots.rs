//! The robots: legal, deterministic, within their budget, sensible; and a
//! whole 8-player race of robots, every text within 2 SMS parts.

use std::cell::Cell;

use super::kit::*;
use super::rendering::parts;
use super::robot::eval;
use super::*;
use crate::{Budget, Stopwatch};

/// A clock that moves on 1 ms each time it is read.
struct Ticking(Cell<u64>);

impl Stopwatch for Ticking {
    fn elapsed_ms(&self) -> u64 {
        let t = self.0.get();
        self.0.set(t + 1);
        t
    }
}

fn robot(state: &State, level: u8, nodes: u64, seed: u64) -> Move {
    let seat = seat_on_turn(state);
    game().robot_move(state, seat, level, &Budget::nodes(nodes), &mut rng(seed))
}

/// States met along a race of level-1 robots.
fn states_along(players: usize, seed: u64) -> Vec<State> {
    let options: Options = players.to_string().parse().unwrap();
    let mut state = game().start(&options, &mut rng(seed));
    let mut seen = Vec::new();
    while !state.over() {
        seen.push(state.clone());
        let mv = robot(&state, 1, 1, seed);
        state = ok(state, &mv.to_string());
    }
    seen
}

#[test]
fn robots_box_in_a_rival() {
    // A moves in front of B, whose only way round, O, is taken by a: B must
    // make the zero move. The naive driver would race off with FFFF.
    let state = race(2, 2, "A=11.2 a=10.2 B=10.1 b=3.4");
    for level in [2, 3] {
        assert_eq!(robot(&state, level, 2_000, 1), mv("I"), "level {level}");
    }
}

#[test]
fn values_order_finishers_racers_and_retired() {
    let state = race(2, 1, "A=30.1f1 a=11.1 B=11.4 b=20.3x1z");
    let [a_big, a, b_big, b] = ['A', 'a', 'B', 'b'].map(|l| car_of(&state, l));
    let v = |c| eval::value(&state, c);
    assert!(v(a_big) > v(a), "a finisher is above every racing car");
    assert!(v(a) > v(b_big), "level cars: the inner lane breaks the tie");
    assert!(v(a) - v(b_big) < 0.1, "and it is only a tie-break");
    assert!(v(b_big) > v(b), "a retired car is below every racing car");
    assert!(eval::judge(&state, 0) > eval::judge(&state, 1));
}

#[test]
fn robot_moves_are_legal_and_repeatable() {
    for (players, seed) in [(2, 1), (5, 2)] {
        let states = states_along(players, seed);
        for state in states.iter().step_by(17) {
            let seat = seat_on_turn(state);
            let legal = game().legal_moves(state, seat);
            for level in 1..=3 {
                let mv = robot(state, level, 400, seed);
                assert_eq!(mv, robot(state, level, 400, seed), "level {level}");
                assert!(legal.contains(&mv), "level {level}: {mv} not in {legal:?}");
            }
        }
    }
}

#[test]
fn the_search_stops_when_the_clock_says() {
    let states = states_along(6, 3);
    let state = &states[states.len() / 3];
    let clock = Ticking(Cell::new(0));
    let budget = Budget {
        millis: 20,
        clock: &clock,
        max_nodes: None,
    };
    let seat = seat_on_turn(state);
    let mv = game().robot_move(state, seat, 3, &budget, &mut rng(1));
    assert!(game().legal_moves(state, seat).contains(&mv));
    assert!(
        clock.0.get() <= 22,
        "read the clock {} times",
        clock.0.get()
    );
}

#[test]
fn a_whole_eight_player_race_of_robots() {
    eight_robots_race("8 L2", 8);
}

/// Sixteen cars through the gorge's two lanes: they queue, some make the
/// zero move, and the race still ends with every car placed.
#[test]
fn a_whole_eight_player_race_of_robots_through_the_gorge() {
    eight_robots_race("8 L2 GORGE", 9);
}

fn eight_robots_race(options: &str, seed: u64) {
    let options: Options = options.parse().unwrap();
    let levels = [1, 2, 3, 1, 2, 3, 2, 1];
    let mut r = rng(seed);
    let mut state = game().start(&options, &mut r);
    let mut moves = 0;
    let mut longest = 0;
    loop {
        for seat in 0..8 {
            for lang in [Lang::Ru, Lang::En] {
                let text = game().render(&state, seat, lang);
                longest = longest.max(text.len());
                assert!(parts(&text) <= 2, "{text}");
            }
        }
        let Status::Awaiting(seats) = game().status(&state) else {
            break;
        };
        let seat = seats[0];
        let mv = game().robot_move(&state, seat, levels[seat], &Budget::nodes(300), &mut r);
        state = game()
            .play(state, seat, &mv, &mut r)
            .unwrap_or_else(|e| panic!("{mv}: {:?}", e.reason))
            .state;
        moves += 1;
        assert!(moves < 2_000, "the race does not end");
    }
    let Status::Finished(standings) = game().status(&state) else {
        unreachable!()
    };
    let mut places: Vec<u8> = standings.iter().map(|s| s.place).collect();
    places.sort_unstable();
    assert_eq!(places, [1, 2, 3, 4, 5, 6, 7, 8]);
    assert!(longest > 160, "some texts take two parts ({longest})");
}
