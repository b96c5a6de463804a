//! The end of a match: the one hook every ending goes through (a result on
//! the board, a resignation, a withdrawal that leaves one seat). It records
//! each seat's standing with its seat, where ratings and records will read
//! it, stops the clock and drops robots' turns still due.

use super::Ctx;
use super::table::Table;
use crate::games::Standing;
use crate::store::StoreResult;

pub(super) fn finish(
    ctx: &mut Ctx<'_>,
    table: &mut Table<'_>,
    standings: &[Standing],
) -> StoreResult<()> {
    if table.record.finished {
        return Ok(());
    }
    table.record.finished = true;
    table.record.finished_at = Some(ctx.now);
    table.record.deadline_at = None;
    for (seat, standing) in table.seats.iter_mut().zip(standings) {
        seat.place = Some(standing.place);
        seat.score = standing.score;
        ctx.tx.matches().save_seat(table.record.id, seat)?;
    }
    if table.seats.iter().any(|s| s.player().is_none()) {
        ctx.tx.robots().clear(table.record.id)?;
    }
    tracing::debug!(
        match_id = table.record.id,
        game = table.game.code(),
        "match finished"
    );
    Ok(())
}
