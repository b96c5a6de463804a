//! Parts of long inbound texts on PostgreSQL: kept until the last one
//! arrives, at whichever instance; a text's parts are counted under a lock
//! of their own, so two instances taking the last two parts at once join
//! the text once.

use chrono::{DateTime, Utc};
use sqlx::Row;

use super::tx::PgTx;
use crate::store::StoreResult;
use crate::store::records::Fragment;
use crate::store::rows::millis;
use crate::store::tx::Fragments;

impl Fragments for PgTx<'_> {
    fn add(&mut self, f: &Fragment) -> StoreResult<Option<String>> {
        // Another instance's transaction may hold the text's other part,
        // uncommitted and so unseen: both would count too few. The lock
        // makes the second wait, then see the first's part.
        let key = format!("fragments/{}/{}/{}", f.provider, f.from, f.reference);
        self.execute(
            sqlx::query("SELECT pg_advisory_xact_lock(hashtextextended($1, 0))").bind(key),
        )?;
        self.execute(
            sqlx::query(
                "INSERT INTO inbound_fragments
                    (provider, from_phone, concat_ref, part, total, body, received_at)
                 VALUES ($1, $2, $3, $4, $5, $6, $7)
                 ON CONFLICT DO NOTHING",
            )
            .bind(&f.provider)
            .bind(&f.from)
            .bind(&f.reference)
            .bind(f.part as i32)
            .bind(f.total as i32)
            .bind(&f.text)
            .bind(millis(f.received_at)),
        )?;
        let rows = self.fetch_all(
            sqlx::query(
                "SELECT body FROM inbound_fragments
                 WHERE provider = $1 AND from_phone = $2 AND concat_ref = $3
                   AND part BETWEEN 1 AND $4
                 ORDER BY part
                 FOR UPDATE",
            )
            .bind(&f.provider)
            .bind(&f.from)
            .bind(&f.reference)
            .bind(f.total as i32),
        )?;
        if rows.len() < f.total as usize {
            return Ok(None);
        }
        let bodies = rows
            .iter()
            .map(|r| r.try_get::<String, _>(0))
            .collect::<Result<Vec<_>, _>>()?;
        self.execute(
            sqlx::query(
                "DELETE FROM inbound_fragments
                 WHERE provider = $1 AND from_phone = $2 AND concat_ref = $3",
            )
            .bind(&f.provider)
            .bind(&f.from)
            .bind(&f.reference),
        )?;
        Ok(Some(bodies.concat()))
    }

    fn drop_stale(&mut self, before: DateTime<Utc>) -> StoreResult<u64> {
        self.execute(
            sqlx::query("DELETE FROM inbound_fragments WHERE received_at < $1")
                .bind(millis(before)),
        )
    }
}
