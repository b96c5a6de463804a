//! Three gateway processes on one PostgreSQL, a driver playing hundreds of SMS football
//! matches through them with every webhook sent twice to different instances; once
//! more with one instance killed (SIGKILL) mid-run and restarted. Afterwards every
//! match replays from its seed and moves to its stored state, every queued text
//! reached the capturing provider, and no player sat in two matches. And two
//! instances carrying fifty matches against robots at once: every robot turn
//! played exactly once.
//!
//! Needs PostgreSQL: runs when `TEST_DATABASE_URL` is set (as `.ci/run` does), and
//! says so and passes otherwise.

use crate::common;

use std::collections::{HashMap, HashSet};
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use common::cluster::{Cluster, launch};
use rand::Rng;
use smsarena::games::any::Entry;
use smsarena::games::football::{Football, State};
use smsarena::platform::replay::replay;
use sqlx::{Connection, PgConnection, Row};

const INSTANCES: usize = 3;
const GAME: &str = "002220";
const PLAY: &str = "002227";

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

    // A killed instance's claimed texts go to the others once their lease
    // runs out: short when we kill, the default (30 s) otherwise.
    let lease = if kill_one { "3000" } else { "30000" };
    let Cluster {
        capture: cap,
        mut texts,
        mut instances,
        driver,
    } = launch(&db, INSTANCES, &[("SMSARENA_SMS__LEASE_MS", lease)]).await;

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

/// Fifty players each against three robots, through two instances, every
/// webhook sent to both: each robot seat moves exactly once per turn (no turn
/// computed twice played twice), every match ends and replays, and no robot
/// turn is left over.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_instances_play_fifty_robot_matches_with_one_move_per_robot_per_turn() {
    let _turn = ONE_AT_A_TIME.lock().await;
    if std::env::var("TEST_DATABASE_URL").is_err() {
        eprintln!("skipped: needs PostgreSQL; set TEST_DATABASE_URL (as .ci/run does)");
        return;
    }
    const PLAYERS: usize = 50;
    let dir = tempfile::tempdir().unwrap();
    let db = common::fresh_database(dir.path()).await;
    // (The instances stop when `_instances` is dropped, at the end.)
    let Cluster {
        mut texts,
        driver,
        instances: _instances,
        ..
    } = launch(&db, 2, &[("SMSARENA_ROBOTS__BUDGET_MS", "20")]).await;
    let phones: Vec<String> = (0..PLAYERS).map(|i| format!("+7951{i:05}")).collect();
    let register = phones.iter().enumerate().map(|(i, phone)| {
        let driver = driver.clone();
        async move {
            driver.sms(phone, GAME, &format!("R r{i}")).await;
            driver.sms(phone, PLAY, "P FB BOT").await;
        }
    });
    futures_util::future::join_all(register).await;
    let mut finished: HashSet<String> = HashSet::new();
    let deadline = Instant::now() + Duration::from_secs(300);
    while finished.len() < phones.len() {
        let remaining = deadline.saturating_duration_since(Instant::now());
        let Ok(Some((_, to, text))) = tokio::time::timeout(remaining, texts.recv()).await else {
            panic!(
                "only {} of {} robot matches finished",
                finished.len(),
                phones.len()
            );
        };
        if text.contains("PA - revansh.") {
            finished.insert(to.clone());
        }
        if let Some(reply) = answer(&text, &mut rand::thread_rng()) {
            let driver = driver.clone();
            tokio::spawn(async move { driver.sms(&to, GAME, &reply).await });
        }
    }

    // Ids of a PostgreSQL sequence have gaps (rolled-back batches): list them.
    let mut conn = PgConnection::connect(&db).await.unwrap();
    let ids: Vec<i64> = sqlx::query("SELECT id FROM matches ORDER BY id")
        .fetch_all(&mut conn)
        .await
        .unwrap()
        .iter()
        .map(|r| r.get(0))
        .collect();
    let store = smsarena::store::Store::open(&db, 1).await.unwrap();
    let report = store
        .read(move |r| {
            let game = Entry::new(Football::default());
            let mut out = Vec::new();
            for id in ids {
                let record = r.match_by_id(id)?.expect("listed");
                let moves = r.moves(id)?;
                let seats = r.seats(id)?;
                let replayed = replay(&game, &record, None, &moves, seats.len());
                out.push((record, seats, moves, replayed));
            }
            Ok((out, r.robot_turns()?))
        })
        .await
        .unwrap();
    let (matches, left_over) = report;
    assert_eq!(matches.len(), PLAYERS, "one match per player");
    assert!(left_over.is_empty(), "no robot turn left: {left_over:?}");
    let mut robot_moves = 0;
    for (record, seats, moves, replayed) in &matches {
        assert!(record.finished, "match {} finished", record.id);
        assert_eq!(
            replayed.as_deref(),
            Ok(record.state.as_str()),
            "match {} replays",
            record.id
        );
        // A turn is known by the resolved turns before it; in one turn each
        // seat moves once at most (a second move would replace the first).
        let mut before: State = record.initial_state.parse().unwrap();
        let mut seen = HashSet::new();
        for m in moves
            .iter()
            .filter(|m| m.kind != smsarena::store::MoveKind::Withdrawal)
        {
            assert!(
                seen.insert((before.moved(), m.seat)),
                "match {}: seat {} moved twice in one turn",
                record.id,
                m.seat
            );
            if seats[m.seat].player().is_none() {
                robot_moves += 1;
            }
            before = m.state_after.parse().unwrap();
        }
    }
    eprintln!(
        "robots on two instances: {PLAYERS} matches, {robot_moves} robot moves, {} webhook calls",
        driver.sent.load(Ordering::Relaxed)
    );
    assert!(robot_moves > PLAYERS * 3, "the robots played");
}
