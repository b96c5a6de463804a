//! Match runner: races between two robot levels (or the naive
//! farthest-forward driver), seats alternating between them (even seats A,
//! odd seats B), in series of as many races as players: the lot rotates race
//! by race (rule 16), so every seat starts from every place, and each series
//! draws a new lot. Prints race wins, points and time per move.
//!
//! ```text
//! cargo run --release --example ar_levels -- A B [races] [players] [budget]
//! ```
//!
//! `A`, `B`: `1`-`3` or `naive`. `budget`: milliseconds per move (`1000`), or
//! `n20000` for a node budget (deterministic). Defaults: `3 naive 20 4 1000`.

use std::collections::BTreeMap;
use std::time::Instant;

use rand::{Rng, SeedableRng};
use smsarena::games::auto_race::car::Run;
use smsarena::games::auto_race::reach::outcomes;
use smsarena::games::auto_race::robot::naive;
use smsarena::games::auto_race::{AutoRace, Move, Options, State};
use smsarena::games::{Budget, Game, MatchRng, Status, Stopwatch};

/// A real clock for the robots' budget.
struct Clock(Instant);

impl Stopwatch for Clock {
    fn elapsed_ms(&self) -> u64 {
        self.0.elapsed().as_millis() as u64
    }
}

#[derive(Clone, Copy)]
enum Driver {
    Naive,
    Level(u8),
}

fn driver(text: &str) -> Driver {
    match text {
        "naive" | "n" | "0" => Driver::Naive,
        l => Driver::Level(l.parse().expect("a level 1-3 or naive")),
    }
}

fn name(d: Driver) -> String {
    match d {
        Driver::Naive => "naive".into(),
        Driver::Level(l) => format!("level {l}"),
    }
}

enum Limit {
    Millis(u64),
    Nodes(u64),
}

/// One move for the car on turn; returns the time it took in microseconds.
fn drive(game: &AutoRace, state: &mut State, d: Driver, limit: &Limit, rng: &mut MatchRng) -> u128 {
    let Status::Awaiting(seats) = game.status(state) else {
        return 0;
    };
    let seat = seats[0];
    let t = Instant::now();
    let mv = match d {
        Driver::Naive => naive_move(state, rng),
        Driver::Level(level) => {
            let clock = Clock(Instant::now());
            let budget = match *limit {
                Limit::Millis(ms) => Budget {
                    millis: ms,
                    clock: &clock,
                    max_nodes: None,
                },
                Limit::Nodes(n) => Budget::nodes(n),
            };
            game.robot_move(state, seat, level, &budget, rng)
        }
    };
    let played = game
        .play(state.clone(), seat, &mv, rng)
        .unwrap_or_else(|r| panic!("move {mv} refused: {:?}\n{state}", r.reason));
    *state = played.state;
    t.elapsed().as_micros()
}

/// The farthest-forward move of the car on turn; of several equally far
/// (other lanes, other lengths), one at random, so that races differ.
fn naive_move(state: &State, rng: &mut MatchRng) -> Move {
    let Some(car) = state.to_move() else {
        return Move::Zero;
    };
    let outs = outcomes(state, car);
    let Some(best) = outs.get(naive(state, &outs)) else {
        return Move::Zero;
    };
    let far: Vec<_> = outs.iter().filter(|o| o.drive.d == best.drive.d).collect();
    far[rng.gen_range(0..far.len())].to_move()
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let arg = |i: usize, default: &str| args.get(i).cloned().unwrap_or_else(|| default.into());
    let a = driver(&arg(0, "3"));
    let b = driver(&arg(1, "naive"));
    let races: usize = arg(2, "20").parse().expect("races");
    let players: usize = arg(3, "4").parse().expect("players");
    let limit = match arg(4, "1000") {
        n if n.starts_with('n') => Limit::Nodes(n[1..].parse().expect("nodes")),
        ms => Limit::Millis(ms.parse().expect("milliseconds")),
    };
    let game = AutoRace::default();
    let options: Options = players.to_string().parse().expect("options");
    let drivers: Vec<Driver> = (0..players)
        .map(|s| if s % 2 == 0 { a } else { b })
        .collect();
    let mut rng = MatchRng::seed_from_u64(2024);
    let mut state = game.start(&options, &mut rng);
    let (mut wins, mut points, mut times) = ([0usize; 2], [0i64; 2], [Vec::new(), Vec::new()]);
    // How each side's cars ended: `f` finished (or classified), else the retirement's letter.
    let mut ends = [BTreeMap::new(), BTreeMap::new()];
    let started = Instant::now();
    for race in 0..races {
        // A series rotates the lot through every start place (rule 16);
        // the next series draws a new lot.
        if race % players == 0 {
            state = game.start(&options, &mut rng);
        } else {
            state = game.rematch(&state, &options, &mut rng);
        }
        loop {
            match game.status(&state) {
                Status::Awaiting(seats) => {
                    let side = seats[0] % 2;
                    let us = drive(&game, &mut state, drivers[seats[0]], &limit, &mut rng);
                    times[side].push(us);
                }
                Status::Finished(standings) => {
                    for (car, c) in state.cars().iter().enumerate() {
                        let side = state.owner(car) % 2;
                        let why = match c.run {
                            Run::Out(_, why) => why.code(),
                            _ => 'f',
                        };
                        *ends[side].entry(why).or_insert(0) += 1;
                    }
                    for (seat, s) in standings.iter().enumerate() {
                        points[seat % 2] += s.score.unwrap_or(0);
                        if s.place == 1 {
                            wins[seat % 2] += 1;
                        }
                    }
                    break;
                }
            }
        }
    }
    for side in 0..2 {
        let t = &mut times[side];
        t.sort_unstable();
        let median = t.get(t.len() / 2).copied().unwrap_or(0);
        let max = t.last().copied().unwrap_or(0);
        println!(
            "{:>8}: race wins {:>3}, points {:>5} ({:.2} a seat a race), moves {}, median {:.2} ms, max {:.2} ms",
            name(if side == 0 { a } else { b }),
            wins[side],
            points[side],
            points[side] as f64 / (races * players / 2) as f64,
            t.len(),
            median as f64 / 1000.0,
            max as f64 / 1000.0
        );
        let ends: Vec<String> = ends[side].iter().map(|(k, v)| format!("{k} {v}")).collect();
        println!("          cars: {}", ends.join(", "));
    }
    println!(
        "{races} races of {players} players in {:.1} s",
        started.elapsed().as_secs_f64()
    );
}
