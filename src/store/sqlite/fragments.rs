//! Parts of long inbound texts on SQLite: each taken once by its own id, kept until the last one arrives.

use chrono::{DateTime, Utc};
use rusqlite::params;

use super::SqliteTx;
use crate::store::StoreResult;
use crate::store::records::{Fragment, PartArrival, whole};
use crate::store::rows::millis;
use crate::store::tx::Fragments;

impl Fragments for SqliteTx<'_> {
    fn add(&mut self, f: &Fragment) -> StoreResult<PartArrival> {
        let taken = self
            .conn
            .prepare_cached(
                "INSERT INTO inbound_parts (provider, provider_id, received_at)
                 VALUES (?1, ?2, ?3)
                 ON CONFLICT DO NOTHING",
            )?
            .execute(params![f.provider, f.provider_id, millis(f.received_at)])?;
        if taken == 0 {
            return Ok(PartArrival::Repeat);
        }
        self.conn
            .prepare_cached(
                "INSERT INTO inbound_fragments
                    (provider, from_phone, concat_ref, total, part, provider_id, body, received_at)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)
                 ON CONFLICT DO NOTHING",
            )?
            .execute(params![
                f.provider,
                f.from,
                f.reference,
                f.total,
                f.part,
                f.provider_id,
                f.text,
                millis(f.received_at)
            ])?;
        let parts: Vec<(String, String)> = self
            .conn
            .prepare_cached(
                "SELECT provider_id, body FROM inbound_fragments
                 WHERE provider = ?1 AND from_phone = ?2 AND concat_ref = ?3 AND total = ?4
                 ORDER BY part",
            )?
            .query_map(params![f.provider, f.from, f.reference, f.total], |r| {
                Ok((r.get(0)?, r.get(1)?))
            })?
            .collect::<Result<_, _>>()?;
        if parts.len() < f.total as usize {
            return Ok(PartArrival::Waiting {
                opened: parts.len() == 1,
            });
        }
        self.conn
            .prepare_cached(
                "DELETE FROM inbound_fragments
                 WHERE provider = ?1 AND from_phone = ?2 AND concat_ref = ?3 AND total = ?4",
            )?
            .execute(params![f.provider, f.from, f.reference, f.total])?;
        Ok(whole(parts))
    }

    fn drop_stale(&mut self, before: DateTime<Utc>) -> StoreResult<u64> {
        let dropped = self
            .conn
            .prepare_cached("DELETE FROM inbound_fragments WHERE received_at < ?1")?
            .execute(params![millis(before)])?;
        Ok(dropped as u64)
    }
}
