//! The row codec both backends share: one column list and one decoder per
//! record (player, match, seat, move, outbox text), so that a column is added
//! in one place and read the same way on SQLite and on PostgreSQL.
//!
//! The SQL around the columns stays per dialect. A backend provides only
//! [`Columns`], access to one row's values by position. A value that does not
//! decode (a `NULL` where none may be, an unknown language, a garbled
//! generator position) is [`StoreError::Corrupt`] naming the record and its
//! key, never a silent default: a wrong `rng_pos` read as 0 would break replay.

use std::str::FromStr;

use chrono::{DateTime, TimeZone, Utc};

use super::model::{
    Holder, MatchRow, MoveKind, MoveRow, OutboxText, Player, RobotTurn, SeatRow, TextStatus,
};
use super::{StoreError, StoreResult};

/// One row's values by position, as a backend's driver gives them. `None` is SQL `NULL`.
pub(crate) trait Columns {
    /// An integer of any width.
    fn int(&self, i: usize) -> Result<Option<i64>, String>;
    fn text(&self, i: usize) -> Result<Option<String>, String>;
    /// A boolean (SQLite stores it as an integer).
    fn flag(&self, i: usize) -> Result<Option<bool>, String>;
    fn real(&self, i: usize) -> Result<Option<f64>, String>;
}

/// A record read from the columns a query lists for it.
pub(crate) trait Record: Sized {
    /// What the record is called in errors.
    const NAME: &'static str;
    /// Its columns, in the order [`Record::decode`] reads them.
    const COLUMNS: &'static [&'static str];
    /// How many columns it takes in a row: more than its own when it reads
    /// another record's after them (a seat, its player).
    const WIDTH: usize = Self::COLUMNS.len();
    /// The columns of another record it reads after its own (a seat, its
    /// player's), so that those names are checked too.
    const TAIL: &'static [&'static str] = &[];
    fn decode(fields: &mut Fields<'_>) -> StoreResult<Self>;
}

/// `COLUMNS` of `R`, each prefixed with `alias.` (for joins).
pub(crate) fn column_list<R: Record>(alias: &str) -> String {
    R::COLUMNS
        .iter()
        .map(|c| format!("{alias}.{c}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Decodes `R` from the columns of `row` starting at `at`.
pub(crate) fn decode_at<R: Record>(row: &dyn Columns, at: usize) -> StoreResult<R> {
    let mut fields = Fields {
        row,
        next: at,
        base: at,
        names: [R::COLUMNS, R::TAIL],
        record: R::NAME,
        key: Key::Unknown,
    };
    let record = R::decode(&mut fields)?;
    debug_assert_eq!(fields.next - at, R::WIDTH, "{} columns", R::NAME);
    Ok(record)
}

pub(crate) fn decode<R: Record>(row: &dyn Columns) -> StoreResult<R> {
    decode_at(row, 0)
}

/// A cursor over one record's columns: each read takes the next column, and
/// (in debug builds, so in every test) checks that the name it asks for is
/// the one the record's column list puts there: two swapped reads of one
/// type fail loudly instead of misreading data.
pub(crate) struct Fields<'r> {
    row: &'r dyn Columns,
    next: usize,
    /// Where the record's columns start in the row.
    base: usize,
    /// The names expected from `base` on: the record's, then its tail's.
    names: [&'static [&'static str]; 2],
    record: &'static str,
    /// The record's key once read, for errors (kept as numbers: formatting
    /// it for every row read would cost an allocation per record).
    key: Key,
}

/// What names a record in an error: its id, or a match's id and a number in it.
#[derive(Clone, Copy)]
enum Key {
    Unknown,
    Id(i64),
    In(i64, i64),
}

impl std::fmt::Display for Key {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Key::Unknown => f.write_str("?"),
            Key::Id(id) => write!(f, "{id}"),
            Key::In(id, n) => write!(f, "{id}/{n}"),
        }
    }
}

impl<'r> Fields<'r> {
    fn corrupt(&self, column: &str, what: impl std::fmt::Display) -> StoreError {
        StoreError::Corrupt(format!("{} {}: {column}: {what}", self.record, self.key))
    }

    fn take<T>(
        &mut self,
        column: &str,
        get: impl FnOnce(&dyn Columns, usize) -> Result<Option<T>, String>,
    ) -> StoreResult<Option<T>> {
        let i = self.next;
        self.next += 1;
        if cfg!(debug_assertions) {
            let at = i - self.base;
            let [own, tail] = self.names;
            let expected = own.get(at).or_else(|| tail.get(at - own.len()));
            assert!(
                expected.is_none_or(|&name| name == column),
                "{}: column {at} is read as {column} but listed as {expected:?}",
                self.record
            );
        }
        get(self.row, i).map_err(|e| self.corrupt(column, e))
    }

    /// Names the record in later errors by its id.
    pub(crate) fn keyed(&mut self, id: i64) {
        self.key = Key::Id(id);
    }

    /// Names the record in later errors by its match and its number there.
    fn keyed_in(&mut self, id: i64, n: i64) {
        self.key = Key::In(id, n);
    }

    pub fn opt_int(&mut self, column: &str) -> StoreResult<Option<i64>> {
        self.take(column, |r, i| r.int(i))
    }

    pub fn int(&mut self, column: &str) -> StoreResult<i64> {
        self.opt_int(column)?
            .ok_or_else(|| self.corrupt(column, "is null"))
    }

    /// An integer that must fit `T` (a count, a seat number).
    pub fn small<T: TryFrom<i64>>(&mut self, column: &str) -> StoreResult<T> {
        let value = self.int(column)?;
        T::try_from(value).map_err(|_| self.corrupt(column, format!("{value} is out of range")))
    }

    /// A nullable integer that must fit `T`.
    pub fn opt_small<T: TryFrom<i64>>(&mut self, column: &str) -> StoreResult<Option<T>> {
        match self.opt_int(column)? {
            None => Ok(None),
            Some(value) => T::try_from(value)
                .map(Some)
                .map_err(|_| self.corrupt(column, format!("{value} is out of range"))),
        }
    }

    /// Passes over `n` columns (another record's, all null).
    pub fn skip(&mut self, n: usize) {
        self.next += n;
    }

    pub fn opt_text(&mut self, column: &str) -> StoreResult<Option<String>> {
        self.take(column, |r, i| r.text(i))
    }

    pub fn text(&mut self, column: &str) -> StoreResult<String> {
        self.opt_text(column)?
            .ok_or_else(|| self.corrupt(column, "is null"))
    }

    pub fn flag(&mut self, column: &str) -> StoreResult<bool> {
        self.take(column, |r, i| r.flag(i))?
            .ok_or_else(|| self.corrupt(column, "is null"))
    }

    pub fn real(&mut self, column: &str) -> StoreResult<f64> {
        self.take(column, |r, i| r.real(i))?
            .ok_or_else(|| self.corrupt(column, "is null"))
    }

    /// Text that must parse as `T`.
    pub fn parsed<T: FromStr>(&mut self, column: &str) -> StoreResult<T> {
        let text = self.text(column)?;
        text.parse()
            .map_err(|_| self.corrupt(column, format!("{text:?} does not parse")))
    }

    /// Nullable text that must parse as `T` when it is there.
    pub fn opt_parsed<T: FromStr>(&mut self, column: &str) -> StoreResult<Option<T>> {
        match self.opt_text(column)? {
            None => Ok(None),
            Some(text) => text
                .parse()
                .map(Some)
                .map_err(|_| self.corrupt(column, format!("{text:?} does not parse"))),
        }
    }

    pub fn opt_time(&mut self, column: &str) -> StoreResult<Option<DateTime<Utc>>> {
        match self.opt_int(column)? {
            None => Ok(None),
            Some(ms) => from_millis(ms)
                .map(Some)
                .ok_or_else(|| self.corrupt(column, format!("{ms} is no time"))),
        }
    }

    pub fn time(&mut self, column: &str) -> StoreResult<DateTime<Utc>> {
        self.opt_time(column)?
            .ok_or_else(|| self.corrupt(column, "is null"))
    }
}

/// A row's id alone (`id`).
pub(crate) struct Id(pub i64);

impl Record for Id {
    const NAME: &'static str = "row";
    const COLUMNS: &'static [&'static str] = &["id"];

    fn decode(f: &mut Fields<'_>) -> StoreResult<Id> {
        Ok(Id(f.int("id")?))
    }
}

/// A time that may be none (`at`), such as the next one something falls due.
pub(crate) struct At(pub Option<DateTime<Utc>>);

impl Record for At {
    const NAME: &'static str = "time";
    const COLUMNS: &'static [&'static str] = &["at"];

    fn decode(f: &mut Fields<'_>) -> StoreResult<At> {
        Ok(At(f.opt_time("at")?))
    }
}

/// Unix milliseconds, the stored form of every time.
pub(crate) fn millis(t: DateTime<Utc>) -> i64 {
    t.timestamp_millis()
}

pub(crate) fn from_millis(ms: i64) -> Option<DateTime<Utc>> {
    Utc.timestamp_millis_opt(ms).single()
}

/// A generator position as stored: `u128` as decimal text (neither database
/// has an unsigned 128-bit integer).
pub(crate) fn rng_pos_text(pos: u128) -> String {
    pos.to_string()
}

impl Record for Player {
    const NAME: &'static str = "player";
    const COLUMNS: &'static [&'static str] = &["id", "phone", "nick", "lang", "opted_out", "away"];

    fn decode(f: &mut Fields<'_>) -> StoreResult<Player> {
        let id = f.int("id")?;
        f.keyed(id);
        Ok(Player {
            id,
            phone: f.text("phone")?,
            nick: f.opt_text("nick")?,
            lang: f.parsed("lang")?,
            opted_out: f.flag("opted_out")?,
            away: f.flag("away")?,
        })
    }
}

impl Record for MatchRow {
    const NAME: &'static str = "match";
    const COLUMNS: &'static [&'static str] = &[
        "id",
        "game",
        "options",
        "state",
        "seed",
        "rng_pos",
        "turn",
        "finished",
        "deadline_at",
        "rematch_deadline_at",
        "rematch_of",
        "started_at",
        "finished_at",
        "initial_state",
        "void_reason",
    ];

    fn decode(f: &mut Fields<'_>) -> StoreResult<MatchRow> {
        let id = f.int("id")?;
        f.keyed(id);
        Ok(MatchRow {
            id,
            game: f.text("game")?,
            options: f.text("options")?,
            state: f.text("state")?,
            // stored as i64 bits: neither database has an unsigned 64-bit integer
            seed: f.int("seed")? as u64,
            rng_pos: f.parsed("rng_pos")?,
            turn: f.small("turn")?,
            finished: f.flag("finished")?,
            deadline_at: f.opt_time("deadline_at")?,
            rematch_deadline_at: f.opt_time("rematch_deadline_at")?,
            rematch_of: f.opt_int("rematch_of")?,
            started_at: f.time("started_at")?,
            finished_at: f.opt_time("finished_at")?,
            initial_state: f.text("initial_state")?,
            void_reason: f.opt_text("void_reason")?,
        })
    }
}

impl Record for SeatRow {
    const NAME: &'static str = "seat";
    /// The seat's own columns; its player's ([`Player::COLUMNS`], all null
    /// for a robot's seat) follow them.
    const COLUMNS: &'static [&'static str] = &[
        "match_id",
        "seat",
        "robot_level",
        "missed",
        "rematch_at",
        "message_sent",
        "place",
        "score",
    ];
    const WIDTH: usize = Self::COLUMNS.len() + Player::COLUMNS.len();
    const TAIL: &'static [&'static str] = Player::COLUMNS;

    fn decode(f: &mut Fields<'_>) -> StoreResult<SeatRow> {
        let match_id = f.int("match_id")?;
        let seat: usize = f.small("seat")?;
        f.keyed_in(match_id, seat as i64);
        let robot: Option<u8> = f.opt_small("robot_level")?;
        let missed = f.small("missed")?;
        let rematch_at = f.opt_time("rematch_at")?;
        let message_sent = f.flag("message_sent")?;
        let place = f.opt_small("place")?;
        let score = f.opt_int("score")?;
        let holder = match robot {
            Some(level) => {
                f.skip(Player::COLUMNS.len());
                Holder::Robot(level)
            }
            None => Holder::Player(Player::decode(f)?),
        };
        Ok(SeatRow {
            seat,
            holder,
            missed,
            rematch_at,
            message_sent,
            place,
            score,
        })
    }
}

impl SeatRow {
    /// The seat's columns (table alias `seat`) and its player's (alias
    /// `player`), for a `LEFT JOIN` of the players.
    pub(crate) fn column_list(seat: &str, player: &str) -> String {
        format!(
            "{}, {}",
            column_list::<SeatRow>(seat),
            column_list::<Player>(player)
        )
    }
}

impl Record for MoveRow {
    const NAME: &'static str = "move";
    const COLUMNS: &'static [&'static str] = &[
        "match_id",
        "ply",
        "seat",
        "kind",
        "move",
        "automatic",
        "state_after",
        "rng_pos",
    ];

    fn decode(f: &mut Fields<'_>) -> StoreResult<MoveRow> {
        let match_id = f.int("match_id")?;
        let ply: u32 = f.small("ply")?;
        f.keyed_in(match_id, i64::from(ply));
        Ok(MoveRow {
            ply,
            seat: f.small("seat")?,
            kind: f.parsed::<MoveKind>("kind")?,
            notation: f.text("move")?,
            automatic: f.flag("automatic")?,
            state_after: f.text("state_after")?,
            rng_pos: f.opt_parsed("rng_pos")?,
        })
    }
}

impl Record for RobotTurn {
    const NAME: &'static str = "robot turn";
    const COLUMNS: &'static [&'static str] = &["match_id", "seat", "turn", "due_at", "attempts"];

    fn decode(f: &mut Fields<'_>) -> StoreResult<RobotTurn> {
        let match_id = f.int("match_id")?;
        let seat: usize = f.small("seat")?;
        f.keyed_in(match_id, seat as i64);
        Ok(RobotTurn {
            match_id,
            seat,
            turn: f.small("turn")?,
            due_at: f.time("due_at")?,
            attempts: f.small("attempts")?,
        })
    }
}

impl Record for OutboxText {
    const NAME: &'static str = "outbox text";
    const COLUMNS: &'static [&'static str] = &[
        "id",
        "from_number",
        "to_phone",
        "body",
        "encoding",
        "parts",
        "attempts",
        "status",
        "provider_ref",
        "last_error",
    ];

    fn decode(f: &mut Fields<'_>) -> StoreResult<OutboxText> {
        let id = f.int("id")?;
        f.keyed(id);
        Ok(OutboxText {
            id,
            from: f.text("from_number")?,
            to: f.text("to_phone")?,
            body: f.text("body")?,
            encoding: f.text("encoding")?,
            parts: f.small("parts")?,
            attempts: f.small("attempts")?,
            status: f.parsed("status")?,
            provider_ref: f.opt_text("provider_ref")?,
            last_error: f.opt_text("last_error")?,
        })
    }
}

impl FromStr for TextStatus {
    type Err = ();

    fn from_str(s: &str) -> Result<TextStatus, ()> {
        TextStatus::parse(s).ok_or(())
    }
}

#[cfg(test)]
mod tests;
