//! PostgreSQL's executor: a statement of the table
//! ([`crate::store::statements`]) as a sqlx query, its arguments bound by
//! name in the order of its `$N` (made once per statement, at first use).

use super::PgQuery;
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
        }
    })
}
