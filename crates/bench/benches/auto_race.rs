//! Auto race: one whole round of a race at full field, as the platform and
//! the robots drive it: move generation for every car of the round, the
//! robots' choice for every car (levels 1-3), and the text and state string
//! of one move.
//!
//! `cargo bench -p smsarena-bench --bench auto_race`

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use rand::SeedableRng;
use smsarena::games::auto_race::reach::outcomes;
use smsarena::games::auto_race::robot::{naive, step};
use smsarena::games::auto_race::{AutoRace, Options, State};
use smsarena::games::{Budget, Game, Lang, MatchRng, Status};

/// A race of `players` at the start of round `round`, driven there by level-1 robots.
fn mid_race(players: usize, round: u32) -> State {
    let game = AutoRace::default();
    let options: Options = players.to_string().parse().expect("options");
    let mut rng = MatchRng::seed_from_u64(7);
    let mut state = game.start(&options, &mut rng);
    while state.round() < round {
        let Status::Awaiting(seats) = game.status(&state) else {
            panic!("the race ended before round {round}");
        };
        let mv = game.robot_move(&state, seats[0], 1, &Budget::nodes(1), &mut rng);
        state = game
            .play(state, seats[0], &mv, &mut rng)
            .expect("legal")
            .state;
    }
    state
}

/// Plays the rest of the round, each car's moves generated and the farthest taken.
fn generate_round(state: &State) -> usize {
    let mut state = state.clone();
    let round = state.round();
    let mut moves = 0;
    while !state.over() && state.round() == round {
        let car = state.to_move().expect("a car to move");
        moves += outcomes(&state, car).len();
        step(&mut state, |s, _, o| naive(s, o));
    }
    moves
}

/// Plays the rest of the round, every car a robot of `level`.
fn robot_round(game: &AutoRace, state: &State, level: u8, nodes: u64) -> State {
    let mut state = state.clone();
    let mut rng = MatchRng::seed_from_u64(1);
    let round = state.round();
    while state.round() == round {
        let Status::Awaiting(seats) = game.status(&state) else {
            break;
        };
        let mv = game.robot_move(&state, seats[0], level, &Budget::nodes(nodes), &mut rng);
        state = game
            .play(state, seats[0], &mv, &mut rng)
            .expect("legal")
            .state;
    }
    state
}

fn bench_round(c: &mut Criterion) {
    let game = AutoRace::default();
    let eight_cars = mid_race(4, 8);
    let sixteen_cars = mid_race(8, 8);
    let mut group = c.benchmark_group("auto_race/round");
    group.bench_function("8 cars: move generation", |b| {
        b.iter(|| generate_round(black_box(&eight_cars)))
    });
    group.bench_function("16 cars: move generation", |b| {
        b.iter(|| generate_round(black_box(&sixteen_cars)))
    });
    for level in [1, 2] {
        group.bench_function(format!("8 cars: robots level {level}"), |b| {
            b.iter(|| robot_round(&game, black_box(&eight_cars), level, 1))
        });
    }
    group.sample_size(10);
    group.bench_function("8 cars: robots level 3, 2000 nodes", |b| {
        b.iter(|| robot_round(&game, black_box(&eight_cars), 3, 2_000))
    });
    group.bench_function("16 cars: robots level 2", |b| {
        b.iter(|| robot_round(&game, black_box(&sixteen_cars), 2, 1))
    });
    group.finish();
}

fn bench_texts(c: &mut Criterion) {
    let game = AutoRace::default();
    let state = mid_race(8, 8);
    let text = state.to_string();
    let mut group = c.benchmark_group("auto_race/text");
    group.bench_function("render, 8 players", |b| {
        b.iter(|| game.render(black_box(&state), 0, Lang::Ru))
    });
    group.bench_function("state string out", |b| {
        b.iter(|| black_box(&state).to_string())
    });
    group.bench_function("state string in", |b| {
        b.iter(|| black_box(&text).parse::<State>().expect("parses"))
    });
    group.finish();
}

criterion_group!(benches, bench_round, bench_texts);
criterion_main!(benches);
