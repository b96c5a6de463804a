//! Reads on a pooled PostgreSQL connection, in a read-only transaction of
//! their own: no row locks, nothing through the writer. What it answers is
//! written once for both backends (`store/lookups.rs`).

use sqlx::postgres::PgConnection;

use super::Driver;

pub(super) struct PgRead<'a> {
    pub driver: Driver<'a>,
    pub conn: &'a mut PgConnection,
}
