//! A SQLite row as the shared row codec reads it, and the writer's helpers
//! for its statements not yet in the table (positional parameters).

use rusqlite::{Connection, Params, Row};

use crate::store::StoreResult;
use crate::store::rows::{Columns, Record, decode};

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
}

/// Every row `sql` gives, decoded as `R`.
pub(super) fn all<R: Record>(
    conn: &Connection,
    sql: &str,
    params: impl Params,
) -> StoreResult<Vec<R>> {
    let mut stmt = conn.prepare_cached(sql)?;
    let mut rows = stmt.query(params)?;
    let mut out = Vec::new();
    while let Some(row) = rows.next()? {
        out.push(decode(row)?);
    }
    Ok(out)
}
