//! Prints what each seat of a paper-soccer position reads, in both languages, with its septets and SMS parts.
//!
//! `cargo run --example ps_show -- '8x10 0 0,3,64 -'` (a state string, as the
//! admin API shows it).

use smsarena::encoding::analyse;
use smsarena::games::Game;
use smsarena::games::paper_soccer::{PaperSoccer, State};
use smsarena::lang::Lang;

fn main() {
    let Some(text) = std::env::args().nth(1) else {
        eprintln!("usage: ps_show '<state string>'");
        std::process::exit(2);
    };
    let state: State = match text.parse() {
        Ok(state) => state,
        Err(e) => {
            eprintln!("ps_show: {e}");
            std::process::exit(2);
        }
    };
    for lang in [Lang::Ru, Lang::En] {
        let board = PaperSoccer.render(&state, state.to_move(), lang);
        let a = analyse(&board);
        println!(
            "{board}\n({} {:?} units, {} parts)\n",
            a.units, a.encoding, a.parts
        );
    }
}
