//! Prints every move of the car on turn in a state string with the robots'
//! level-1 and level-2 scores, best first: for tuning the drivers.
//!
//! ```text
//! cargo run --example ar_explain -- "AR1 track=..."
//! ```

use rand::SeedableRng;
use smsarena::games::auto_race::AutoRace;
use smsarena::games::auto_race::State;
use smsarena::games::auto_race::robot::explain;
use smsarena::games::{Game, Lang, MatchRng, Status};

fn main() {
    let text = std::env::args().nth(1).expect("a state string");
    let state: State = text.parse().expect("a valid state");
    let game = AutoRace::default();
    if let Status::Awaiting(seats) = game.status(&state) {
        println!("{}\n", game.render(&state, seats[0], Lang::En));
    }
    for (mv, first, second) in explain(&state, &mut MatchRng::seed_from_u64(0))
        .iter()
        .take(20)
    {
        println!("{mv:>12} {first:8.3} {second:8.3}");
    }
}
