//! Reads beside the SQLite writer, on a connection of their own: WAL lets it
//! read what the last commit left while the writer goes on. What it answers
//! is written once for both backends (`store/lookups.rs`).

use rusqlite::Connection;

pub(super) struct SqliteRead<'c> {
    pub conn: &'c Connection,
}
