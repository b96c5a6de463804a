//! SMS football engine: move application (a pending move, a resolving move),
//! rendering a board, and the state string both ways; each once on the typed
//! state and once the way the platform does it for a text: the stored state
//! loaded once through `AnyGame`, played on, and printed once.
//!
//! `cargo bench -p smsarena-bench --bench football`

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use rand::SeedableRng;
use smsarena::games::any::{AnyGame, Entry};
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
    // What the platform does per text: parse the stored state once, play
    // the text on the typed match, print the state once to store it.
    let pending_text = pending.to_string();
    let entry = Entry::new(Football::default());
    let any: &dyn AnyGame = &entry;
    group.bench_function("resolving move (load, play, store)", |b| {
        let mut rng = MatchRng::seed_from_u64(2);
        b.iter(|| {
            let mut m = any.load(black_box(&pending_text)).unwrap();
            let _ = m.play(1, black_box("1"), &mut rng);
            m.state()
        })
    });
    group.finish();
}

fn bench_render(c: &mut Criterion) {
    let game = Football::default();
    let (opening, _) = states();
    let text = opening.to_string();
    let entry = Entry::new(Football::default());
    let any: &dyn AnyGame = &entry;
    let mut group = c.benchmark_group("football/render");
    group.bench_function("board for one seat (typed)", |b| {
        b.iter(|| Game::render(&game, black_box(&opening), 2, Lang::Ru))
    });
    // What the platform does when a turn resolves: one parse, four views.
    group.bench_function("boards for all four seats (one load)", |b| {
        b.iter(|| {
            let m = any.load(black_box(&text)).unwrap();
            (0..4)
                .map(|seat| m.render(seat, Lang::Ru))
                .collect::<Vec<_>>()
        })
    });
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
