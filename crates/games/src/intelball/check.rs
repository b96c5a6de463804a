//! Whether a public position can arise in play: counts, the ball, blocks,
//! and the last combination against the field it left.
//!
//! A combination in progress (`_X` of the side on turn) is replayed: undone
//! code by code, then played again by the rules, and must give the field.
//! A finished one (`_X` of the other side) must show its last code's effect
//! and exactly its passers blocked, unless it scored (then the field is the
//! kick-off formation).

use std::collections::BTreeSet;

use super::board::{BLUE, Cell, Field, RED, Spot, other};
use super::code::{Code, combo_side};
use super::position::Position;
use super::rules::{self, Stepped, is_offside};
use crate::{NotationError, Side};

fn err(msg: impl Into<String>) -> NotationError {
    NotationError::new(msg)
}

fn name(side: Side) -> &'static str {
    if side == BLUE { "Blue" } else { "Red" }
}

/// Every invariant of a reachable public position.
pub fn check(pos: &Position) -> Result<(), NotationError> {
    check_teams(&pos.field)?;
    if pos.field.holder().is_some_and(|p| p.blocked) {
        return Err(err(format!(
            "the player holding the ball on {} is blocked",
            pos.field.ball.spot()
        )));
    }
    check_counts(pos)?;
    check_combo_shape(pos)?;
    if pos.in_progress() {
        check_in_progress(pos)
    } else {
        if let Some((cell, _)) = pos.field.team(pos.turn).find(|(_, p)| p.blocked) {
            return Err(err(format!(
                "{} is on turn and has not moved yet, so its player on {} cannot be blocked",
                name(pos.turn),
                cell.spot()
            )));
        }
        check_finished(pos)
    }
}

fn check_teams(field: &Field) -> Result<(), NotationError> {
    for side in [BLUE, RED] {
        let players = field.team(side).count();
        let keepers = field.team(side).filter(|(_, p)| p.keeper).count();
        if players != 6 {
            return Err(err(format!(
                "{} has {players} players; a side has 6",
                name(side)
            )));
        }
        if keepers != 1 {
            return Err(err(format!(
                "{} has {keepers} goalkeepers; a side has 1",
                name(side)
            )));
        }
    }
    Ok(())
}

fn check_counts(pos: &Position) -> Result<(), NotationError> {
    let red_on_turn = u32::from(pos.turn == RED);
    let blue_turns = pos.time + red_on_turn;
    if pos.score[BLUE] > blue_turns || pos.score[RED] > pos.time {
        return Err(err(format!(
            "score {}:{} is more goals than turns played by time {}",
            pos.score[BLUE], pos.score[RED], pos.time
        )));
    }
    // Every turn played took at least one code. `_X` holds the codes of the
    // turn in progress, or else of the last turn played (one of `turns`);
    // empty, it holds none of them, as only the opening has no last turn.
    let turns = 2 * pos.time + red_on_turn;
    let codes = pos.last.len() as u32;
    let least = if pos.in_progress() || codes == 0 {
        turns + codes
    } else {
        turns + codes - 1
    };
    if pos.step < least {
        return Err(err(format!(
            "step {} is too few for time {} and the combination in _X",
            pos.step, pos.time
        )));
    }
    Ok(())
}

/// One side's codes, `-` only last, and a turn-ending code only last.
fn check_combo_shape(pos: &Position) -> Result<(), NotationError> {
    let side = combo_side(&pos.last);
    for (i, code) in pos.last.iter().enumerate() {
        if code.side().is_some_and(|s| Some(s) != side) {
            return Err(err(format!(
                "_X mixes Blue's and Red's codes (code {})",
                i + 1
            )));
        }
        if code.ends_turn() && i + 1 < pos.last.len() {
            return Err(err(format!(
                "_X goes on after code {} {code}, which ends the turn",
                i + 1
            )));
        }
    }
    if let Some(code) = pos
        .last
        .last()
        .filter(|c| pos.in_progress() && c.ends_turn())
    {
        {
            return Err(err(format!(
                "_X ends {}'s turn with {code}, yet _H says {} is still on turn",
                name(pos.turn),
                name(pos.turn)
            )));
        }
    }
    Ok(())
}

fn cell(spot: Spot) -> Result<Cell, NotationError> {
    spot.cell()
        .ok_or_else(|| err(format!("_X names {spot}, which is off the field")))
}

/// Takes back one continuing code; the rules check it again afterwards.
fn unplay(field: &mut Field, side: Side, code: &Code) -> Result<(), NotationError> {
    let holds = |f: &Field, c: Cell| f.ball == c && f.piece(c).is_some_and(|p| p.side == side);
    let wrong = || {
        err(format!(
            "the combination in progress in _X does not lead to this position ({code})"
        ))
    };
    match *code {
        Code::ToBall { from, to, .. } => {
            let (a, b) = (cell(from)?, cell(to)?);
            if !holds(field, b) || field.piece(a).is_some() {
                return Err(wrong());
            }
            field.shift(b, a);
        }
        Code::Pull { ball, to, .. } => {
            let (a, b) = (cell(ball)?, cell(to)?);
            if !holds(field, b) || field.piece(a).is_some() {
                return Err(wrong());
            }
            field.ball = a;
        }
        Code::Take { from, to, .. } => {
            let (a, b) = (cell(from)?, cell(to)?);
            if !holds(field, b) || field.piece(a).is_none_or(|p| p.side == side) {
                return Err(wrong());
            }
            field.ball = a;
        }
        Code::Pass { from, to, .. } => {
            let (a, b) = (cell(from)?, cell(to)?);
            if !holds(field, b) || !field.piece(a).is_some_and(|p| p.side == side && p.blocked) {
                return Err(wrong());
            }
            field.set_blocked(a, false);
            field.ball = a;
        }
        _ => return Err(wrong()),
    }
    Ok(())
}

fn check_in_progress(pos: &Position) -> Result<(), NotationError> {
    let side = pos.turn;
    let mut start = pos.field;
    for code in pos.last.iter().rev() {
        unplay(&mut start, side, code)?;
    }
    if let Some((c, _)) = start.team(side).find(|(_, p)| p.blocked) {
        return Err(err(format!(
            "before the combination in _X, {}'s player on {} would be blocked",
            name(side),
            c.spot()
        )));
    }
    let mut field = start;
    for (i, code) in pos.last.iter().enumerate() {
        match rules::play(&mut field, side, code) {
            Ok(Stepped::Continues) => {}
            Ok(Stepped::Ends(_)) => {
                return Err(err(format!(
                    "code {} {code} of _X would have ended the turn",
                    i + 1
                )));
            }
            Err(why) => {
                return Err(err(format!(
                    "code {} {code} of _X is illegal here: {}",
                    i + 1,
                    why.text(crate::Lang::En)
                )));
            }
        }
    }
    if field != pos.field {
        return Err(err(
            "the combination in progress in _X does not lead to this position",
        ));
    }
    Ok(())
}

/// The cells of `side`'s blocked players.
fn blocked(field: &Field, side: Side) -> BTreeSet<Cell> {
    field
        .team(side)
        .filter(|(_, p)| p.blocked)
        .map(|(c, _)| c)
        .collect()
}

/// Checks `_X` as the combination that just handed the turn over.
fn check_finished(pos: &Position) -> Result<(), NotationError> {
    let f = &pos.field;
    let Some(last) = pos.last.last() else {
        return match f.pieces().find(|(_, p)| p.blocked) {
            Some((c, _)) => Err(err(format!(
                "no combination in _X, yet the player on {} is blocked",
                c.spot()
            ))),
            None => Ok(()),
        };
    };
    let mover = other(pos.turn);
    let mut passers = BTreeSet::new();
    for code in &pos.last {
        if let Code::Pass { from, .. } = code {
            passers.insert(cell(*from)?);
        }
    }
    let own_at = |c: Cell| f.piece(c).is_some_and(|p| p.side == mover);
    let keeper_holds = f.holder().is_some_and(|p| p.keeper && p.side == pos.turn);
    let bad = |what: &str| err(format!("_X ends with {last}, but {what}"));
    match *last {
        Code::End => {}
        Code::Step { from, to, .. } | Code::Dribble { from, to, .. } => {
            let (a, b) = (cell(from)?, cell(to)?);
            if !own_at(b) || f.piece(a).is_some() {
                return Err(bad(&format!(
                    "{}'s player is not on {to} (or {from} is not empty)",
                    name(mover)
                )));
            }
            if matches!(last, Code::Dribble { .. }) && f.ball != b {
                return Err(bad(&format!("the ball is not on {to}")));
            }
        }
        Code::Shot { from, to, .. } if to.goal_of().is_some() => {
            if *f == Field::kick_off(pos.turn) {
                return Ok(());
            }
            let on_path = from.between(to).is_some_and(|p| p.contains(&f.ball));
            if !(keeper_holds && on_path) {
                return Err(bad(
                    "it is neither a goal (kick-off formation) nor a catch by the goalkeeper",
                ));
            }
        }
        Code::Shot { to, .. } => {
            if f.ball.spot() != to || f.holder().is_some() {
                return Err(bad(&format!("the ball is not free on {to}")));
            }
        }
        Code::Pass { from, to, .. } => {
            let offside = from
                .cell()
                .zip(to.cell())
                .is_some_and(|(a, b)| is_offside(mover, a, b));
            if !offside || !keeper_holds {
                return Err(bad(&format!(
                    "{} is on turn: only an offside pass ends a turn",
                    name(pos.turn)
                )));
            }
        }
        _ => {
            return Err(bad(&format!(
                "that code does not end a turn, yet {} is on turn",
                name(pos.turn)
            )));
        }
    }
    if blocked(f, mover) != passers {
        return Err(err(format!(
            "{}'s blocked players must be exactly the passers of its combination in _X",
            name(mover)
        )));
    }
    Ok(())
}
