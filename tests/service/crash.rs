//! SIGKILL at random moments under load, twenty times in a row, on the real
//! binary: no acknowledged text is lost, every reply goes out, and a reply
//! goes out twice only when the kill fell between the provider taking it and
//! our record of that (the documented crash window). The figure is printed.

use crate::common;

use std::collections::{HashMap, HashSet};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use common::cluster::{launch, wait_healthy};
use rand::Rng;

const KILLS: usize = 20;
const PHONES: usize = 48;
/// Each phone texts again this long after an answer: about 160 texts a
/// second in all, under what a debug build drains per phone on either
/// database, so that the backlog after a kill is the crash's, not the load's.
const PACE: Duration = Duration::from_millis(300);

/// The first column of a query on the test's database, as text.
async fn column(url: &str, sql: &str) -> Vec<String> {
    if let Some(path) = url.strip_prefix("sqlite://") {
        let conn = rusqlite::Connection::open(path).unwrap();
        let mut stmt = conn.prepare(sql).unwrap();
        stmt.query_map([], |row| row.get::<_, String>(0))
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap()
    } else {
        use sqlx::{Connection, Row};
        let mut conn = sqlx::PgConnection::connect(url).await.unwrap();
        sqlx::query(sql)
            .fetch_all(&mut conn)
            .await
            .unwrap()
            .iter()
            .map(|r| r.get::<String, _>(0))
            .collect()
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn twenty_kills_under_load_lose_no_acknowledged_text() {
    let dir = tempfile::tempdir().unwrap();
    let db = common::fresh_database(dir.path()).await;
    let mut cluster = launch(&db, 1, &[("SMSARENA_SMS__RETRY_BASE_MS", "20")]).await;
    let url = cluster.instances[0].url();
    let http = reqwest::Client::builder()
        .timeout(Duration::from_secs(5))
        .build()
        .unwrap();

    // Phones text HELP, one at a time; a text is retried, with its id,
    // until the gateway says 200, as a provider does.
    let running = Arc::new(AtomicBool::new(true));
    let mut load = Vec::new();
    for p in 0..PHONES {
        let (http, url, running) = (http.clone(), url.clone(), running.clone());
        load.push(tokio::spawn(async move {
            let phone = format!("+7980{p:03}");
            let mut acknowledged = Vec::new();
            let mut n = 0;
            while running.load(Ordering::Relaxed) {
                n += 1;
                let id = format!("k{p}-{n}");
                let body = serde_json::json!({ "id": id, "from": phone, "to": common::GAME, "text": "HELP" });
                loop {
                    let sent = http
                        .post(format!("{url}/webhooks/generic"))
                        .json(&body)
                        .send()
                        .await;
                    if sent.is_ok_and(|r| r.status().is_success()) {
                        break;
                    }
                    tokio::time::sleep(Duration::from_millis(30)).await;
                }
                acknowledged.push(id);
                tokio::time::sleep(PACE).await;
            }
            acknowledged
        }));
    }

    let started = Instant::now();
    for _ in 0..KILLS {
        let pause = rand::thread_rng().gen_range(100..600);
        tokio::time::sleep(Duration::from_millis(pause)).await;
        cluster.instances[0].kill();
        cluster.instances[0].start();
        wait_healthy(&http, &url).await;
    }
    tokio::time::sleep(Duration::from_millis(300)).await;
    running.store(false, Ordering::Relaxed);
    let mut acknowledged = HashSet::new();
    for task in load {
        acknowledged.extend(task.await.unwrap());
    }

    // Every acknowledged text is stored, once.
    let stored: HashSet<String> = column(&db, "SELECT provider_id FROM inbound")
        .await
        .into_iter()
        .collect();
    let lost: Vec<&String> = acknowledged.difference(&stored).collect();
    assert!(lost.is_empty(), "acknowledged but not stored: {lost:?}");

    // Every reply goes out; some twice, inside the crash window.
    let replies = column(&db, "SELECT CAST(id AS TEXT) FROM outbox")
        .await
        .len();
    assert_eq!(replies, stored.len(), "one reply to each text");
    let deadline = Instant::now() + Duration::from_secs(120);
    let (sent, distinct) = loop {
        let all = cluster.capture.all.lock().unwrap().clone();
        let distinct: HashMap<String, usize> = all.iter().fold(HashMap::new(), |mut m, t| {
            *m.entry(t.0.clone()).or_default() += 1;
            m
        });
        if distinct.len() >= replies || Instant::now() > deadline {
            break (all.len(), distinct);
        }
        drop(all);
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    assert_eq!(distinct.len(), replies, "every reply sent");
    let twice = sent - distinct.len();
    println!(
        "crash test: {KILLS} kills in {:.1} s, {} texts acknowledged, {replies} replies, \
         {twice} sent again (killed between the provider's acceptance and our record)",
        started.elapsed().as_secs_f64(),
        acknowledged.len()
    );
    // At a kill, what can go again is what the provider took and we had not
    // yet recorded: a phone's texts go one at a time, so at most one per
    // phone, plus what the recorder's batch held.
    assert!(
        twice <= KILLS * 2 * PHONES,
        "{twice} resent: more than the texts that can be in flight at {KILLS} kills"
    );
}
