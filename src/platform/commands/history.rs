//! `H` and `H n`: a match's moves so far in the game's own notation (the last
//! ones when they do not fit one text), and its state at step `n` for games
//! whose rules define a state string. In a match and after it.

use super::words::ParseError;
use crate::platform::ctx::Ctx;
use crate::platform::record::stored_entries;
use crate::platform::table::{Table, game_of};
use crate::platform::texts;
use crate::sms::encoding;
use crate::store::{MatchRecord, Player, StoreResult};

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct History(pub Option<usize>);

impl History {
    /// `H`, or `H` and a step number.
    pub(super) fn parse(rest: &str) -> Result<History, ParseError> {
        if rest.is_empty() {
            return Ok(History(None));
        }
        rest.parse()
            .map(|n| History(Some(n)))
            .map_err(|_| ParseError::BadStep)
    }

    /// After a match: of the player's most recent one.
    pub(super) fn idle(
        ctx: &mut Ctx<'_>,
        player: Player,
        History(step): History,
    ) -> StoreResult<()> {
        match ctx.tx.matches().last_of(player.id)? {
            Some(record) => reply(ctx, &player, &record, step),
            None => ctx.reply(&player, texts::no_history(player.lang)),
        }
    }

    pub(super) fn in_match(
        ctx: &mut Ctx<'_>,
        player: Player,
        table: Table<'_>,
        History(step): History,
    ) -> StoreResult<()> {
        reply(ctx, &player, &table.record, step)
    }
}

fn reply(
    ctx: &mut Ctx<'_>,
    player: &Player,
    record: &MatchRecord,
    step: Option<usize>,
) -> StoreResult<()> {
    let lang = player.lang;
    let Ok(game) = game_of(ctx, record) else {
        return ctx.reply(player, texts::history_unavailable(lang));
    };
    let moves = ctx.tx.matches().moves(record.id)?;
    let seats = ctx.tx.matches().seats(record.id)?.len();
    let entries = stored_entries(&moves, seats);
    // A record that does not read is logged, and the player told so: his
    // text must not fail (and be retried) because of it.
    let damaged = |e: crate::games::NotationError| {
        tracing::error!(match_id = record.id, error = %e, "a match's record does not read");
        texts::history_unavailable(lang)
    };
    let text = match step {
        None => match game.history(&record.initial_state, &entries, lang) {
            Ok(all) => tail_that_fits(&all, lang),
            Err(e) => damaged(e),
        },
        Some(_) if !game.has_state_steps() => texts::no_state_steps(lang, game.code()),
        Some(n) => match game.state_at_step(&record.initial_state, &entries, n) {
            Ok(Some(state)) => state,
            Ok(None) => texts::no_such_step(lang, n),
            Err(e) => damaged(e),
        },
    };
    ctx.reply(player, text)
}

/// The record, or its last moves behind `...` when all of it would take
/// more than one SMS.
fn tail_that_fits(all: &str, lang: crate::lang::Lang) -> String {
    if all.is_empty() {
        return texts::no_moves_yet(lang);
    }
    if encoding::analyse(all).parts <= 1 {
        return all.to_string();
    }
    let words: Vec<&str> = all.split(' ').collect();
    for start in 1..words.len() {
        let tail = format!("... {}", words[start..].join(" "));
        if encoding::analyse(&tail).parts <= 1 {
            return tail;
        }
    }
    let last = words.last().copied().unwrap_or_default();
    last.chars()
        .rev()
        .take(150)
        .collect::<Vec<_>>()
        .into_iter()
        .rev()
        .collect()
}
