//! What a player in a match can text: moves, `B`, `Q`, `T`, `HELP`.

use crate::games::Effect;
use crate::games::any::AnyRefusal;
use crate::store::{MatchRecord, Player, StoreResult};

use super::table::Table;
use super::{Ctx, texts};

/// A text that is no platform command, from a player in a match: a move.
pub(super) fn play_move(
    ctx: &mut Ctx<'_>,
    player: Player,
    record: MatchRecord,
    text: &str,
) -> StoreResult<()> {
    let mut table = Table::load(ctx, record)?;
    let Some(seat) = table.seat_of(player.id) else {
        return Ok(());
    };
    let lang = player.lang;
    match table.play(ctx, seat, text, false)? {
        Ok(effect) => {
            let mut me = table.seats[seat].clone();
            if me.missed != 0 {
                me.missed = 0;
                ctx.tx.matches().save_seat(table.record.id, &me)?;
                table.seats[seat] = me;
            }
            if effect == Effect::Pending {
                ctx.reply(&player, texts::move_accepted(lang, text))?;
            }
            table.settle(ctx, effect == Effect::Resolved)
        }
        Err(AnyRefusal::Unreadable(_)) => {
            let help = table.game.move_help(lang);
            ctx.reply(&player, texts::bad_move(lang, &help))
        }
        Err(AnyRefusal::Illegal(reason)) => ctx.reply(&player, reason.text(lang)),
        Err(AnyRefusal::CorruptState(e)) => Err(crate::store::StoreError::Corrupt(e.to_string())),
    }
}

/// `B`: the board again.
pub(super) fn board(ctx: &mut Ctx<'_>, player: Player, record: MatchRecord) -> StoreResult<()> {
    let table = Table::load(ctx, record)?;
    let seat = table.seat_of(player.id).unwrap_or_default();
    let text = table.render(seat)?;
    ctx.reply(&player, text)
}

/// `Q`: the sender's side resigns; everyone gets the result.
pub(super) fn resign(ctx: &mut Ctx<'_>, player: Player, record: MatchRecord) -> StoreResult<()> {
    let mut table = Table::load(ctx, record)?;
    let Some(seat) = table.seat_of(player.id) else {
        return Ok(());
    };
    ctx.reply(&player, texts::resigned(player.lang))?;
    table.resign(ctx, seat)?;
    table.settle(ctx, true)
}

/// `HELP` in a match: the game's move syntax and the match commands.
pub(super) fn help(ctx: &mut Ctx<'_>, player: Player, record: MatchRecord) -> StoreResult<()> {
    let game = ctx.platform.catalog.get(&record.game);
    let move_help = game.map(|g| g.move_help(player.lang)).unwrap_or_default();
    ctx.reply(&player, texts::help_in_match(player.lang, &move_help))
}

/// `T` in a match: the player's piece plays null moves from now on and he receives nothing.
pub(super) fn step_away(ctx: &mut Ctx<'_>, player: Player, record: MatchRecord) -> StoreResult<()> {
    let mut table = Table::load(ctx, record)?;
    table.set_player(&player);
    table.settle(ctx, false)
}
