//! `H` and `H n`: a match's moves so far in the game's own notation (the last
//! ones when they do not fit one text), and its state at step `n` for games
//! whose rules define a state string. In a match and after it.

use super::table::{game_of, parse_withdrawal};
use super::{Ctx, texts};
use crate::games::Recorded;
use crate::games::any::StoredEntry;
use crate::sms::encoding;
use crate::store::{MatchRecord, MoveKind, MoveRecord, Player, StoreResult};

/// `H` after a match: of the player's most recent one.
pub(super) fn of_last_match(
    ctx: &mut Ctx<'_>,
    player: &Player,
    step: Option<usize>,
) -> StoreResult<()> {
    match ctx.tx.matches().last_of(player.id)? {
        Some(record) => reply(ctx, player, &record, step),
        None => ctx.reply(player, texts::no_history(player.lang)),
    }
}

pub(super) fn reply(
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

/// A match's stored moves as the games read their record.
pub(crate) fn stored_entries(moves: &[MoveRecord], seats: usize) -> Vec<StoredEntry<'_>> {
    moves
        .iter()
        .map(|m| StoredEntry {
            seat: m.seat,
            what: match m.kind {
                MoveKind::Move => Recorded::Move(m.notation.as_str()),
                MoveKind::Null => Recorded::Null(m.notation.as_str()),
                MoveKind::Withdrawal => Recorded::Withdrawal(
                    parse_withdrawal(&m.notation, seats)
                        .map(|(why, _)| why)
                        .unwrap_or(crate::games::Withdrawal::Resigned),
                ),
            },
            state_after: &m.state_after,
        })
        .collect()
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
