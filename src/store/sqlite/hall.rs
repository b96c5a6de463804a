//! The training hall's virtual phones on SQLite.

use chrono::{DateTime, Utc};
use rusqlite::{Connection, OptionalExtension, named_params};

use super::SqliteTx;
use crate::store::StoreResult;
use crate::store::rows::millis;
use crate::store::tx::Hall;

impl Hall for SqliteTx<'_> {
    fn open_phone(
        &mut self,
        number: &str,
        token_hash: &str,
        now: DateTime<Utc>,
    ) -> StoreResult<bool> {
        let added = self
            .conn
            .prepare_cached(
                "INSERT INTO hall_phones (number, token_hash, created_at)
                 VALUES (:number, :token_hash, :now) ON CONFLICT (number) DO NOTHING",
            )?
            .execute(
                named_params! { ":number": number, ":token_hash": token_hash, ":now": millis(now) },
            )?;
        Ok(added == 1)
    }
}

pub(super) fn hall_phone(conn: &Connection, number: &str) -> StoreResult<Option<String>> {
    Ok(conn
        .prepare_cached("SELECT token_hash FROM hall_phones WHERE number = :number")?
        .query_row(named_params! { ":number": number }, |r| r.get(0))
        .optional()?)
}
