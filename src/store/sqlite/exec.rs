//! SQLite's executor: runs a statement of the table ([`crate::store::statements`])
//! with its arguments by name, on a prepared statement kept for the
//! connection, and gives its rows as the shared row codec reads them.

use rusqlite::{Connection, PrepFlags, Row};

use super::held::HeldText;
use super::read::SqliteRead;
use super::tx::SqliteTx;
use crate::store::StoreResult;
use crate::store::model::OutboxEvent;
use crate::store::rows::Columns;
use crate::store::sql::{Reader, Sql, Writer};
use crate::store::statements::{Args, Statement, Value, arg};

/// Where a connection's statements are prepared and kept between uses.
pub(super) trait Prepare {
    /// Runs `f` on `statement`, prepared on this connection (once).
    fn with_prepared<R>(
        &mut self,
        statement: &Statement,
        f: impl FnOnce(&mut rusqlite::Statement<'_>) -> StoreResult<R>,
    ) -> StoreResult<R>;

    /// The connection, for what is not a statement of the table.
    fn connection(&self) -> &Connection;
}

/// The writer's statements, in a list by [`Statement::slot`]: the writer runs
/// a dozen statements per text, and rusqlite's own cache would hash each
/// whole text to find it, twice per run (taken out, put back). Beside them,
/// the texts queued and not yet inserted (`held.rs`) and what the
/// transaction did to the outbox, both in order: every statement inserts the
/// held texts first, so they must be at hand wherever a statement runs.
pub(super) struct Prepared<'c> {
    pub(super) conn: &'c Connection,
    by_slot: Vec<Option<rusqlite::Statement<'c>>>,
    pub(super) held: Vec<HeldText>,
    /// What the transaction did to the outbox, told to the dispatcher after COMMIT.
    pub(super) events: Vec<OutboxEvent>,
    /// How many of `events` came before the current job's savepoint.
    events_at_savepoint: usize,
}

impl<'c> Prepared<'c> {
    pub(super) fn new(conn: &'c Connection) -> Prepared<'c> {
        Prepared {
            conn,
            by_slot: Vec::new(),
            held: Vec::new(),
            events: Vec::new(),
            events_at_savepoint: 0,
        }
    }

    /// Forgets what a transaction being begun or abandoned did to the outbox.
    pub(super) fn forget_outbox_work(&mut self) {
        self.held.clear();
        self.events.clear();
        self.events_at_savepoint = 0;
    }

    /// Marks where a job's work on the outbox begins, at its savepoint (the
    /// job before it has flushed its held texts).
    pub(super) fn mark_job(&mut self) {
        self.events_at_savepoint = self.events.len();
    }

    /// Forgets what the job being undone did to the outbox.
    pub(super) fn undo_job(&mut self) {
        self.held.clear();
        self.events.truncate(self.events_at_savepoint);
    }

    /// Runs `f` on `statement`, prepared on this connection (once), with
    /// whatever texts are held still held.
    pub(super) fn run_prepared<R>(
        &mut self,
        statement: &Statement,
        f: impl FnOnce(&mut rusqlite::Statement<'_>) -> StoreResult<R>,
    ) -> StoreResult<R> {
        let slot = statement.slot();
        if self.by_slot.len() <= slot {
            self.by_slot.resize_with(slot + 1, || None);
        }
        let stmt = match &mut self.by_slot[slot] {
            Some(stmt) => stmt,
            // Persistent: SQLite keeps it out of the connection's small
            // lookaside memory, which statements held for good would fill.
            empty => empty.insert(
                self.conn
                    .prepare_with_flags(statement.sqlite(), PrepFlags::SQLITE_PREPARE_PERSISTENT)?,
            ),
        };
        let result = f(stmt);
        // Bound texts are copies in the connection's lookaside memory: kept
        // until the next run, they would fill it (statements times
        // arguments), and every allocation after would fall back to malloc.
        stmt.clear_bindings();
        result
    }
}

impl Prepare for Prepared<'_> {
    /// Inserts the held texts first.
    fn with_prepared<R>(
        &mut self,
        statement: &Statement,
        f: impl FnOnce(&mut rusqlite::Statement<'_>) -> StoreResult<R>,
    ) -> StoreResult<R> {
        self.insert_held()?;
        self.run_prepared(statement, f)
    }

    fn connection(&self) -> &Connection {
        self.conn
    }
}

/// The reader's connection, shared by reads that come and go: it keeps its
/// statements in rusqlite's cache (a read is rarer than a text).
impl Prepare for &Connection {
    fn with_prepared<R>(
        &mut self,
        statement: &Statement,
        f: impl FnOnce(&mut rusqlite::Statement<'_>) -> StoreResult<R>,
    ) -> StoreResult<R> {
        let mut stmt = self.prepare_cached(statement.sqlite())?;
        f(&mut stmt)
    }

    fn connection(&self) -> &Connection {
        self
    }
}

/// Runs `f` on `statement` with `args` bound by name. An argument the text
/// does not name, or a parameter left without one, is a programming error
/// and panics. Each name's number is known from the text (SQLite numbers
/// distinct names in order of first appearance), so binding asks SQLite for
/// none; debug builds check each against SQLite's own.
fn bound<R>(
    db: &mut impl Prepare,
    statement: &Statement,
    args: &Args<'_>,
    f: impl FnOnce(&mut rusqlite::Statement<'_>) -> StoreResult<R>,
) -> StoreResult<R> {
    db.with_prepared(statement, |stmt| {
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
        f(stmt)
    })
}

/// Runs `statement`, an `INSERT`: the new row's id (SQLite's rowid, which a
/// `RETURNING` would cost a temporary table per row to give).
pub(super) fn insert(
    db: &mut impl Prepare,
    statement: &Statement,
    args: &Args<'_>,
) -> StoreResult<i64> {
    bound(db, statement, args, |stmt| Ok(stmt.raw_execute()?))?;
    Ok(db.connection().last_insert_rowid())
}

/// Runs `statement`: the rows it changed.
pub(super) fn execute(
    db: &mut impl Prepare,
    statement: &Statement,
    args: &Args<'_>,
) -> StoreResult<usize> {
    bound(db, statement, args, |stmt| Ok(stmt.raw_execute()?))
}

/// Gives each row `statement` returns to `read`.
fn each(
    db: &mut impl Prepare,
    statement: &Statement,
    args: &Args<'_>,
    read: &mut dyn FnMut(&dyn Columns) -> StoreResult<()>,
) -> StoreResult<()> {
    bound(db, statement, args, |stmt| {
        // Dropping the rows resets the statement, read to the end or not.
        let mut rows = stmt.raw_query();
        while let Some(row) = rows.next()? {
            read(row)?;
        }
        Ok(())
    })
}

impl Sql for SqliteTx<'_> {
    fn execute(&mut self, statement: &Statement, args: &Args<'_>) -> StoreResult<u64> {
        Ok(execute(&mut self.db, statement, args)? as u64)
    }

    /// The connection's last rowid: no `RETURNING`, which costs SQLite a
    /// temporary table per row.
    fn insert(&mut self, statement: &Statement, args: &Args<'_>) -> StoreResult<i64> {
        insert(&mut self.db, statement, args)
    }

    fn each(
        &mut self,
        statement: &Statement,
        args: &Args<'_>,
        read: &mut dyn FnMut(&dyn Columns) -> StoreResult<()>,
    ) -> StoreResult<()> {
        each(&mut self.db, statement, args, read)
    }

    fn tell_dispatcher(&mut self, event: OutboxEvent) {
        self.db.events.push(event);
    }
}

impl Sql for SqliteRead<'_> {
    fn execute(&mut self, statement: &Statement, args: &Args<'_>) -> StoreResult<u64> {
        Ok(execute(&mut self.conn, statement, args)? as u64)
    }

    fn each(
        &mut self,
        statement: &Statement,
        args: &Args<'_>,
        read: &mut dyn FnMut(&dyn Columns) -> StoreResult<()>,
    ) -> StoreResult<()> {
        each(&mut self.conn, statement, args, read)
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
