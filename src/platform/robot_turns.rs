//! Robots' turns, the platform's side: a robot seat the game awaits gets a
//! durable turn in the transaction that made it due; the robot pool
//! (`src/robot_pool/`) claims it, searches off the writer, and hands the move
//! back, to be played in a transaction of its own by the same path as a
//! player's text (`robot_move.rs`).

use std::ops::RangeInclusive;

use chrono::{DateTime, Utc};

use super::ctx::Ctx;
use crate::games::{Level, Seat};
use crate::store::{Holder, MatchRow, RobotTurn, SeatRow, StoreResult, Tx};

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
    /// The search failed on each of its [`SEARCH_ATTEMPTS`] claims (it
    /// panicked, or its instance died): not searched again, the seat plays
    /// its null move or withdraws, as for a move its game refused.
    GaveUp,
}

/// How many claims a robot's turn gets before it is given up: a search that
/// panics would otherwise be retried after every lease for ever, and its
/// match wait for ever.
pub const SEARCH_ATTEMPTS: u32 = 3;

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
    record: &MatchRow,
    seats: &[SeatRow],
    awaiting: &[Seat],
) -> StoreResult<()> {
    for &seat in awaiting {
        if matches!(seats[seat].holder, Holder::Robot(_)) {
            ctx.tx.robots().queue(&RobotTurn {
                match_id: record.id,
                seat,
                turn: record.turn,
                due_at: ctx.now,
                attempts: 0,
            })?;
            ctx.robots_due = true;
        }
    }
    Ok(())
}

/// Claims robot turns that are due, of robots of `levels`, with what
/// computing them needs; a turn whose match or robot seat is gone is dropped.
pub(super) fn claim(
    tx: &mut dyn Tx,
    now: DateTime<Utc>,
    lease_until: DateTime<Utc>,
    levels: RangeInclusive<Level>,
    limit: usize,
) -> StoreResult<Vec<RobotJob>> {
    let mut jobs = Vec::new();
    for turn in tx.robots().claim(now, lease_until, levels, limit)? {
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
