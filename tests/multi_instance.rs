//! Three gateway processes on one PostgreSQL, a driver playing hundreds of SMS football
//! matches through them with every webhook sent twice to different instances; once
//! more with one instance killed (SIGKILL) mid-run and restarted. Afterwards every
//! match replays from its seed and moves to its stored state, every queued text
//! reached the capturing provider, and no player sat in two matches.
//!
//! Needs PostgreSQL: runs when `TEST_DATABASE_URL` is set (as `.ci/run` does), and
//! says so and passes otherwise.

mod common;

use std::collections::{HashMap, HashSet};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::Json;
use axum::extract::State;
use axum::routing::post;
use rand::Rng;
use smsarena::games::any::Entry;
use smsarena::games::football::Football;
use smsarena::platform::replay::replay;
use sqlx::{Connection, PgConnection, Row};
use tokio::sync::mpsc;

const INSTANCES: usize = 3;
const GAME: &str = "002220";
const PLAY: &str = "002227";

/// A text the capturing provider received: (our id, to, text).
type Captured = (String, String, String);

#[derive(Clone)]
struct Capture {
    all: Arc<Mutex<Vec<Captured>>>,
    texts: mpsc::UnboundedSender<Captured>,
}

async fn capture(State(c): State<Capture>, Json(body): Json<serde_json::Value>) -> &'static str {
    let field = |k: &str| body[k].as_str().unwrap_or_default().to_string();
    let text = (field("id"), field("to"), field("text"));
    c.all.lock().unwrap().push(text.clone());
    let _ = c.texts.send(text);
    "ok"
}

/// One gateway process.
struct Instance {
    port: u16,
    child: Option<Child>,
    env: Vec<(String, String)>,
}

impl Instance {
    fn start(&mut self) {
        let child = Command::new(env!("CARGO_BIN_EXE_smsarena"))
            .arg("serve")
            .envs(self.env.iter().cloned())
            .stdout(Stdio::null())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("start smsarena");
        self.child = Some(child);
    }

    fn kill(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill(); // SIGKILL
            let _ = child.wait();
        }
    }

    fn url(&self) -> String {
        format!("http://127.0.0.1:{}", self.port)
    }
}

impl Drop for Instance {
    fn drop(&mut self) {
        self.kill();
    }
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

async fn wait_healthy(http: &reqwest::Client, url: &str) {
    let deadline = Instant::now() + Duration::from_secs(30);
    while Instant::now() < deadline {
        if let Ok(r) = http.get(format!("{url}/healthz")).send().await {
            if r.status().is_success() {
                return;
            }
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("{url} never became healthy");
}

/// Sends inbound texts like a provider that retries: every webhook goes to two
/// different live instances at once, and again elsewhere until one of them says 200.
struct Driver {
    http: reqwest::Client,
    urls: Arc<Mutex<Vec<Option<String>>>>,
    next_id: AtomicU64,
    sent: AtomicUsize,
}

impl Driver {
    async fn sms(&self, from: &str, to: &str, text: &str) {
        let id = format!("m{}", self.next_id.fetch_add(1, Ordering::Relaxed));
        let body = serde_json::json!({ "id": id, "from": from, "to": to, "text": text });
        for attempt in 0..200 {
            let targets = self.two_instances();
            let sends = targets.iter().map(|url| {
                self.http
                    .post(format!("{url}/webhooks/generic"))
                    .json(&body)
                    .send()
            });
            let results = futures_util::future::join_all(sends).await;
            self.sent.fetch_add(results.len(), Ordering::Relaxed);
            if results
                .iter()
                .any(|r| r.as_ref().is_ok_and(|r| r.status().is_success()))
            {
                return;
            }
            tokio::time::sleep(Duration::from_millis(20 * (attempt + 1).min(10))).await;
        }
        panic!("no instance accepted {body}");
    }

    fn two_instances(&self) -> Vec<String> {
        let urls = self.urls.lock().unwrap();
        let live: Vec<&String> = urls.iter().flatten().collect();
        let mut rng = rand::thread_rng();
        let first = rng.gen_range(0..live.len());
        let mut picked = vec![live[first].clone()];
        if live.len() > 1 {
            let mut second = rng.gen_range(0..live.len() - 1);
            if second >= first {
                second += 1;
            }
            picked.push(live[second].clone());
        }
        picked
    }
}

/// How a phone answers a text: a move when it is his turn, `5` after a refusal.
fn answer(text: &str, rng: &mut impl Rng) -> Option<String> {
    let refused = [
        "Vy ne mozhete peremestit",
        "Kletka na kotoruyu",
        "Vy ne mozhete peredvinut",
        "Neponyatnyi xod",
    ];
    if text.ends_with("Vash xod.") {
        // Mostly a safe stand, sometimes any direction (which may be refused).
        Some(if rng.gen_bool(0.6) {
            "5".into()
        } else {
            rng.gen_range(1..=9).to_string()
        })
    } else if refused.iter().any(|r| text.starts_with(r)) {
        Some("5".into())
    } else {
        None
    }
}

/// The two scenarios each start three servers: one at a time on two cores.
static ONE_AT_A_TIME: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

async fn run_scenario(matches: usize, kill_one: bool) {
    let _turn = ONE_AT_A_TIME.lock().await;
    let Ok(admin) = std::env::var("TEST_DATABASE_URL") else {
        eprintln!(
            "skipped: the multi-instance test needs PostgreSQL; set TEST_DATABASE_URL (as .ci/run does)"
        );
        return;
    };
    assert!(!admin.is_empty(), "TEST_DATABASE_URL is empty");
    let dir = tempfile::tempdir().unwrap();
    let db = common::fresh_database(dir.path()).await;

    let (texts_tx, mut texts) = mpsc::unbounded_channel();
    let cap = Capture {
        all: Default::default(),
        texts: texts_tx,
    };
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let capture_url = format!("http://{}/capture", listener.local_addr().unwrap());
    let router = axum::Router::new()
        .route("/capture", post(capture))
        .with_state(cap.clone());
    tokio::spawn(async move { axum::serve(listener, router).await.unwrap() });

    let mut instances: Vec<Instance> = (0..INSTANCES)
        .map(|_| {
            let port = free_port();
            let env = [
                ("SMSARENA_HTTP__LISTEN", format!("127.0.0.1:{port}")),
                ("SMSARENA_DATABASE__URL", db.clone()),
                ("SMSARENA_SMS__PROVIDER", "generic".into()),
                ("SMSARENA_SMS__GENERIC__URL", capture_url.clone()),
                // A killed instance's claimed texts go to the others once their lease
                // runs out: short when we kill, the default (30 s) otherwise.
                (
                    "SMSARENA_SMS__LEASE_MS",
                    if kill_one { "3000" } else { "30000" }.into(),
                ),
                ("SMSARENA_SMS__RETRY_BASE_MS", "50".into()),
                ("SMSARENA_LOG__FILTER", "error".into()),
            ]
            .into_iter()
            .map(|(k, v)| (k.to_string(), v))
            .collect();
            Instance {
                port,
                child: None,
                env,
            }
        })
        .collect();
    let http = reqwest::Client::builder()
        .pool_max_idle_per_host(64)
        .build()
        .unwrap();
    for instance in &mut instances {
        instance.start();
        wait_healthy(&http, &instance.url()).await;
    }
    let driver = Arc::new(Driver {
        http: http.clone(),
        urls: Arc::new(Mutex::new(
            instances.iter().map(|i| Some(i.url())).collect(),
        )),
        next_id: AtomicU64::new(0),
        sent: AtomicUsize::new(0),
    });

    let phones: Vec<String> = (0..matches * 4).map(|i| format!("+7950{i:05}")).collect();
    let started = Instant::now();
    let register = phones.iter().enumerate().map(|(i, phone)| {
        let driver = driver.clone();
        async move { driver.sms(phone, GAME, &format!("R p{i}")).await }
    });
    futures_util::future::join_all(register).await;
    let queue = phones.iter().map(|phone| {
        let driver = driver.clone();
        async move { driver.sms(phone, PLAY, "P").await }
    });
    futures_util::future::join_all(queue).await;

    // Answer texts as they arrive until every phone has seen the end of its match.
    let mut finished: HashSet<String> = HashSet::new();
    let mut killed = false;
    let deadline = Instant::now() + Duration::from_secs(300);
    while finished.len() < phones.len() {
        let remaining = deadline.saturating_duration_since(Instant::now());
        let Ok(Some((_, to, text))) = tokio::time::timeout(remaining, texts.recv()).await else {
            panic!(
                "only {} of {} phones finished",
                finished.len(),
                phones.len()
            );
        };
        if text.contains("PA - revansh.") {
            finished.insert(to.clone());
        }
        if kill_one && !killed && finished.len() * 4 >= phones.len() {
            // A quarter of the phones are done: kill instance 1 under load, restart it a moment later.
            killed = true;
            driver.urls.lock().unwrap()[1] = None;
            instances[1].kill();
            let (driver, env_instance) = (driver.clone(), instances[1].url());
            tokio::spawn(async move {
                tokio::time::sleep(Duration::from_secs(1)).await;
                driver.urls.lock().unwrap()[1] = Some(env_instance);
            });
            tokio::time::sleep(Duration::from_millis(500)).await;
            instances[1].start();
        }
        let reply = answer(&text, &mut rand::thread_rng());
        if let Some(reply) = reply {
            let driver = driver.clone();
            tokio::spawn(async move { driver.sms(&to, GAME, &reply).await });
        }
    }
    let play_time = started.elapsed();

    // Let the outbox drain, then check the invariants straight in the database.
    let mut conn = PgConnection::connect(&db).await.unwrap();
    let drain_deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let pending: i64 =
            sqlx::query("SELECT COUNT(*) FROM outbox WHERE status IN ('queued', 'sending')")
                .fetch_one(&mut conn)
                .await
                .unwrap()
                .get(0);
        if pending == 0 {
            break;
        }
        assert!(
            Instant::now() < drain_deadline,
            "{pending} texts never left the outbox"
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    tokio::time::sleep(Duration::from_millis(300)).await;

    // Every queued text reached the provider; a re-send (a crash between send and record) carries the same id.
    let outbox: Vec<(i64, String)> = sqlx::query("SELECT id, status FROM outbox")
        .fetch_all(&mut conn)
        .await
        .unwrap()
        .iter()
        .map(|r| (r.get(0), r.get(1)))
        .collect();
    assert!(outbox.iter().all(|(_, s)| s == "sent"), "every text sent");
    let captured = cap.all.lock().unwrap().clone();
    let mut per_id: HashMap<String, usize> = HashMap::new();
    for (id, _, _) in &captured {
        *per_id.entry(id.clone()).or_default() += 1;
    }
    let expected: HashSet<String> = outbox.iter().map(|(id, _)| format!("g{id}")).collect();
    let delivered: HashSet<String> = per_id.keys().cloned().collect();
    assert_eq!(
        delivered, expected,
        "every queued text delivered, nothing else"
    );
    // Only a crash between handing a text to the provider and recording it sends it
    // again, with the same id, which the provider (here the capture) recognises.
    let resent = per_id.values().filter(|&&n| n > 1).count();
    if !kill_one {
        assert_eq!(resent, 0, "without a crash nothing is sent twice");
    }

    // No player in two matches, and every match was played to its end.
    let seats: Vec<(i64, i64)> = sqlx::query("SELECT player_id, match_id FROM match_seats")
        .fetch_all(&mut conn)
        .await
        .unwrap()
        .iter()
        .map(|r| (r.get(0), r.get(1)))
        .collect();
    let mut per_player: HashMap<i64, usize> = HashMap::new();
    for (player, _) in &seats {
        *per_player.entry(*player).or_default() += 1;
    }
    assert_eq!(per_player.len(), phones.len(), "every phone played");
    assert!(
        per_player.values().all(|&n| n == 1),
        "no player in two matches"
    );
    let match_rows = sqlx::query("SELECT id FROM matches")
        .fetch_all(&mut conn)
        .await
        .unwrap();
    assert_eq!(
        match_rows.len(),
        matches,
        "exactly one match per four players"
    );

    // Every match's record replays from its seed to its stored state.
    let store = smsarena::store::Store::open(&db, 1).await.unwrap();
    let match_ids: Vec<i64> = match_rows.iter().map(|r| r.get(0)).collect();
    let audits = store
        .read(move |r| {
            let game = Entry::new(Football::default());
            let mut audits = Vec::new();
            for &id in &match_ids {
                let record = r.match_by_id(id)?.expect("the match");
                let moves = r.moves(id)?;
                let seats = r.seats(id)?.len();
                let replayed = replay(&game, &record, None, &moves, seats);
                audits.push((id, record.finished, replayed.map(|end| end == record.state)));
            }
            Ok(audits)
        })
        .await
        .unwrap();
    for (id, finished, audit) in audits {
        assert!(finished, "match {id} finished");
        assert_eq!(audit, Ok(true), "match {id} replays to its stored state");
    }
    let inbound: i64 = sqlx::query("SELECT COUNT(*) FROM inbound")
        .fetch_one(&mut conn)
        .await
        .unwrap()
        .get(0);
    eprintln!(
        "multi-instance: {INSTANCES} instances, {matches} matches, {} webhook calls for {inbound} distinct messages, \
         {} texts delivered, {resent} re-sent after a crash, killed: {kill_one}, {:.1}s",
        driver.sent.load(Ordering::Relaxed),
        expected.len(),
        play_time.as_secs_f64()
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn three_instances_play_hundreds_of_matches_with_every_webhook_sent_twice() {
    run_scenario(200, false).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_instance_killed_mid_run_loses_nothing_it_acknowledged() {
    run_scenario(100, true).await;
}
