//! `S nick text`: one message after a match, to a player of the sender's most
//! recent match, within the window after its end.
//!
//! It goes out from the game number, so what a player can make it say is
//! held: at most [`RELAY_MAX_PARTS`] SMS parts (said in the help), every
//! control character and invisible format character (bidirectional
//! overrides, zero-width marks) taken out, line breaks made spaces.

use chrono::Duration;

use super::words::{ParseError, split_word};
use crate::platform::ctx::Ctx;
use crate::platform::texts;
use crate::sms::encoding;
use crate::store::{Player, StoreResult};

/// The most SMS parts a relayed message may take, its sender's nick included.
pub const RELAY_MAX_PARTS: u32 = 2;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Message {
    pub nick: String,
    pub text: String,
}

impl Message {
    pub(super) fn parse(rest: &str) -> Result<Message, ParseError> {
        let (nick, text) = split_word(rest);
        if nick.is_empty() || text.is_empty() {
            Err(ParseError::MissingMessage)
        } else {
            Ok(Message {
                nick: nick.to_string(),
                text: text.to_string(),
            })
        }
    }

    pub(super) fn idle(ctx: &mut Ctx<'_>, player: Player, message: Message) -> StoreResult<()> {
        let (nick, text) = (message.nick.as_str(), message.text.as_str());
        let lang = player.lang;
        let window = Duration::seconds(ctx.cfg.game.message_window_secs as i64);
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
        let text = cleaned(text);
        if text.is_empty() {
            let usage = ParseError::MissingMessage.usage(lang);
            return ctx.reply(&player, usage);
        }
        let body = texts::message_from(from_nick, &text);
        let sent = encoding::analyse(&encoding::gsm_friendly(&body));
        if sent.parts > RELAY_MAX_PARTS {
            let prefix = texts::message_from(from_nick, "").chars().count();
            let room = encoding::capacity(sent.encoding, RELAY_MAX_PARTS).saturating_sub(prefix);
            return ctx.reply(&player, texts::message_too_long(lang, room));
        }
        ctx.notify(&target, body)?;
        seats[me].message_sent = true;
        ctx.tx.matches().save_seat(last.id, &seats[me])?;
        ctx.reply(&player, texts::message_sent(lang, &to_nick))
    }
}

/// A player's message as it may go out from the game number: line breaks
/// and tabs become spaces, other controls and invisible format characters
/// go, runs of spaces become one.
fn cleaned(text: &str) -> String {
    text.chars()
        .map(|c| if c.is_whitespace() { ' ' } else { c })
        .filter(|&c| !crate::phone::is_hidden(c))
        .collect::<String>()
        .split(' ')
        .filter(|w| !w.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::cleaned;

    #[test]
    fn controls_and_invisible_marks_are_taken_out() {
        assert_eq!(
            cleaned("hi\u{1b}[31m \u{7}there\u{202e}gnp.exe\n\tsee\u{200b}you"),
            "hi[31m theregnp.exe seeyou"
        );
        assert_eq!(cleaned("\u{1b}\u{7}\u{202e}"), "");
        assert_eq!(cleaned("  gg   wp  "), "gg wp");
        assert_eq!(cleaned("привет, друг"), "привет, друг");
    }
}
