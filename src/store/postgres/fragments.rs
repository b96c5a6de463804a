//! Parts of long inbound texts on PostgreSQL: each taken once by its own
//! id, kept until the last one arrives, at whichever instance; a text's
//! parts are counted under a lock of their own, so two instances taking the
//! last two parts at once join the text once.

use chrono::{DateTime, Utc};
use sqlx::Row;

use super::tx::PgTx;
use crate::store::StoreResult;
use crate::store::records::{Fragment, PartArrival, whole};
use crate::store::rows::millis;
use crate::store::tx::Fragments;

impl Fragments for PgTx<'_> {
    fn add(&mut self, f: &Fragment) -> StoreResult<PartArrival> {
        // A retry of the same part reaching another instance waits here for
        // the first one's insert to commit, and is then a repeat.
        let taken = self.execute(
            sqlx::query(
                "INSERT INTO inbound_parts (provider, provider_id, received_at)
                 VALUES ($1, $2, $3)
                 ON CONFLICT DO NOTHING",
            )
            .bind(&f.provider)
            .bind(&f.provider_id)
            .bind(millis(f.received_at)),
        )?;
        if taken == 0 {
            return Ok(PartArrival::Repeat);
        }
        // Another instance's transaction may hold the text's other part,
        // uncommitted and so unseen: both would count too few. The lock
        // makes the second wait, then see the first's part.
        let key = format!(
            "fragments/{}/{}/{}/{}",
            f.provider, f.from, f.reference, f.total
        );
        self.execute(
            sqlx::query("SELECT pg_advisory_xact_lock(hashtextextended($1, 0))").bind(key),
        )?;
        self.execute(
            sqlx::query(
                "INSERT INTO inbound_fragments
                    (provider, from_phone, concat_ref, total, part, provider_id, body, received_at)
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
                 ON CONFLICT DO NOTHING",
            )
            .bind(&f.provider)
            .bind(&f.from)
            .bind(&f.reference)
            .bind(f.total as i32)
            .bind(f.part as i32)
            .bind(&f.provider_id)
            .bind(&f.text)
            .bind(millis(f.received_at)),
        )?;
        let rows = self.fetch_all(
            sqlx::query(
                "SELECT provider_id, body FROM inbound_fragments
                 WHERE provider = $1 AND from_phone = $2 AND concat_ref = $3 AND total = $4
                 ORDER BY part
                 FOR UPDATE",
            )
            .bind(&f.provider)
            .bind(&f.from)
            .bind(&f.reference)
            .bind(f.total as i32),
        )?;
        if rows.len() < f.total as usize {
            return Ok(PartArrival::Waiting {
                opened: rows.len() == 1,
            });
        }
        let parts = rows
            .iter()
            .map(|r| Ok((r.try_get::<String, _>(0)?, r.try_get::<String, _>(1)?)))
            .collect::<Result<Vec<_>, sqlx::Error>>()?;
        self.execute(
            sqlx::query(
                "DELETE FROM inbound_fragments
                 WHERE provider = $1 AND from_phone = $2 AND concat_ref = $3 AND total = $4",
            )
            .bind(&f.provider)
            .bind(&f.from)
            .bind(&f.reference)
            .bind(f.total as i32),
        )?;
        Ok(whole(parts))
    }

    fn drop_stale(&mut self, before: DateTime<Utc>) -> StoreResult<u64> {
        self.execute(
            sqlx::query("DELETE FROM inbound_fragments WHERE received_at < $1")
                .bind(millis(before)),
        )
    }
}
