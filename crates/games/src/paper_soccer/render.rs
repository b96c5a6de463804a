//! What a seat reads: a status line and the board in ASCII, within 3 SMS parts of GSM-7
//! as the gateway cuts them.
//!
//! The board is drawn as everyone sees it, top goal up: `@` the ball, `+` a
//! touched point, `.` an untouched one, `-` `|` `/` `\` drawn segments, `X`
//! both diagonals of a square. The side lines are the left and right point
//! columns (not drawn, to save septets); the end lines and goals are drawn.
//! `|` and `\` are GSM-7 extension characters (2 septets each): when the
//! picture would pass the limit they become `!` and `%`; a field too large
//! for a picture gets a map of its points only.

use super::field::{Field, Kind, SENTINEL};
use super::moves::keypad_string;
use super::state::{How, State};
use crate::{Lang, Seat, tr};
use smsarena_text::encoding::{fits_gsm7, septets};

/// The parts a seat's text may take.
pub const MAX_PARTS: u32 = 3;

#[derive(Clone, Copy)]
pub struct Charset {
    pub vertical: char,
    pub backslash: char,
}

pub const PRETTY: Charset = Charset {
    vertical: '|',
    backslash: '\\',
};
pub const CHEAP: Charset = Charset {
    vertical: '!',
    backslash: '%',
};

/// The board picture: one line per point row and one between rows.
pub fn picture(state: &State, cs: Charset) -> String {
    let f = state.field();
    let pos = &state.pos;
    let (w, l) = (f.width as i32, f.length as i32);
    let drawn = |x: i32, y: i32, d: usize| -> bool {
        f.point(x, y).is_some_and(|p| {
            let e = f.edge[p as usize][d];
            e != SENTINEL && pos.drawn(e)
        })
    };
    let mut lines = Vec::new();
    for y in -1..=l + 1 {
        let mut row = String::new();
        for x in 0..=w {
            let c = match f.point(x, y) {
                None => ' ',
                Some(p) if p == pos.ball => '@',
                Some(p) if f.kind[p as usize] != Kind::Field => '+',
                Some(p) if pos.touched(f, p) => '+',
                Some(_) => '.',
            };
            row.push(c);
            if x < w {
                row.push(if drawn(x, y, 2) { '-' } else { ' ' });
            }
        }
        lines.push(row.trim_end().to_string());
        if y == l + 1 {
            break;
        }
        let mut mid = String::new();
        for x in 0..=w {
            let side = (x == 0 || x == w) && (0..l).contains(&y);
            mid.push(if !side && drawn(x, y, 4) {
                cs.vertical
            } else {
                ' '
            });
            if x < w {
                let down = drawn(x, y, 3);
                let up = drawn(x + 1, y, 5);
                mid.push(match (down, up) {
                    (true, true) => 'X',
                    (true, false) => cs.backslash,
                    (false, true) => '/',
                    (false, false) => ' ',
                });
            }
        }
        lines.push(mid.trim_end().to_string());
    }
    lines.join("\n")
}

/// A map of the points only (`@` ball, `+` touched, `.` untouched, `#` goal).
pub fn point_map(state: &State) -> String {
    let f: &Field = state.field();
    let mut lines = Vec::new();
    for y in -1..=f.length as i32 + 1 {
        let row: String = (0..=f.width as i32)
            .map(|x| match f.point(x, y) {
                None => ' ',
                Some(p) if p == state.pos.ball => '@',
                Some(p) if f.kind[p as usize] != Kind::Field => '#',
                Some(p) if state.pos.touched(f, p) => '+',
                Some(_) => '.',
            })
            .collect();
        lines.push(row.trim_end().to_string());
    }
    lines.join("\n")
}

/// The status lines for `seat`.
pub fn status(state: &State, seat: Seat, lang: Lang) -> String {
    let bounce = if state.in_chain() { "yes" } else { "no" };
    let mut s = match state.end {
        Some(end) => {
            let result = if end.winner == seat { "won" } else { "lost" };
            let how = match end.how {
                How::Goal => "goal",
                How::OwnGoal => "own-goal",
                How::DeadEnd => "dead-end",
                How::Resigned => "resigned",
                How::Absent => "absent",
            };
            tr!(lang, "ps-over", result = result, how = how)
        }
        None if state.to_move() == seat => tr!(lang, "ps-your-move", bounce = bounce),
        None => tr!(lang, "ps-opponents-move", bounce = bounce),
    };
    s.push('\n');
    let goal = if state.side_of(seat) == 0 {
        "top"
    } else {
        "bottom"
    };
    s.push_str(&match state.tokens().last() {
        Some(last) => tr!(
            lang,
            "ps-attack-last",
            goal = goal,
            last = keypad_string(last)
        ),
        None => tr!(lang, "ps-attack", goal = goal),
    });
    s
}

/// The whole text: status, then the largest picture that fits 3 parts.
pub fn render(state: &State, seat: Seat, lang: Lang) -> String {
    let mut head = status(state, seat, lang);
    if septets(&head).unwrap_or(usize::MAX) > 120 {
        // A very long last turn: keep the line short.
        head = status_short(state, seat, lang);
    }
    // A finished match ends on what to do next, as every other game's does;
    // the picture gives way to a cheaper one before the hint does.
    let hint = match state.end {
        Some(_) => format!("\n{}", tr!(lang, "ps-rematch")),
        None => String::new(),
    };
    for board in [
        picture(state, PRETTY),
        picture(state, CHEAP),
        point_map(state),
    ] {
        let text = format!("{head}\n{board}{hint}");
        if fits_gsm7(&text, MAX_PARTS) {
            return text;
        }
    }
    head + &hint
}

fn status_short(state: &State, seat: Seat, lang: Lang) -> String {
    let full = status(state, seat, lang);
    let cut: String = full.chars().take(100).collect();
    cut
}
