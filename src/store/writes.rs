//! The writer's work that both backends do alike, written once over
//! [`Sql`]: robot turns and timers whole, and the pieces of players, the
//! lobby and the outbox that each backend's `Tx` calls where it has no way
//! of its own (PostgreSQL defers or batches its hot writes, and locks).

use chrono::{DateTime, Utc};

use super::StoreResult;
use super::model::{NewMatch, Player, RobotTurn};
use super::rows::{Fields, Id, Record, millis, rng_pos_text};
use super::sql::Sql;
use super::sql::Writer;
use super::statements::Value;
use super::statements::writes::{
    CLAIM_ROBOT_TURNS, CLEAR_ROBOT_TURNS, CREATE_PLAYER, DUE_REMATCHES, DUE_TURNS, INSERT_MATCH,
    JOIN_LOBBY, LOBBY_QUEUE, NEXT_ROBOT_TURN, NEXT_TIMER, PARK_TEXT, PLAYER_BY_NICK, QUEUE_OF,
    QUEUE_ROBOT_TURN, ROBOT_TURN_DONE,
};
use super::tx::{Pool, Robots, Timers};

pub(crate) fn player_by_nick(db: &mut impl Sql, nick: &str) -> StoreResult<Option<Player>> {
    let key = nick.to_lowercase();
    db.first(&PLAYER_BY_NICK, &[(":nick_key", Value::Text(&key))])
}

pub(crate) fn create_player(
    db: &mut impl Sql,
    phone: &str,
    now: DateTime<Utc>,
) -> StoreResult<Player> {
    let id: Option<Id> = db.first(
        &CREATE_PLAYER,
        &[
            (":phone", Value::Text(phone)),
            (":now", Value::Int(millis(now))),
        ],
    )?;
    let Id(id) =
        id.ok_or_else(|| super::StoreError::Corrupt("a player's insert gave no id".into()))?;
    Ok(Player {
        id,
        phone: phone.to_string(),
        nick: None,
        lang: crate::lang::Lang::default(),
        opted_out: false,
        away: false,
    })
}

/// A new match's row, without its seats (each backend writes those its own
/// way); its id.
pub(crate) fn insert_match(
    db: &mut impl Sql,
    new: &NewMatch,
    now: DateTime<Utc>,
) -> StoreResult<i64> {
    let rng_pos = rng_pos_text(new.rng_pos);
    db.insert(
        &INSERT_MATCH,
        &[
            (":game", Value::Text(&new.game)),
            (":state", Value::Text(&new.state)),
            (":seed", Value::Int(new.seed as i64)),
            (":rng_pos", Value::Text(&rng_pos)),
            (":deadline_at", Value::MaybeInt(new.deadline_at.map(millis))),
            (":rematch_of", Value::MaybeInt(new.rematch_of)),
            (":now", Value::Int(millis(now))),
            (":options", Value::Text(&new.options)),
        ],
    )
}

/// A queue's longest-waiting players of `pool`, oldest first (locked on
/// PostgreSQL: `statements/writes.rs`).
pub(crate) fn lobby_queue(
    db: &mut impl Sql,
    game: &str,
    options: &str,
    pool: Pool,
    limit: usize,
) -> StoreResult<Vec<Player>> {
    db.all(
        &LOBBY_QUEUE,
        &[
            (":game", Value::Text(game)),
            (":options", Value::Text(options)),
            (":limit", Value::count(limit)),
            (":pool", Value::Text(pool.as_str())),
        ],
    )
}

pub(crate) fn join_lobby(
    db: &mut impl Sql,
    player_id: i64,
    game: &str,
    options: &str,
    queued_at: DateTime<Utc>,
) -> StoreResult<bool> {
    let changed = db.execute(
        &JOIN_LOBBY,
        &[
            (":player_id", Value::Int(player_id)),
            (":game", Value::Text(game)),
            (":options", Value::Text(options)),
            (":queued_at", Value::Int(millis(queued_at))),
        ],
    )?;
    Ok(changed > 0)
}

/// A queue a player waits in: its game and options.
struct Queued(String, String);

impl Record for Queued {
    const NAME: &'static str = "lobby entry";
    const COLUMNS: &'static [&'static str] = &["game", "options"];

    fn decode(f: &mut Fields<'_>) -> StoreResult<Queued> {
        Ok(Queued(f.text("game")?, f.text("options")?))
    }
}

pub(crate) fn queue_of(db: &mut impl Sql, player_id: i64) -> StoreResult<Option<(String, String)>> {
    let queued: Option<Queued> = db.first(&QUEUE_OF, &[(":player_id", Value::Int(player_id))])?;
    Ok(queued.map(|Queued(game, options)| (game, options)))
}

pub(crate) fn park_text(
    db: &mut impl Sql,
    id: i64,
    attempts: u32,
    error: &str,
    now: DateTime<Utc>,
) -> StoreResult<()> {
    db.execute(
        &PARK_TEXT,
        &[
            (":id", Value::Int(id)),
            (":attempts", Value::Int(i64::from(attempts))),
            (":error", Value::Text(error)),
            (":now", Value::Int(millis(now))),
        ],
    )?;
    Ok(())
}

fn turn_args(turn: &RobotTurn) -> [(&'static str, Value<'static>); 3] {
    [
        (":match_id", Value::Int(turn.match_id)),
        (":seat", Value::Int(turn.seat as i64)),
        (":turn", Value::Int(i64::from(turn.turn))),
    ]
}

/// Robot turns are written at once, also on PostgreSQL (not deferred): they
/// concern robot matches only, and a turn's row can be done and queued again
/// in one transaction (a race's robot moving its second car), which two CTEs
/// of one statement could not do to one row.
impl<W: Writer> Robots for W {
    fn queue(&mut self, turn: &RobotTurn) -> StoreResult<()> {
        let [m, s, t] = turn_args(turn);
        self.execute(
            &QUEUE_ROBOT_TURN,
            &[m, s, t, (":due_at", Value::Int(millis(turn.due_at)))],
        )?;
        Ok(())
    }

    fn claim(
        &mut self,
        now: DateTime<Utc>,
        lease_until: DateTime<Utc>,
        levels: std::ops::RangeInclusive<u8>,
        max: usize,
    ) -> StoreResult<Vec<RobotTurn>> {
        let mut turns: Vec<RobotTurn> = self.all(
            &CLAIM_ROBOT_TURNS,
            &[
                (":now", Value::Int(millis(now))),
                (":lease_until", Value::Int(millis(lease_until))),
                (":lowest", Value::Int(i64::from(*levels.start()))),
                (":highest", Value::Int(i64::from(*levels.end()))),
                (":limit", Value::count(max)),
            ],
        )?;
        turns.sort_by_key(|t| (t.due_at, t.match_id, t.seat));
        Ok(turns)
    }

    fn done(&mut self, turn: &RobotTurn) -> StoreResult<()> {
        self.execute(&ROBOT_TURN_DONE, &turn_args(turn))?;
        Ok(())
    }

    fn clear(&mut self, match_id: i64) -> StoreResult<()> {
        self.execute(&CLEAR_ROBOT_TURNS, &[(":match_id", Value::Int(match_id))])?;
        Ok(())
    }

    fn next_due(&mut self) -> StoreResult<Option<DateTime<Utc>>> {
        self.next_time(&NEXT_ROBOT_TURN, &[])
    }
}

impl<W: Writer> Timers for W {
    fn due_turns(&mut self, now: DateTime<Utc>, max: usize) -> StoreResult<Vec<i64>> {
        let due: Vec<Id> = self.all(
            &DUE_TURNS,
            &[
                (":now", Value::Int(millis(now))),
                (":limit", Value::count(max)),
            ],
        )?;
        Ok(due.into_iter().map(|Id(id)| id).collect())
    }

    fn due_rematches(&mut self, now: DateTime<Utc>, max: usize) -> StoreResult<Vec<i64>> {
        let due: Vec<Id> = self.all(
            &DUE_REMATCHES,
            &[
                (":now", Value::Int(millis(now))),
                (":limit", Value::count(max)),
            ],
        )?;
        Ok(due.into_iter().map(|Id(id)| id).collect())
    }

    fn next(&mut self) -> StoreResult<Option<DateTime<Utc>>> {
        self.next_time(&NEXT_TIMER, &[])
    }
}
