//! Test harness: the real router over a fresh database per test, driven without a socket.
#![allow(dead_code)]

pub mod browser;
pub mod cluster;
pub mod hall_page;
pub mod lock;
pub mod logs;
pub mod whole;

use std::sync::Arc;

use axum::Router;
use axum::body::Body;
use axum::http::{Request, StatusCode};
use chrono::{TimeZone, Utc};
use http_body_util::BodyExt;
use smsarena::app::AppState;
use smsarena::clock::ManualClock;
use smsarena::config::Config;
use smsarena::gateway::Gateway;
use smsarena::platform::catalog::Catalog;
use smsarena::providers::Provider;
use smsarena::store::OutboxText;
use tower::ServiceExt;

pub const GAME: &str = "002220";
pub const PLAY: &str = "002227";

/// One test's gateway: its own database file, a clock that moves only when told.
pub struct TestApp {
    pub router: Router,
    pub state: AppState,
    pub clock: Arc<ManualClock>,
    _dir: tempfile::TempDir,
    next_id: std::sync::atomic::AtomicU64,
    /// How many texts to each phone the test has already looked at.
    seen: std::sync::Mutex<std::collections::HashMap<String, usize>>,
}

/// A response as the test reads it.
#[derive(Debug)]
pub struct Reply {
    pub status: StatusCode,
    pub content_type: Option<String>,
    pub headers: axum::http::HeaderMap,
    pub body: String,
}

impl TestApp {
    pub async fn new() -> TestApp {
        TestApp::with_config(|_| {}).await
    }

    /// A gateway whose configuration the test adjusts first.
    pub async fn with_config(adjust: impl FnOnce(&mut Config)) -> TestApp {
        let dir = tempfile::tempdir().expect("temp dir");
        let mut cfg = Config::default();
        cfg.database.url = fresh_database(dir.path()).await;
        cfg.http.public_url = "https://sms.example.com".into();
        // Robots think briefly in tests: the games' own tests measure them.
        cfg.robots.budget_ms = 50;
        // Tests text far faster than a thumb: the flood limits have their own tests.
        cfg.limits.phone_per_minute = 0;
        adjust(&mut cfg);
        let clock = Arc::new(ManualClock::new(
            Utc.with_ymd_and_hms(2026, 12, 1, 12, 0, 0).unwrap(),
        ));
        let gateway = build(Arc::new(cfg), clock.clone()).await;
        TestApp {
            router: gateway.router(),
            state: gateway.state,
            clock,
            _dir: dir,
            next_id: Default::default(),
            seen: Default::default(),
        }
    }

    /// Stops this gateway and starts a new one on the same database and clock, as a
    /// restart of the service would; what a test has already read stays read.
    pub async fn restart(self) -> TestApp {
        self.restart_with(|_| {}).await
    }

    /// [`TestApp::restart`], with the configuration adjusted first, as an
    /// operator's change of settings takes effect.
    pub async fn restart_with(self, adjust: impl FnOnce(&mut Config)) -> TestApp {
        let TestApp {
            router,
            state,
            clock,
            _dir,
            next_id,
            seen,
        } = self;
        let mut cfg = state.config().clone();
        adjust(&mut cfg);
        let cfg = Arc::new(cfg);
        drop(router);
        drop(state);
        let gateway = build(cfg, clock.clone()).await;
        TestApp {
            router: gateway.router(),
            state: gateway.state,
            clock,
            _dir,
            next_id,
            seen,
        }
    }

    pub async fn request(&self, request: Request<Body>) -> Reply {
        let response = self
            .router
            .clone()
            .oneshot(request)
            .await
            .expect("router answers");
        let status = response.status();
        let content_type = response
            .headers()
            .get("content-type")
            .map(|v| v.to_str().unwrap_or_default().to_string());
        let headers = response.headers().clone();
        let bytes = response
            .into_body()
            .collect()
            .await
            .expect("body")
            .to_bytes();
        Reply {
            status,
            content_type,
            headers,
            body: String::from_utf8_lossy(&bytes).into_owned(),
        }
    }

    /// Plays every robot turn that is due, as the robot pool would.
    pub async fn robots(&self) -> usize {
        self.state.robots().run_due().await.expect("robot turns")
    }

    /// A phone texts `text` to `to` through the generic webhook; the webhook must accept it.
    pub async fn sms_to(&self, from: &str, to: &str, text: &str) {
        let id = self
            .next_id
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let reply = self.post_sms(&format!("t{id}"), from, to, text).await;
        assert_eq!(
            reply.status,
            StatusCode::OK,
            "webhook refused {text:?}: {}",
            reply.body
        );
    }

    /// Posts one text with the provider id `id` through the generic webhook,
    /// whatever the answer.
    pub async fn post_sms(&self, id: &str, from: &str, to: &str, text: &str) -> Reply {
        self.request(sms_request(id, from, to, text)).await
    }

    /// A phone texts the game number.
    pub async fn sms(&self, from: &str, text: &str) {
        self.sms_to(from, GAME, text).await
    }

    /// Every text ever queued to a phone, oldest first.
    pub async fn texts_to(&self, phone: &str) -> Vec<OutboxText> {
        let phone = phone.to_string();
        self.state
            .store()
            .read(move |tx| tx.texts_to(&phone))
            .await
            .expect("read outbox")
    }

    /// The bodies of texts to `phone` queued since the last call of `inbox` for it.
    pub async fn inbox(&self, phone: &str) -> Vec<String> {
        let all = self.texts_to(phone).await;
        let mut seen = self.seen.lock().unwrap();
        let from = seen.insert(phone.to_string(), all.len()).unwrap_or(0);
        all[from..].iter().map(|t| t.body.clone()).collect()
    }

    /// The one text a phone received since the last look.
    pub async fn one_text(&self, phone: &str) -> String {
        let mut texts = self.inbox(phone).await;
        assert_eq!(
            texts.len(),
            1,
            "expected one text to {phone}, got {texts:?}"
        );
        texts.remove(0)
    }

    /// Moves the clock forward and fires every timer then due, as the scheduler would.
    pub async fn advance(&self, by: chrono::Duration) {
        self.clock.advance(by);
        let now = smsarena::clock::Clock::now(self.clock.as_ref());
        loop {
            let platform = self.state.platform().clone();
            let fired = self
                .state
                .store()
                .run(move |tx| platform.fire_due(tx, now))
                .await
                .expect("timers");
            if fired.timers == 0 {
                break;
            }
        }
    }

    /// The state string of the unfinished match `phone` plays in.
    pub async fn match_state(&self, phone: &str) -> Option<smsarena::store::MatchRow> {
        let phone = phone.to_string();
        self.state
            .store()
            .read(move |tx| {
                let Some(p) = tx.player_by_phone(&phone)? else {
                    return Ok(None);
                };
                tx.active_match_of(p.id)
            })
            .await
            .expect("read match")
    }

    /// The newest match `phone` sat in, finished or not, with its seats.
    pub async fn last_match(
        &self,
        phone: &str,
    ) -> Option<(smsarena::store::MatchRow, Vec<smsarena::store::SeatRow>)> {
        let phone = phone.to_string();
        self.state
            .store()
            .read(move |tx| {
                let Some(p) = tx.player_by_phone(&phone)? else {
                    return Ok(None);
                };
                let Some(m) = tx.last_match_of(p.id)? else {
                    return Ok(None);
                };
                let seats = tx.seats(m.id)?;
                Ok(Some((m, seats)))
            })
            .await
            .expect("read match")
    }

    /// How many matches exist.
    pub async fn matches(&self) -> i64 {
        self.count("matches").await
    }

    /// Registers phones with nicks, reading away the welcome texts.
    pub async fn register(&self, players: &[(&str, &str)]) {
        for (phone, nick) in players {
            self.sms(phone, &format!("R {nick}")).await;
            self.inbox(phone).await;
        }
    }

    /// Replaces a running match's state (tests that need a particular position).
    pub async fn set_match_state(&self, mut record: smsarena::store::MatchRow, state: String) {
        record.state = state;
        self.state
            .store()
            .run(move |tx| tx.matches().save(&record))
            .await
            .expect("save match");
    }

    /// Row count of a table, for "changes nothing" checks.
    pub async fn count(&self, table: &'static str) -> i64 {
        let store = self.state.store().clone();
        store
            .read(move |tx| tx.count_rows(table))
            .await
            .expect("count")
    }
}

/// The application as every test gets it: the games players can ask for and
/// the trial game, and a console provider that the tests never start (they
/// read the outbox instead).
/// The generic webhook's request for one text.
pub fn sms_request(id: &str, from: &str, to: &str, text: &str) -> Request<Body> {
    let body = serde_json::json!({ "id": id, "from": from, "to": to, "text": text });
    Request::post("/webhooks/generic")
        .header("content-type", "application/json")
        .body(Body::from(body.to_string()))
        .unwrap()
}

async fn build(cfg: Arc<Config>, clock: Arc<ManualClock>) -> Gateway {
    let provider = Provider::from_config(&cfg).expect("the console provider");
    let catalog = Catalog::new(&cfg).with_game(smsarena::games::trial::Trial);
    Gateway::open(cfg, clock, provider, catalog)
        .await
        .expect("open the gateway")
}

/// A fresh, empty database for one test: a SQLite file in `dir`, or, when
/// `TEST_DATABASE_URL` names a PostgreSQL server, a new database on it.
pub async fn fresh_database(dir: &std::path::Path) -> String {
    match std::env::var("TEST_DATABASE_URL") {
        Ok(admin) if !admin.is_empty() => fresh_postgres(&admin).await,
        _ => format!("sqlite://{}", dir.join("test.db").display()),
    }
}

async fn fresh_postgres(admin_url: &str) -> String {
    use sqlx::Connection;
    let name = format!(
        "smsarena_test_{}_{}",
        std::process::id(),
        rand::random::<u32>()
    );
    let mut admin = sqlx::PgConnection::connect(admin_url)
        .await
        .expect("TEST_DATABASE_URL is set but PostgreSQL does not answer");
    drop_abandoned_databases(&mut admin).await;
    sqlx::query(&format!("CREATE DATABASE {name}"))
        .execute(&mut admin)
        .await
        .expect("create test database");
    let (base, _) = admin_url
        .rsplit_once('/')
        .expect("a database URL ends in /NAME");
    format!("{base}/{name}")
}

/// Drops, once per test process, the test databases of processes that have
/// ended (a database is named for the process that made it): a test leaves
/// its database behind, and some hundreds of them made a restart's
/// checkpoint outlast `pg_ctlcluster`'s minute (`tests/pg_restart.rs`).
/// `.ci/run` drops them all before its run; this keeps a developer's
/// repeated runs from piling them up. Linux only: it asks `/proc`.
async fn drop_abandoned_databases(admin: &mut sqlx::PgConnection) {
    use std::sync::atomic::{AtomicBool, Ordering};
    static SWEPT: AtomicBool = AtomicBool::new(false);
    if SWEPT.swap(true, Ordering::SeqCst) || !std::path::Path::new("/proc/self").exists() {
        return;
    }
    let names: Vec<String> = sqlx::query_scalar(
        "SELECT datname FROM pg_database WHERE datname LIKE 'smsarena\\_test\\_%'",
    )
    .fetch_all(&mut *admin)
    .await
    .unwrap_or_default();
    for name in names {
        let pid = name
            .strip_prefix("smsarena_test_")
            .and_then(|rest| rest.split('_').next())
            .and_then(|pid| pid.parse::<u32>().ok());
        let Some(pid) = pid else { continue };
        if std::path::Path::new(&format!("/proc/{pid}")).exists() {
            continue;
        }
        let _ = sqlx::query(&format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)"))
            .execute(&mut *admin)
            .await;
    }
}

/// A test that needs an outside program it cannot find: skips with the
/// reason, or fails when `CI_REQUIRE_EXTERNAL=1` (set by `.ci/run`) says
/// every such program must be there.
pub fn missing_external(reason: &str) {
    if std::env::var("CI_REQUIRE_EXTERNAL").as_deref() == Ok("1") {
        panic!("{reason}, and CI_REQUIRE_EXTERNAL=1 requires it");
    }
    eprintln!("skipped: {reason}");
}

/// A PostgreSQL server to make test databases on: `TEST_DATABASE_URL`, or
/// else the local one at the default address if it answers.
pub async fn postgres_admin_url() -> Option<String> {
    use sqlx::Connection;
    let url = std::env::var("TEST_DATABASE_URL")
        .ok()
        .filter(|u| !u.is_empty())
        .unwrap_or_else(|| "postgres://postgres@127.0.0.1:5432/test".into());
    match sqlx::PgConnection::connect(&url).await {
        Ok(_) => Some(url),
        Err(e) => {
            missing_external(&format!("PostgreSQL does not answer at {url} ({e})"));
            None
        }
    }
}

/// A new, empty PostgreSQL database on the server of `admin_url`.
pub async fn fresh_postgres_database(admin_url: &str) -> String {
    fresh_postgres(admin_url).await
}

/// Runs raw SQL on a test's database, beside the store: to break a row.
pub async fn raw_sql(url: &str, sql: &str) {
    if let Some(path) = url.strip_prefix("sqlite://") {
        let conn = rusqlite::Connection::open(path).unwrap();
        conn.execute_batch(sql).unwrap();
    } else {
        use sqlx::Connection;
        let mut conn = sqlx::PgConnection::connect(url).await.unwrap();
        sqlx::raw_sql(sql).execute(&mut conn).await.unwrap();
    }
}

/// Rows of a query on a test's database, beside the store, every column
/// read as text: to see what is stored.
pub async fn raw_rows<const N: usize>(url: &str, sql: &str) -> Vec<[String; N]> {
    if let Some(path) = url.strip_prefix("sqlite://") {
        let conn = rusqlite::Connection::open(path).unwrap();
        let mut stmt = conn.prepare(sql).unwrap();
        stmt.query_map([], |r| {
            Ok(std::array::from_fn(|i| {
                r.get::<_, rusqlite::types::Value>(i)
                    .map(|v| match v {
                        rusqlite::types::Value::Text(t) => t,
                        rusqlite::types::Value::Integer(n) => n.to_string(),
                        other => format!("{other:?}"),
                    })
                    .unwrap()
            }))
        })
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap()
    } else {
        use sqlx::{Connection, Row};
        let mut conn = sqlx::PgConnection::connect(url).await.unwrap();
        let rows = sqlx::query(sql).fetch_all(&mut conn).await.unwrap();
        rows.iter()
            .map(|row| {
                std::array::from_fn(|i| {
                    row.try_get::<String, _>(i)
                        .or_else(|_| row.try_get::<i64, _>(i).map(|n| n.to_string()))
                        .unwrap()
                })
            })
            .collect()
    }
}

/// Another instance's batch in the middle of matching a lobby queue: it
/// holds the queue, as its matchmaker does until its transaction ends,
/// until [`QueueHold::release`].
pub struct QueueHold {
    release: std::sync::mpsc::Sender<()>,
    done: tokio::task::JoinHandle<()>,
}

/// Holds `game`'s queue of `options` through `store` (PostgreSQL: another
/// instance's store on the same database); returns once it is held.
pub async fn hold_queue(store: &smsarena::store::Store, game: &str, options: &str) -> QueueHold {
    use std::sync::{Arc, Mutex, mpsc};
    let (held_tx, held_rx) = mpsc::channel::<()>();
    let (release_tx, release_rx) = mpsc::channel::<()>();
    let (held_tx, release_rx) = (
        Arc::new(Mutex::new(held_tx)),
        Arc::new(Mutex::new(release_rx)),
    );
    let (game, options) = (game.to_string(), options.to_string());
    let store = store.clone();
    let done = tokio::spawn(async move {
        store
            .run_solo(move |tx| {
                let queue =
                    tx.lobby()
                        .queue(&game, &options, smsarena::store::Pool::Everyone, 1)?;
                assert!(matches!(queue, smsarena::store::Queue::Waiting(_)));
                let _ = held_tx.lock().unwrap().send(());
                let _ = release_rx.lock().unwrap().recv();
                Ok(())
            })
            .await
            .expect("the holding transaction commits");
    });
    tokio::task::spawn_blocking(move || held_rx.recv())
        .await
        .unwrap()
        .expect("the queue is held");
    QueueHold {
        release: release_tx,
        done,
    }
}

impl QueueHold {
    /// Ends the holder's transaction; returns once it has committed.
    pub async fn release(self) {
        let _ = self.release.send(());
        self.done.await.expect("the holder ends");
    }
}
