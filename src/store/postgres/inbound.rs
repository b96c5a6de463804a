//! Inbound texts on PostgreSQL: trimmed past their retention to what deduplication needs.

use chrono::{DateTime, Utc};
use sqlx::Row;

use super::tx::PgTx;
use crate::store::StoreResult;
use crate::store::records::oldest_prefix;
use crate::store::rows::millis;
use crate::store::tx::Inbound;

impl Inbound for PgTx<'_> {
    fn trim(
        &mut self,
        before: DateTime<Utc>,
        after_id: i64,
        limit: usize,
    ) -> StoreResult<Option<i64>> {
        // By id, the primary key: see the SQLite side.
        let rows = self.fetch_all(
            sqlx::query("SELECT id, received_at FROM inbound WHERE id > $1 ORDER BY id LIMIT $2")
                .bind(after_id)
                .bind(limit as i64),
        )?;
        let next = rows
            .iter()
            .map(|r| Ok((r.try_get::<i64, _>(0)?, r.try_get::<i64, _>(1)?)))
            .collect::<Result<Vec<_>, sqlx::Error>>()?;
        let Some(last) = oldest_prefix(&next, millis(before)) else {
            return Ok(None);
        };
        self.execute(
            sqlx::query(
                "UPDATE inbound SET body = '', from_phone = '', to_number = ''
                 WHERE id > $1 AND id <= $2 AND (body <> '' OR from_phone <> '')",
            )
            .bind(after_id)
            .bind(last),
        )?;
        Ok(Some(last))
    }
}
