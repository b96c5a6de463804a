//! Plays robot levels against each other and prints wins, draws, losses and
//! the time per move.
//!
//! `cargo run --release --example ib_levels -- A B GAMES MILLIS [LIMIT]`
//! plays GAMES games of level A against level B (A is Blue in even games,
//! Red in odd ones), each robot move within MILLIS ms of real time, each
//! game to T = LIMIT (default 90).

use std::time::Instant;

use rand::SeedableRng;
use smsarena::games::intelball::{Intelball, Kind, Options, Position, State};
use smsarena::games::{Budget, Game, MatchRng, Status, Stopwatch};

struct Clock(Instant);

impl Stopwatch for Clock {
    fn elapsed_ms(&self) -> u64 {
        self.0.elapsed().as_millis() as u64
    }
}

fn main() {
    let args: Vec<u64> = std::env::args()
        .skip(1)
        .map(|a| a.parse().expect("numbers"))
        .collect();
    let (a, b, games, millis) = (args[0] as u8, args[1] as u8, args[2], args[3]);
    let limit = args.get(4).copied().unwrap_or(90) as u32;
    let game = Intelball { limit };
    let (mut wins, mut draws, mut losses, mut goals) = (0, 0, 0, [0u32; 2]);
    let mut times: [Vec<u64>; 2] = [Vec::new(), Vec::new()];
    for n in 0..games {
        let mut rng = MatchRng::seed_from_u64(n);
        let options = Options {
            kind: Kind::Duel,
            start: None,
        };
        let mut state: State = game.start(&options, &mut rng);
        // Seat 0 is level A; it plays Blue in even games.
        let a_blue = n % 2 == 0;
        while state.side_of(0) != if a_blue { 0 } else { 1 } {
            state = game.start(&options, &mut rng);
        }
        let levels = [a, b];
        while let Status::Awaiting(seats) = game.status(&state) {
            let seat = seats[0];
            let clock = Clock(Instant::now());
            let budget = Budget {
                millis,
                clock: &clock,
                max_nodes: None,
            };
            let mv = game.robot_move(&state, seat, levels[seat], &budget, &mut rng);
            times[seat].push(clock.0.elapsed().as_micros() as u64);
            state = match game.play(state, seat, &mv, &mut rng) {
                Ok(p) => p.state,
                Err(e) => panic!(
                    "robot {} played an illegal {mv}: {:?}",
                    levels[seat], e.reason
                ),
            };
        }
        let p: &Position = state.position();
        let (ga, gb) = (p.score[state.side_of(0)], p.score[state.side_of(1)]);
        goals[0] += ga;
        goals[1] += gb;
        match ga.cmp(&gb) {
            std::cmp::Ordering::Greater => wins += 1,
            std::cmp::Ordering::Equal => draws += 1,
            std::cmp::Ordering::Less => losses += 1,
        }
        eprintln!(
            "game {n}: level {a} {} {ga}:{gb}",
            if a_blue { "Blue" } else { "Red" }
        );
    }
    println!("level {a} vs level {b}, {games} games, {millis} ms, T={limit}");
    println!(
        "level {a}: {wins} wins, {draws} draws, {losses} losses; goals {}:{}",
        goals[0], goals[1]
    );
    for (seat, level) in [(0, a), (1, b)] {
        let t = &mut times[seat];
        t.sort_unstable();
        let median = t.get(t.len() / 2).copied().unwrap_or(0);
        let max = t.last().copied().unwrap_or(0);
        println!(
            "level {level}: {} moves, median {:.2} ms, max {:.2} ms",
            t.len(),
            median as f64 / 1000.0,
            max as f64 / 1000.0
        );
    }
}
