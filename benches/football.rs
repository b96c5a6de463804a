//! SMS football engine: move application (a pending move, a resolving move),
//! rendering a board, and the state string both ways; each once on the typed
//! state and once through `AnyGame` (state string in, state string out), the
//! way the platform calls it for every move.
//!
//! `cargo bench --bench football`

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use rand::SeedableRng;
use smsarena::games::any::AnyGame;
use smsarena::games::football::{Football, Move, State};
use smsarena::games::{Effect, Game, Lang, MatchRng};

/// The rules' opening (Attack is seats 0 and 1, on turn).
const OPENING: &str = "FB1 sides=AADD board=...23/...../...../..*../.0.1. turn=A moved=0:0 pending=-,-,-,- result=- ricochet=0.25 rounds=10";

fn states() -> (State, State) {
    let opening: State = OPENING.parse().expect("opening parses");
    // Seat 0 steps up (2: row 5 -> row 4, a free cell); seat 1's move then resolves the turn.
    let game = Football::default();
    let mut rng = MatchRng::seed_from_u64(1);
    let pending = Game::play(&game, opening.clone(), 0, &"2".parse().unwrap(), &mut rng)
        .expect("legal")
        .state;
    (opening, pending)
}

fn bench_play(c: &mut Criterion) {
    let game = Football::default();
    let (opening, pending) = states();
    let step: Move = "2".parse().unwrap();
    // Seat 1 kicks the ball (row 4, col 3) up to row 3: a fight-free resolution.
    let kick: Move = "1".parse().unwrap();
    {
        let mut rng = MatchRng::seed_from_u64(1);
        let played = Game::play(&game, pending.clone(), 1, &kick, &mut rng).expect("legal");
        assert_eq!(played.effect, Effect::Resolved);
    }
    let mut group = c.benchmark_group("football/play");
    group.bench_function("pending move (typed)", |b| {
        let mut rng = MatchRng::seed_from_u64(2);
        b.iter(|| {
            Game::play(
                &game,
                black_box(opening.clone()),
                0,
                black_box(&step),
                &mut rng,
            )
        })
    });
    group.bench_function("resolving move (typed)", |b| {
        let mut rng = MatchRng::seed_from_u64(2);
        b.iter(|| {
            Game::play(
                &game,
                black_box(pending.clone()),
                1,
                black_box(&kick),
                &mut rng,
            )
        })
    });
    let opening_text = opening.to_string();
    let pending_text = pending.to_string();
    let any: &dyn AnyGame = &game;
    group.bench_function("pending move (state strings)", |b| {
        let mut rng = MatchRng::seed_from_u64(2);
        b.iter(|| any.play(black_box(&opening_text), 0, black_box("2"), &mut rng))
    });
    group.bench_function("resolving move (state strings)", |b| {
        let mut rng = MatchRng::seed_from_u64(2);
        b.iter(|| any.play(black_box(&pending_text), 1, black_box("1"), &mut rng))
    });
    group.finish();
}

fn bench_render(c: &mut Criterion) {
    let game = Football::default();
    let (opening, _) = states();
    let text = opening.to_string();
    let any: &dyn AnyGame = &game;
    let mut group = c.benchmark_group("football/render");
    group.bench_function("board for one seat (typed)", |b| {
        b.iter(|| Game::render(&game, black_box(&opening), 2, Lang::Ru))
    });
    group.bench_function("board for one seat (state string)", |b| {
        b.iter(|| any.render(black_box(&text), 2, Lang::Ru))
    });
    // What the platform does when a turn resolves: one parse, four views.
    let langs = [Lang::Ru; 4];
    group.bench_function(
        "boards for all four seats (state string, render_each)",
        |b| b.iter(|| any.render_each(black_box(&text), &langs)),
    );
    group.finish();
}

fn bench_notation(c: &mut Criterion) {
    let (_, pending) = states();
    let text = pending.to_string();
    let mut group = c.benchmark_group("football/state string");
    group.bench_function("parse", |b| b.iter(|| black_box(&text).parse::<State>()));
    group.bench_function("print", |b| b.iter(|| black_box(&pending).to_string()));
    group.finish();
}

criterion_group!(benches, bench_play, bench_render, bench_notation);
criterion_main!(benches);
