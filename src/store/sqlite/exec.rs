//! SQLite's executor: runs a statement of the table ([`crate::store::statements`])
//! with its arguments by name, on a cached prepared statement, and gives its
//! rows as the shared row codec reads them.

use rusqlite::{CachedStatement, Connection, Row};

use super::read::SqliteRead;
use super::tx::SqliteTx;
use crate::store::StoreResult;
use crate::store::records::OutboxEvent;
use crate::store::rows::Columns;
use crate::store::sql::{Reader, Sql, Writer};
use crate::store::statements::{Args, Statement, Value, arg};

/// `statement` prepared (once per connection) with `args` bound by name.
/// An argument the text does not name, or a parameter left without one, is a
/// programming error and panics. Each name's number is known from the text
/// (SQLite numbers distinct names in order of first appearance), so binding
/// asks SQLite for none; debug builds check each against SQLite's own.
fn bound<'c>(
    conn: &'c Connection,
    statement: &Statement,
    args: &Args<'_>,
) -> StoreResult<CachedStatement<'c>> {
    let mut stmt = conn.prepare_cached(statement.sqlite())?;
    let names = statement.sqlite_names();
    assert!(
        stmt.parameter_count() == names.len() && names.len() == args.len(),
        "statement {}: as many arguments as parameters",
        statement.name
    );
    for (at, name) in names.iter().enumerate() {
        let i = at + 1;
        debug_assert_eq!(
            stmt.parameter_name(i),
            Some(*name),
            "statement {}",
            statement.name
        );
        match arg(statement, args, name) {
            Value::Int(v) => stmt.raw_bind_parameter(i, v)?,
            Value::Text(t) => stmt.raw_bind_parameter(i, t)?,
            Value::MaybeText(t) => stmt.raw_bind_parameter(i, t)?,
            Value::MaybeInt(v) => stmt.raw_bind_parameter(i, v)?,
            Value::Flag(b) => stmt.raw_bind_parameter(i, b)?,
            Value::Real(v) => stmt.raw_bind_parameter(i, v)?,
        }
    }
    Ok(stmt)
}

/// Runs `statement`, an `INSERT`: the new row's id (SQLite's rowid, which a
/// `RETURNING` would cost a temporary table per row to give).
pub(super) fn insert(
    conn: &Connection,
    statement: &Statement,
    args: &Args<'_>,
) -> StoreResult<i64> {
    let mut stmt = bound(conn, statement, args)?;
    stmt.raw_execute()?;
    Ok(conn.last_insert_rowid())
}

/// Runs `statement`: the rows it changed.
pub(super) fn execute(
    conn: &Connection,
    statement: &Statement,
    args: &Args<'_>,
) -> StoreResult<usize> {
    Ok(bound(conn, statement, args)?.raw_execute()?)
}

/// Gives each row `statement` returns to `read`.
fn each(
    conn: &Connection,
    statement: &Statement,
    args: &Args<'_>,
    read: &mut dyn FnMut(&dyn Columns) -> StoreResult<()>,
) -> StoreResult<()> {
    let mut stmt = bound(conn, statement, args)?;
    let mut rows = stmt.raw_query();
    while let Some(row) = rows.next()? {
        read(row)?;
    }
    Ok(())
}

impl Sql for SqliteTx<'_> {
    fn execute(&mut self, statement: &Statement, args: &Args<'_>) -> StoreResult<u64> {
        Ok(execute(self.conn, statement, args)? as u64)
    }

    fn each(
        &mut self,
        statement: &Statement,
        args: &Args<'_>,
        read: &mut dyn FnMut(&dyn Columns) -> StoreResult<()>,
    ) -> StoreResult<()> {
        each(self.conn, statement, args, read)
    }

    fn tell_dispatcher(&mut self, event: OutboxEvent) {
        self.events.push(event);
    }
}

impl Sql for SqliteRead<'_> {
    fn execute(&mut self, statement: &Statement, args: &Args<'_>) -> StoreResult<u64> {
        Ok(execute(self.conn, statement, args)? as u64)
    }

    fn each(
        &mut self,
        statement: &Statement,
        args: &Args<'_>,
        read: &mut dyn FnMut(&dyn Columns) -> StoreResult<()>,
    ) -> StoreResult<()> {
        each(self.conn, statement, args, read)
    }
}

impl Writer for SqliteTx<'_> {}

impl Reader for SqliteRead<'_> {}

impl Columns for Row<'_> {
    fn int(&self, i: usize) -> Result<Option<i64>, String> {
        self.get(i).map_err(|e| e.to_string())
    }

    fn text(&self, i: usize) -> Result<Option<String>, String> {
        self.get(i).map_err(|e| e.to_string())
    }

    fn flag(&self, i: usize) -> Result<Option<bool>, String> {
        self.get(i).map_err(|e| e.to_string())
    }

    fn real(&self, i: usize) -> Result<Option<f64>, String> {
        self.get(i).map_err(|e| e.to_string())
    }
}
