//! `PA`: asks for a rematch of the sender's last match, within its window;
//! when every seat has asked (robots always agree), it starts with the same
//! seats. In a match, `PA` is `P`: the match as it stands.

use crate::platform::texts::HelpLine;
use chrono::Duration;

use super::play;
use super::words::{ParseError, bare};
use crate::platform::ctx::Ctx;
use crate::platform::loaded::LoadedMatch;
use crate::platform::pools;
use crate::platform::seeking;
use crate::platform::texts;
use crate::store::{Player, StoreResult};

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayAgain;

impl PlayAgain {
    /// Its line in `HELP`: `PA`: a rematch.
    pub(super) const HELP: HelpLine = HelpLine::Rematch;

    pub(super) fn parse(rest: &str) -> Result<PlayAgain, ParseError> {
        bare(rest, "PA").map(|()| PlayAgain)
    }

    pub(super) fn idle(ctx: &mut Ctx<'_>, player: Player, _: PlayAgain) -> StoreResult<()> {
        let lang = player.lang;
        let Some(last) = seeking::last_finished(ctx, &player)? else {
            return ctx.reply(&player, texts::no_rematch(lang, ctx.numbers()));
        };
        if !seeking::window_open(ctx, &last, ctx.now) {
            if last.rematch_deadline_at.is_some() {
                // Its timer has not run yet: close it now, so no request outlives it.
                seeking::expire_rematch(ctx, last.id)?;
            }
            return ctx.reply(&player, texts::rematch_closed(lang, ctx.numbers()));
        }
        let Some(mut loaded) = LoadedMatch::load(ctx, last)? else {
            return Ok(());
        };
        // A match of the hall's phones and real ones, left from before the
        // operator kept them apart, is not asked again: asking texts the others.
        if !pools::all_meet(ctx.cfg, &loaded.phones()) {
            return ctx.reply(&player, texts::rematch_closed(lang, ctx.numbers()));
        }
        let mine = loaded.seats_of(player.id);
        if mine.is_empty() {
            return Ok(());
        }
        if mine.iter().all(|&s| loaded.seats[s].rematch_at.is_some()) {
            return ctx.reply(&player, texts::rematch_waiting(lang));
        }
        ctx.tx.lobby().leave(player.id)?;
        let first = loaded.record.rematch_deadline_at.is_none();
        for seat in &mut loaded.seats {
            // His seats, and robots', which always agree.
            if seat.rematch_at.is_none() && (seat.is(player.id) || seat.player().is_none()) {
                seat.rematch_at = Some(ctx.now);
                ctx.tx.matches().save_seat(loaded.record.id, seat)?;
            }
        }
        if first {
            let window = Duration::seconds(ctx.cfg.game.rematch_window_secs as i64);
            loaded.record.rematch_deadline_at = Some(ctx.now + window);
            ctx.tx.matches().save(&loaded.record)?;
        }
        if loaded.seats.iter().all(|s| s.rematch_at.is_some()) {
            return seeking::start_rematch(ctx, loaded);
        }
        ctx.reply(&player, texts::rematch_waiting(lang))?;
        if first {
            let nick = player.nick.clone().unwrap_or_default();
            for other in loaded.phones() {
                if other.id == player.id || ctx.tx.matches().active_of(other.id)?.is_some() {
                    continue;
                }
                ctx.notify(other, texts::rematch_asked(other.lang, &nick))?;
            }
        }
        Ok(())
    }

    pub(super) fn in_match(
        ctx: &mut Ctx<'_>,
        player: Player,
        loaded: LoadedMatch<'_>,
        _: PlayAgain,
    ) -> StoreResult<()> {
        play::back_at_the_table(ctx, player, loaded)
    }
}
