//! Parts of long inbound texts on SQLite: kept until the last one arrives.

use chrono::{DateTime, Utc};
use rusqlite::params;

use super::SqliteTx;
use crate::store::StoreResult;
use crate::store::records::Fragment;
use crate::store::rows::millis;
use crate::store::tx::Fragments;

impl Fragments for SqliteTx<'_> {
    fn add(&mut self, f: &Fragment) -> StoreResult<Option<String>> {
        self.conn
            .prepare_cached(
                "INSERT INTO inbound_fragments
                    (provider, from_phone, concat_ref, part, total, body, received_at)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)
                 ON CONFLICT DO NOTHING",
            )?
            .execute(params![
                f.provider,
                f.from,
                f.reference,
                f.part,
                f.total,
                f.text,
                millis(f.received_at)
            ])?;
        let bodies: Vec<String> = self
            .conn
            .prepare_cached(
                "SELECT body FROM inbound_fragments
                 WHERE provider = ?1 AND from_phone = ?2 AND concat_ref = ?3
                   AND part BETWEEN 1 AND ?4
                 ORDER BY part",
            )?
            .query_map(params![f.provider, f.from, f.reference, f.total], |r| {
                r.get(0)
            })?
            .collect::<Result<_, _>>()?;
        if bodies.len() < f.total as usize {
            return Ok(None);
        }
        self.conn
            .prepare_cached(
                "DELETE FROM inbound_fragments
                 WHERE provider = ?1 AND from_phone = ?2 AND concat_ref = ?3",
            )?
            .execute(params![f.provider, f.from, f.reference])?;
        Ok(Some(bodies.concat()))
    }

    fn drop_stale(&mut self, before: DateTime<Utc>) -> StoreResult<u64> {
        let dropped = self
            .conn
            .prepare_cached("DELETE FROM inbound_fragments WHERE received_at < ?1")?
            .execute(params![millis(before)])?;
        Ok(dropped as u64)
    }
}
