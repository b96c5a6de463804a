//! Plays one race between robots and prints every move with the text the
//! player on turn receives, then the final texts: a race as the phones see it.
//!
//! ```text
//! cargo run --example ar_trace -- [players] [levels] [seed] [options...]
//! ```
//!
//! `levels`: one per seat, comma-separated, `1`-`3` or `n` (the naive
//! farthest-forward driver), repeated to fill the seats; e.g. `2,n`.

use rand::SeedableRng;
use smsarena::games::auto_race::reach::outcomes;
use smsarena::games::auto_race::robot::naive;
use smsarena::games::auto_race::{AutoRace, Move, Options};
use smsarena::games::{Budget, Game, Lang, MatchRng, Status};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let players = args.first().map_or("3", String::as_str);
    let levels: Vec<Option<u8>> = args
        .get(1)
        .map_or("2", String::as_str)
        .split(',')
        .map(|l| l.parse().ok())
        .collect();
    let seed: u64 = args.get(2).map_or(Ok(1), |s| s.parse()).expect("seed");
    let extra = args.get(3..).map(|a| a.join(" ")).unwrap_or_default();
    let options: Options = format!("{players} {extra}").parse().expect("options");
    let game = AutoRace::default();
    let mut rng = MatchRng::seed_from_u64(seed);
    let mut state = game.start(&options, &mut rng);
    let mut moves = 0;
    while let Status::Awaiting(seats) = game.status(&state) {
        let seat = seats[0];
        println!("{}\n", game.render(&state, seat, Lang::En));
        if std::env::var_os("AR_STATES").is_some() {
            println!("{state}\n");
        }
        let mv = match levels[seat % levels.len()] {
            Some(level) => game.robot_move(&state, seat, level, &Budget::nodes(3_000), &mut rng),
            None => {
                let car = state.to_move().expect("a car on turn");
                let outs = outcomes(&state, car);
                outs.get(naive(&state, &outs))
                    .map_or(Move::Zero, |o| o.to_move())
            }
        };
        println!(">>> seat {seat}: {mv}\n");
        state = game
            .play(state, seat, &mv, &mut rng)
            .expect("robot moves are legal")
            .state;
        moves += 1;
    }
    for seat in 0..state.seats() {
        println!("--- seat {seat}\n{}\n", game.render(&state, seat, Lang::Ru));
    }
    println!("{moves} moves; final state:\n{state}");
}
