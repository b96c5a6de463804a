//! PostgreSQL's executor: a statement of the table
//! ([`crate::store::statements`]) as a sqlx query, its arguments bound by
//! name in the order of its `$N` (made once per statement, at first use),
//! and a driver's row as the row codec reads it.

use sqlx::postgres::PgRow;
use sqlx::{Column, Row, TypeInfo};

use super::PgQuery;
use super::read::PgRead;
use super::tx::PgTx;
use crate::store::StoreResult;
use crate::store::rows::Columns;
use crate::store::sql::{Reader, Sql, Writer};
use crate::store::statements::{Args, Statement, Value, arg};

/// `statement` with `args` bound. An argument the text does not name, or a
/// parameter left without one, is a programming error and panics.
pub(super) fn bound<'q>(statement: &'q Statement, args: &Args<'q>) -> PgQuery<'q> {
    let (sql, names) = statement.postgres();
    assert_eq!(
        names.len(),
        args.len(),
        "statement {}: as many arguments as parameters",
        statement.name
    );
    names.iter().fold(sqlx::query(sql), |q, name| {
        match arg(statement, args, name) {
            Value::Int(v) => q.bind(v),
            Value::Text(t) => q.bind(t),
            Value::MaybeText(t) => q.bind(t),
            Value::MaybeInt(v) => q.bind(v),
            Value::Flag(b) => q.bind(b),
            Value::Real(v) => q.bind(v),
        }
    })
}

impl Columns for PgRow {
    fn int(&self, i: usize) -> Result<Option<i64>, String> {
        let kind = self
            .try_column(i)
            .map_err(|e| e.to_string())?
            .type_info()
            .name();
        let value = match kind {
            "INT2" => self.try_get::<Option<i16>, _>(i).map(|v| v.map(i64::from)),
            "INT4" => self.try_get::<Option<i32>, _>(i).map(|v| v.map(i64::from)),
            _ => self.try_get::<Option<i64>, _>(i),
        };
        value.map_err(|e| e.to_string())
    }

    fn text(&self, i: usize) -> Result<Option<String>, String> {
        self.try_get(i).map_err(|e| e.to_string())
    }

    fn flag(&self, i: usize) -> Result<Option<bool>, String> {
        self.try_get(i).map_err(|e| e.to_string())
    }

    fn real(&self, i: usize) -> Result<Option<f64>, String> {
        self.try_get(i).map_err(|e| e.to_string())
    }
}

impl Sql for PgTx<'_> {
    fn execute(&mut self, statement: &Statement, args: &Args<'_>) -> StoreResult<u64> {
        PgTx::execute(self, bound(statement, args))
    }

    fn lock_key(&mut self, key: &str) -> StoreResult<()> {
        PgTx::execute(
            self,
            sqlx::query("SELECT pg_advisory_xact_lock(hashtextextended($1, 0))").bind(key),
        )?;
        Ok(())
    }

    fn each(
        &mut self,
        statement: &Statement,
        args: &Args<'_>,
        read: &mut dyn FnMut(&dyn Columns) -> StoreResult<()>,
    ) -> StoreResult<()> {
        for row in self.fetch_all(bound(statement, args))? {
            read(&row)?;
        }
        Ok(())
    }
}

impl Sql for PgRead<'_> {
    fn execute(&mut self, statement: &Statement, args: &Args<'_>) -> StoreResult<u64> {
        let done = self
            .driver
            .block_on(bound(statement, args).execute(&mut *self.conn))?;
        Ok(done.rows_affected())
    }

    fn each(
        &mut self,
        statement: &Statement,
        args: &Args<'_>,
        read: &mut dyn FnMut(&dyn Columns) -> StoreResult<()>,
    ) -> StoreResult<()> {
        let rows = self
            .driver
            .block_on(bound(statement, args).fetch_all(&mut *self.conn))?;
        for row in rows {
            read(&row)?;
        }
        Ok(())
    }
}

impl Writer for PgTx<'_> {}

impl Reader for PgRead<'_> {}
