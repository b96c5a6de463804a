//! Players on a PostgreSQL transaction: the inbound message's arrival with
//! its sender's row lock (riding along the pending writes), and the players'
//! own reads and writes.

use chrono::{DateTime, Utc};
use sqlx::Row;

use super::parts::{SAVED_PLAYERS, SavedPlayer};
use super::pending::{self, Rider};
use super::tx::PgTx;
use crate::inbound::InboundMessage;
use crate::store::backend::PlayersBackend;
use crate::store::model::{Arrival, Player};
use crate::store::rows::{Record, column_list, decode_at, millis};
use crate::store::{StoreResult, lookups};

/// Records an inbound message and locks its sender's row: the sender's
/// player columns (null for a stranger), then 0 for a duplicate or 1.
pub(super) static ACCEPT_INBOUND: Rider = Rider {
    slot: 1,
    reads: &["inbound", "players"],
    ctes: || {
        format!(
            "arrived AS (
                INSERT INTO inbound (provider, provider_id, from_phone, to_number, body, received_at)
                VALUES (${{0}}, ${{1}}, ${{2}}, ${{3}}, ${{4}}, ${{5}}) ON CONFLICT (provider, provider_id) DO NOTHING
                RETURNING 1),
            sender AS (SELECT {} FROM players p WHERE p.phone = ${{2}} FOR UPDATE)",
            column_list::<Player>("p")
        )
    },
    select: "SELECT sender.*, (SELECT COUNT(*) FROM arrived) FROM (SELECT 1) AS one LEFT JOIN sender ON true",
    params: 6,
};

impl PlayersBackend for PgTx<'_> {
    fn accept_inbound(&mut self, msg: &InboundMessage) -> StoreResult<Arrival> {
        // The writes the last job left pending ride along, unless they touch
        // a table this statement reads (its CTEs cannot see each other's
        // writes). His match is looked up in a statement of its own, which
        // starts after the lock on him is ours and so sees what the last
        // transaction to hold it did: a statement sees the database as of its
        // start, even after waiting for a lock.
        if !self.pending.may_ride_with(&ACCEPT_INBOUND) {
            self.before_statement()?;
        }
        let pending = std::mem::take(&mut self.pending);
        let sql = pending::statement(pending.mask(), Some(&ACCEPT_INBOUND));
        let q = pending
            .bind(sqlx::query(sql))
            .bind(msg.provider)
            .bind(&msg.provider_id)
            .bind(&msg.from)
            .bind(&msg.to)
            .bind(&msg.text)
            .bind(millis(msg.received_at));
        let row = self.driver.block_on(q.fetch_one(&mut *self.conn))?;
        let arrived = Player::COLUMNS.len();
        if row.try_get::<i64, _>(arrived)? == 0 {
            return Ok(Arrival::Duplicate);
        }
        let known = row.try_get::<Option<i64>, _>(0)?.is_some();
        Ok(Arrival::New(if known {
            Some(decode_at(&row, 0)?)
        } else {
            None
        }))
    }

    fn by_phone(&mut self, phone: &str) -> StoreResult<Option<Player>> {
        lookups::player_for_update(self, phone)
    }

    fn save(&mut self, p: &Player, now: DateTime<Utc>) -> StoreResult<()> {
        self.pending
            .put(&SAVED_PLAYERS, SavedPlayer::new(p, millis(now)));
        Ok(())
    }
}
