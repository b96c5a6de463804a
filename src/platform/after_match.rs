//! After a match: the rematch (`PA`) with its window, and the one after-match message (`S`).

use chrono::Duration;

use crate::store::{MatchRecord, Player, StoreResult};

use super::table::{Table, start_match};
use super::{Ctx, lobby, texts};

/// The sender's most recent match, if it is finished.
fn last_finished(ctx: &mut Ctx<'_>, player: &Player) -> StoreResult<Option<MatchRecord>> {
    Ok(ctx.tx.matches().last_of(player.id)?.filter(|m| m.finished))
}

/// `PA`: asks for a rematch; when every player of the match has asked, it starts.
pub(super) fn play_again(ctx: &mut Ctx<'_>, player: Player) -> StoreResult<()> {
    let lang = player.lang;
    let Some(mut last) = last_finished(ctx, &player)? else {
        return ctx.reply(&player, texts::no_rematch(lang, ctx.platform.numbers()));
    };
    if last.rematch_deadline_at.is_some_and(|t| t <= ctx.now) {
        // The window closed but the timer has not run yet: close it now, then this PA opens a new one.
        expire_rematch(ctx, last.id)?;
        last = ctx.tx.matches().by_id(last.id)?.unwrap_or(last);
    }
    let mut table = Table::load(ctx, last)?;
    let Some(seat) = table.seat_of(player.id) else {
        return Ok(());
    };
    if table.seats[seat].rematch_at.is_some() {
        return ctx.reply(&player, texts::rematch_waiting(lang));
    }
    ctx.tx.lobby().leave(player.id)?;
    table.seats[seat].rematch_at = Some(ctx.now);
    ctx.tx
        .matches()
        .save_seat(table.record.id, &table.seats[seat])?;
    let first = table.record.rematch_deadline_at.is_none();
    if first {
        let window = Duration::seconds(ctx.platform.config().game.rematch_window_secs as i64);
        table.record.rematch_deadline_at = Some(ctx.now + window);
        ctx.tx.matches().save(&table.record)?;
    }
    if table.seats.iter().all(|s| s.rematch_at.is_some()) {
        return start_rematch(ctx, table);
    }
    ctx.reply(&player, texts::rematch_waiting(lang))?;
    if first {
        let nick = player.nick.clone().unwrap_or_default();
        for other in table.seats.iter().filter(|s| s.rematch_at.is_none()) {
            ctx.notify(
                &other.player,
                texts::rematch_asked(other.player.lang, &nick),
            )?;
        }
    }
    Ok(())
}

fn start_rematch<'g>(ctx: &mut Ctx<'g>, mut table: Table<'g>) -> StoreResult<()> {
    table.record.rematch_deadline_at = None;
    ctx.tx.matches().save(&table.record)?;
    // Everyone is back, so nobody stays on a timeout.
    let mut players = Vec::with_capacity(table.seats.len());
    for seat in &mut table.seats {
        if seat.player.away {
            seat.player.away = false;
            ctx.tx.players().save(&seat.player, ctx.now)?;
        }
        players.push(seat.player.clone());
    }
    start_match(ctx, table.game, &players, Some(&table.record)).map(|_| ())
}

/// A player who sends `P` after `PA` gives up waiting for the rematch.
pub(super) fn withdraw_rematch(ctx: &mut Ctx<'_>, player: &Player) -> StoreResult<()> {
    let Some(last) = last_finished(ctx, player)? else {
        return Ok(());
    };
    if last.rematch_deadline_at.is_none() {
        return Ok(());
    }
    for mut seat in ctx.tx.matches().seats(last.id)? {
        if seat.player.id == player.id && seat.rematch_at.is_some() {
            seat.rematch_at = None;
            ctx.tx.matches().save_seat(last.id, &seat)?;
        }
    }
    Ok(())
}

/// The rematch window closed: every pending `PA` becomes an ordinary `P`,
/// keeping the time of the `PA` as the player's place in the queue.
pub(super) fn expire_rematch(ctx: &mut Ctx<'_>, match_id: i64) -> StoreResult<()> {
    let Some(mut record) = ctx.tx.matches().by_id(match_id)? else {
        return Ok(());
    };
    if record.rematch_deadline_at.take().is_none() {
        return Ok(());
    }
    ctx.tx.matches().save(&record)?;
    let game = record.game.clone();
    for mut seat in ctx.tx.matches().seats(match_id)? {
        let Some(asked_at) = seat.rematch_at.take() else {
            continue;
        };
        ctx.tx.matches().save_seat(match_id, &seat)?;
        let busy = ctx.tx.matches().active_of(seat.player.id)?.is_some();
        if busy || seat.player.opted_out || seat.player.away {
            continue;
        }
        ctx.tx.lobby().join(seat.player.id, &game, asked_at)?;
        ctx.notify(&seat.player, texts::rematch_expired(seat.player.lang))?;
    }
    lobby::matchmake(ctx, &game).map(|_| ())
}

/// `S nick text`: once per match, to a player of the sender's last match, within the window after it.
pub(super) fn send_message(
    ctx: &mut Ctx<'_>,
    player: Player,
    nick: &str,
    text: &str,
) -> StoreResult<()> {
    let lang = player.lang;
    let window = Duration::seconds(ctx.platform.config().game.message_window_secs as i64);
    let last = last_finished(ctx, &player)?
        .filter(|m| m.finished_at.is_some_and(|t| ctx.now <= t + window));
    let Some(last) = last else {
        return ctx.reply(&player, texts::message_not_allowed(lang));
    };
    let mut seats = ctx.tx.matches().seats(last.id)?;
    let Some(me) = seats.iter().position(|s| s.player.id == player.id) else {
        return Ok(());
    };
    if seats[me].message_sent {
        return ctx.reply(&player, texts::message_not_allowed(lang));
    }
    let target = seats.iter().position(|s| {
        s.player.id != player.id
            && s.player
                .nick
                .as_deref()
                .is_some_and(|n| n.eq_ignore_ascii_case(nick))
    });
    let Some(target) = target else {
        return ctx.reply(&player, texts::unknown_nick(lang, nick));
    };
    let from_nick = player.nick.as_deref().unwrap_or_default();
    ctx.notify(&seats[target].player, texts::message_from(from_nick, text))?;
    seats[me].message_sent = true;
    ctx.tx.matches().save_seat(last.id, &seats[me])?;
    let to_nick = seats[target].player.nick.clone().unwrap_or_default();
    ctx.reply(&player, texts::message_sent(lang, &to_nick))
}
