//! The public state of the seed: field, turn, time, score, step count and
//! last combination, and its state string
//! `_S(3)_X(...)_L(2,5_3,3_g4,1_-4,5_5,3_6,5_)_R(...)_B(1,10)_H(R)_T(0)_C(0:0)`.
//!
//! Players are written row by row, then column (`g` the goalkeeper, `-`
//! blocked, each entry closed by `_`). Parsing accepts any order, lower or
//! upper case and spaces, and refuses what the rules cannot reach (see
//! [`super::check`]).

use std::fmt;
use std::str::FromStr;

use super::board::{BLUE, Cell, Field, Piece, RED, other};
use super::code::{Code, combo_side, parse_codes, write_combo};
use super::reader::{Reader, number};
use super::rules::{self, Stepped};
use super::why::Why;
use crate::{NotationError, Side};

/// Everything the seed's state string says.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Position {
    pub field: Field,
    /// The side on turn.
    pub turn: Side,
    /// `T`: completed rounds (one more each time Red's turn ends).
    pub time: u32,
    /// Goals, Blue then Red.
    pub score: [u32; 2],
    /// `S`: codes played so far.
    pub step: u32,
    /// `X`: the combination in progress, or else the last one played.
    pub last: Vec<Code>,
}

impl Position {
    /// The seed's opening: formation, ball at (4,6), Blue to move.
    pub fn opening() -> Position {
        Position {
            field: Field::kick_off(BLUE),
            turn: BLUE,
            time: 0,
            score: [0, 0],
            step: 0,
            last: Vec::new(),
        }
    }

    /// Whether `last` is the combination of the side on turn, still going on.
    pub fn in_progress(&self) -> bool {
        combo_side(&self.last) == Some(self.turn)
    }

    /// The codes of the combination in progress (empty when none).
    pub fn current(&self) -> &[Code] {
        if self.in_progress() { &self.last } else { &[] }
    }

    /// Plays one code for the side on turn; a refusal changes nothing.
    pub fn play(&mut self, code: &Code) -> Result<Stepped, Why> {
        let mut field = self.field;
        let stepped = rules::play(&mut field, self.turn, code)?;
        self.field = field;
        if !self.in_progress() {
            self.last.clear();
        }
        self.last.push(*code);
        self.step += 1;
        if let Stepped::Ends(ending) = stepped {
            if ending == rules::Ending::Goal {
                self.score[self.turn] += 1;
            }
            if self.turn == RED {
                self.time += 1;
            }
            self.turn = other(self.turn);
        }
        Ok(stepped)
    }

    /// Reads the public fields from `reader`, leaving what follows `_C(...)`.
    pub fn read(reader: &mut Reader) -> Result<Position, NotationError> {
        let step = number(&reader.field("S")?, "_S")?;
        let last = parse_codes_or_none(&reader.field("X")?)?;
        let blue = reader.field("L")?;
        let red = reader.field("R")?;
        let ball = parse_cell(&reader.field("B")?, "_B (the ball)")?;
        let mut field = Field::empty(ball);
        place(&mut field, BLUE, &blue)?;
        place(&mut field, RED, &red)?;
        let turn = match reader.field("H")?.as_str() {
            "L" => BLUE,
            "R" => RED,
            other => {
                return Err(NotationError::new(format!(
                    "_H must be L or R, not {other:?}"
                )));
            }
        };
        let time = number(&reader.field("T")?, "_T")?;
        let score = reader.field("C")?;
        let (a, b) = score
            .split_once(':')
            .ok_or_else(|| NotationError::new(format!("_C must be blue:red, not {score:?}")))?;
        let score = [number(a, "Blue's goals")?, number(b, "Red's goals")?];
        let pos = Position {
            field,
            turn,
            time,
            score,
            step,
            last,
        };
        super::check::check(&pos)?;
        Ok(pos)
    }
}

fn parse_codes_or_none(text: &str) -> Result<Vec<Code>, NotationError> {
    if text.is_empty() {
        return Ok(Vec::new());
    }
    parse_codes(text).map_err(|e| NotationError::new(format!("_X: {e}")))
}

fn parse_cell(text: &str, what: &str) -> Result<Cell, NotationError> {
    let (r, c) = text
        .split_once(',')
        .ok_or_else(|| NotationError::new(format!("{what} must be row,column, not {text:?}")))?;
    let (row, col) = (number(r, "a row")?, number(c, "a column")?);
    u8::try_from(row)
        .ok()
        .zip(u8::try_from(col).ok())
        .and_then(|(r, c)| Cell::new(r, c))
        .ok_or_else(|| {
            NotationError::new(format!(
                "{what}: ({row},{col}) is off the field (rows 1-7, columns 1-12)"
            ))
        })
}

/// Puts `side`'s list (`2,5_G4,1_-4,5_...`) on the field.
fn place(field: &mut Field, side: Side, list: &str) -> Result<(), NotationError> {
    let name = if side == BLUE { "_L" } else { "_R" };
    let entries = list.strip_suffix('_').unwrap_or(list);
    if entries.is_empty() {
        return Err(NotationError::new(format!("{name} lists no player")));
    }
    for entry in entries.split('_') {
        let mut rest = entry;
        let (mut keeper, mut blocked) = (false, false);
        loop {
            if let Some(r) = rest.strip_prefix('G').filter(|_| !keeper) {
                keeper = true;
                rest = r;
            } else if let Some(r) = rest.strip_prefix('-').filter(|_| !blocked) {
                blocked = true;
                rest = r;
            } else {
                break;
            }
        }
        let cell = parse_cell(rest, &format!("{name} entry {entry:?}"))?;
        if field.piece(cell).is_some() {
            return Err(NotationError::new(format!(
                "two players on {}",
                cell.spot()
            )));
        }
        field.put(
            cell,
            Some(Piece {
                side,
                keeper,
                blocked,
            }),
        );
    }
    Ok(())
}

fn write_team(f: &mut fmt::Formatter<'_>, field: &Field, side: Side) -> fmt::Result {
    for (cell, piece) in field.team(side) {
        let blocked = if piece.blocked { "-" } else { "" };
        let keeper = if piece.keeper { "g" } else { "" };
        write!(f, "{blocked}{keeper}{},{}_", cell.row(), cell.col())?;
    }
    Ok(())
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "_S({})_X({})_L(", self.step, write_combo(&self.last))?;
        write_team(f, &self.field, BLUE)?;
        f.write_str(")_R(")?;
        write_team(f, &self.field, RED)?;
        let ball = self.field.ball;
        let turn = if self.turn == BLUE { 'L' } else { 'R' };
        write!(
            f,
            ")_B({},{})_H({turn})_T({})_C({}:{})",
            ball.row(),
            ball.col(),
            self.time,
            self.score[BLUE],
            self.score[RED]
        )
    }
}

impl FromStr for Position {
    type Err = NotationError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let mut reader = Reader::new(s);
        let pos = Position::read(&mut reader)?;
        reader.end()?;
        Ok(pos)
    }
}
