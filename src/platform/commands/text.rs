//! Text that is no command, or a command word the game keeps as its own
//! (`Game::yields_word`): in a match, a move for whichever of the player's
//! seats the game awaits, read by the game's own parser; refused with the
//! game's reason, or with its move syntax when it is no move at all.

use crate::games::Effect;
use crate::games::any::{AnyGame, AnyRefusal};
use crate::lang::Lang;
use crate::platform::ctx::Ctx;
use crate::platform::loaded::{LoadedMatch, Moved};
use crate::platform::texts;
use crate::store::{Player, StoreResult};

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Text(pub String);

impl Text {
    /// A text as the game reads it: trimmed.
    pub(super) fn of(text: &str) -> Text {
        Text(text.trim().to_string())
    }

    /// Out of a match: a move of the game his last match was, texted after
    /// it ended, is told the match is over; anything else is unknown.
    pub(super) fn idle(ctx: &mut Ctx<'_>, player: Player, Text(text): Text) -> StoreResult<()> {
        let lang = player.lang;
        let last = ctx.tx.matches().last_of(player.id)?;
        let late_move = last.is_some_and(|m| {
            m.finished
                && m.void_reason.is_none()
                && ctx
                    .catalog
                    .get(&m.game)
                    .is_some_and(|game| game.reads_as_move(&text))
        });
        let reply = if late_move {
            texts::match_over(lang, ctx.numbers())
        } else {
            texts::unknown_text(lang)
        };
        ctx.reply(&player, reply)
    }

    pub(super) fn in_match(
        ctx: &mut Ctx<'_>,
        player: Player,
        mut loaded: LoadedMatch<'_>,
        Text(text): Text,
    ) -> StoreResult<()> {
        let lang = player.lang;
        if player.away {
            return ctx.reply(&player, texts::timeout_taken(lang, ctx.numbers()));
        }
        let Some(seat) = loaded.seat_to_move(player.id) else {
            return Ok(());
        };
        match loaded.play(ctx, seat, &text)? {
            Ok(effect) => {
                if loaded.seats[seat].missed != 0 {
                    loaded.seats[seat].missed = 0;
                    ctx.tx
                        .matches()
                        .save_seat(loaded.record.id, &loaded.seats[seat])?;
                }
                if effect == Effect::Pending {
                    ctx.reply(&player, texts::move_accepted(lang, &text))?;
                }
                loaded.settle(ctx, Moved::from_effect(effect, seat))
            }
            Err(refusal) => {
                let reply = refusal_text(loaded.game, &refusal, lang);
                ctx.reply(&player, reply)
            }
        }
    }
}

/// The reply to a text the game could not read or refused.
fn refusal_text(game: &dyn AnyGame, refusal: &AnyRefusal, lang: Lang) -> String {
    match refusal {
        AnyRefusal::Unreadable(why) => {
            let reason = why.for_player(lang).unwrap_or_default();
            texts::bad_move(lang, reason.trim_end_matches('.'), &game.move_help(lang))
        }
        AnyRefusal::Illegal(reason) => reason.text(lang),
    }
}
