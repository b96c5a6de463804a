//! What the operator's console reads and writes: counts for the overview, players and their texts, parked texts to retry or drop, and the audit of every action.

use chrono::{DateTime, Utc};
use serde::Serialize;

use super::model::{OutboxEvent, OutboxText, Player};
use super::rows::{Fields, Record, millis};
use super::sql::{Sql, Writer};
use super::statements::Value;
use super::statements::console::{
    AUDIT, AUDIT_ENTRIES, CLEAN_SESSIONS, CLOSE_SESSION, DROP_PARKED, FIND_PLAYERS,
    INBOUND_PER_MINUTE, OPEN_SESSION, PARKED, PLAYER_BY_ID, REQUEUE_PARKED, RUNNING, SESSION,
    TEXTS_FROM, TOTALS,
};
use super::{StoreError, StoreResult};

/// The overview's counts, as the database holds them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ConsoleCounts {
    /// Players with a nick.
    pub players: i64,
    pub lobbies_waiting: i64,
    /// Matches not over, by game code.
    pub running: Vec<(String, i64)>,
    /// Texts queued or being sent.
    pub outbox_backlog: i64,
    /// When the oldest of them was written.
    pub oldest_waiting: Option<DateTime<Utc>>,
    /// Texts given up on, waiting for an operator.
    pub parked: i64,
}

/// A text a phone sent us.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InboundText {
    pub received_at: DateTime<Utc>,
    pub to: String,
    pub text: String,
}

/// One operator action.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct AuditEntry {
    pub id: i64,
    pub at: DateTime<Utc>,
    /// Who: the name given at login, or `bearer`.
    pub actor: String,
    /// What: `retry`, `drop`, `look at texts`, `show numbers`, `login`.
    pub action: String,
    /// On what: `text #12`, `player #3`.
    pub target: String,
    /// From which address, where known.
    pub address: Option<String>,
}

/// An action to record (its id and time are the store's).
#[derive(Clone, Copy, Debug)]
pub struct NewAudit<'a> {
    pub actor: &'a str,
    pub action: &'a str,
    pub target: &'a str,
    pub address: Option<&'a str>,
}

/// The console's reads, beside the writer.
pub trait ConsoleRead {
    fn counts(&mut self) -> StoreResult<ConsoleCounts>;
    /// Inbound texts since `since`, counted per minute: (the minute's start, texts).
    fn inbound_per_minute(
        &mut self,
        since: DateTime<Utc>,
    ) -> StoreResult<Vec<(DateTime<Utc>, i64)>>;
    /// Players whose nick starts with `nick` (any case, LIKE's wildcards
    /// taken literally), or whose number is `number` whole; at most
    /// `limit`, by nick.
    fn find_players(
        &mut self,
        nick: &str,
        number: Option<&str>,
        limit: usize,
    ) -> StoreResult<Vec<Player>>;
    fn player_by_id(&mut self, id: i64) -> StoreResult<Option<Player>>;
    /// A phone's last `limit` texts to us, newest first.
    fn texts_from(&mut self, phone: &str, limit: usize) -> StoreResult<Vec<InboundText>>;
    /// The newest `limit` parked texts, newest first.
    fn parked_texts(&mut self, limit: usize) -> StoreResult<Vec<OutboxText>>;
    /// The newest `limit` audit entries, newest first.
    fn audit_entries(&mut self, limit: usize) -> StoreResult<Vec<AuditEntry>>;
    /// The operator's name of the session whose id hashes to `id_hash`,
    /// while it has not ended by `now`.
    fn session(&mut self, id_hash: &str, now: DateTime<Utc>) -> StoreResult<Option<String>>;
}

/// The console's writes, on the writer.
pub trait ConsoleWrite {
    /// Puts a parked text back in the queue, its attempts counted anew;
    /// the text when it was parked, none when it is not (any more).
    fn requeue_parked(&mut self, id: i64, now: DateTime<Utc>) -> StoreResult<Option<OutboxText>>;
    /// Drops a parked text for good (it is cancelled); whether it was parked.
    fn drop_parked(&mut self, id: i64, now: DateTime<Utc>) -> StoreResult<bool>;
    fn audit(&mut self, entry: &NewAudit<'_>, now: DateTime<Utc>) -> StoreResult<()>;
    /// Records a login's session until `expires`, and forgets the sessions
    /// that have ended.
    fn open_session(&mut self, session: &NewSession<'_>, now: DateTime<Utc>) -> StoreResult<()>;
    /// Ends a session (a logout); whether it was open.
    fn close_session(&mut self, id_hash: &str) -> StoreResult<bool>;
}

/// A login to record: its id's hash (never the id), who, until when.
#[derive(Clone, Copy, Debug)]
pub struct NewSession<'a> {
    pub id_hash: &'a str,
    pub name: &'a str,
    pub expires: DateTime<Utc>,
}

/// The operator a session belongs to.
pub(crate) struct SessionName(String);

impl Record for SessionName {
    const NAME: &'static str = "console session";
    const COLUMNS: &'static [&'static str] = &["name"];

    fn decode(f: &mut Fields<'_>) -> StoreResult<SessionName> {
        Ok(SessionName(f.text("name")?))
    }
}

/// The overview's counts but the running matches, as one row gives them.
pub(crate) struct Totals {
    players: i64,
    lobbies_waiting: i64,
    parked: i64,
    backlog: i64,
    oldest: Option<DateTime<Utc>>,
}

/// Matches not over in one game.
pub(crate) struct GameCount(String, i64);

/// Texts in during one minute.
pub(crate) struct MinuteCount(i64, i64);

impl Record for Totals {
    const NAME: &'static str = "console totals";
    const COLUMNS: &'static [&'static str] =
        &["players", "lobbies_waiting", "parked", "backlog", "oldest"];

    fn decode(f: &mut Fields<'_>) -> StoreResult<Totals> {
        Ok(Totals {
            players: f.int("players")?,
            lobbies_waiting: f.int("lobbies_waiting")?,
            parked: f.int("parked")?,
            backlog: f.int("backlog")?,
            oldest: f.opt_time("oldest")?,
        })
    }
}

impl Record for GameCount {
    const NAME: &'static str = "running matches";
    const COLUMNS: &'static [&'static str] = &["game", "matches"];

    fn decode(f: &mut Fields<'_>) -> StoreResult<GameCount> {
        Ok(GameCount(f.text("game")?, f.int("matches")?))
    }
}

impl Record for MinuteCount {
    const NAME: &'static str = "texts in a minute";
    const COLUMNS: &'static [&'static str] = &["minute", "texts"];

    fn decode(f: &mut Fields<'_>) -> StoreResult<MinuteCount> {
        Ok(MinuteCount(f.int("minute")?, f.int("texts")?))
    }
}

impl Record for InboundText {
    const NAME: &'static str = "inbound text";
    const COLUMNS: &'static [&'static str] = &["received_at", "to_number", "body"];

    fn decode(f: &mut Fields<'_>) -> StoreResult<InboundText> {
        Ok(InboundText {
            received_at: f.time("received_at")?,
            to: f.text("to_number")?,
            text: f.text("body")?,
        })
    }
}

impl Record for AuditEntry {
    const NAME: &'static str = "audit entry";
    const COLUMNS: &'static [&'static str] = &["id", "at", "actor", "action", "target", "address"];

    fn decode(f: &mut Fields<'_>) -> StoreResult<AuditEntry> {
        let id = f.int("id")?;
        f.keyed(id);
        Ok(AuditEntry {
            id,
            at: f.time("at")?,
            actor: f.text("actor")?,
            action: f.text("action")?,
            target: f.text("target")?,
            address: f.opt_text("address")?,
        })
    }
}

impl<S: Sql> ConsoleRead for S {
    fn counts(&mut self) -> StoreResult<ConsoleCounts> {
        let totals: Totals = self
            .first(&TOTALS, &[])?
            .ok_or_else(|| StoreError::Corrupt("the console's totals gave no row".into()))?;
        let running = self
            .all::<GameCount>(&RUNNING, &[])?
            .into_iter()
            .map(|GameCount(game, n)| (game, n))
            .collect();
        Ok(ConsoleCounts {
            players: totals.players,
            lobbies_waiting: totals.lobbies_waiting,
            running,
            outbox_backlog: totals.backlog,
            oldest_waiting: totals.oldest,
            parked: totals.parked,
        })
    }

    fn inbound_per_minute(
        &mut self,
        since: DateTime<Utc>,
    ) -> StoreResult<Vec<(DateTime<Utc>, i64)>> {
        self.all::<MinuteCount>(
            &INBOUND_PER_MINUTE,
            &[(":since", Value::Int(millis(since)))],
        )?
        .into_iter()
        .map(|MinuteCount(minute, n)| {
            let start = super::rows::from_millis(minute.saturating_mul(60_000));
            let start =
                start.ok_or_else(|| StoreError::Corrupt(format!("inbound minute {minute}")))?;
            Ok((start, n))
        })
        .collect()
    }

    fn find_players(
        &mut self,
        nick: &str,
        number: Option<&str>,
        max: usize,
    ) -> StoreResult<Vec<Player>> {
        let prefix = nick_prefix(nick);
        self.all(
            &FIND_PLAYERS,
            &[
                (":nick", Value::Text(&prefix)),
                (":number", Value::MaybeText(number)),
                (":limit", Value::count(max)),
            ],
        )
    }

    fn player_by_id(&mut self, id: i64) -> StoreResult<Option<Player>> {
        self.first(&PLAYER_BY_ID, &[(":id", Value::Int(id))])
    }

    fn texts_from(&mut self, phone: &str, max: usize) -> StoreResult<Vec<InboundText>> {
        self.all(
            &TEXTS_FROM,
            &[
                (":phone", Value::Text(phone)),
                (":limit", Value::count(max)),
            ],
        )
    }

    fn parked_texts(&mut self, max: usize) -> StoreResult<Vec<OutboxText>> {
        self.all(&PARKED, &[(":limit", Value::count(max))])
    }

    fn audit_entries(&mut self, max: usize) -> StoreResult<Vec<AuditEntry>> {
        self.all(&AUDIT_ENTRIES, &[(":limit", Value::count(max))])
    }

    fn session(&mut self, id_hash: &str, now: DateTime<Utc>) -> StoreResult<Option<String>> {
        let found: Option<SessionName> = self.first(
            &SESSION,
            &[
                (":id_hash", Value::Text(id_hash)),
                (":now", Value::Int(millis(now))),
            ],
        )?;
        Ok(found.map(|SessionName(name)| name))
    }
}

impl<W: Writer> ConsoleWrite for W {
    fn requeue_parked(&mut self, id: i64, now: DateTime<Utc>) -> StoreResult<Option<OutboxText>> {
        let text: Option<OutboxText> = self.first(
            &REQUEUE_PARKED,
            &[(":id", Value::Int(id)), (":now", Value::Int(millis(now)))],
        )?;
        if let Some(text) = &text {
            // A dispatcher hears of it as of a new text.
            self.tell_dispatcher(OutboxEvent::Requeued(text.clone()));
        }
        Ok(text)
    }

    fn drop_parked(&mut self, id: i64, now: DateTime<Utc>) -> StoreResult<bool> {
        let changed = self.execute(
            &DROP_PARKED,
            &[(":id", Value::Int(id)), (":now", Value::Int(millis(now)))],
        )?;
        Ok(changed == 1)
    }

    fn audit(&mut self, entry: &NewAudit<'_>, now: DateTime<Utc>) -> StoreResult<()> {
        self.execute(
            &AUDIT,
            &[
                (":at", Value::Int(millis(now))),
                (":actor", Value::Text(entry.actor)),
                (":action", Value::Text(entry.action)),
                (":target", Value::Text(entry.target)),
                (":address", Value::MaybeText(entry.address)),
            ],
        )?;
        Ok(())
    }

    fn open_session(&mut self, session: &NewSession<'_>, now: DateTime<Utc>) -> StoreResult<()> {
        self.execute(&CLEAN_SESSIONS, &[(":now", Value::Int(millis(now)))])?;
        self.execute(
            &OPEN_SESSION,
            &[
                (":id_hash", Value::Text(session.id_hash)),
                (":name", Value::Text(session.name)),
                (":now", Value::Int(millis(now))),
                (":expires_at", Value::Int(millis(session.expires))),
            ],
        )?;
        Ok(())
    }

    fn close_session(&mut self, id_hash: &str) -> StoreResult<bool> {
        let closed = self.execute(&CLOSE_SESSION, &[(":id_hash", Value::Text(id_hash))])?;
        Ok(closed == 1)
    }
}

/// A nick prefix as `find_players` matches it: lower case (nicks are
/// keyed so), without LIKE's wildcards, which would widen it.
pub(crate) fn nick_prefix(query: &str) -> String {
    query
        .trim()
        .chars()
        .filter(|c| !matches!(c, '%' | '_' | '\\'))
        .collect::<String>()
        .to_lowercase()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_nick_prefix_loses_its_wildcards() {
        assert_eq!(nick_prefix(" Ann%_ "), "ann");
        assert_eq!(nick_prefix("a1"), "a1");
    }
}
