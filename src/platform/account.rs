//! A number's account: registration and renaming, opt-out and opt-in, language, timeout.

use crate::command::{Command, ParseError};
use crate::lang::Lang;
use crate::store::{Player, StoreResult};

use super::{Ctx, texts};

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
            opt_out(ctx, player).map(|_| ())
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
    command: Command,
) -> StoreResult<()> {
    let numbers = ctx.platform.numbers();
    let text = match command {
        Command::Help => texts::welcome_stranger(player.lang, numbers),
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

/// `STOP`: one confirmation, then silence; texts not yet handed to the provider are cancelled,
/// and the player leaves every queue (as with `T`).
pub(super) fn opt_out(ctx: &mut Ctx<'_>, mut player: Player) -> StoreResult<Player> {
    ctx.tx.outbox().cancel_to(&player.phone, ctx.now)?;
    player.opted_out = true;
    player.away = true;
    ctx.tx.players().save(&player, ctx.now)?;
    ctx.tx.lobby().leave(player.id)?;
    // The one text an opted-out number still receives.
    ctx.reply_to_phone(&player.phone, texts::opted_out(player.lang))?;
    Ok(player)
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

/// `T`: leaves every lobby; no invitations and no game texts until the next `P`.
pub(super) fn take_timeout(ctx: &mut Ctx<'_>, mut player: Player) -> StoreResult<Player> {
    let text = texts::timeout_taken(player.lang, ctx.platform.numbers());
    ctx.reply(&player, text)?;
    player.away = true;
    ctx.tx.players().save(&player, ctx.now)?;
    ctx.tx.lobby().leave(player.id)?;
    Ok(player)
}
