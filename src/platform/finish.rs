//! The end of a match: the one hook every ending goes through (a result on
//! the board, a resignation, a withdrawal that leaves one seat). It records
//! each seat's standing with its seat, moves the players' records and
//! ratings in the game (`tally.rs`), stops the clock and drops robots'
//! turns still due.

use super::ctx::Ctx;
use super::tally;
use crate::games::Standing;
use crate::games::any::{AnyGame, AnyMatch};
use crate::store::{MatchRow, SeatRow, StoreResult};

pub(super) fn finish(
    ctx: &mut Ctx<'_>,
    game: &dyn AnyGame,
    state: &dyn AnyMatch,
    record: &mut MatchRow,
    seats: &mut [SeatRow],
    standings: &[Standing],
) -> StoreResult<()> {
    if record.finished {
        return Ok(());
    }
    record.finished = true;
    record.finished_at = Some(ctx.now);
    ctx.tally.finished.push(record.game.clone());
    record.deadline_at = None;
    for (seat, standing) in seats.iter_mut().zip(standings) {
        seat.place = Some(standing.place);
        seat.score = standing.score;
        ctx.tx.matches().save_seat(record.id, seat)?;
    }
    tally::add(ctx, game, state, record, seats, standings)?;
    if seats.iter().any(|s| s.player().is_none()) {
        ctx.tx.robots().clear(record.id)?;
    }
    tracing::debug!(match_id = record.id, game = %record.game, "match finished");
    Ok(())
}
