//! The store's SQL statements, each written once for both backends.
//!
//! A [`Statement`] is written with named parameters (`:phone`). SQLite takes
//! that text as it is (rusqlite binds `:name`); PostgreSQL's text, with `$N`
//! in the order the names first appear, is made once, at the statement's
//! first use, and kept. Where the dialects truly differ, the entry carries
//! PostgreSQL's own text beside SQLite's, with the reason (see
//! [`Statement::differing`]).
//!
//! The executors are one per backend (`sqlite::exec`, `PgTx::run`): each takes
//! a statement and its arguments by name, and refuses (in a panic, as a
//! programming error every test meets) a name the statement does not have or
//! one it has that was not given; both give one interface,
//! [`crate::store::sql::Sql`], so that a method is written once. New
//! statements go in the table: here or in the file of their concern
//! (`console.rs`, `outbox.rs`). Moving the remaining per-backend texts in is
//! issue 24's open part.

use std::sync::OnceLock;
use std::sync::atomic::{AtomicUsize, Ordering};

pub(crate) mod console;
pub(crate) mod inbound;
pub(crate) mod lookups;
pub(crate) mod outbox;
pub(crate) mod sqlite;
pub(crate) mod standings;
pub(crate) mod writes;

/// One SQL statement, in both dialects.
pub(crate) struct Statement {
    /// What the statement is called in errors.
    pub name: &'static str,
    /// The text with named parameters, SQLite's (and PostgreSQL's unless
    /// `postgres` says otherwise).
    sqlite: &'static str,
    /// PostgreSQL's own text, where it differs, and why.
    postgres: Option<Differs>,
    /// PostgreSQL's text with `$N`, and the names in `$N`'s order: made once.
    rendered: OnceLock<(String, Vec<&'static str>)>,
    /// The names in SQLite's text in the order SQLite numbers them (of
    /// first appearance): made once, so that binding costs no name lookup.
    sqlite_names: OnceLock<Vec<&'static str>>,
    /// The statement's number among those used so far: where a connection
    /// keeps it prepared ([`Statement::slot`]).
    slot: OnceLock<usize>,
}

/// How many statements have a [`Statement::slot`].
static SLOTS: AtomicUsize = AtomicUsize::new(0);

/// A PostgreSQL text that is not SQLite's, and the reason it is not.
pub(crate) struct Differs {
    pub sql: &'static str,
    /// For the reader of the table: why the texts cannot be one.
    #[allow(dead_code)]
    pub why: &'static str,
}

impl Statement {
    /// A statement both dialects write the same way.
    pub const fn same(name: &'static str, sql: &'static str) -> Statement {
        Statement {
            name,
            sqlite: sql,
            postgres: None,
            rendered: OnceLock::new(),
            sqlite_names: OnceLock::new(),
            slot: OnceLock::new(),
        }
    }

    /// A statement whose text is made once at run time (it lists a record's
    /// columns), for a `LazyLock` static: the text lives as long as the
    /// program, as a literal's does.
    pub fn made(name: &'static str, sql: String) -> Statement {
        Statement::same(name, Box::leak(sql.into_boxed_str()))
    }

    /// [`Statement::made`] with PostgreSQL's own text, for the reason `why`.
    pub fn made_differing(
        name: &'static str,
        sqlite: String,
        postgres: String,
        why: &'static str,
    ) -> Statement {
        Statement::differing(
            name,
            Box::leak(sqlite.into_boxed_str()),
            Box::leak(postgres.into_boxed_str()),
            why,
        )
    }

    /// A statement whose PostgreSQL text is its own, for the reason `why`.
    pub const fn differing(
        name: &'static str,
        sqlite: &'static str,
        postgres: &'static str,
        why: &'static str,
    ) -> Statement {
        Statement {
            name,
            sqlite,
            postgres: Some(Differs { sql: postgres, why }),
            rendered: OnceLock::new(),
            sqlite_names: OnceLock::new(),
            slot: OnceLock::new(),
        }
    }

    /// SQLite's text, named parameters as written.
    pub fn sqlite(&self) -> &'static str {
        self.sqlite
    }

    /// The parameter names (with their colon) of SQLite's text, in the
    /// order SQLite numbers them: the first distinct name is parameter 1.
    pub fn sqlite_names(&self) -> &[&'static str] {
        self.sqlite_names.get_or_init(|| numbered(self.sqlite).1)
    }

    /// A small number of this statement's own, the same for the program's
    /// life: the writer keeps its prepared statements in a list by it.
    /// Found by its text instead (rusqlite's cache), a statement's whole
    /// text was hashed twice a run: 5 % of the instructions per text.
    pub fn slot(&self) -> usize {
        *self
            .slot
            .get_or_init(|| SLOTS.fetch_add(1, Ordering::Relaxed))
    }

    /// PostgreSQL's text with `$N`, and the parameter names (with their
    /// colon) in `$N`'s order.
    pub fn postgres(&self) -> (&str, &[&'static str]) {
        let (sql, names) = self
            .rendered
            .get_or_init(|| numbered(self.postgres.as_ref().map_or(self.sqlite, |d| d.sql)));
        (sql, names)
    }
}

/// `sql` with each `:name` made `$N`, N counting distinct names in the order
/// they first appear, and those names. A `::` cast and text in quotes are
/// left alone.
fn numbered(sql: &'static str) -> (String, Vec<&'static str>) {
    let bytes = sql.as_bytes();
    let mut out = String::with_capacity(sql.len());
    let mut names: Vec<&'static str> = Vec::new();
    let mut i = 0;
    let mut copied = 0;
    let mut quoted = false;
    while i < bytes.len() {
        let b = bytes[i];
        if b == b'\'' {
            quoted = !quoted;
        } else if !quoted && b == b':' {
            if bytes.get(i + 1) == Some(&b':') {
                i += 2;
                continue;
            }
            let start = i;
            let mut end = i + 1;
            while end < bytes.len() && (bytes[end].is_ascii_alphanumeric() || bytes[end] == b'_') {
                end += 1;
            }
            if end > start + 1 {
                let name = &sql[start..end];
                let n = match names.iter().position(|&known| known == name) {
                    Some(at) => at + 1,
                    None => {
                        names.push(name);
                        names.len()
                    }
                };
                out.push_str(&sql[copied..start]);
                out.push('$');
                out.push_str(&n.to_string());
                copied = end;
                i = end;
                continue;
            }
        }
        i += 1;
    }
    out.push_str(&sql[copied..]);
    (out, names)
}

/// One argument's value, as both executors bind it.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Value<'a> {
    Int(i64),
    Text(&'a str),
    /// Text or SQL NULL.
    MaybeText(Option<&'a str>),
    /// An integer or SQL NULL.
    MaybeInt(Option<i64>),
    /// A boolean (SQLite stores it as 0 or 1).
    Flag(bool),
    /// A floating-point number (a rating).
    Real(f64),
}

impl Value<'static> {
    /// A count (a `LIMIT`), as the integer both backends bind.
    pub fn count(n: usize) -> Value<'static> {
        Value::Int(i64::try_from(n).unwrap_or(i64::MAX))
    }
}

/// A statement's arguments by name (with the colon, as in the text).
pub(crate) type Args<'a> = [(&'static str, Value<'a>)];

/// The value named `name` in `args`; a missing one is a programming error.
pub(crate) fn arg<'a>(statement: &Statement, args: &Args<'a>, name: &str) -> Value<'a> {
    match args.iter().find(|(n, _)| *n == name) {
        Some((_, value)) => *value,
        None => panic!("statement {}: no argument {name}", statement.name),
    }
}

// The table. Each entry is one statement of the store, for both backends.

/// Opens a virtual phone of the training hall unless its number has one:
/// changes one row when it was opened.
pub(crate) static HALL_OPEN_PHONE: Statement = Statement::same(
    "hall open phone",
    "INSERT INTO hall_phones (number, token_hash, created_at)
     VALUES (:number, :token_hash, :now) ON CONFLICT (number) DO NOTHING",
);

/// The hash of a virtual phone's token.
pub(crate) static HALL_PHONE_TOKEN: Statement = Statement::same(
    "hall phone token",
    "SELECT token_hash FROM hall_phones WHERE number = :number",
);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_become_numbers_in_order_of_first_use() {
        let (sql, names) = numbered("SELECT :a, :b_2, :a WHERE x = ':no' AND y::int = :c");
        assert_eq!(sql, "SELECT $1, $2, $1 WHERE x = ':no' AND y::int = $3");
        assert_eq!(names, [":a", ":b_2", ":c"]);
    }

    #[test]
    fn a_differing_statement_renders_its_own_text() {
        static S: Statement = Statement::differing(
            "s",
            "SELECT :x",
            "SELECT :x FOR UPDATE NOWAIT",
            "SQLite has no row locks",
        );
        assert_eq!(S.sqlite(), "SELECT :x");
        assert_eq!(S.postgres().0, "SELECT $1 FOR UPDATE NOWAIT");
    }

    #[test]
    fn the_hall_statements_render() {
        assert_eq!(
            HALL_OPEN_PHONE.postgres().1,
            [":number", ":token_hash", ":now"]
        );
        assert!(HALL_PHONE_TOKEN.postgres().0.ends_with("number = $1"));
    }

    #[test]
    #[should_panic(expected = "no argument :nope")]
    fn a_missing_argument_is_loud() {
        arg(&HALL_PHONE_TOKEN, &[(":number", Value::Text("x"))], ":nope");
    }
}
