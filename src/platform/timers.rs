//! Timers kept in the database, so they survive a restart: turn deadlines and rematch windows.
//!
//! A missed deadline is the game's to answer: its null move (stand still,
//! pass, the shortest forward move), or only a reminder when it has none
//! (paper soccer). Three misses in a row put the player on timeout as `T`
//! does, and the game decides what becomes of his seat. Robots' seats have
//! no deadline: their turns are jobs of the robot pool.

use chrono::{DateTime, Utc};

use super::ctx::Ctx;
use super::loaded::{LoadedMatch, Moved, deadline};
use super::{away, seeking, texts};
use crate::games::{Status, Withdrawal};
use crate::store::{StoreResult, Tx};

/// Timers handled per call; the caller calls again while there are more.
const BATCH: usize = 64;

/// What firing the due timers did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Fired {
    pub timers: usize,
    /// A robot's turn fell due: the robot pool should look.
    pub robots_due: bool,
    /// The matches it started and finished.
    pub tally: super::Tally,
    /// Lobby queues to match again once committed (see [`super::Handled`]).
    pub queues_to_match: Vec<super::BusyQueue>,
}

/// One timer that fell due.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Timer {
    /// A match's turn deadline.
    Turn(i64),
    /// A finished match's rematch window.
    Rematch(i64),
}

/// The timers due at `now`, a batch at most (the caller asks again).
pub(super) fn due(tx: &mut dyn Tx, now: DateTime<Utc>) -> StoreResult<Vec<Timer>> {
    let mut due: Vec<Timer> = tx
        .timers()
        .due_turns(now, BATCH)?
        .into_iter()
        .map(Timer::Turn)
        .collect();
    due.extend(
        tx.timers()
            .due_rematches(now, BATCH)?
            .into_iter()
            .map(Timer::Rematch),
    );
    Ok(due)
}

/// Fires one timer. It checks again that it is due, so two instances that
/// both saw it fire it once.
pub(super) fn fire(ctx: &mut Ctx<'_>, timer: Timer) -> StoreResult<()> {
    match timer {
        Timer::Turn(id) => expire_turn(ctx, id),
        Timer::Rematch(id) => seeking::expire_rematch(ctx, id),
    }
}

/// A turn's deadline passed: every human seat still owing a move misses it.
fn expire_turn(ctx: &mut Ctx<'_>, match_id: i64) -> StoreResult<()> {
    let Some(record) = ctx.tx.matches().by_id(match_id)? else {
        return Ok(());
    };
    if record.finished || record.deadline_at.is_none_or(|t| t > ctx.now) {
        return Ok(());
    }
    let Some(mut loaded) = LoadedMatch::load(ctx, record)? else {
        return Ok(());
    };
    let Status::Awaiting(late) = loaded.state().status() else {
        return Ok(());
    };
    let max_missed = ctx.cfg.game.max_missed_turns;
    let mut moved = Moved::Nothing;
    for seat in late {
        let Some(player) = loaded.seats[seat].player().cloned() else {
            continue;
        };
        loaded.seats[seat].missed += 1;
        let missed = loaded.seats[seat].missed;
        ctx.tx
            .matches()
            .save_seat(loaded.record.id, &loaded.seats[seat])?;
        if missed >= max_missed && !player.away {
            let player = away::time_out_for_missed_turns(ctx, player, missed)?;
            loaded.set_player(&player);
            loaded.withdraw(ctx, seat, Withdrawal::Absent)?;
            moved = moved.and(Moved::EVERYONE);
            continue;
        }
        match loaded.play_null(ctx, seat)? {
            Some(effect) => moved = moved.and(Moved::from_effect(effect, seat)),
            None => ctx.notify(
                &player,
                texts::turn_reminder(player.lang, missed, max_missed),
            )?,
        }
    }
    // Even if nothing moved on (a teammate still owes his move, or only a
    // reminder went out), the deadline starts again.
    if moved == Moved::Nothing {
        loaded.record.deadline_at = Some(ctx.now + deadline(ctx, loaded.game));
    }
    loaded.settle(ctx, moved)
}
