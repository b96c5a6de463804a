//! Plays matches between two robot levels and prints wins, draws, losses and time per move.
//!
//! `cargo run --release --example wb_levels -- A B [games] [millis|Nnodes] [len] [en]`
//! e.g. `... -- 1 2 100 1000`, `... -- 2 3 100 N40` (a node budget instead of a clock).
//! Level A sits on seat 0, which plays Red (and so starts) in even games and
//! Blue in odd ones.

use std::time::Instant;

use rand::SeedableRng;
use smsarena::games::word_battle::{Colour, State, Variant, WordBattle};
use smsarena::games::{Budget, Game, MatchRng, Stopwatch};

struct Clock(Instant);

impl Stopwatch for Clock {
    fn elapsed_ms(&self) -> u64 {
        self.0.elapsed().as_millis() as u64
    }
}

fn arg<T: std::str::FromStr>(args: &[String], i: usize, default: T) -> T {
    args.get(i).and_then(|a| a.parse().ok()).unwrap_or(default)
}

fn percentile(times: &mut [f64], p: f64) -> f64 {
    if times.is_empty() {
        return 0.0;
    }
    times.sort_by(f64::total_cmp);
    times[((times.len() - 1) as f64 * p).round() as usize]
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let levels = [arg(&args, 0, 1u8), arg(&args, 1, 2u8)];
    let games: u64 = arg(&args, 2, 100);
    let budget_arg = args.get(3).cloned().unwrap_or_else(|| "1000".into());
    let max_len: u8 = arg(&args, 4, 6);
    let variant = if args.iter().any(|a| a == "en") {
        Variant::En
    } else {
        Variant::Ru
    };
    let nodes = budget_arg
        .strip_prefix('N')
        .and_then(|n| n.parse::<u64>().ok());
    let millis = if nodes.is_some() {
        u64::MAX
    } else {
        budget_arg.parse().unwrap_or(1000)
    };
    let game = WordBattle::new();
    let mut results = [0u32; 3]; // A wins, draws, A losses
    let mut times: [Vec<f64>; 2] = [Vec::new(), Vec::new()];
    let mut diff_sum = 0i64;
    let mut plies_sum = 0u64;
    for g in 0..games {
        let mut rng = MatchRng::seed_from_u64(1000 + g);
        let mut state = State::new(variant, max_len, (g % 2) as usize);
        let mut plies = 0;
        while !state.is_over() && plies < 400 {
            let seat = state.seat_of(state.turn());
            let clock = Clock(Instant::now());
            let budget = Budget {
                millis,
                clock: &clock,
                max_nodes: nodes,
            };
            let mv = game.robot_move(&state, seat, levels[seat], &budget, &mut rng);
            times[seat].push(clock.0.elapsed().as_secs_f64() * 1000.0);
            state = match game.play(state, seat, &mv, &mut rng) {
                Ok(p) => p.state,
                Err(r) => panic!(
                    "level {} played an illegal {mv}: {:?}",
                    levels[seat], r.reason
                ),
            };
            plies += 1;
        }
        plies_sum += plies;
        let a = state.colour_of(0).unwrap_or(Colour::Red);
        let diff = i64::from(state.score(a)) - i64::from(state.score(a.other()));
        diff_sum += diff;
        results[match diff.cmp(&0) {
            std::cmp::Ordering::Greater => 0,
            std::cmp::Ordering::Equal => 1,
            std::cmp::Ordering::Less => 2,
        }] += 1;
    }
    println!(
        "level {} vs level {}: {} games ({variant:?}, len {max_len}, budget {budget_arg}): \
         {} wins, {} draws, {} losses for level {}; mean letter difference {:+.1}; {:.1} plies a game",
        levels[0],
        levels[1],
        games,
        results[0],
        results[1],
        results[2],
        levels[0],
        diff_sum as f64 / games as f64,
        plies_sum as f64 / games as f64
    );
    for seat in 0..2 {
        let t = &mut times[seat];
        println!(
            "  level {}: {} moves, median {:.1} ms, p99 {:.1} ms, max {:.1} ms",
            levels[seat],
            t.len(),
            percentile(t, 0.5),
            percentile(t, 0.99),
            percentile(t, 1.0)
        );
    }
}
