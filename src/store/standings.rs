//! Players' standing per game, written once over [`Sql`] for both
//! backends: each player's rating and record in a game (`ratings`), what
//! each rated match did to it (`rating_changes`), the leaderboard and a
//! player's finished matches. The writer updates them in the transaction
//! that ends a match; `TOP`, `STAT`, `LAST` and the web pages read them.

use chrono::{DateTime, Utc};

use super::StoreResult;
use super::lookups::Count;
use super::rows::{Fields, Id, Record, millis};
use super::sql::{Sql, Writer};
use super::statements::Value;
use super::statements::standings::{
    FINISHED_OF, LEADERS, RATED_ABOVE, RATING_CHANGE, RECORD_RATING_CHANGE, SAVE_STANDING,
    STANDINGS_OF, STANDINGS_OF_PLAYER,
};
use crate::ratings::Rating;

/// A player's standing in one game.
#[derive(Clone, Debug, PartialEq)]
pub struct StandingRow {
    pub player_id: i64,
    pub game: String,
    pub rating: Rating,
    /// Rated games behind the rating ([`crate::ratings::PROVISIONAL_GAMES`]).
    pub rated_games: i64,
    /// Every finished match of the game, rated or not (hot-seat aside).
    pub games: i64,
    pub wins: i64,
    pub draws: i64,
    pub losses: i64,
    /// Finishes by place in matches of three sides or more.
    pub places: Places,
}

/// How often a player finished in each place of matches with three sides
/// or more: the first number counts firsts. Stored as `2,1,0,3`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Places(Vec<i64>);

impl Places {
    /// One more finish in `place` (1 is first).
    pub fn add(&mut self, place: u8) {
        let at = usize::from(place.max(1)) - 1;
        if self.0.len() <= at {
            self.0.resize(at + 1, 0);
        }
        self.0[at] += 1;
    }

    /// The counts, firsts first; empty before any such match.
    pub fn counts(&self) -> &[i64] {
        &self.0
    }
}

impl std::fmt::Display for Places {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for (i, n) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str(",")?;
            }
            write!(f, "{n}")?;
        }
        Ok(())
    }
}

impl std::str::FromStr for Places {
    type Err = std::num::ParseIntError;

    fn from_str(s: &str) -> Result<Places, Self::Err> {
        if s.is_empty() {
            return Ok(Places::default());
        }
        s.split(',')
            .map(str::parse)
            .collect::<Result<_, _>>()
            .map(Places)
    }
}

impl StandingRow {
    /// A player's standing before his first match of `game`.
    pub fn new(player_id: i64, game: &str) -> StandingRow {
        StandingRow {
            player_id,
            game: game.to_string(),
            rating: Rating::new_player(),
            rated_games: 0,
            games: 0,
            wins: 0,
            draws: 0,
            losses: 0,
            places: Places::default(),
        }
    }

    /// Whether the rating still rests on too few games to be established.
    pub fn provisional(&self) -> bool {
        self.rated_games < crate::ratings::PROVISIONAL_GAMES
    }
}

impl Record for StandingRow {
    const NAME: &'static str = "standing";
    const COLUMNS: &'static [&'static str] = &[
        "player_id",
        "game",
        "rating",
        "deviation",
        "volatility",
        "rated_games",
        "games",
        "wins",
        "draws",
        "losses",
        "places",
    ];

    fn decode(f: &mut Fields<'_>) -> StoreResult<StandingRow> {
        Ok(StandingRow {
            player_id: f.int("player_id")?,
            game: f.text("game")?,
            rating: Rating {
                rating: f.real("rating")?,
                deviation: f.real("deviation")?,
                volatility: f.real("volatility")?,
            },
            rated_games: f.int("rated_games")?,
            games: f.int("games")?,
            wins: f.int("wins")?,
            draws: f.int("draws")?,
            losses: f.int("losses")?,
            places: f.parsed("places")?,
        })
    }
}

/// One line of a leaderboard.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Leader {
    pub player_id: i64,
    pub nick: String,
    pub points: i64,
    pub rated_games: i64,
}

impl Leader {
    pub fn provisional(&self) -> bool {
        self.rated_games < crate::ratings::PROVISIONAL_GAMES
    }

    /// The places of a leaderboard read best first: ratings that read alike
    /// share the place of the first of them (the next place skips).
    pub fn places(leaders: &[Leader]) -> Vec<i64> {
        let mut out: Vec<i64> = Vec::with_capacity(leaders.len());
        for (i, leader) in leaders.iter().enumerate() {
            let place = match out.last() {
                Some(&prev) if leaders[i - 1].points == leader.points => prev,
                _ => i as i64 + 1,
            };
            out.push(place);
        }
        out
    }
}

impl Record for Leader {
    const NAME: &'static str = "leader";
    const COLUMNS: &'static [&'static str] = &["player_id", "nick", "points", "rated_games"];

    fn decode(f: &mut Fields<'_>) -> StoreResult<Leader> {
        Ok(Leader {
            player_id: f.int("player_id")?,
            nick: f.text("nick")?,
            points: f.int("points")?,
            rated_games: f.int("rated_games")?,
        })
    }
}

/// What one rated match did to one player's rating.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RatingChange {
    pub match_id: i64,
    pub player_id: i64,
    pub before: f64,
    pub after: f64,
}

impl RatingChange {
    /// The change as players read it: the difference of the ratings shown.
    pub fn points(&self) -> i64 {
        self.after.round() as i64 - self.before.round() as i64
    }
}

impl Record for RatingChange {
    const NAME: &'static str = "rating change";
    const COLUMNS: &'static [&'static str] =
        &["match_id", "player_id", "rating_before", "rating_after"];

    fn decode(f: &mut Fields<'_>) -> StoreResult<RatingChange> {
        Ok(RatingChange {
            match_id: f.int("match_id")?,
            player_id: f.int("player_id")?,
            before: f.real("rating_before")?,
            after: f.real("rating_after")?,
        })
    }
}

/// What anyone may read of players' standing.
pub trait StandingsRead {
    /// A player's standing in one game, if he finished a match of it.
    fn of(&mut self, game: &str, player_id: i64) -> StoreResult<Option<StandingRow>>;
    /// A player's standing in every game he finished a match of.
    fn of_player(&mut self, player_id: i64) -> StoreResult<Vec<StandingRow>>;
    /// The best `limit` players of a game whose rating is established
    /// ([`crate::ratings::PROVISIONAL_GAMES`] rated games or more).
    fn leaders(&mut self, game: &str, limit: usize) -> StoreResult<Vec<Leader>>;
    /// The place an established rating of `points` holds in a game's leaderboard.
    fn place(&mut self, game: &str, points: i64) -> StoreResult<i64>;
    /// The ids of a player's last `limit` finished matches, newest first.
    fn finished_of(&mut self, player_id: i64, limit: usize) -> StoreResult<Vec<i64>>;
    /// What a rated match did to a player's rating; none if it was unrated.
    fn change(&mut self, match_id: i64, player_id: i64) -> StoreResult<Option<RatingChange>>;
}

/// The writer's side: a match's end recorded.
pub trait Standings: StandingsRead {
    fn save(&mut self, row: &StandingRow, now: DateTime<Utc>) -> StoreResult<()>;
    fn record_change(&mut self, change: &RatingChange) -> StoreResult<()>;
}

impl<S: Sql> StandingsRead for S {
    fn of(&mut self, game: &str, player_id: i64) -> StoreResult<Option<StandingRow>> {
        self.first(
            &STANDINGS_OF,
            &[
                (":game", Value::Text(game)),
                (":player_id", Value::Int(player_id)),
            ],
        )
    }

    fn of_player(&mut self, player_id: i64) -> StoreResult<Vec<StandingRow>> {
        self.all(
            &STANDINGS_OF_PLAYER,
            &[(":player_id", Value::Int(player_id))],
        )
    }

    fn leaders(&mut self, game: &str, limit: usize) -> StoreResult<Vec<Leader>> {
        self.all(
            &LEADERS,
            &[
                (":game", Value::Text(game)),
                (
                    ":established",
                    Value::Int(crate::ratings::PROVISIONAL_GAMES),
                ),
                (":limit", Value::count(limit)),
            ],
        )
    }

    fn place(&mut self, game: &str, points: i64) -> StoreResult<i64> {
        let above: Option<Count> = self.first(
            &RATED_ABOVE,
            &[
                (":game", Value::Text(game)),
                (
                    ":established",
                    Value::Int(crate::ratings::PROVISIONAL_GAMES),
                ),
                (":points", Value::Int(points)),
            ],
        )?;
        Ok(above.map_or(0, |Count(n)| n) + 1)
    }

    fn finished_of(&mut self, player_id: i64, limit: usize) -> StoreResult<Vec<i64>> {
        let ids: Vec<Id> = self.all(
            &FINISHED_OF,
            &[
                (":player_id", Value::Int(player_id)),
                (":limit", Value::count(limit)),
            ],
        )?;
        Ok(ids.into_iter().map(|Id(id)| id).collect())
    }

    fn change(&mut self, match_id: i64, player_id: i64) -> StoreResult<Option<RatingChange>> {
        self.first(
            &RATING_CHANGE,
            &[
                (":match_id", Value::Int(match_id)),
                (":player_id", Value::Int(player_id)),
            ],
        )
    }
}

impl<W: Writer> Standings for W {
    fn save(&mut self, row: &StandingRow, now: DateTime<Utc>) -> StoreResult<()> {
        let r = &row.rating;
        let places = row.places.to_string();
        self.execute(
            &SAVE_STANDING,
            &[
                (":player_id", Value::Int(row.player_id)),
                (":game", Value::Text(&row.game)),
                (":rating", Value::Real(r.rating)),
                (":deviation", Value::Real(r.deviation)),
                (":volatility", Value::Real(r.volatility)),
                (":points", Value::Int(r.points())),
                (":rated_games", Value::Int(row.rated_games)),
                (":games", Value::Int(row.games)),
                (":wins", Value::Int(row.wins)),
                (":draws", Value::Int(row.draws)),
                (":losses", Value::Int(row.losses)),
                (":places", Value::Text(&places)),
                (":now", Value::Int(millis(now))),
            ],
        )?;
        Ok(())
    }

    fn record_change(&mut self, change: &RatingChange) -> StoreResult<()> {
        self.execute(
            &RECORD_RATING_CHANGE,
            &[
                (":match_id", Value::Int(change.match_id)),
                (":player_id", Value::Int(change.player_id)),
                (":rating_before", Value::Real(change.before)),
                (":rating_after", Value::Real(change.after)),
            ],
        )?;
        Ok(())
    }
}
