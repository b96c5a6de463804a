//! What the database holds now, the same on every instance of one database:
//! the console's overview and `/metrics`' gauges read it alike.

use chrono::{DateTime, Utc};
use serde::Serialize;

use super::Platform;
use crate::store::{Read, StoreResult};

/// What the database holds, the same on every instance of one database:
/// the overview's counts and `/metrics`' gauges.
#[derive(Clone, Debug, Serialize)]
pub struct Counts {
    pub players: i64,
    pub lobbies_waiting: i64,
    /// Matches running, by game code, every hosted game listed.
    pub running: Vec<(String, i64)>,
    /// Texts queued or being sent.
    pub outbox_backlog: i64,
    /// Seconds the oldest of them has waited.
    pub oldest_waiting_secs: Option<i64>,
    pub parked: i64,
}

/// The counts alone: cheap enough for every scrape (each an index lookup).
pub fn counts(platform: &Platform, tx: &mut dyn Read, now: DateTime<Utc>) -> StoreResult<Counts> {
    let counts = tx.console().counts()?;
    let running = platform
        .catalog()
        .games()
        .map(|g| {
            let n = counts
                .running
                .iter()
                .find(|(code, _)| code == g.code())
                .map_or(0, |(_, n)| *n);
            (g.code().to_string(), n)
        })
        .collect();
    Ok(Counts {
        players: counts.players,
        lobbies_waiting: counts.lobbies_waiting,
        running,
        outbox_backlog: counts.outbox_backlog,
        oldest_waiting_secs: counts
            .oldest_waiting
            .map(|at| (now - at).num_seconds().max(0)),
        parked: counts.parked,
    })
}
