//! Criterion benches: dictionary load, all legal words of a mid-game position, robot moves.
//!
//! `nice -n 10 cargo bench -p smsarena-bench --bench word_battle`

use std::hint::black_box;
use std::time::Instant;

use criterion::{Criterion, criterion_group, criterion_main};
use rand::SeedableRng;
use smsarena::games::word_battle::{Dictionary, State, Variant, WordBattle};
use smsarena::games::{Budget, Game, MatchRng, Stopwatch};

const RU: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../data/word_battle/ru.txt"
));
const EN: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../data/word_battle/en.txt"
));

struct Clock(Instant);

impl Stopwatch for Clock {
    fn elapsed_ms(&self) -> u64 {
        self.0.elapsed().as_millis() as u64
    }
}

/// The seed's position after РОКОКО.
fn seed_position(game: &WordBattle) -> State {
    game.example_position().expect("the example plays")
}

/// A mid-game position: 24 words of two level-2 robots.
fn mid_game(game: &WordBattle) -> State {
    let mut rng = MatchRng::seed_from_u64(11);
    let mut state = State::new(Variant::Ru, 6, 0);
    for _ in 0..24 {
        let seat = state.seat_of(state.turn());
        let mv = game.robot_move(&state, seat, 2, &Budget::nodes(1), &mut rng);
        state = game.play(state, seat, &mv, &mut rng).unwrap().state;
    }
    state
}

fn dictionary(c: &mut Criterion) {
    for (name, variant, text) in [("ru", Variant::Ru, RU), ("en", Variant::En, EN)] {
        let d = Dictionary::parse(variant, text).unwrap();
        eprintln!(
            "{name}: {} words, trie {} KiB",
            d.len(),
            d.memory_bytes() / 1024
        );
        c.bench_function(&format!("dictionary load {name}"), |b| {
            b.iter(|| Dictionary::parse(variant, black_box(text)).unwrap())
        });
    }
}

fn legal_moves(c: &mut Criterion) {
    let game = WordBattle::new();
    for (name, state) in [
        ("seed", seed_position(&game)),
        ("mid-game", mid_game(&game)),
    ] {
        let seat = state.seat_of(state.turn());
        eprintln!(
            "{name}: {} legal moves\n{state}",
            game.legal_moves(&state, seat).len()
        );
        c.bench_function(&format!("legal moves {name}"), |b| {
            b.iter(|| game.legal_moves(black_box(&state), seat))
        });
    }
}

fn robots(c: &mut Criterion) {
    let game = WordBattle::new();
    let state = mid_game(&game);
    let seat = state.seat_of(state.turn());
    let mut group = c.benchmark_group("robot move, mid-game, 1 s budget");
    group.sample_size(10);
    for level in 1..=3 {
        group.bench_function(format!("level {level}"), |b| {
            b.iter(|| {
                let clock = Clock(Instant::now());
                let budget = Budget {
                    millis: 1000,
                    clock: &clock,
                    max_nodes: None,
                };
                game.robot_move(
                    &state,
                    seat,
                    level,
                    &budget,
                    &mut MatchRng::seed_from_u64(1),
                )
            })
        });
    }
    group.finish();
}

criterion_group!(benches, dictionary, legal_moves, robots);
criterion_main!(benches);
