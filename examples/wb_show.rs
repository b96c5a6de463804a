//! Prints what the players read during the seed's example game (used for docs/games/word_battle.md).
//!
//! `cargo run --example wb_show`

use rand::SeedableRng;
use smsarena::games::word_battle::{Move, State, Variant, WordBattle};
use smsarena::games::{Game, Lang, MatchRng, Reason};

fn main() {
    let game = WordBattle::new();
    let mut rng = MatchRng::seed_from_u64(1);
    let mut state = State::new(Variant::Ru, 6, 0);
    println!("{}\n", game.render(&state, 0, Lang::Ru));
    let texts = [
        "a1r бамбук",
        "j10l будуар",
        "a1u бордо",
        "j10d бостон",
        "a5r окурок",
        "e10d рококо",
    ];
    for text in texts {
        let mv: Move = text.parse().unwrap();
        let seat = state.seat_of(state.turn());
        state = game.play(state, seat, &mv, &mut rng).unwrap().state;
    }
    println!("{}\n", game.render(&state, 0, Lang::Ru));
    println!("{}\n", game.render(&state, 1, Lang::En));
    for text in ["a1u бар", "d5 рок", "f1r кадило", "a5r окно", "j10l кот"] {
        let mv: Move = text.parse().unwrap();
        let refused = game.play(state.clone(), 0, &mv, &mut rng).unwrap_err();
        println!("{text} -> {}", refused.reason.text(Lang::Ru));
    }
    let state = game
        .play(state, 0, &"d5r рок".parse().unwrap(), &mut rng)
        .unwrap()
        .state;
    let state = game.play(state, 1, &Move::Pass, &mut rng).unwrap().state;
    let state = game.play(state, 0, &Move::Pass, &mut rng).unwrap().state;
    println!("\n{}\n", game.render(&state, 0, Lang::Ru));
    println!(
        "{}\n{}",
        game.move_help(Lang::Ru),
        game.options_help(Lang::Ru)
    );
    let en = State::new(Variant::En, 6, 0);
    let en = game
        .play(en, 0, &"a1r bamboo".parse().unwrap(), &mut rng)
        .unwrap()
        .state;
    println!("\n{}", game.render(&en, 1, Lang::En));
}
