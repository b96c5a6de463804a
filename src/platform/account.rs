//! A number's account: registration and renaming, opt-out and opt-in, language, timeout.

use crate::command::{Command, ParseError};
use crate::lang::Lang;
use crate::store::{Player, StoreResult};

use super::table::Table;
use super::{Ctx, in_match, seeking, texts};

/// A number we hold no row for: it may register, ask for help, opt out or pick a language.
pub(super) fn stranger(
    ctx: &mut Ctx<'_>,
    phone: &str,
    command: Result<Command, ParseError>,
) -> StoreResult<()> {
    let numbers = ctx.platform.numbers();
    match command {
        Ok(Command::Register { nick }) => {
            let player = ctx.tx.players().create(phone, ctx.now)?;
            register(ctx, player, &nick)
        }
        Ok(Command::Stop) => {
            let player = ctx.tx.players().create(phone, ctx.now)?;
            opt_out(ctx, player)
        }
        Ok(Command::Lang(lang)) => {
            let player = ctx.tx.players().create(phone, ctx.now)?;
            set_lang(ctx, player, lang)
        }
        Ok(Command::Help) => {
            ctx.reply_to_phone(phone, texts::welcome_stranger(Lang::default(), numbers))
        }
        Err(e @ (ParseError::MissingNick | ParseError::BadNick)) => {
            ctx.reply_to_phone(phone, texts::usage(Lang::default(), &e))
        }
        _ => ctx.reply_to_phone(phone, texts::need_registration(Lang::default(), numbers)),
    }
}

/// A number with a row but no nick yet texted something that needs one.
pub(super) fn need_registration(
    ctx: &mut Ctx<'_>,
    player: &Player,
    command: Result<Command, ParseError>,
) -> StoreResult<()> {
    let numbers = ctx.platform.numbers();
    let text = match command {
        Ok(Command::Help) => texts::welcome_stranger(player.lang, numbers),
        _ => texts::need_registration(player.lang, numbers),
    };
    ctx.reply(player, text)
}

/// `R nick`: registers, renames, or refuses a nick someone else holds.
pub(super) fn register(ctx: &mut Ctx<'_>, mut player: Player, nick: &str) -> StoreResult<()> {
    let lang = player.lang;
    if let Some(holder) = ctx.tx.players().by_nick(nick)? {
        if holder.id != player.id {
            return ctx.reply(&player, texts::nick_taken(lang, nick));
        }
        if holder.nick.as_deref() == Some(nick) {
            return ctx.reply(&player, texts::nick_unchanged(lang, nick));
        }
    }
    let text = match player.nick.replace(nick.to_string()) {
        Some(old) => texts::renamed(lang, &old, nick),
        None => texts::registered(lang, nick, ctx.platform.numbers()),
    };
    ctx.tx.players().save(&player, ctx.now)?;
    ctx.reply(&player, text)
}

/// `STOP`: one confirmation, then silence; texts not yet handed to the
/// provider are cancelled, the player stops seeking a match (as with `T`),
/// and in a match he is away: the game decides what becomes of his seat.
pub(super) fn opt_out(ctx: &mut Ctx<'_>, mut player: Player) -> StoreResult<()> {
    ctx.tx.outbox().cancel_to(&player.phone, ctx.now)?;
    player.opted_out = true;
    player.away = true;
    ctx.tx.players().save(&player, ctx.now)?;
    seeking::withdraw(ctx, &player)?;
    // The one text an opted-out number still receives.
    ctx.reply_to_phone(&player.phone, texts::opted_out(player.lang))?;
    match ctx.tx.matches().active_of(player.id)? {
        Some(record) => match Table::load(ctx, record)? {
            Some(table) => in_match::step_away(ctx, &player, table),
            None => Ok(()),
        },
        None => Ok(()),
    }
}

/// `START`/`UNSTOP` from an opted-out number.
pub(super) fn opt_in(ctx: &mut Ctx<'_>, mut player: Player) -> StoreResult<()> {
    player.opted_out = false;
    ctx.tx.players().save(&player, ctx.now)?;
    let text = texts::opted_in(player.lang, ctx.platform.numbers());
    ctx.reply(&player, text)
}

pub(super) fn set_lang(ctx: &mut Ctx<'_>, mut player: Player, lang: Lang) -> StoreResult<()> {
    player.lang = lang;
    ctx.tx.players().save(&player, ctx.now)?;
    ctx.reply(&player, texts::language_set(lang))
}

/// `T`: stops seeking a match (lobby and rematch); no invitations and no
/// game texts until the next `P`. In a match the caller lets the game decide
/// what becomes of his seat.
pub(super) fn take_timeout(ctx: &mut Ctx<'_>, mut player: Player) -> StoreResult<Player> {
    let text = texts::timeout_taken(player.lang, ctx.platform.numbers());
    ctx.reply(&player, text)?;
    player.away = true;
    ctx.tx.players().save(&player, ctx.now)?;
    seeking::withdraw(ctx, &player)?;
    Ok(player)
}

/// Puts a player on timeout after too many missed turns: one notice first
/// (it goes out before the timeout silences him), then as `T`.
pub(super) fn time_out_for_missed_turns(
    ctx: &mut Ctx<'_>,
    mut player: Player,
    missed: u32,
) -> StoreResult<Player> {
    let notice = texts::timeout_for_missed_turns(player.lang, missed, ctx.platform.numbers());
    ctx.notify(&player, notice)?;
    player.away = true;
    ctx.tx.players().save(&player, ctx.now)?;
    seeking::withdraw(ctx, &player)?;
    Ok(player)
}
