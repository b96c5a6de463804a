//! The plans the solo sessions keep, made on an empty database: they must
//! still look rows up by index when the tables are large, and never be
//! compiled by JIT on every run.
//!
//! Needs PostgreSQL (`TEST_DATABASE_URL`, or the local server at its default
//! address); skips with the reason otherwise, and fails under
//! `CI_REQUIRE_EXTERNAL=1`.

use std::str::FromStr;

use sqlx::postgres::{PgConnectOptions, PgConnection};
use sqlx::{Connection, Executor};

use super::outbox::MARK_SENT;
use super::planned_once;
use crate::store::statements::Statement;
use crate::store::statements::outbox::{CLAIM, NEXT_DUE};
use crate::store::statements::writes::CLAIM_ROBOT_TURNS;

/// A made-up value for each parameter a statement below names.
fn value(name: &str) -> &'static str {
    match name {
        ":now" => "1000",
        ":lease_until" => "2000",
        ":limit" => "64",
        ":lowest" => "1",
        ":highest" => "2",
        other => panic!("no test value for {other}"),
    }
}

/// The server to make a database on, or `None` (skipped) without one.
async fn admin_url() -> Option<String> {
    let url = std::env::var("TEST_DATABASE_URL")
        .ok()
        .filter(|u| !u.is_empty())
        .unwrap_or_else(|| "postgres://postgres@127.0.0.1:5432/test".into());
    match PgConnection::connect(&url).await {
        Ok(_) => Some(url),
        Err(e) if std::env::var("CI_REQUIRE_EXTERNAL").as_deref() == Ok("1") => {
            panic!(
                "PostgreSQL does not answer at {url} ({e}), and CI_REQUIRE_EXTERNAL=1 requires it"
            )
        }
        Err(e) => {
            eprintln!("skipped: PostgreSQL does not answer at {url} ({e})");
            None
        }
    }
}

/// The generic plan of `sql` (parameters `$1`... given by `args`), as a
/// session planning once sees it.
async fn kept_plan(conn: &mut PgConnection, sql: &str, args: &[&str]) -> String {
    conn.execute(format!("PREPARE kept AS {sql}").as_str())
        .await
        .unwrap_or_else(|e| panic!("{e}: {sql}"));
    let lines: Vec<String> =
        sqlx::query_scalar(&format!("EXPLAIN EXECUTE kept({})", args.join(", ")))
            .fetch_all(&mut *conn)
            .await
            .unwrap();
    conn.execute("DEALLOCATE kept").await.unwrap();
    lines.join("\n")
}

async fn statement_plan(conn: &mut PgConnection, statement: &Statement) -> String {
    let (sql, names) = statement.postgres();
    let args: Vec<&str> = names.iter().map(|n| value(n)).collect();
    kept_plan(conn, sql, &args).await
}

#[tokio::test]
async fn kept_plans_made_on_an_empty_database_look_rows_up_by_index() {
    let Some(admin) = admin_url().await else {
        return;
    };
    let name = format!(
        "smsarena_plans_{}_{}",
        std::process::id(),
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .subsec_nanos()
    );
    let mut server = PgConnection::connect(&admin).await.unwrap();
    server
        .execute(format!("CREATE DATABASE {name}").as_str())
        .await
        .unwrap();
    let (base, _) = admin.rsplit_once('/').unwrap();
    let url = format!("{base}/{name}");
    {
        let mut conn = PgConnection::connect(&url).await.unwrap();
        super::migrator().await.run(&mut conn).await.unwrap();
    }
    let options = planned_once(PgConnectOptions::from_str(&url).unwrap());
    let mut conn = PgConnection::connect_with(&options).await.unwrap();

    let claim = statement_plan(&mut conn, &CLAIM).await;
    let robots = statement_plan(&mut conn, &CLAIM_ROBOT_TURNS).await;
    let next_due = statement_plan(&mut conn, &NEXT_DUE).await;
    let mark_sent = kept_plan(
        &mut conn,
        MARK_SENT,
        &["'{1}'", "'{1}'", "'{ref-1}'", "'{1000}'"],
    )
    .await;
    conn.close().await.unwrap();
    server
        .execute(format!("DROP DATABASE {name}").as_str())
        .await
        .unwrap();

    for (what, plan) in [
        ("claim", &claim),
        ("robots' claim", &robots),
        ("next due", &next_due),
        ("record of sends", &mark_sent),
    ] {
        assert!(
            !plan.contains("JIT"),
            "{what} compiled on every run:\n{plan}"
        );
        // Early reports are a handful, kept a day at most: read whole.
        for line in plan.lines().filter(|l| l.contains("Seq Scan")) {
            assert!(
                line.contains("on early_reports"),
                "{what} reads a table whole:\n{plan}"
            );
        }
    }
    // The claim walks texts by due time, each checked against its phone's
    // oldest unsent one by phone, not against every unsent text.
    assert!(
        claim.contains("Index Cond: ((status = 'queued'::text) AND (next_attempt_at <= $1))"),
        "{claim}"
    );
    assert!(claim.contains("Index Cond: ((to_phone = "), "{claim}");
    // The robots' claim walks the due turns, not every seat of every match.
    assert!(robots.contains("robot_turns_due"), "{robots}");
}
