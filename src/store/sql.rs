//! The one executor interface both backends give, so that a store method is
//! written once: statements of the table ([`super::statements`]) run with
//! their arguments by name, and rows read by the shared codec
//! ([`super::rows`]). A method needs a backend of its own only where the
//! backends truly work differently (PostgreSQL's batched and deferred
//! writes, its claims beside the writer).

use super::StoreResult;
use super::model::OutboxEvent;
use chrono::{DateTime, Utc};

use super::StoreError;
use super::rows::{At, Columns, Id, Record, decode};
use super::statements::{Args, Statement};

/// A connection or transaction that runs statements of the table.
pub(crate) trait Sql {
    /// Runs `statement`: the rows it changed.
    fn execute(&mut self, statement: &Statement, args: &Args<'_>) -> StoreResult<u64>;

    /// Gives each row `statement` returns to `read`, in order.
    fn each(
        &mut self,
        statement: &Statement,
        args: &Args<'_>,
        read: &mut dyn FnMut(&dyn Columns) -> StoreResult<()>,
    ) -> StoreResult<()>;

    /// Holds a lock on `key` until the transaction ends, where other
    /// writers could run beside this one (PostgreSQL's instances); SQLite's
    /// one writer needs none.
    fn lock_key(&mut self, _key: &str) -> StoreResult<()> {
        Ok(())
    }

    /// Tells this process's dispatcher of an outbox change once the
    /// transaction commits, where the backend's dispatcher is fed that way
    /// (SQLite's); PostgreSQL's dispatchers claim what they find queued.
    fn tell_dispatcher(&mut self, _event: OutboxEvent) {}

    /// Runs `statement`, an `INSERT`: the new row's id, by default the one
    /// its `RETURNING id` gives (a backend with a cheaper way says so).
    fn insert(&mut self, statement: &Statement, args: &Args<'_>) -> StoreResult<i64>
    where
        Self: Sized,
    {
        let id: Option<Id> = self.first(statement, args)?;
        id.map(|Id(id)| id)
            .ok_or_else(|| StoreError::Corrupt(format!("{} gave no id", statement.name)))
    }

    /// Every row, decoded as `R`.
    fn all<R: Record>(&mut self, statement: &Statement, args: &Args<'_>) -> StoreResult<Vec<R>>
    where
        Self: Sized,
    {
        let mut out = Vec::new();
        self.each(statement, args, &mut |row| {
            out.push(decode(row)?);
            Ok(())
        })?;
        Ok(out)
    }

    /// The time a one-row statement gives as `at` (none when it is NULL):
    /// when something next falls due.
    fn next_time(
        &mut self,
        statement: &Statement,
        args: &Args<'_>,
    ) -> StoreResult<Option<DateTime<Utc>>>
    where
        Self: Sized,
    {
        let at: Option<At> = self.first(statement, args)?;
        Ok(at.and_then(|At(at)| at))
    }

    /// The first row, if any, decoded as `R`.
    fn first<R: Record>(&mut self, statement: &Statement, args: &Args<'_>) -> StoreResult<Option<R>>
    where
        Self: Sized,
    {
        let mut found = None;
        self.each(statement, args, &mut |row| {
            if found.is_none() {
                found = Some(decode(row)?);
            }
            Ok(())
        })?;
        Ok(found)
    }
}

/// A writer's transaction (not a read connection): what may change data
/// outside the writer's own bookkeeping, such as the console's actions.
pub(crate) trait Writer: Sql {}

/// A read connection beside the writer: answers [`super::tx::Read`].
pub(crate) trait Reader: Sql {}
