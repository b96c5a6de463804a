//! What a seat reads: the field with column and row labels, a legend (in the
//! first round), the ball, the last combination, score and time, and whose
//! move it is.
//!
//! ```text
//!               111
//!   123 456 789 012
//! 1 ... ... ... ...
//! 2 ... .L. .R. ...
//! 3 ..L ... ... R..
//! 4 G.. .L* .R. ..H
//! 5 ..L ... ... R..
//! 6 ... .L. .R. ...
//! 7 ... ... ... ...
//! ```
//!
//! Blue `L` (goalkeeper `G`), Red `R` (goalkeeper `H`), blocked players in
//! lower case, the holder of the ball `@` (Blue) or `$` (Red), the free ball
//! `*` (the line under the legend says where it is and who holds it). Spaces mark the zone lines. GSM-7 only (no `|`, which costs two).

use super::board::{BLUE, Cell, Field, RED};
use super::code::write_combo;
use super::state::{Left, Mode, State};
use crate::{Lang, Seat, Side, tr};
use smsarena_text::encoding::fits_gsm7;

/// The parts a seat's text may take.
const MAX_PARTS: u32 = 3;

/// The seat's text; no trailing newline. The legend is on the first
/// round's boards only: repeated on every board it made most of them three
/// SMS parts rather than two, and the guide explains every symbol. Where
/// the longest lines together (a seven-code combination on two-digit
/// columns, a keeper holding the ball, a takeback) would take a fourth part,
/// even a first-round legend gives way.
pub fn render(state: &State, seat: Seat, lang: Lang) -> String {
    let mut lines = board(&state.pos.field);
    let legend = (state.pos.time == 0).then_some(lines.len());
    if legend.is_some() {
        lines.push(tr!(lang, "ib-legend"));
    }
    lines.push(ball_line(&state.pos.field, lang));
    if let Some(line) = last_line(state, lang) {
        lines.push(line);
    }
    let [a, b] = state.pos.score;
    let (t, e) = (state.pos.time, state.limit);
    lines.push(tr!(
        lang,
        "ib-score",
        blue = a,
        red = b,
        time = t,
        limit = e,
    ));
    if let Some(line) = takeback_line(state, seat, lang) {
        lines.push(line);
    }
    lines.push(turn_line(state, seat, lang));
    let text = lines.join("\n");
    match legend {
        Some(legend) if !fits_gsm7(&text, MAX_PARTS) => {
            lines.remove(legend);
            lines.join("\n")
        }
        _ => text,
    }
}

/// The two label lines and seven rows.
pub fn board(field: &Field) -> Vec<String> {
    let mut lines = vec![
        "              111".to_string(),
        "  123 456 789 012".to_string(),
    ];
    for row in 1..=7u8 {
        let mut line = format!("{row}");
        for col in 1..=12u8 {
            if col % 3 == 1 {
                line.push(' ');
            }
            line.push(Cell::new(row, col).map_or('?', |c| symbol(field, c)));
        }
        lines.push(line);
    }
    lines
}

pub(super) fn symbol(field: &Field, cell: Cell) -> char {
    let has_ball = field.ball == cell;
    match field.piece(cell) {
        None if has_ball => '*',
        None => '.',
        Some(p) if has_ball => {
            if p.side == BLUE {
                '@'
            } else {
                '$'
            }
        }
        Some(p) => {
            let c = match (p.side == BLUE, p.keeper) {
                (true, false) => 'L',
                (true, true) => 'G',
                (false, false) => 'R',
                (false, true) => 'H',
            };
            if p.blocked { c.to_ascii_lowercase() } else { c }
        }
    }
}

/// The key `ib-*` messages pick a side's words by.
fn side_key(side: Side) -> &'static str {
    if side == BLUE { "blue" } else { "red" }
}

fn ball_line(field: &Field, lang: Lang) -> String {
    let at = field.ball.spot();
    match field.holder() {
        None => tr!(lang, "ib-ball", at = at.to_string()),
        Some(p) => {
            let letter = if p.side == BLUE { 'L' } else { 'R' };
            let at = format!("{letter}{at}");
            if p.keeper {
                tr!(lang, "ib-ball-keeper", at = at)
            } else {
                tr!(lang, "ib-ball", at = at)
            }
        }
    }
}

fn last_line(state: &State, lang: Lang) -> Option<String> {
    let pos = &state.pos;
    if pos.last.is_empty() {
        return None;
    }
    let codes = write_combo(&pos.last);
    Some(if pos.in_progress() {
        tr!(lang, "ib-so-far", codes = codes)
    } else {
        tr!(lang, "ib-last", codes = codes)
    })
}

fn takeback_line(state: &State, seat: Seat, lang: Lang) -> Option<String> {
    let asker = state.asked?;
    Some(if asker == seat {
        tr!(lang, "ib-you-asked-takeback")
    } else {
        tr!(lang, "ib-takeback-asked")
    })
}

fn turn_line(state: &State, seat: Seat, lang: Lang) -> String {
    let turn = state.pos.turn;
    if state.finished() {
        return result_line(state, seat, lang);
    }
    let undo = if state.pos.in_progress() { "yes" } else { "no" };
    if state.mode == Mode::Hot {
        return tr!(lang, "ib-hot-turn", side = side_key(turn), undo = undo);
    }
    let me = state.side_of(seat);
    if me == turn {
        tr!(lang, "ib-your-move", side = side_key(me), undo = undo)
    } else {
        tr!(lang, "ib-their-move", side = side_key(me))
    }
}

fn result_line(state: &State, seat: Seat, lang: Lang) -> String {
    let [a, b] = state.pos.score;
    let winner = match state.left {
        Some(left) => left.loser().map(|side| 1 - side),
        None if a > b => Some(BLUE),
        None if b > a => Some(RED),
        None => None,
    };
    // On one phone there is no opponent to name. An opponent who left lost:
    // this seat won.
    let mine = state.side_of(seat);
    let left = match state.left {
        Some(Left::Resigned(side)) if state.mode != Mode::Hot && side != mine => "resigned",
        Some(Left::TimedOut(side)) if state.mode != Mode::Hot && side != mine => "timed-out",
        _ => "none",
    };
    let verdict = match winner {
        None if state.left == Some(Left::Stopped) => tr!(lang, "ib-stopped"),
        None => tr!(lang, "ib-draw"),
        Some(w) if state.mode == Mode::Hot => tr!(lang, "ib-side-won", side = side_key(w)),
        Some(w) if w == mine => tr!(lang, "ib-you-won", left = left),
        Some(_) => tr!(lang, "ib-you-lost"),
    };
    format!("{verdict}\n{}", tr!(lang, "ib-rematch"))
}

/// The move syntax in about 100 characters.
pub fn move_help(lang: Lang) -> String {
    tr!(lang, "ib-move-help")
}
