//! What a seat reads: the board with labels, the letter counts, the last move, whose turn.
//!
//! ```text
//! ....раудуб10
//! ....о....о9
//! ....к....с8
//! ....о....т7
//! ....к....о6
//! ОКУРок...н5
//! Д.........4
//! Р.........3
//! О.........2
//! БАМБУК....1
//! abcdefghij
//! Krasnye(vy) 13 : Sinie 17
//! e10d рококо
//! Vash xod.
//! ```
//!
//! That is the original's example game after `e10d рококо`, as the test
//! `the_seed_game_plays_out_exactly` checks it. Row numbers stand at the
//! right end of each row and the column letters below row 1 (as on a chess
//! diagram), so no row needs padding: a Russian
//! board is UCS-2, where three SMS parts hold 201 characters, and the
//! longest text this writes stays within them.

use super::board::{Cell, Colour, SIZE};
use super::state::{Outcome, State};
use crate::games::{Lang, Seat};

/// The seat's text. A seat that is not in the match gets the board and the
/// counts without "you".
pub fn render(state: &State, seat: Seat, lang: Lang) -> String {
    let me = state.colour_of(seat);
    let mut lines = board_lines(state);
    lines.push(counts(state, me, lang));
    if let Some(last) = last_move(state, lang) {
        lines.push(last);
    }
    lines.push(status(state, me, lang));
    lines.join("\n")
}

fn board_lines(state: &State) -> Vec<String> {
    let board = state.board();
    let variant = state.variant();
    let mut lines: Vec<String> = (1..=SIZE)
        .rev()
        .map(|row| {
            let mut line: String = (0..SIZE)
                .filter_map(|col| Cell::new(col, row))
                .map(|cell| match board.tile(cell) {
                    Some(t) => variant.char(t.letter, t.owner == Colour::Red),
                    None => match Colour::BOTH.into_iter().find(|c| c.base() == cell) {
                        Some(Colour::Red) => variant.hint().to_uppercase().next().unwrap_or('B'),
                        Some(Colour::Blue) => variant.hint(),
                        None => '.',
                    },
                })
                .collect();
            line.push_str(&row.to_string());
            line
        })
        .collect();
    lines.push("abcdefghij".into());
    lines
}

fn counts(state: &State, me: Option<Colour>, lang: Lang) -> String {
    let name = |c: Colour| {
        let base = match c {
            Colour::Red => lang.pick("Krasnye", "Red"),
            Colour::Blue => lang.pick("Sinie", "Blue"),
        };
        if me == Some(c) {
            format!("{base}{}", lang.pick("(vy)", "(you)"))
        } else {
            base.to_string()
        }
    };
    format!(
        "{} {} : {} {}",
        name(Colour::Red),
        state.score(Colour::Red),
        name(Colour::Blue),
        state.score(Colour::Blue)
    )
}

/// The last move: the word in move notation, or the pass.
fn last_move(state: &State, lang: Lang) -> Option<String> {
    if state.passes() > 0 {
        return Some(lang.pick("Pas.", "Pass.").into());
    }
    let p = state.words().last()?;
    Some(format!("{}{} {}", p.start, p.dir.letter(), p.word))
}

fn status(state: &State, me: Option<Colour>, lang: Lang) -> String {
    let Some(outcome) = state.outcome() else {
        return match me {
            Some(c) if c == state.turn() => lang.pick("Vash xod.", "Your move."),
            _ => lang.pick("Xod protivnika.", "Opponent's move."),
        }
        .into();
    };
    let result = match (outcome, me) {
        (Outcome::Draw, _) => lang.pick("Nichya.", "Draw."),
        (Outcome::Won(c), Some(m)) if c == m => lang.pick("Vi pobedili.", "You won."),
        (Outcome::Won(_), Some(_)) => lang.pick("Vi proigrali.", "You lost."),
        (Outcome::Won(Colour::Red), None) => lang.pick("Pobedili krasnye.", "Red won."),
        (Outcome::Won(Colour::Blue), None) => lang.pick("Pobedili sinie.", "Blue won."),
    };
    format!("{result} {}", lang.pick("PA - revansh.", "PA - rematch."))
}

/// The move syntax in one SMS (GSM-7, with room for the platform's commands).
pub fn move_help(lang: Lang) -> String {
    lang.pick(
        "Xod: kletka, napravlenie, slovo: a1r i slovo. Krasnye r vpravo, u vverx; \
         sinie l vlevo, d vniz. - pas.",
        "Move: cell, direction, word: a1r and the word. Red r right, u up; \
         Blue l left, d down. - pass.",
    )
    .to_string()
}
