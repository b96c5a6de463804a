//! `S nick text`: one message after a match, to a player of the sender's most
//! recent match, within the window after its end.

use chrono::Duration;

use super::{Ctx, texts};
use crate::store::{Player, StoreResult};

pub(super) fn send(ctx: &mut Ctx<'_>, player: Player, nick: &str, text: &str) -> StoreResult<()> {
    let lang = player.lang;
    let window = Duration::seconds(ctx.platform.config().game.message_window_secs as i64);
    let last = ctx
        .tx
        .matches()
        .last_of(player.id)?
        .filter(|m| m.finished)
        .filter(|m| m.finished_at.is_some_and(|t| ctx.now <= t + window));
    let Some(last) = last else {
        return ctx.reply(&player, texts::message_not_allowed(lang));
    };
    let mut seats = ctx.tx.matches().seats(last.id)?;
    let Some(me) = seats.iter().position(|s| s.is(player.id)) else {
        return Ok(());
    };
    if seats.iter().any(|s| s.is(player.id) && s.message_sent) {
        return ctx.reply(&player, texts::message_not_allowed(lang));
    }
    let target = seats.iter().find_map(|s| {
        s.player()
            .filter(|p| p.id != player.id)
            .filter(|p| {
                p.nick
                    .as_deref()
                    .is_some_and(|n| n.eq_ignore_ascii_case(nick))
            })
            .cloned()
    });
    let Some(target) = target else {
        return ctx.reply(&player, texts::unknown_nick(lang, nick));
    };
    let to_nick = target.nick.clone().unwrap_or_default();
    // A player on timeout or opted out receives nothing: say so, and keep the
    // sender's one message for later.
    if target.away || target.opted_out {
        return ctx.reply(&player, texts::message_undeliverable(lang, &to_nick));
    }
    let from_nick = player.nick.as_deref().unwrap_or_default();
    ctx.notify(&target, texts::message_from(from_nick, text))?;
    seats[me].message_sent = true;
    ctx.tx.matches().save_seat(last.id, &seats[me])?;
    ctx.reply(&player, texts::message_sent(lang, &to_nick))
}
