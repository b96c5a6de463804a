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
use crate::{Lang, Seat, Side};
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
        lines.push(
            lang.pick(
                "L R igroki, G H vratari, l r g h blok, @ $ s myachom",
                "L R players, G H keepers, l r g h blocked, @ $ with ball",
            )
            .to_string(),
        );
    }
    lines.push(ball_line(&state.pos.field, lang));
    if let Some(line) = last_line(state, lang) {
        lines.push(line);
    }
    let [a, b] = state.pos.score;
    let (t, e) = (state.pos.time, state.limit);
    lines.push(match lang {
        Lang::Ru => format!("Schet {a}:{b} (L:R), vremya {t}/{e}."),
        Lang::En => format!("Score {a}:{b} (L:R), time {t}/{e}."),
    });
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

fn side_name(side: Side, lang: Lang) -> &'static str {
    match (side == BLUE, lang) {
        (true, Lang::Ru) => "sinie (L)",
        (false, Lang::Ru) => "krasnye (R)",
        (true, Lang::En) => "Blue (L)",
        (false, Lang::En) => "Red (R)",
    }
}

fn ball_line(field: &Field, lang: Lang) -> String {
    let at = field.ball.spot();
    match field.holder() {
        None => lang.pick("Myach: ", "Ball: ").to_string() + &at.to_string(),
        Some(p) => {
            let letter = if p.side == BLUE { 'L' } else { 'R' };
            let keeper = if p.keeper {
                lang.pick(", vratar", ", keeper")
            } else {
                ""
            };
            format!("{}{letter}{at}{keeper}", lang.pick("Myach: ", "Ball: "))
        }
    }
}

fn last_line(state: &State, lang: Lang) -> Option<String> {
    let pos = &state.pos;
    if pos.last.is_empty() {
        return None;
    }
    let label = if pos.in_progress() {
        lang.pick("Nachato: ", "So far: ")
    } else {
        lang.pick("Posl.: ", "Last: ")
    };
    Some(format!("{label}{}", write_combo(&pos.last)))
}

fn takeback_line(state: &State, seat: Seat, lang: Lang) -> Option<String> {
    let asker = state.asked?;
    Some(
        if asker == seat {
            lang.pick("Vy prosili otmenu.", "You asked a takeback.")
        } else {
            lang.pick(
                "Sopernik prosit otmenu: U - da.",
                "Takeback asked: U to agree.",
            )
        }
        .to_string(),
    )
}

fn turn_line(state: &State, seat: Seat, lang: Lang) -> String {
    let turn = state.pos.turn;
    if state.finished() {
        return result_line(state, seat, lang);
    }
    let more = if state.pos.in_progress() {
        lang.pick(" U - otmena.", " U to undo.")
    } else {
        ""
    };
    if state.mode == Mode::Hot {
        return match lang {
            Lang::Ru => format!(
                "Xod {}.{more}",
                if turn == BLUE {
                    "sinix (L)"
                } else {
                    "krasnyx (R)"
                }
            ),
            Lang::En => format!("{} to move.{more}", side_name(turn, lang)),
        };
    }
    let me = state.side_of(seat);
    let you = match lang {
        Lang::Ru => format!(" Vy - {}.", side_name(me, lang)),
        Lang::En => format!(" You are {}.", side_name(me, lang)),
    };
    if me == turn {
        format!("{}{you}{more}", lang.pick("Vash xod.", "Your move."))
    } else {
        format!("{}{you}", lang.pick("Xod protivnika.", "Opponent's move."))
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
    // On one phone there is no opponent to name.
    let mine = state.side_of(seat);
    let resigned = match state.left {
        Some(Left::Resigned(side)) if state.mode != Mode::Hot && side != mine => {
            lang.pick(" Sopernik sdalsya.", " The opponent resigned.")
        }
        Some(Left::TimedOut(side)) if state.mode != Mode::Hot && side != mine => lang.pick(
            " Sopernik ne xodil i vybyl po vremeni.",
            " The opponent ran out of time.",
        ),
        _ => "",
    };
    let verdict = match winner {
        None if state.left == Some(Left::Stopped) => {
            lang.pick("Match ostanovlen.", "Match stopped.").to_string()
        }
        None => lang.pick("Nichya.", "Draw.").to_string(),
        Some(w) if state.mode == Mode::Hot => match lang {
            Lang::Ru => format!("Pobedili {}.", side_name(w, lang)),
            Lang::En => format!("{} won.", side_name(w, lang)),
        },
        Some(w) if w == state.side_of(seat) => lang.pick("Vi pobedili.", "You won.").to_string(),
        Some(_) => lang.pick("Vi proigrali.", "You lost.").to_string(),
    };
    format!(
        "{verdict}{resigned}\n{}",
        lang.pick("PA - revansh.", "PA - rematch.")
    )
}

/// The move syntax in about 100 characters.
pub fn move_help(lang: Lang) -> String {
    lang.pick(
        "L(4,7)>F(5,8) shag, L>B k myachu, B>L vzyat, B~R>L otobrat, B&L>F s myachom, B~L>L pas, B~L>F udar, - konec, U otmena.",
        "L(4,7)>F(5,8) step, L>B to ball, B>L pull, B~R>L take, B&L>F dribble, B~L>L pass, B~L>F shot, - end, U undo.",
    )
    .to_string()
}
