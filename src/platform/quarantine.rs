//! A match whose stored state does not load (or holds other seats than the
//! match) is ended as void, where every text and timer that touched it
//! would fail, and be retried, for ever.

use super::ctx::Ctx;
use super::texts;
use crate::store::{MatchRow, SeatRow, StoreResult};

/// Ends `record` as void, a poison message: loudly logged, counted in the
/// admin stats, its deadlines and robots' turns dropped, its players told in
/// one text (and they play on).
pub(super) fn quarantine(
    ctx: &mut Ctx<'_>,
    mut record: MatchRow,
    seats: &[SeatRow],
    reason: &str,
) -> StoreResult<()> {
    tracing::error!(
        match_id = record.id,
        game = %record.game,
        reason,
        "a stored match does not load; it is ended as void"
    );
    record.finished = true;
    record.finished_at = Some(ctx.now);
    record.deadline_at = None;
    record.rematch_deadline_at = None;
    record.void_reason = Some(reason.chars().take(500).collect());
    ctx.tx.matches().save(&record)?;
    ctx.tx.robots().clear(record.id)?;
    let mut told: Vec<i64> = Vec::new();
    for player in seats.iter().filter_map(SeatRow::player) {
        if !told.contains(&player.id) {
            told.push(player.id);
            ctx.notify(player, texts::match_voided(player.lang))?;
        }
    }
    Ok(())
}
