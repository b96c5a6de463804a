//! A finished match's mark on its players' standing in its game: each
//! phone's games, wins, draws and losses, and, when the match is rated, his
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
use crate::store::{Holder, MatchRecord, RatingChange, SeatRecord, StandingRow, StoreResult};

/// Turns a match must reach (the opening is the first) to be rated: one
/// over by the second turn was abandoned, not played.
const RATED_FROM_TURN: i64 = 3;

pub(super) fn record(
    ctx: &mut Ctx<'_>,
    game: &dyn AnyGame,
    state: &dyn AnyMatch,
    record: &MatchRecord,
    seats: &[SeatRecord],
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
            Outcome::Loss => row.losses += 1,
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

/// How a finished match came out for one player.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Finish {
    Won,
    Drew,
    Lost,
    /// A race's place, of how many sides.
    Placed(u8, usize),
}

/// One of a player's finished matches, as `LAST` and his page tell it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MatchResult {
    pub match_id: i64,
    pub game: String,
    pub finished_at: Option<chrono::DateTime<chrono::Utc>>,
    /// The other sides' players by nick, robots as `bot<level>`.
    pub opponents: Vec<String>,
    pub finish: Finish,
    /// The change of his rating as shown; `None` when the match was unrated.
    pub change: Option<i64>,
}

/// Where a player's finished matches are read from: the writer's
/// transaction (`LAST`) or a reader beside it (his page).
pub trait FinishedMatches {
    fn finished_of(&mut self, player_id: i64, limit: usize) -> StoreResult<Vec<i64>>;
    fn finished(&mut self, match_id: i64) -> StoreResult<Option<(MatchRecord, Vec<SeatRecord>)>>;
    fn change(&mut self, match_id: i64, player_id: i64) -> StoreResult<Option<RatingChange>>;
}

impl FinishedMatches for dyn crate::store::Tx + '_ {
    fn finished_of(&mut self, player_id: i64, limit: usize) -> StoreResult<Vec<i64>> {
        self.standings().finished_of(player_id, limit)
    }

    fn finished(&mut self, match_id: i64) -> StoreResult<Option<(MatchRecord, Vec<SeatRecord>)>> {
        let Some(record) = self.matches().by_id(match_id)? else {
            return Ok(None);
        };
        Ok(Some((record, self.matches().seats(match_id)?)))
    }

    fn change(&mut self, match_id: i64, player_id: i64) -> StoreResult<Option<RatingChange>> {
        self.standings().change(match_id, player_id)
    }
}

impl FinishedMatches for dyn crate::store::Read + '_ {
    fn finished_of(&mut self, player_id: i64, limit: usize) -> StoreResult<Vec<i64>> {
        self.standings().finished_of(player_id, limit)
    }

    fn finished(&mut self, match_id: i64) -> StoreResult<Option<(MatchRecord, Vec<SeatRecord>)>> {
        let Some(record) = self.match_by_id(match_id)? else {
            return Ok(None);
        };
        Ok(Some((record, self.seats(match_id)?)))
    }

    fn change(&mut self, match_id: i64, player_id: i64) -> StoreResult<Option<RatingChange>> {
        self.standings().change(match_id, player_id)
    }
}

/// A player's last `limit` finished matches, newest first: whom he played
/// (the other sides, by the final state's sides), how it came out and what
/// it did to his rating.
pub fn results<D: FinishedMatches + ?Sized>(
    db: &mut D,
    catalog: &super::catalog::Catalog,
    player_id: i64,
    limit: usize,
) -> StoreResult<Vec<MatchResult>> {
    let mut out = Vec::with_capacity(limit);
    for match_id in db.finished_of(player_id, limit)? {
        let Some((record, seats)) = db.finished(match_id)? else {
            continue;
        };
        let Some(mine) = seats.iter().find(|s| s.is(player_id)) else {
            continue;
        };
        let places: Vec<u8> = seats.iter().filter_map(|s| s.place).collect();
        let my_place = mine.place.unwrap_or(u8::MAX);
        // By place, should the final state not load.
        let state = catalog
            .get(&record.game)
            .and_then(|g| g.load(&record.state).ok());
        let side = |seat: usize| state.as_ref().map(|state| state.side(seat));
        let opponents: Vec<String> = seats
            .iter()
            .filter(|s| match (side(s.seat), side(mine.seat)) {
                (Some(theirs), Some(own)) => theirs != own,
                _ => s.place != mine.place,
            })
            .map(|s| match &s.holder {
                Holder::Player(p) => p.nick.clone().unwrap_or_default(),
                Holder::Robot(level) => format!("bot{level}"),
            })
            .collect();
        let mut distinct = places.clone();
        distinct.sort_unstable();
        distinct.dedup();
        let finish = if distinct.len() > 2 {
            Finish::Placed(my_place, distinct.len())
        } else {
            match Outcome::of(my_place, &places) {
                Outcome::Win => Finish::Won,
                Outcome::Draw => Finish::Drew,
                Outcome::Loss => Finish::Lost,
            }
        };
        let change = db.change(match_id, player_id)?.map(|c| c.points());
        out.push(MatchResult {
            match_id,
            game: record.game,
            finished_at: record.finished_at,
            opponents,
            finish,
            change,
        });
    }
    Ok(out)
}
