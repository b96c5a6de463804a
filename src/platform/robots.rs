//! Robots' turns, the platform's side: a robot seat the game awaits gets a
//! durable turn in the transaction that made it due; the robot pool
//! (`src/robots.rs`) claims it, searches off the writer, and hands the move
//! back here, where it is played in a transaction of its own by the same
//! path as a player's text. A move for a turn that has moved on is dropped,
//! so a robot never plays twice in one turn.

use chrono::{DateTime, Utc};

use super::table::{Moved, Table};
use super::{Ctx, Platform};
use crate::games::{Seat, Status};
use crate::store::{Holder, RobotTurn, StoreResult, Tx};

/// What the pool needs to compute one robot turn.
#[derive(Clone, Debug)]
pub struct RobotJob {
    pub turn: RobotTurn,
    pub game: String,
    pub state: String,
    /// The match's seed, from which the robot's own generator is drawn.
    pub seed: u64,
    pub level: u8,
    /// The match's seats, which the state must hold.
    pub seats: usize,
}

/// What the pool's search made of a robot's turn.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Searched {
    /// The robot's move, in the game's notation.
    Move(String),
    /// The stored match would not load (or holds other seats), so there was
    /// nothing to search: played, the turn ends the match as void.
    Unloadable,
}

/// What became of a robot's move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Applied {
    Played,
    /// The turn had moved on, the seat was not awaited, the match is over,
    /// or it would not load and has just been ended as void.
    Dropped,
}

/// Makes the awaited robot seats' turns due.
pub(super) fn queue_turns(
    ctx: &mut Ctx<'_>,
    table: &Table<'_>,
    awaiting: &[Seat],
) -> StoreResult<()> {
    for &seat in awaiting {
        if matches!(table.seats[seat].holder, Holder::Robot(_)) {
            ctx.tx.robots().queue(&RobotTurn {
                match_id: table.record.id,
                seat,
                turn: table.record.turn,
                due_at: ctx.now,
            })?;
            ctx.robots_due = true;
        }
    }
    Ok(())
}

impl Platform {
    /// Plays what the search made of `turn`, unless the match has moved on;
    /// says too whether another robot's turn fell due.
    pub fn apply_robot_move(
        &self,
        tx: &mut dyn Tx,
        turn: &RobotTurn,
        searched: &Searched,
        now: DateTime<Utc>,
    ) -> StoreResult<(Applied, bool)> {
        let game_number = self.config().numbers.game.clone();
        let mut ctx = Ctx::new(self, tx, now, &game_number);
        let applied = apply(&mut ctx, turn, searched)?;
        Ok((applied, ctx.robots_due))
    }
}

/// A stale turn (the match moved on, or the seat is not awaited) is dropped.
/// A match the search could not load is loaded here too, which ends it as
/// void like any poison match: retried, the turn would fail for ever.
fn apply(ctx: &mut Ctx<'_>, turn: &RobotTurn, searched: &Searched) -> StoreResult<Applied> {
    ctx.tx.robots().done(turn)?;
    let Some(record) = ctx.tx.matches().by_id(turn.match_id)? else {
        return Ok(Applied::Dropped);
    };
    if record.finished || record.turn != turn.turn {
        return Ok(Applied::Dropped);
    }
    let Some(mut table) = Table::load(ctx, record)? else {
        return Ok(Applied::Dropped);
    };
    let awaited = matches!(table.state.status(), Status::Awaiting(ref s) if s.contains(&turn.seat));
    if !awaited || !matches!(table.seats[turn.seat].holder, Holder::Robot(_)) {
        return Ok(Applied::Dropped);
    }
    let notation = match searched {
        Searched::Move(notation) => notation.as_str(),
        Searched::Unloadable => {
            // It loads now: mended since the claim. The turn is searched again.
            queue_turns(ctx, &table, &[turn.seat])?;
            return Ok(Applied::Dropped);
        }
    };
    let effect = match table.play(ctx, turn.seat, notation)? {
        Ok(effect) => effect,
        Err(refusal) => {
            // A robot's own move refused is a bug in its game; the seat
            // plays its null move (or withdraws) rather than stall the match.
            tracing::error!(
                match_id = turn.match_id,
                seat = turn.seat,
                notation,
                ?refusal,
                "a robot's move was refused"
            );
            match table.play_null(ctx, turn.seat)? {
                Some(effect) => effect,
                None => {
                    table.withdraw(ctx, turn.seat, crate::games::Withdrawal::Resigned)?;
                    crate::games::Effect::Resolved
                }
            }
        }
    };
    table.settle(ctx, Moved::from_effect(effect, turn.seat))?;
    Ok(Applied::Played)
}

impl Platform {
    /// Claims robot turns that are due, with what computing them needs.
    pub fn claim_robot_turns(
        &self,
        tx: &mut dyn Tx,
        now: DateTime<Utc>,
        lease_until: DateTime<Utc>,
        limit: usize,
    ) -> StoreResult<Vec<RobotJob>> {
        let mut jobs = Vec::new();
        for turn in tx.robots().claim(now, lease_until, limit)? {
            let Some(record) = tx.matches().by_id(turn.match_id)? else {
                tx.robots().done(&turn)?;
                continue;
            };
            let seats = tx.matches().seats(turn.match_id)?;
            let level = match seats.get(turn.seat).map(|s| &s.holder) {
                Some(Holder::Robot(level)) => *level,
                _ => {
                    tx.robots().done(&turn)?;
                    continue;
                }
            };
            jobs.push(RobotJob {
                turn,
                game: record.game,
                state: record.state,
                seed: record.seed,
                level,
                seats: seats.len(),
            });
        }
        Ok(jobs)
    }
}
