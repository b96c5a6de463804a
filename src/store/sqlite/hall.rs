//! The training hall's virtual phones on SQLite.

use chrono::{DateTime, Utc};
use rusqlite::Connection;

use super::{SqliteTx, exec};
use crate::store::StoreResult;
use crate::store::rows::millis;
use crate::store::statements::{HALL_OPEN_PHONE, HALL_PHONE_TOKEN, Value};
use crate::store::tx::Hall;

impl Hall for SqliteTx<'_> {
    fn open_phone(
        &mut self,
        number: &str,
        token_hash: &str,
        now: DateTime<Utc>,
    ) -> StoreResult<bool> {
        let added = exec::execute(
            self.conn,
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

pub(super) fn hall_phone(conn: &Connection, number: &str) -> StoreResult<Option<String>> {
    exec::first(
        conn,
        &HALL_PHONE_TOKEN,
        &[(":number", Value::Text(number))],
        |r| r.get(0),
    )
}
