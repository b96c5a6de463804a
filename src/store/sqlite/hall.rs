//! The training hall's virtual phones on SQLite.

use chrono::{DateTime, Utc};

use super::{SqliteTx, exec};
use crate::store::StoreResult;
use crate::store::rows::millis;
use crate::store::statements::{HALL_OPEN_PHONE, Value};
use crate::store::tx::Hall;

impl Hall for SqliteTx<'_> {
    fn open_phone(
        &mut self,
        number: &str,
        token_hash: &str,
        now: DateTime<Utc>,
    ) -> StoreResult<bool> {
        let added = exec::execute(
            &mut self.db,
            &HALL_OPEN_PHONE,
            &[
                (":number", Value::Text(number)),
                (":token_hash", Value::Text(token_hash)),
                (":now", Value::Int(millis(now))),
            ],
        )?;
        Ok(added == 1)
    }
}
