//! Timers kept in the database, so they survive a restart: turn deadlines and rematch windows.

use chrono::{DateTime, Utc};

use crate::games::Status;
use crate::store::{StoreResult, Tx};

use super::table::Table;
use super::{Ctx, Platform, after_match, texts};

/// Timers handled per call; the caller calls again while there are more.
const BATCH: usize = 64;

impl Platform {
    /// Fires every timer due at `now`; returns how many fired.
    pub fn fire_due(&self, tx: &mut dyn Tx, now: DateTime<Utc>) -> StoreResult<usize> {
        let game_number = self.config().numbers.game.clone();
        let mut ctx = Ctx {
            platform: self,
            tx,
            now,
            reply_from: &game_number,
        };
        let turns = ctx.tx.timers().due_turns(now, BATCH)?;
        for &id in &turns {
            expire_turn(&mut ctx, id)?;
        }
        let rematches = ctx.tx.timers().due_rematches(now, BATCH)?;
        for &id in &rematches {
            after_match::expire_rematch(&mut ctx, id)?;
        }
        Ok(turns.len() + rematches.len())
    }
}

/// A turn's deadline passed: every seat still owing a move plays the null move;
/// a seat that missed too many turns in a row is put into timeout, with one notice.
fn expire_turn(ctx: &mut Ctx<'_>, match_id: i64) -> StoreResult<()> {
    let Some(record) = ctx.tx.matches().by_id(match_id)? else {
        return Ok(());
    };
    if record.finished || record.deadline_at.is_none_or(|t| t > ctx.now) {
        return Ok(());
    }
    let mut table = Table::load(ctx, record)?;
    let Status::Awaiting(late) = table.status()? else {
        return Ok(());
    };
    let max_missed = ctx.platform.config().game.max_missed_turns;
    let numbers = ctx.platform.numbers();
    let mut resolved = false;
    for seat in late {
        let mut record = table.seats[seat].clone();
        record.missed += 1;
        ctx.tx.matches().save_seat(table.record.id, &record)?;
        if record.missed >= max_missed && !record.player.away {
            let notice =
                texts::timeout_for_missed_turns(record.player.lang, record.missed, numbers);
            // The one notice goes out before the timeout silences him.
            ctx.notify(&record.player, notice)?;
            record.player.away = true;
            ctx.tx.players().save(&record.player, ctx.now)?;
            ctx.tx.lobby().leave(record.player.id)?;
        }
        table.seats[seat] = record;
        if table.play_null(ctx, seat)? {
            resolved = true;
        }
    }
    // Even if nothing resolved (a game whose null move keeps the turn), the deadline restarts.
    if !resolved {
        table.record.deadline_at = Some(ctx.now + super::table::deadline(ctx));
    }
    table.settle(ctx, resolved)
}
