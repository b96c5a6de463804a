//! A finished match's mark on its players' standing in its game: each
//! phone's games, wins, draws and losses (in a match of three sides or
//! more, his place, a first also a win), and, when the match is rated, his
//! rating, moved against the others' (a robot's fixed at its level's).
//! Runs in the transaction that ends the match, once: the end is recorded
//! only while the match is not finished, under the match's lock.
//!
//! A hot-seat match (one phone holding several seats) counts for nothing;
//! a match asked for with `U`, or over within its first two turns (a match
//! abandoned at once tells nothing of strength), counts in the record but
//! moves no rating.

use super::ctx::Ctx;
use crate::games::Standing;
use crate::games::any::{AnyGame, AnyMatch, is_unrated};
use crate::ratings::{self, Entrant, Outcome};
use crate::store::{Holder, MatchRow, RatingChange, SeatRow, StandingRow, StoreResult};

/// Turns a match must reach (the opening is the first) to be rated: one
/// over by the second turn was abandoned, not played.
const RATED_FROM_TURN: i64 = 3;

pub(super) fn add(
    ctx: &mut Ctx<'_>,
    game: &dyn AnyGame,
    state: &dyn AnyMatch,
    record: &MatchRow,
    seats: &[SeatRow],
    standings: &[Standing],
) -> StoreResult<()> {
    let phones: Vec<i64> = seats
        .iter()
        .filter_map(|s| s.player().map(|p| p.id))
        .collect();
    let hot_seat = phones
        .iter()
        .enumerate()
        .any(|(i, id)| phones[..i].contains(id));
    if phones.is_empty() || hot_seat || standings.len() != seats.len() {
        return Ok(());
    }
    let rated = !is_unrated(&record.options) && i64::from(record.turn) >= RATED_FROM_TURN;
    let mut rows = Vec::with_capacity(phones.len());
    for &id in &phones {
        let row = ctx.tx.standings().of(game.code(), id)?;
        rows.push(row.unwrap_or_else(|| StandingRow::new(id, game.code())));
    }
    let entrants: Vec<Entrant> = seats
        .iter()
        .zip(standings)
        .map(|(seat, standing)| Entrant {
            side: state.side(seat.seat),
            place: standing.place,
            rating: match &seat.holder {
                Holder::Player(p) => rows
                    .iter()
                    .find(|r| r.player_id == p.id)
                    .map_or_else(ratings::Rating::new_player, |r| r.rating),
                Holder::Robot(level) => {
                    ratings::robot_rating(game.level_results(), game.robot_levels(), *level)
                }
            },
            fixed: seat.player().is_none(),
        })
        .collect();
    let after = if rated {
        ratings::rate(game.contest(), &entrants)
    } else {
        entrants.iter().map(|e| e.rating).collect()
    };
    let places: Vec<u8> = standings.iter().map(|s| s.place).collect();
    // Three sides or more (a race of four cars): each finish is a place, a
    // first place a win, and no place below it a loss (as LAST says it).
    let by_place = {
        let mut distinct = places.clone();
        distinct.sort_unstable();
        distinct.dedup();
        distinct.len() > 2
    };
    for ((seat, standing), new) in seats.iter().zip(standings).zip(after) {
        let Some(player) = seat.player() else {
            continue;
        };
        let Some(row) = rows.iter_mut().find(|r| r.player_id == player.id) else {
            continue;
        };
        row.games += 1;
        match Outcome::of(standing.place, &places) {
            Outcome::Win => row.wins += 1,
            Outcome::Draw => row.draws += 1,
            Outcome::Loss if by_place => {}
            Outcome::Loss => row.losses += 1,
        }
        if by_place {
            row.places.add(standing.place);
        }
        if rated {
            ctx.tx.standings().record_change(&RatingChange {
                match_id: record.id,
                player_id: player.id,
                before: row.rating.rating,
                after: new.rating,
            })?;
            row.rating = new;
            row.rated_games += 1;
        }
        ctx.tx.standings().save(row, ctx.now)?;
    }
    Ok(())
}
