//! Inbound texts on SQLite: trimmed past their retention to what deduplication needs.

use chrono::{DateTime, Utc};
use rusqlite::params;

use super::SqliteTx;
use crate::store::StoreResult;
use crate::store::records::oldest_prefix;
use crate::store::rows::millis;
use crate::store::tx::Inbound;

impl Inbound for SqliteTx<'_> {
    fn trim(
        &mut self,
        before: DateTime<Utc>,
        after_id: i64,
        limit: usize,
    ) -> StoreResult<Option<i64>> {
        // By id, the primary key: an index on the time would cost every
        // inbound text its upkeep, for a sweep that runs now and then.
        let next: Vec<(i64, i64)> = self
            .conn
            .prepare_cached(
                "SELECT id, received_at FROM inbound WHERE id > ?1 ORDER BY id LIMIT ?2",
            )?
            .query_map(params![after_id, limit as i64], |r| {
                Ok((r.get(0)?, r.get(1)?))
            })?
            .collect::<Result<_, _>>()?;
        let Some(last) = oldest_prefix(&next, millis(before)) else {
            return Ok(None);
        };
        self.conn
            .prepare_cached(
                "UPDATE inbound SET body = '', from_phone = '', to_number = ''
                 WHERE id > ?1 AND id <= ?2 AND (body <> '' OR from_phone <> '')",
            )?
            .execute(params![after_id, last])?;
        Ok(Some(last))
    }
}
