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
use super::refusal::side_key;
use super::state::{End, Outcome, State};
use crate::{Lang, Seat, tr};

/// The seat's text. A seat that is not in the match gets the board and the
/// counts without "you". Where a crowded board would take a fourth part,
/// the last word gives way (the board shows it), then the rematch hint.
pub fn render(state: &State, seat: Seat, lang: Lang) -> String {
    let me = state.colour_of(seat);
    let head = {
        let mut lines = board_lines(state);
        lines.push(counts(state, me, lang));
        lines.join("\n")
    };
    let last = last_move(state, me, lang);
    let hint = opening_hint(state, me, lang);
    let text = |last: Option<&String>, rematch: bool| {
        let mut lines = vec![head.clone()];
        lines.extend(last.cloned());
        lines.extend(hint.clone());
        lines.push(status(state, me, lang, rematch));
        lines.join("\n")
    };
    [text(last.as_ref(), true), text(None, true)]
        .into_iter()
        .find(|t| fits_three_parts(t))
        .unwrap_or_else(|| text(None, false))
}

/// Whether three SMS parts carry `text`: a Russian board is UCS-2 (67
/// characters a part), an English one GSM-7 (153 a part; a board uses no
/// character of the extension table).
fn fits_three_parts(text: &str) -> bool {
    if text.is_ascii() {
        text.len() <= 3 * 153
    } else {
        text.encode_utf16().count() <= 3 * 67
    }
}

/// Before the first word: how a move is written, from the reader's own base.
fn opening_hint(state: &State, me: Option<Colour>, lang: Lang) -> Option<String> {
    if !state.words().is_empty() || state.passes() > 0 || state.outcome().is_some() {
        return None;
    }
    let opening = match me {
        Some(Colour::Blue) => "j10l",
        _ => "a1r",
    };
    Some(tr!(lang, "wb-opening-hint", opening = opening))
}

fn board_lines(state: &State) -> Vec<String> {
    let mut lines: Vec<String> = (1..=SIZE)
        .rev()
        .map(|row| {
            let mut line: String = (0..SIZE)
                .filter_map(|col| Cell::new(col, row))
                .map(|cell| symbol(state, cell))
                .collect();
            line.push_str(&row.to_string());
            line
        })
        .collect();
    lines.push("abcdefghij".into());
    lines
}

/// What the board shows on a cell: a letter (Red's upper case), an empty
/// base's hint, or `.`.
pub(super) fn symbol(state: &State, cell: Cell) -> char {
    let variant = state.variant();
    match state.board().tile(cell) {
        Some(t) => variant.char(t.letter, t.owner == Colour::Red),
        None => match Colour::BOTH.into_iter().find(|c| c.base() == cell) {
            Some(Colour::Red) => variant.hint().to_uppercase().next().unwrap_or('B'),
            Some(Colour::Blue) => variant.hint(),
            None => '.',
        },
    }
}

fn counts(state: &State, me: Option<Colour>, lang: Lang) -> String {
    tr!(
        lang,
        "wb-counts",
        me = me.map_or("none", side_key),
        red_letters = state.score(Colour::Red),
        blue_letters = state.score(Colour::Blue),
    )
}

/// The last move: the word in move notation, or who passed (a missed
/// deadline passes too).
fn last_move(state: &State, me: Option<Colour>, lang: Lang) -> Option<String> {
    if state.passes() > 0 {
        // The turn passes with every move: the side not on turn moved last.
        let passer = state.turn().other();
        let who = if me == Some(passer) {
            "me"
        } else {
            side_key(passer)
        };
        return Some(tr!(lang, "wb-passed", who = who));
    }
    let p = state.words().last()?;
    Some(format!("{}{} {}", p.start, p.dir.letter(), p.word))
}

fn status(state: &State, me: Option<Colour>, lang: Lang, rematch: bool) -> String {
    let Some(outcome) = state.outcome() else {
        return match me {
            Some(c) if c == state.turn() => tr!(lang, "wb-your-move"),
            _ => tr!(lang, "wb-their-move"),
        };
    };
    let result = match (outcome, me) {
        (Outcome::Draw, _) => "draw",
        (Outcome::Won(c), Some(m)) if c == m => "won",
        (Outcome::Won(_), Some(_)) => "lost",
        (Outcome::Won(c), None) => side_key(c),
    };
    let end = match state.end() {
        End::Passes => "passes",
        End::Base => "base",
        End::Left(seat) if state.colour_of(seat) == me => "me-left",
        End::Left(_) => "they-left",
        End::Playing => "playing",
    };
    tr!(
        lang,
        "wb-result",
        end = end,
        result = result,
        rematch = if rematch { "yes" } else { "no" },
    )
}

/// The move syntax in one SMS (GSM-7, with room for the platform's commands).
pub fn move_help(lang: Lang) -> String {
    tr!(lang, "wb-move-help")
}
