//! Players' standing per game: ratings read and written, the leaderboard,
//! a player's finished matches and what each did to his rating.

use std::sync::LazyLock;

use super::Statement;
use crate::store::rows::{Record, column_list};
use crate::store::standings::{Leader, RatingChange, StandingRow};

/// Players' standings in one game, for the players of a finished match.
/// (A player sits in one unfinished match at a time, and only its end writes
/// his row there, under that match's lock: the row needs no lock of its own.)
pub(crate) static STANDINGS_OF: LazyLock<Statement> = LazyLock::new(|| {
    Statement::made(
        "standings of",
        format!(
            "SELECT {} FROM ratings r WHERE r.game = :game AND r.player_id = :player_id",
            column_list::<StandingRow>("r")
        ),
    )
});

/// A player's standing in every game he played, by game.
pub(crate) static STANDINGS_OF_PLAYER: LazyLock<Statement> = LazyLock::new(|| {
    Statement::made(
        "standings of player",
        format!(
            "SELECT {} FROM ratings r WHERE r.player_id = :player_id ORDER BY r.game",
            column_list::<StandingRow>("r")
        ),
    )
});

pub(crate) static SAVE_STANDING: Statement = Statement::same(
    "save standing",
    "INSERT INTO ratings (player_id, game, rating, deviation, volatility, points, rated_games,
                          games, wins, draws, losses, places, updated_at)
     VALUES (:player_id, :game, :rating, :deviation, :volatility, :points, :rated_games,
             :games, :wins, :draws, :losses, :places, :now)
     ON CONFLICT (player_id, game) DO UPDATE
     SET rating = excluded.rating, deviation = excluded.deviation,
         volatility = excluded.volatility, points = excluded.points,
         rated_games = excluded.rated_games, games = excluded.games, wins = excluded.wins,
         draws = excluded.draws, losses = excluded.losses, places = excluded.places,
         updated_at = excluded.updated_at",
);

pub(crate) static RECORD_RATING_CHANGE: Statement = Statement::same(
    "record rating change",
    "INSERT INTO rating_changes (match_id, player_id, rating_before, rating_after)
     VALUES (:match_id, :player_id, :rating_before, :rating_after)",
);

/// The leaderboard of a game: players whose rating is established (at
/// least `:established` rated games), best first; of ratings that read
/// alike, the one with more rated games first, then by nick.
pub(crate) static LEADERS: LazyLock<Statement> = LazyLock::new(|| {
    let [player_id, nick, points, rated_games] = Leader::COLUMNS else {
        unreachable!("four columns of a leader")
    };
    Statement::made(
        "leaders",
        format!(
            "SELECT r.player_id AS {player_id}, p.nick AS {nick}, r.points AS {points},
                    r.rated_games AS {rated_games}
             FROM ratings r JOIN players p ON p.id = r.player_id
             WHERE r.game = :game AND r.rated_games >= :established AND p.nick IS NOT NULL
             ORDER BY r.points DESC, r.rated_games DESC, p.nick_key
             LIMIT :limit"
        ),
    )
});

/// How many players of a game's leaderboard are rated above `:points`: a
/// player's place is one more (ratings that read alike share a place).
pub(crate) static RATED_ABOVE: Statement = Statement::same(
    "rated above",
    "SELECT COUNT(*) AS n FROM ratings r JOIN players p ON p.id = r.player_id
     WHERE r.game = :game AND r.rated_games >= :established AND p.nick IS NOT NULL
       AND r.points > :points",
);

/// A player's finished matches (not void), newest first.
pub(crate) static FINISHED_OF: Statement = Statement::same(
    "finished of",
    "SELECT DISTINCT m.id AS id FROM match_seats s JOIN matches m ON m.id = s.match_id
     WHERE s.player_id = :player_id AND m.finished_at IS NOT NULL AND m.void_reason IS NULL
     ORDER BY m.id DESC LIMIT :limit",
);

pub(crate) static RATING_CHANGE: LazyLock<Statement> = LazyLock::new(|| {
    Statement::made(
        "rating change",
        format!(
            "SELECT {} FROM rating_changes c WHERE c.match_id = :match_id AND c.player_id = :player_id",
            column_list::<RatingChange>("c")
        ),
    )
});
