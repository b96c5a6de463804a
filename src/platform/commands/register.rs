//! `R nick`: registers a number, renames a player, or refuses a nick someone
//! else holds or no player may take.

use super::reserved::reserved;
use super::words::{ParseError, split_word};
use crate::platform::ctx::Ctx;
use crate::platform::texts;
use crate::platform::texts::HelpLine;
use crate::store::{Player, StoreResult};

pub const NICK_MIN: usize = 2;
pub const NICK_MAX: usize = 16;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Register {
    pub nick: String,
}

/// Is this a well-formed nick (2-16 of `A-Z a-z 0-9 _`)?
pub fn valid_nick(nick: &str) -> bool {
    (NICK_MIN..=NICK_MAX).contains(&nick.len())
        && nick.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
}

impl Register {
    /// Its line in `HELP`: `R nick`: a new nick.
    pub(super) const HELP: HelpLine = HelpLine::Rename;

    /// Exactly one valid nick.
    pub(super) fn parse(rest: &str) -> Result<Register, ParseError> {
        let (nick, trailing) = split_word(rest);
        if nick.is_empty() {
            Err(ParseError::MissingNick)
        } else if !trailing.is_empty() || !valid_nick(nick) {
            Err(ParseError::BadNick)
        } else {
            Ok(Register {
                nick: nick.to_string(),
            })
        }
    }

    pub(super) fn run(
        ctx: &mut Ctx<'_>,
        mut player: Player,
        register: Register,
    ) -> StoreResult<()> {
        let lang = player.lang;
        let nick = register.nick.as_str();
        // A player who already holds such a nick keeps it (and is told so below).
        if let Some(why) = reserved(nick).filter(|_| player.nick.as_deref() != Some(nick)) {
            return ctx.reply(&player, texts::nick_reserved(lang, nick, why));
        }
        if let Some(holder) = ctx.tx.players().by_nick(nick)? {
            if holder.id != player.id {
                return ctx.reply(&player, texts::nick_taken(lang, nick));
            }
            if holder.nick.as_deref() == Some(nick) {
                return ctx.reply(&player, texts::nick_unchanged(lang, nick));
            }
        }
        let text = match player.nick.replace(register.nick.clone()) {
            Some(old) => texts::renamed(lang, &old, nick),
            None => texts::registered(lang, nick, ctx.numbers()),
        };
        ctx.tx.players().save(&player, ctx.now)?;
        ctx.reply(&player, text)
    }
}
