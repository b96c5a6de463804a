//! A player's finished matches as he is told them (`LAST`, his page):
//! whom he played, how it came out and what it did to his rating, read
//! alike from the writer's transaction and from a reader beside it.

use crate::ratings::Outcome;
use crate::store::{Holder, MatchRow, RatingChange, SeatRow, StoreResult};

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
    fn finished(&mut self, match_id: i64) -> StoreResult<Option<(MatchRow, Vec<SeatRow>)>>;
    fn change(&mut self, match_id: i64, player_id: i64) -> StoreResult<Option<RatingChange>>;
}

impl FinishedMatches for dyn crate::store::Tx + '_ {
    fn finished_of(&mut self, player_id: i64, limit: usize) -> StoreResult<Vec<i64>> {
        self.standings().finished_of(player_id, limit)
    }

    fn finished(&mut self, match_id: i64) -> StoreResult<Option<(MatchRow, Vec<SeatRow>)>> {
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

    fn finished(&mut self, match_id: i64) -> StoreResult<Option<(MatchRow, Vec<SeatRow>)>> {
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
