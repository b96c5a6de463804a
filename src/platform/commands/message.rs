//! `S nick text`: one message after a match, to a player of the sender's most
//! recent match, within the window after its end.
//!
//! It goes out from the game number, so what a player can make it say is
//! held: at most [`RELAY_MAX_PARTS`] SMS parts (said in the help), every
//! character a phone would not show taken out ([`crate::phone::is_hidden`]:
//! controls, format characters, and the rest of what Unicode lets a
//! renderer ignore), line breaks made spaces. The training hall's virtual
//! phones and real phones message only their own kind, unless the operator
//! lets them meet ([`crate::platform::pools`]).

use crate::platform::texts::HelpLine;
use chrono::Duration;

use super::words::{ParseError, split_word};
use crate::encoding;
use crate::platform::ctx::Ctx;
use crate::platform::pools;
use crate::platform::texts;
use crate::store::{Player, StoreResult};

/// The most SMS parts a relayed message may take, its sender's nick included.
pub const RELAY_MAX_PARTS: u32 = 2;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Message {
    pub nick: String,
    pub text: String,
}

impl Message {
    /// Its line in `HELP`: `S nick text`: a message to a recent opponent.
    pub(super) const HELP: HelpLine = HelpLine::Message;

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
        // Asked first, whatever the sender's last match: a web visitor is
        // told why his text will not reach a real phone, not that the nick
        // is unknown.
        if let Some(named) = ctx.tx.players().by_nick(nick)?
            && !pools::may_meet(ctx.cfg, &player, &named)
        {
            return ctx.reply(&player, texts::message_across_the_hall(lang));
        }
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

    /// What the round-3 probe got through, each alone and each inside a
    /// word: none of it reaches the other phone.
    #[test]
    fn what_unicode_lets_a_phone_draw_as_nothing_is_taken_out() {
        let invisible = [
            ('\u{E0001}', "language tag"),
            ('\u{E0020}', "tag space"),
            ('\u{E0041}', "tag capital A"),
            ('\u{E0068}', "tag small h"),
            ('\u{E007F}', "cancel tag"),
            ('\u{3164}', "Hangul filler"),
            ('\u{115F}', "Hangul choseong filler"),
            ('\u{1160}', "Hangul jungseong filler"),
            ('\u{FFA0}', "halfwidth Hangul filler"),
            ('\u{034F}', "combining grapheme joiner"),
            ('\u{FE00}', "variation selector 1"),
            ('\u{FE0F}', "variation selector 16"),
            ('\u{E0100}', "variation selector 17"),
            ('\u{E01EF}', "variation selector 256"),
            ('\u{00AD}', "soft hyphen"),
            ('\u{061C}', "Arabic letter mark"),
            ('\u{180E}', "Mongolian vowel separator"),
            ('\u{200D}', "zero-width joiner"),
            ('\u{2066}', "left-to-right isolate"),
            ('\u{FEFF}', "byte-order mark"),
            ('\u{FFF9}', "interlinear annotation anchor"),
            ('\u{1BCA0}', "shorthand format letter overlap"),
            ('\u{1D173}', "musical symbol begin beam"),
            ('\u{0080}', "a C1 control"),
        ];
        for (c, name) in invisible {
            assert_eq!(cleaned(&format!("{c}")), "", "{name} alone");
            assert_eq!(cleaned(&format!("g{c}g w{c}p")), "gg wp", "{name} in words");
        }
        // A whole hidden sentence in tag characters, as the probe sent it.
        let hidden: String = "hidden"
            .chars()
            .map(|c| char::from_u32(0xE0000 + c as u32).unwrap())
            .collect();
        assert_eq!(cleaned(&format!("hello{hidden}")), "hello");
    }

    #[test]
    fn what_a_phone_shows_stays() {
        for text in [
            "gg wp",
            "привет, друг",
            "café au lait",
            "e\u{0301}",
            "日本語",
            "한국어",
            "❤ 🙂",
            "1+1=2 (#3) @you",
        ] {
            assert_eq!(cleaned(text), text);
        }
    }
}
