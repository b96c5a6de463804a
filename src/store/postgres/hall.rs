//! The training hall's virtual phones on PostgreSQL.

use chrono::{DateTime, Utc};

use super::tx::PgTx;
use crate::store::StoreResult;
use crate::store::rows::millis;
use crate::store::tx::Hall;

impl Hall for PgTx<'_> {
    fn open_phone(
        &mut self,
        number: &str,
        token_hash: &str,
        now: DateTime<Utc>,
    ) -> StoreResult<bool> {
        let added = self.execute(
            sqlx::query(
                "INSERT INTO hall_phones (number, token_hash, created_at)
                 VALUES ($1, $2, $3) ON CONFLICT (number) DO NOTHING",
            )
            .bind(number)
            .bind(token_hash)
            .bind(millis(now)),
        )?;
        Ok(added == 1)
    }
}
