//! Schema parity: both backends, migrated from empty, have the same tables,
//! the same columns (with the same nullability) and the same indexes on the
//! same columns. Types differ by dialect and are not compared.
//!
//! Needs PostgreSQL (`TEST_DATABASE_URL`, or the local server at its default
//! address); skips with the reason otherwise, and fails under `CI_REQUIRE_EXTERNAL=1`.

use crate::common;

use std::collections::BTreeMap;

use smsarena::store::Store;
use sqlx::{Connection, Row};

/// Indexes only PostgreSQL has, each for a query only PostgreSQL runs: its
/// dispatcher claims texts from the outbox (several instances share it),
/// where SQLite's is told of every text by its one writer and never searches
/// for them (`migrations/sqlite/0003_drop_outbox_by_phone.sql`).
const POSTGRES_ONLY: &[(&str, &str)] = &[
    ("outbox", "outbox_by_phone(to_phone, id)"),
    ("outbox", "outbox_leased(lease_until)"),
];

/// Table -> (columns as `name` or `name NOT NULL`, indexes as `name(col, ...)`).
type Schema = BTreeMap<String, (Vec<String>, Vec<String>)>;

fn column(name: String, not_null: bool) -> String {
    if not_null {
        format!("{name} NOT NULL")
    } else {
        name
    }
}

fn sqlite_schema(path: &str) -> Schema {
    let conn = rusqlite::Connection::open(path).unwrap();
    let tables: Vec<String> = conn
        .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
        .unwrap()
        .query_map([], |r| r.get(0))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    let mut schema = Schema::new();
    for table in tables {
        let mut stmt = conn
            .prepare(&format!("PRAGMA table_info({table})"))
            .unwrap();
        let mut columns: Vec<String> = stmt
            .query_map([], |r| {
                let name: String = r.get(1)?;
                let not_null: bool = r.get(3)?;
                let pk: i64 = r.get(5)?;
                // A primary key is never null, whether or not it says so.
                Ok(column(name, not_null || pk > 0))
            })
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap();
        columns.sort();
        // Indexes the migrations create (those backing a constraint have no SQL).
        let names: Vec<String> = conn
            .prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = ?1 AND sql IS NOT NULL")
            .unwrap()
            .query_map([&table], |r| r.get(0))
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap();
        let mut indexes: Vec<String> = names
            .into_iter()
            .map(|index| {
                let cols: Vec<String> = conn
                    .prepare(&format!("PRAGMA index_info({index})"))
                    .unwrap()
                    .query_map([], |r| r.get(2))
                    .unwrap()
                    .collect::<Result<_, _>>()
                    .unwrap();
                format!("{index}({})", cols.join(", "))
            })
            .collect();
        indexes.sort();
        schema.insert(table, (columns, indexes));
    }
    schema
}

async fn postgres_schema(url: &str) -> Schema {
    let mut conn = sqlx::PgConnection::connect(url).await.unwrap();
    let rows = sqlx::query(
        "SELECT table_name::text, column_name::text, is_nullable = 'NO'
         FROM information_schema.columns
         WHERE table_schema = 'public' AND table_name <> '_sqlx_migrations'",
    )
    .fetch_all(&mut conn)
    .await
    .unwrap();
    let mut schema = Schema::new();
    for row in rows {
        let entry = schema.entry(row.get(0)).or_default();
        entry.0.push(column(row.get(1), row.get(2)));
    }
    // Indexes the migrations create, not those backing a constraint.
    let rows = sqlx::query(
        "SELECT t.relname::text, i.relname::text,
                array_agg(a.attname::text ORDER BY k.ord)
         FROM pg_index x
         JOIN pg_class i ON i.oid = x.indexrelid
         JOIN pg_class t ON t.oid = x.indrelid
         JOIN pg_namespace n ON n.oid = t.relnamespace AND n.nspname = 'public'
         CROSS JOIN LATERAL unnest(x.indkey) WITH ORDINALITY AS k(attnum, ord)
         JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = k.attnum
         WHERE NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = x.indexrelid)
           AND t.relname <> '_sqlx_migrations'
         GROUP BY t.relname, i.relname",
    )
    .fetch_all(&mut conn)
    .await
    .unwrap();
    for row in rows {
        let cols: Vec<String> = row.get(2);
        let entry = schema.entry(row.get(0)).or_default();
        entry
            .1
            .push(format!("{}({})", row.get::<String, _>(1), cols.join(", ")));
    }
    for (table, index) in POSTGRES_ONLY {
        let indexes = &mut schema.get_mut(*table).expect("the table exists").1;
        let before = indexes.len();
        indexes.retain(|i| i != index);
        assert_eq!(
            before - 1,
            indexes.len(),
            "{index} is still PostgreSQL's alone"
        );
    }
    for (columns, indexes) in schema.values_mut() {
        columns.sort();
        indexes.sort();
    }
    schema
}

#[tokio::test]
async fn both_backends_migrate_to_the_same_tables_columns_and_indexes() {
    let Some(admin) = common::postgres_admin_url().await else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let sqlite_path = dir.path().join("schema.db");
    let sqlite_url = format!("sqlite://{}", sqlite_path.display());
    let pg_url = common::fresh_postgres_database(&admin).await;
    Store::open(&sqlite_url, 1).await.unwrap();
    Store::open(&pg_url, 1).await.unwrap();

    let sqlite = sqlite_schema(sqlite_path.to_str().unwrap());
    let postgres = postgres_schema(&pg_url).await;
    assert!(sqlite.contains_key("matches") && sqlite.contains_key("outbox"));
    let tables = |s: &Schema| s.keys().cloned().collect::<Vec<_>>();
    assert_eq!(tables(&sqlite), tables(&postgres), "the same tables");
    for (table, (columns, indexes)) in &sqlite {
        let (pg_columns, pg_indexes) = &postgres[table];
        assert_eq!(columns, pg_columns, "the columns of {table}");
        assert_eq!(indexes, pg_indexes, "the indexes of {table}");
    }
}
