//! Paper soccer benches: whole-move generation from mid-game positions, and the level-3 search.
//!
//! `cargo bench -p smsarena-bench --bench paper_soccer`. Besides criterion's timings it prints,
//! for the level-3 search with a real 1 s clock on each position: nodes,
//! nodes per second, depth reached and time used.

use std::time::Instant;

use criterion::{Criterion, Throughput, criterion_group};
use rand::SeedableRng;
use smsarena::games::paper_soccer::movegen::MoveGen;
use smsarena::games::paper_soccer::robot::{self, Eval, Searcher};
use smsarena::games::paper_soccer::{PaperSoccer, State, play_text};
use smsarena::games::{Budget, Game, MatchRng, Stopwatch};

/// Mid-game positions: level-1 self-play, 16 to 30 turns in, still running.
fn positions() -> Vec<State> {
    let mut out = Vec::new();
    for seed in 0..200u64 {
        let mut rng = MatchRng::seed_from_u64(seed);
        let mut s = State::new(8, 10, 0);
        let want = 16 + (seed % 15) as usize;
        while s.end.is_none() && s.turns.len() < want {
            let m = PaperSoccer.robot_move(&s, s.to_move(), 1, &Budget::nodes(1000), &mut rng);
            s = play_text(&s, s.to_move(), &m.0).unwrap().0;
        }
        if s.end.is_none() && s.turns.len() == want {
            out.push(s);
        }
        if out.len() == 12 {
            break;
        }
    }
    out
}

fn movegen(c: &mut Criterion) {
    let ps = positions();
    let mut mg = MoveGen::new();
    let total: usize = ps
        .iter()
        .map(|s| mg.collect(s.field(), &s.pos, u64::MAX).unwrap().len())
        .sum();
    let mut g = c.benchmark_group("movegen");
    g.throughput(Throughput::Elements(total as u64));
    g.bench_function(
        format!(
            "whole moves of {} mid-game positions ({total} moves)",
            ps.len()
        ),
        |b| {
            b.iter(|| {
                let mut n = 0usize;
                for s in &ps {
                    mg.generate(s.field(), &s.pos, &mut |_| false, &mut |_, _, _| {
                        n += 1;
                        true
                    });
                }
                n
            })
        },
    );
    g.finish();
}

fn search_nodes(c: &mut Criterion) {
    let ps = positions();
    let mut g = c.benchmark_group("search");
    g.throughput(Throughput::Elements(20_000));
    g.sample_size(20);
    g.bench_function("level 3, 20000 nodes", |b| {
        let mut i = 0;
        b.iter(|| {
            let s = &ps[i % ps.len()];
            i += 1;
            let mut searcher = Searcher::new(robot::TT_BITS, Eval::tuned(), 64);
            searcher
                .search(s.field(), &s.pos, &Budget::nodes(20_000), &mut |_| {})
                .nodes
        })
    });
    g.finish();
}

struct Clock(Instant);
impl Stopwatch for Clock {
    fn elapsed_ms(&self) -> u64 {
        self.0.elapsed().as_millis() as u64
    }
}

/// Level 3 with a real 1 s budget on each position (the engine's table size).
fn one_second() {
    let ps = positions();
    let mut depths = Vec::new();
    let mut rates = Vec::new();
    let mut times = Vec::new();
    for s in &ps {
        let mut searcher = Searcher::new(20, Eval::tuned(), 64);
        let clock = Clock(Instant::now());
        let budget = Budget {
            millis: 1000,
            clock: &clock,
            max_nodes: None,
        };
        let r = searcher.search(s.field(), &s.pos, &budget, &mut |_| {});
        let ms = clock.0.elapsed().as_secs_f64() * 1000.0;
        println!(
            "level3 1s: turn {:2}: {:3} root moves, depth {:2}, {:8} nodes, {:6.0} ms, {:8.0} nodes/s",
            s.turns.len(),
            r.root_moves,
            r.depth,
            r.nodes,
            ms,
            r.nodes as f64 / ms * 1000.0
        );
        depths.push(r.depth);
        rates.push(r.nodes as f64 / ms * 1000.0);
        times.push(ms);
    }
    depths.sort();
    rates.sort_by(f64::total_cmp);
    times.sort_by(f64::total_cmp);
    println!(
        "level3 1s summary: depth median {} (min {}, max {}), nodes/s median {:.0}, time median {:.0} ms max {:.0} ms",
        depths[depths.len() / 2],
        depths[0],
        depths[depths.len() - 1],
        rates[rates.len() / 2],
        times[times.len() / 2],
        times[times.len() - 1]
    );
}

criterion_group!(benches, movegen, search_nodes);

fn main() {
    benches();
    Criterion::default().configure_from_args().final_summary();
    if std::env::args().all(|a| a != "--test" && a != "--list") {
        one_second();
    }
}
