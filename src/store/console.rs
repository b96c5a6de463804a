//! What the operator's console reads and writes: counts for the overview, players and their texts, parked texts to retry or drop, and the audit of every action.

use chrono::{DateTime, Utc};
use serde::Serialize;

use super::StoreResult;
use super::records::{OutboxText, Player};

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
    /// Players whose nick starts with `query` (any case), or whose number
    /// holds its digits; at most `limit`, by nick.
    fn find_players(&mut self, query: &str, limit: usize) -> StoreResult<Vec<Player>>;
    fn player_by_id(&mut self, id: i64) -> StoreResult<Option<Player>>;
    /// A phone's last `limit` texts to us, newest first.
    fn texts_from(&mut self, phone: &str, limit: usize) -> StoreResult<Vec<InboundText>>;
    /// The newest `limit` parked texts, newest first.
    fn parked_texts(&mut self, limit: usize) -> StoreResult<Vec<OutboxText>>;
    /// The newest `limit` audit entries, newest first.
    fn audit_entries(&mut self, limit: usize) -> StoreResult<Vec<AuditEntry>>;
}

/// The console's writes, on the writer.
pub trait ConsoleWrite {
    /// Puts a parked text back in the queue, its attempts counted anew;
    /// the text when it was parked, none when it is not (any more).
    fn requeue_parked(&mut self, id: i64, now: DateTime<Utc>) -> StoreResult<Option<OutboxText>>;
    /// Drops a parked text for good (it is cancelled); whether it was parked.
    fn drop_parked(&mut self, id: i64, now: DateTime<Utc>) -> StoreResult<bool>;
    fn audit(&mut self, entry: &NewAudit<'_>, now: DateTime<Utc>) -> StoreResult<()>;
}

/// What `find_players` looks for: the query without LIKE's wildcards, and
/// its digits (none when it has too few to be part of a number).
pub(crate) fn player_query(query: &str) -> (String, Option<String>) {
    let plain: String = query
        .trim()
        .chars()
        .filter(|c| !matches!(c, '%' | '_' | '\\'))
        .collect::<String>()
        .to_lowercase();
    let digits: String = plain.chars().filter(char::is_ascii_digit).collect();
    let digits = (digits.len() >= 3).then_some(digits);
    (plain, digits)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_query_loses_its_wildcards_and_keeps_enough_digits() {
        assert_eq!(player_query(" Ann%_ "), ("ann".to_string(), None));
        assert_eq!(
            player_query("+7 900 12"),
            ("+7 900 12".to_string(), Some("790012".to_string()))
        );
        assert_eq!(player_query("a1"), ("a1".to_string(), None));
    }
}
