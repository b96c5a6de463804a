//! What one code does to the field: its legality, its effect, and the end of
//! a turn (blocks lifted, the goalkeeper's leap, offside, goals and kick-off).

use super::board::{Cell, Field, Spot, other};
use super::code::Code;
use super::why::Why;
use crate::Side;

/// How a turn ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending {
    Step,
    Dribble,
    /// A shot to a free cell.
    Shot,
    /// A shot at goal that the goalkeeper caught on this cell.
    Caught(Cell),
    Goal,
    /// A pass into the opponents' goalkeeper zone from another zone.
    Offside,
    /// `-`.
    Passed,
}

/// What a legal code did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stepped {
    /// The combination goes on.
    Continues,
    /// The turn passed to the other side (the field is already handed over).
    Ends(Ending),
}

/// Plays `code` for `side` (the side on turn) on `field`. A refusal leaves
/// the field as it was. When the turn ends, the other side's blocks are
/// lifted, or after a goal the field is the kick-off formation of the
/// conceding side.
pub fn play(field: &mut Field, side: Side, code: &Code) -> Result<Stepped, Why> {
    if code.side().is_some_and(|s| s != side) {
        return Err(Why::WrongSide(side));
    }
    let stepped = match *code {
        Code::End => Stepped::Ends(Ending::Passed),
        Code::Step { from, to, .. } => step(field, side, from, to)?,
        Code::ToBall { from, to, .. } => to_ball(field, side, from, to)?,
        Code::Pull { ball, to, .. } => pull(field, side, ball, to)?,
        Code::Take { from, to, .. } => take(field, side, from, to)?,
        Code::Dribble { from, to, .. } => dribble(field, side, from, to)?,
        Code::Pass { from, to, .. } => pass(field, side, from, to)?,
        Code::Shot { from, to, .. } => shot(field, side, from, to)?,
    };
    if let Stepped::Ends(ending) = stepped {
        if ending == Ending::Goal {
            *field = Field::kick_off(other(side));
        } else {
            field.unblock(other(side));
        }
    }
    Ok(stepped)
}

fn on_field(spot: Spot) -> Result<Cell, Why> {
    spot.cell().ok_or(Why::OffField(spot))
}

/// The unblocked player of `side` on `spot`.
fn own(field: &Field, side: Side, spot: Spot) -> Result<Cell, Why> {
    let cell = on_field(spot)?;
    match field.piece(cell) {
        Some(p) if p.side == side && p.blocked => Err(Why::Blocked(spot)),
        Some(p) if p.side == side => Ok(cell),
        _ => Err(Why::NoPlayer(side, spot)),
    }
}

/// The cell next to `from` named by `to`.
fn near(from: Cell, to: Spot) -> Result<Cell, Why> {
    let cell = on_field(to)?;
    if from.near(cell) {
        Ok(cell)
    } else {
        Err(Why::NotNear(from.spot(), to))
    }
}

/// `side`'s player on `spot`, who must hold the ball.
fn holder(field: &Field, side: Side, spot: Spot) -> Result<Cell, Why> {
    let cell = own(field, side, spot)?;
    if field.ball == cell {
        Ok(cell)
    } else {
        Err(Why::NoBallHere(spot))
    }
}

/// A cell with no player and no ball.
fn free(field: &Field, cell: Cell) -> Result<(), Why> {
    if field.piece(cell).is_some() {
        Err(Why::Taken(cell.spot()))
    } else if field.ball == cell {
        Err(Why::BallThere(cell.spot()))
    } else {
        Ok(())
    }
}

fn step(field: &mut Field, side: Side, from: Spot, to: Spot) -> Result<Stepped, Why> {
    let a = own(field, side, from)?;
    if field.ball == a {
        return Err(Why::HoldsBall(from));
    }
    let b = near(a, to)?;
    free(field, b)?;
    field.shift(a, b);
    Ok(Stepped::Ends(Ending::Step))
}

/// The free ball on `spot`.
fn free_ball(field: &Field, spot: Spot) -> Result<Cell, Why> {
    let cell = on_field(spot)?;
    if field.ball != cell {
        Err(Why::NoBall(spot))
    } else if field.piece(cell).is_some() {
        Err(Why::BallHeld(spot))
    } else {
        Ok(cell)
    }
}

fn to_ball(field: &mut Field, side: Side, from: Spot, to: Spot) -> Result<Stepped, Why> {
    let a = own(field, side, from)?;
    let b = free_ball(field, to)?;
    if !a.near(b) {
        return Err(Why::NotNear(from, to));
    }
    field.shift(a, b);
    Ok(Stepped::Continues)
}

fn pull(field: &mut Field, side: Side, ball: Spot, to: Spot) -> Result<Stepped, Why> {
    let b = own(field, side, to)?;
    let a = free_ball(field, ball)?;
    if !a.near(b) {
        return Err(Why::NotNear(to, ball));
    }
    field.ball = b;
    Ok(Stepped::Continues)
}

fn take(field: &mut Field, side: Side, from: Spot, to: Spot) -> Result<Stepped, Why> {
    let b = own(field, side, to)?;
    let a = on_field(from)?;
    match field.piece(a) {
        Some(p) if p.side != side && field.ball == a => {}
        Some(p) if p.side != side => return Err(Why::NoBallHere(from)),
        _ => return Err(Why::NoPlayer(other(side), from)),
    }
    if !a.near(b) {
        return Err(Why::NotNear(to, from));
    }
    field.ball = b;
    Ok(Stepped::Continues)
}

fn dribble(field: &mut Field, side: Side, from: Spot, to: Spot) -> Result<Stepped, Why> {
    let a = holder(field, side, from)?;
    let b = near(a, to)?;
    if field.piece(b).is_some() {
        return Err(Why::Taken(to));
    }
    field.shift(a, b);
    field.ball = b;
    Ok(Stepped::Ends(Ending::Dribble))
}

/// The first player strictly between `from` and `to`, or `NotInLine`.
fn clear_line(field: &Field, from: Spot, to: Spot) -> Result<Vec<Cell>, Why> {
    let path = from.between(to).ok_or(Why::NotInLine(from, to))?;
    match path.iter().find(|c| field.piece(**c).is_some()) {
        Some(c) => Err(Why::Through(c.spot())),
        None => Ok(path),
    }
}

fn pass(field: &mut Field, side: Side, from: Spot, to: Spot) -> Result<Stepped, Why> {
    let a = holder(field, side, from)?;
    let b = on_field(to)?;
    match field.piece(b) {
        Some(p) if p.side == side && p.blocked => return Err(Why::MateBlocked(to)),
        Some(p) if p.side == side => {}
        _ => return Err(Why::NoPlayer(side, to)),
    }
    clear_line(field, from, to)?;
    field.set_blocked(a, true);
    if is_offside(side, a, b) {
        let keeper = field.keeper(other(side)).unwrap_or(b);
        field.ball = keeper;
        return Ok(Stepped::Ends(Ending::Offside));
    }
    field.ball = b;
    Ok(Stepped::Continues)
}

/// A pass to a player in the opponents' goalkeeper zone from another zone.
pub fn is_offside(side: Side, from: Cell, to: Cell) -> bool {
    let zone = if side == super::board::BLUE { 3 } else { 0 };
    to.zone() == zone && from.zone() != zone
}

/// The goalkeeper's reach against a shot from `from` at `side`'s opponents'
/// goal: the zone lines between the shooter and that goal.
pub fn reach(side: Side, from: Cell) -> u8 {
    if side == super::board::BLUE {
        3 - from.zone()
    } else {
        from.zone()
    }
}

fn shot(field: &mut Field, side: Side, from: Spot, to: Spot) -> Result<Stepped, Why> {
    let a = holder(field, side, from)?;
    match to.goal_of() {
        Some(goal) if goal == side => Err(Why::OwnGoal(to)),
        Some(_) => {
            let path = clear_line(field, from, to)?;
            match leap(field, side, a, &path) {
                Some((keeper, cell)) => {
                    field.shift(keeper, cell);
                    field.ball = cell;
                    Ok(Stepped::Ends(Ending::Caught(cell)))
                }
                None => Ok(Stepped::Ends(Ending::Goal)),
            }
        }
        None => {
            let b = on_field(to)?;
            if field.piece(b).is_some() {
                return Err(Why::Taken(to));
            }
            clear_line(field, from, to)?;
            field.ball = b;
            Ok(Stepped::Ends(Ending::Shot))
        }
    }
}

/// Where the defending goalkeeper catches a shot by `side` from `from` along
/// `path` (the cells before the goal): the path's cell in his column, if it
/// is within his reach of his row. Returns his cell and the catching cell.
pub fn leap(field: &Field, side: Side, from: Cell, path: &[Cell]) -> Option<(Cell, Cell)> {
    let keeper = field.keeper(other(side))?;
    let reach = reach(side, from);
    let cross = path.iter().find(|c| c.col() == keeper.col())?;
    (cross.row().abs_diff(keeper.row()) <= reach).then_some((keeper, *cross))
}
