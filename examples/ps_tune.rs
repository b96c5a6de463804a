//! Fits paper soccer's level-3 evaluation weights to self-play games, and matches two weight sets.
//!
//! `measure/ps_tune.sh` runs the three steps; each can run alone:
//!
//! - `ps_tune gen OUT GAMES NODES SEED [WEIGHTS]`: self-play between two
//!   level-3 searchers of `NODES` nodes a turn (after 0-7 random opening
//!   turns, so games differ), one line per whole turn to `OUT`: the result
//!   for the side to move (1 won, 0 lost), then its [`features`]. `WEIGHTS`
//!   is a weights file, `hand`, or `tuned` (the compiled-in set, the default).
//! - `ps_tune fit OUT DATA...`: logistic regression of the results on the
//!   features; writes the weights file (evaluation units, 100 to a logit),
//!   its header naming the data's source (the `#` lines `gen` wrote).
//! - `ps_tune match A B GAMES NODES SEED`: weights file `A` against `B`
//!   (`hand` for the hand-set weights), colour-swapped, fixed nodes a turn.
//!
//! Games run on two threads (this machine has two cores).

use std::fs;
use std::io::{BufWriter, Write};

use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use smsarena::games::paper_soccer::field::Field;
use smsarena::games::paper_soccer::position::{Position, Side, Step};
use smsarena::games::paper_soccer::robot::eval::{self, FEATURES, Weights, features};
use smsarena::games::paper_soccer::robot::{self, Eval, Searcher};
use smsarena::games::{Budget, MatchRng};

/// Evaluation units per logit of the fitted model.
const UNITS_PER_LOGIT: f64 = 100.0;
/// A game longer than this many whole turns is dropped (none has been seen).
const MAX_TURNS: usize = 400;
const THREADS: u64 = 2;

/// One whole turn's record: the side to move and its features.
type Sample = (Side, [i32; FEATURES]);

/// Plays one game from the opening; `weights[s]` plays side `s`. Returns the
/// winner, or `None` for a game over [`MAX_TURNS`].
fn play(
    weights: [Weights; 2],
    nodes: u64,
    opening: usize,
    rng: &mut MatchRng,
    mut record: Option<&mut Vec<Sample>>,
) -> Option<Side> {
    let f = Field::standard();
    let mut searchers = weights.map(|w| Searcher::new(18, Eval::Full(w), 64));
    let mut pos = Position::start(f);
    for turn in 0..MAX_TURNS {
        if let Some(record) = record.as_deref_mut()
            && turn >= opening
            && !eval::scores_now(f, &pos)
        {
            record.push((pos.side, features(f, &pos)));
        }
        let path = if turn < opening {
            robot::walk(f, &pos, rng)
        } else {
            let searcher = &mut searchers[pos.side as usize];
            searcher
                .search(f, &pos, &Budget::nodes(nodes), &mut |m| m.shuffle(rng))
                .path
        };
        if path.is_empty() {
            return Some(pos.side ^ 1);
        }
        for d in path {
            match pos.step(f, d) {
                Step::Goal { winner } => return Some(winner),
                Step::Stuck => return Some(pos.side ^ 1),
                Step::Bounce | Step::Pass => {}
            }
        }
    }
    None
}

fn weights_from(arg: &str) -> Weights {
    if arg == "hand" {
        return Weights::HAND;
    }
    let text = fs::read_to_string(arg).unwrap_or_else(|e| fail(&format!("{arg}: {e}")));
    Weights::parse(&text).unwrap_or_else(|| fail(&format!("{arg}: not a weights file")))
}

fn fail(why: &str) -> ! {
    eprintln!("ps_tune: {why}");
    std::process::exit(2)
}

fn number(arg: Option<&String>) -> u64 {
    arg.and_then(|a| a.parse().ok())
        .unwrap_or_else(|| fail("expected a number"))
}

fn generate(out: &str, games: u64, nodes: u64, seed: u64, weights: (&str, Weights)) {
    let (name, weights) = weights;
    let lines: Vec<String> = std::thread::scope(|s| {
        let workers: Vec<_> = (0..THREADS)
            .map(|t| {
                s.spawn(move || {
                    let mut lines = Vec::new();
                    for game in (t..games).step_by(THREADS as usize) {
                        let mut rng = MatchRng::seed_from_u64(seed ^ game.wrapping_mul(0x9E37));
                        let opening = rng.gen_range(0..8);
                        let mut record = Vec::new();
                        let Some(winner) =
                            play([weights; 2], nodes, opening, &mut rng, Some(&mut record))
                        else {
                            continue;
                        };
                        for (side, x) in record {
                            let won = u8::from(side == winner);
                            let x: Vec<String> = x.iter().map(i32::to_string).collect();
                            lines.push(format!("{won} {}", x.join(" ")));
                        }
                    }
                    lines
                })
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|w| w.join().unwrap_or_default())
            .collect()
    });
    let mut file = BufWriter::new(fs::File::create(out).unwrap_or_else(|e| fail(&e.to_string())));
    // Where the data came from, carried by `fit` into the weights file.
    writeln!(
        file,
        "# {} positions of {games} self-play games, weights {name}, {nodes} nodes a turn, seed {seed}",
        lines.len()
    )
    .unwrap_or_else(|e| fail(&e.to_string()));
    for line in &lines {
        writeln!(file, "{line}").unwrap_or_else(|e| fail(&e.to_string()));
    }
    file.flush().unwrap_or_else(|e| fail(&e.to_string()));
    eprintln!("{out}: {} positions from {games} games", lines.len());
}

fn fit(out: &str, data: &[String]) {
    let mut ys = Vec::new();
    let mut xs: Vec<[f64; FEATURES]> = Vec::new();
    let mut sources = String::new();
    for path in data {
        let text = fs::read_to_string(path).unwrap_or_else(|e| fail(&format!("{path}: {e}")));
        for line in text.lines() {
            if let Some(note) = line.strip_prefix('#') {
                sources.push_str(&format!("#  {}\n", note.trim()));
                continue;
            }
            let v: Vec<f64> = line.split(' ').filter_map(|w| w.parse().ok()).collect();
            if v.len() != FEATURES + 1 {
                fail(&format!("{path}: bad line {line:?}"));
            }
            ys.push(v[0]);
            xs.push(std::array::from_fn(|i| v[i + 1]));
        }
    }
    let n = xs.len() as f64;
    // Features scaled to unit spread so one step size suits them all; no
    // intercept, as a position and its mirror must score opposite.
    let spread: [f64; FEATURES] = std::array::from_fn(|i| {
        let m2 = xs.iter().map(|x| x[i] * x[i]).sum::<f64>() / n;
        m2.sqrt().max(1e-9)
    });
    let mut beta = [0f64; FEATURES];
    let loss = |beta: &[f64; FEATURES]| -> f64 {
        xs.iter()
            .zip(&ys)
            .map(|(x, y)| {
                let z: f64 = (0..FEATURES).map(|i| beta[i] * x[i] / spread[i]).sum();
                let p = 1.0 / (1.0 + (-z).exp());
                -(y * p.max(1e-12).ln() + (1.0 - y) * (1.0 - p).max(1e-12).ln())
            })
            .sum::<f64>()
            / n
    };
    eprintln!("{} positions, loss at zero {:.5}", xs.len(), loss(&beta));
    for round in 0..2000 {
        let mut grad = [0f64; FEATURES];
        for (x, y) in xs.iter().zip(&ys) {
            let z: f64 = (0..FEATURES).map(|i| beta[i] * x[i] / spread[i]).sum();
            let p = 1.0 / (1.0 + (-z).exp());
            for i in 0..FEATURES {
                grad[i] += (p - y) * x[i] / spread[i];
            }
        }
        for i in 0..FEATURES {
            beta[i] -= 2.0 * grad[i] / n;
        }
        if round % 500 == 499 {
            eprintln!("round {}: loss {:.5}", round + 1, loss(&beta));
        }
    }
    let hand = Weights::HAND.0.map(|w| w as f64 / UNITS_PER_LOGIT);
    let hand_loss = loss(&std::array::from_fn(|i| hand[i] * spread[i]));
    let weights = Weights(std::array::from_fn(|i| {
        (beta[i] / spread[i] * UNITS_PER_LOGIT).round() as i32
    }));
    eprintln!("loss fitted {:.5}, hand {:.5}", loss(&beta), hand_loss);
    let text = format!(
        "# Level 3's evaluation weights, written by measure/ps_tune.sh (examples/ps_tune.rs):\n\
         # a logistic fit of the results of\n{sources}\
         # {UNITS_PER_LOGIT} units a logit; log-loss {:.5} (hand-set {hand_loss:.5}, zero {:.5}).\n{weights}",
        loss(&beta),
        loss(&[0.0; FEATURES])
    );
    fs::write(out, text).unwrap_or_else(|e| fail(&e.to_string()));
    print!("{weights}");
}

fn matched(a: Weights, b: Weights, games: u64, nodes: u64, seed: u64) {
    let wins: u64 = std::thread::scope(|s| {
        let workers: Vec<_> = (0..THREADS)
            .map(|t| {
                s.spawn(move || {
                    let mut wins = 0;
                    for game in (t..games).step_by(THREADS as usize) {
                        // Each opening is played twice, `a` on each side.
                        let mut rng =
                            MatchRng::seed_from_u64(seed ^ (game / 2).wrapping_mul(0x9E37));
                        let opening = rng.gen_range(0..4);
                        let a_side = (game % 2) as Side;
                        let pair = if a_side == 0 { [a, b] } else { [b, a] };
                        if play(pair, nodes, opening, &mut rng, None) == Some(a_side) {
                            wins += 1;
                        }
                    }
                    wins
                })
            })
            .collect();
        workers.into_iter().map(|w| w.join().unwrap_or(0)).sum()
    });
    let share = wins as f64 / games as f64;
    let half = 1.96 * (share * (1.0 - share) / games as f64).sqrt();
    println!(
        "a {wins} - b {}: a's share {:.1} % +- {:.1}",
        games - wins,
        100.0 * share,
        100.0 * half
    );
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("gen") if args.len() >= 5 => {
            let name = args.get(5).map_or("tuned", String::as_str);
            let weights = if name == "tuned" {
                Weights::tuned()
            } else {
                weights_from(name)
            };
            generate(
                &args[1],
                number(args.get(2)),
                number(args.get(3)),
                number(args.get(4)),
                (name, weights),
            )
        }
        Some("fit") if args.len() >= 3 => fit(&args[1], &args[2..]),
        Some("match") if args.len() == 6 => matched(
            weights_from(&args[1]),
            weights_from(&args[2]),
            number(args.get(3)),
            number(args.get(4)),
            number(args.get(5)),
        ),
        _ => fail(
            "usage: ps_tune gen OUT GAMES NODES SEED [WEIGHTS] | fit OUT DATA... | match A B GAMES NODES SEED",
        ),
    }
}
