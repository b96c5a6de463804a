//! PostgreSQL restarted under load: the gateway answers 503 (never 200) for what it could not
//! store, reconnects by itself, and everything it acknowledged is in the database.
//!
//! Needs PostgreSQL (`TEST_DATABASE_URL`, as `.ci/run` sets) and permission to restart it
//! with `pg_ctlcluster`; says so and passes otherwise.

mod common;

use std::time::{Duration, Instant};

use axum::body::Body;
use axum::http::{Request, StatusCode};
use common::TestApp;
use sqlx::{Connection, Row};

fn cluster_version() -> Option<String> {
    std::fs::read_dir("/etc/postgresql")
        .ok()?
        .flatten()
        .next()
        .map(|e| e.file_name().to_string_lossy().into_owned())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_database_restart_under_load_acknowledges_only_what_was_stored() {
    if std::env::var("TEST_DATABASE_URL").is_err() {
        eprintln!("skipped: needs PostgreSQL; set TEST_DATABASE_URL (as .ci/run does)");
        return;
    }
    let Some(version) =
        cluster_version().filter(|_| std::path::Path::new("/usr/bin/pg_ctlcluster").exists())
    else {
        eprintln!("skipped: no local PostgreSQL cluster to restart (pg_ctlcluster)");
        return;
    };
    let app = TestApp::new().await;
    let restart = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(700));
        let status = std::process::Command::new("pg_ctlcluster")
            .args(["--skip-systemctl-redirect", &version, "main", "restart"])
            .status()
            .expect("run pg_ctlcluster");
        assert!(status.success(), "restarting PostgreSQL failed");
    });

    let mut acknowledged = Vec::new();
    let mut refused = 0;
    let mut after_restart_ok = 0;
    let started = Instant::now();
    let mut i = 0;
    // At least 8 s, and on a busy machine until the restart is over and one
    // text went through after it (at most a minute).
    let done = |ok_after: usize| {
        let elapsed = started.elapsed();
        elapsed > Duration::from_secs(60) || (elapsed > Duration::from_secs(8) && ok_after > 0)
    };
    while !done(after_restart_ok) {
        i += 1;
        let body = serde_json::json!({ "id": format!("r{i}"), "from": format!("+7960{:04}", i % 50), "to": "002220", "text": "HELP" });
        let reply = app
            .request(
                Request::post("/webhooks/generic")
                    .header("content-type", "application/json")
                    .body(Body::from(body.to_string()))
                    .unwrap(),
            )
            .await;
        match reply.status {
            StatusCode::OK => {
                acknowledged.push(format!("r{i}"));
                if restart.is_finished() {
                    after_restart_ok += 1;
                }
            }
            StatusCode::SERVICE_UNAVAILABLE => refused += 1,
            other => panic!(
                "a database outage must look like 503 to the provider, got {other}: {}",
                reply.body
            ),
        }
    }
    restart.join().unwrap();
    assert!(after_restart_ok > 0, "the gateway reconnected by itself");

    // Everything acknowledged is stored.
    let db = app.state.config().database.url.clone();
    let mut conn = sqlx::PgConnection::connect(&db).await.unwrap();
    let stored: Vec<String> = sqlx::query("SELECT provider_id FROM inbound")
        .fetch_all(&mut conn)
        .await
        .unwrap()
        .iter()
        .map(|r| r.get(0))
        .collect();
    for id in &acknowledged {
        assert!(stored.contains(id), "{id} was acknowledged but not stored");
    }
    eprintln!(
        "database restart: {} acknowledged (all stored), {refused} answered 503, {after_restart_ok} acknowledged after the restart",
        acknowledged.len()
    );
}
