//! A player goes away (`T`, `STOP`, too many missed turns): he stops seeking
//! a match and gets no game texts, and each of his seats withdraws as absent,
//! the game deciding what follows (his piece stands in for him, or his side
//! loses, or his car leaves the race). `P` brings him back.

use super::ctx::Ctx;
use super::loaded::{LoadedMatch, Moved};
use super::seeking;
use super::texts;
use crate::games::Withdrawal;
use crate::store::{Player, StoreResult};

/// He is away: out of every lobby, his rematch request withdrawn.
pub(super) fn set_away(ctx: &mut Ctx<'_>, mut player: Player) -> StoreResult<Player> {
    player.away = true;
    ctx.tx.players().save(&player, ctx.now)?;
    seeking::withdraw(ctx, &player)?;
    Ok(player)
}

/// Too many missed turns: one notice first (it goes out before the timeout
/// silences him), then away as with `T`.
pub(super) fn time_out_for_missed_turns(
    ctx: &mut Ctx<'_>,
    player: Player,
    missed: u32,
) -> StoreResult<Player> {
    let notice = texts::timeout_for_missed_turns(player.lang, missed, ctx.numbers());
    ctx.notify(&player, notice)?;
    set_away(ctx, player)
}

/// Each of his seats at `table` withdraws as absent.
pub(super) fn step_away(
    ctx: &mut Ctx<'_>,
    player: &Player,
    mut loaded: LoadedMatch<'_>,
) -> StoreResult<()> {
    loaded.set_player(player);
    let before = loaded.state().status();
    for seat in loaded.seats_of(player.id) {
        loaded.withdraw(ctx, seat, Withdrawal::Absent)?;
    }
    // A piece that plays on by null moves changes nothing until it is awaited.
    let moved = if loaded.state().status() == before {
        Moved::Nothing
    } else {
        Moved::EVERYONE
    };
    loaded.settle(ctx, moved)
}
