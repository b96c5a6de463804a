//! A robot's move enters by the player's path, in a transaction of its own:
//! played for its seat, recorded like any move (so a replay needs no
//! search), and settled. A move for a turn that has moved on is dropped, so
//! a robot never plays twice in one turn.

use super::ctx::Ctx;
use super::loaded::{LoadedMatch, Moved};
use super::robot_turns::{Applied, Searched, queue_turns};
use crate::games::{Effect, Status, Withdrawal};
use crate::store::{Holder, RobotTurn, StoreResult};

/// A stale turn (the match moved on, or the seat is not awaited) is dropped.
/// A match the search could not load is loaded here too, which ends it as
/// void like any poison match: retried, the turn would fail for ever.
pub(super) fn apply(
    ctx: &mut Ctx<'_>,
    turn: &RobotTurn,
    searched: &Searched,
) -> StoreResult<Applied> {
    ctx.tx.robots().done(turn)?;
    let Some(record) = ctx.tx.matches().by_id(turn.match_id)? else {
        return Ok(Applied::Dropped);
    };
    if record.finished || record.turn != turn.turn {
        return Ok(Applied::Dropped);
    }
    let Some(mut loaded) = LoadedMatch::load(ctx, record)? else {
        return Ok(Applied::Dropped);
    };
    let awaited =
        matches!(loaded.state().status(), Status::Awaiting(ref s) if s.contains(&turn.seat));
    if !awaited || !matches!(loaded.seats[turn.seat].holder, Holder::Robot(_)) {
        return Ok(Applied::Dropped);
    }
    let effect = match searched {
        Searched::Move(notation) => match loaded.play(ctx, turn.seat, notation)? {
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
                give_up(ctx, &mut loaded, turn.seat)?
            }
        },
        Searched::Unloadable => {
            // It loads now: mended since the claim. The turn is searched again.
            queue_turns(ctx, &loaded.record, &loaded.seats, &[turn.seat])?;
            return Ok(Applied::Dropped);
        }
        Searched::GaveUp => {
            tracing::error!(
                match_id = turn.match_id,
                seat = turn.seat,
                attempts = turn.attempts,
                "a robot's search failed on every attempt; the seat gives up its turn"
            );
            give_up(ctx, &mut loaded, turn.seat)?
        }
    };
    loaded.settle(ctx, Moved::from_effect(effect, turn.seat))?;
    Ok(Applied::Played)
}

/// A robot seat that cannot move: its null move where its game has one,
/// otherwise it withdraws, so the match goes on or ends rather than stalls.
fn give_up(ctx: &mut Ctx<'_>, loaded: &mut LoadedMatch, seat: usize) -> StoreResult<Effect> {
    Ok(match loaded.play_null(ctx, seat)? {
        Some(effect) => effect,
        None => {
            loaded.withdraw(ctx, seat, Withdrawal::Resigned)?;
            Effect::Resolved
        }
    })
}
