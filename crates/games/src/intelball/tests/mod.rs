//! Tests through the `Game` trait and the modules: the seed's vectors, every
//! move kind, undo, state strings, the board text, properties, the robots.

use rand::SeedableRng;

use super::board::{Cell, Field, Piece};
use super::*;
use crate::{Effect, Game, MatchRng, Played, Seat};

mod codes;
mod props;
mod rendering;
mod robots;
mod rules;
mod rules_positions;
mod seed;
mod strings;
mod undo;

/// The seed's opening state string, sorted as we write it.
pub const OPENING: &str = "_S(0)_X()_L(2,5_3,3_g4,1_4,5_5,3_6,5_)_R(2,8_3,10_4,8_g4,12_5,10_6,8_)_B(4,6)_H(L)_T(0)_C(0:0)";

/// The seed's combination and the state it leads to.
pub const SEED_COMBO: &str = "B(4,6)>L(4,5)B~L(4,5)>L(6,5)B~L(6,5)>F(1,10)";
pub const SEED_AFTER: &str = "_S(3)_X(B(4,6)>L(4,5)B~L(4,5)>L(6,5)B~L(6,5)>F(1,10))_L(2,5_3,3_g4,1_-4,5_5,3_6,5_)_R(2,8_3,10_4,8_g4,12_5,10_6,8_)_B(1,10)_H(R)_T(0)_C(0:0)";

pub fn game() -> Intelball {
    Intelball::default()
}

pub fn rng() -> MatchRng {
    MatchRng::seed_from_u64(7)
}

pub fn mv(text: &str) -> Move {
    text.parse().unwrap_or_else(|e| panic!("{text}: {e}"))
}

pub fn pos(text: &str) -> Position {
    text.parse().unwrap_or_else(|e| panic!("{text}: {e}"))
}

/// A match of `mode` on `pos`.
pub fn match_on(pos: Position, mode: Mode) -> State {
    State::new(pos, mode, 90)
}

/// Plays a text that must be accepted.
pub fn ok(state: State, seat: Seat, text: &str) -> Played<State> {
    game()
        .play(state, seat, &mv(text), &mut rng())
        .unwrap_or_else(|r| panic!("seat {seat} {text} refused: {:?}", r.reason))
}

/// Plays a text that must be refused, and checks that nothing changed.
pub fn refusal(state: &State, seat: Seat, text: &str) -> Refusal {
    let refused = game()
        .play(state.clone(), seat, &mv(text), &mut rng())
        .unwrap_err();
    assert_eq!(
        &refused.state, state,
        "a refusal leaves the state as it was"
    );
    refused.reason
}

/// A position from a picture of 7 rows of 12 (spaces ignored): `L`/`G` Blue
/// player/goalkeeper, `R`/`H` Red, `@`/`&` a Blue player/goalkeeper with the
/// ball, `$`/`%` Red ones, `*` the free ball, `.` empty. Nothing has moved yet.
pub fn picture(rows: [&str; 7], turn: usize) -> Position {
    let mut field = Field::empty(Cell::at(0));
    for (r, row) in rows.iter().enumerate() {
        let cells: Vec<char> = row.chars().filter(|c| !c.is_whitespace()).collect();
        assert_eq!(cells.len(), 12, "row {}", r + 1);
        for (c, ch) in cells.into_iter().enumerate() {
            let cell = Cell::new(r as u8 + 1, c as u8 + 1).unwrap();
            let (side, keeper, ball) = match ch {
                '.' => continue,
                '*' => {
                    field.ball = cell;
                    continue;
                }
                'L' => (BLUE, false, false),
                'G' => (BLUE, true, false),
                '@' => (BLUE, false, true),
                '&' => (BLUE, true, true),
                'R' => (RED, false, false),
                'H' => (RED, true, false),
                '$' => (RED, false, true),
                '%' => (RED, true, true),
                other => panic!("bad picture char {other}"),
            };
            field.put(
                cell,
                Some(Piece {
                    side,
                    keeper,
                    blocked: false,
                }),
            );
            if ball {
                field.ball = cell;
            }
        }
    }
    let pos = Position {
        field,
        turn,
        time: 10,
        score: [0, 0],
        step: 40,
        last: Vec::new(),
    };
    check::check(&pos).unwrap_or_else(|e| panic!("picture: {e}"));
    pos
}
