//! The schema's migrations, embedded in the binary: every `NNNN_name.sql` in
//! `migrations/sqlite/` and `migrations/postgres/`, applied in the order of
//! their numbers.
//!
//! Read at run time from the embedded folder rather than by `sqlx::migrate!`:
//! the macro costs a second build of sqlx's PostgreSQL driver and of tokio
//! for the compiler's own use (about a minute of a clean build on two cores).
//! A migration is identified as sqlx names it (number, description from the
//! file name, checksum of the text), so databases migrated by the macro
//! carry on.

use include_dir::{Dir, include_dir};

static SQLITE: Dir<'static> = include_dir!("$CARGO_MANIFEST_DIR/migrations/sqlite");
static POSTGRES: Dir<'static> = include_dir!("$CARGO_MANIFEST_DIR/migrations/postgres");

/// One migration file.
pub(super) struct Migration {
    pub(super) version: i64,
    /// The file's name after the number, `_` read as a space (`drop outbox queued`).
    pub(super) description: String,
    pub(super) sql: &'static str,
}

pub(super) fn sqlite() -> Vec<Migration> {
    read(&SQLITE)
}

pub(super) fn postgres() -> Vec<Migration> {
    read(&POSTGRES)
}

/// The folder's migrations in the order of their numbers. The folder is the
/// build's own, so a file that breaks the naming is a build defect, caught
/// by the tests that migrate a fresh database.
fn read(dir: &'static Dir<'static>) -> Vec<Migration> {
    let mut migrations: Vec<Migration> = dir
        .files()
        .filter_map(|file| {
            let name = file.path().file_name()?.to_str()?;
            let stem = name.strip_suffix(".sql")?;
            let (number, description) = stem.split_once('_')?;
            Some(Migration {
                version: number
                    .parse()
                    .expect("a migration's name starts with its number"),
                description: description.replace('_', " "),
                sql: file.contents_utf8().expect("migrations are UTF-8"),
            })
        })
        .collect();
    migrations.sort_by_key(|m| m.version);
    migrations
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_backend_has_every_migration_once_in_order() {
        for migrations in [sqlite(), postgres()] {
            let versions: Vec<i64> = migrations.iter().map(|m| m.version).collect();
            let expected: Vec<i64> = (1..=versions.len() as i64).collect();
            assert_eq!(versions, expected);
            assert!(migrations.iter().all(|m| !m.sql.trim().is_empty()));
        }
        assert_eq!(sqlite().len(), postgres().len());
        assert_eq!(postgres()[11].description, "drop outbox queued");
    }
}
