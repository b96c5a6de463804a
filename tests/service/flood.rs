//! Floods: one phone sending a thousand texts a second, a stranger's address
//! hammering the webhooks, and a writer that cannot keep up. Each is held at
//! the door, costs the others nothing, and is told so once.

use crate::common;

use std::net::SocketAddr;
use std::time::{Duration, Instant};

use axum::extract::ConnectInfo;
use axum::http::StatusCode;
use common::lock::WriteLock;
use common::{GAME, PLAY, TestApp, sms_request};
use smsarena::config::LimitsConfig;
use smsarena::lang::Lang;
use smsarena::platform::texts;
use tokio::task::JoinSet;
use tower::ServiceExt;

const FLOODER: &str = "+7951";
const B: &str = "+7952";
const C: &str = "+7953";

/// Whichever of B and C was last told it is his move.
async fn mover(app: &TestApp) -> &'static str {
    for phone in [B, C] {
        let texts = app.texts_to(phone).await;
        if texts.last().is_some_and(|t| t.body.ends_with("Vash xod.")) {
            return phone;
        }
    }
    panic!("neither B nor C is to move");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_phone_sending_a_thousand_texts_a_second_hears_once_and_others_play_on() {
    let app = TestApp::with_config(|cfg| {
        cfg.limits = LimitsConfig::default();
        cfg.admin.token = "t".into();
    })
    .await;
    app.register(&[(FLOODER, "fred"), (B, "bob"), (C, "cid")])
        .await;
    app.sms_to(B, PLAY, "P TR").await;
    app.sms_to(C, PLAY, "P TR").await;
    let inbound_before = app.count("inbound").await;

    // A text a millisecond, each a request of its own: a thousand at least,
    // and on until the moves below are played, however long they take on a
    // busy machine (so they are always played during the flood).
    let router = app.router.clone();
    let (moves_done, mut moves_played) = tokio::sync::watch::channel(false);
    let flood = tokio::spawn(async move {
        let start = tokio::time::Instant::now();
        let mut sent = JoinSet::new();
        for i in 0..10_000u64 {
            if i >= 1000 && *moves_played.borrow_and_update() {
                break;
            }
            tokio::time::sleep_until(start + Duration::from_millis(i)).await;
            let router = router.clone();
            sent.spawn(async move {
                let request = sms_request(&format!("flood{i}"), FLOODER, GAME, "H");
                router.oneshot(request).await.unwrap().status()
            });
        }
        let mut statuses = Vec::new();
        while let Some(status) = sent.join_next().await {
            statuses.push(status.unwrap());
        }
        statuses
    });

    // Meanwhile B and C play six moves, each answered as quickly as ever:
    // a second is a hundred times what a move takes on this machine.
    let mut slowest = Duration::ZERO;
    for _ in 0..6 {
        let phone = mover(&app).await;
        let asked = Instant::now();
        app.sms(phone, "1").await;
        slowest = slowest.max(asked.elapsed());
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(
        !flood.is_finished(),
        "the moves were played during the flood"
    );
    moves_done.send(true).unwrap();
    assert!(slowest < Duration::from_secs(1), "a move took {slowest:?}");
    let statuses = flood.await.unwrap();
    let flooded = statuses.len() as i64;
    assert!(
        statuses.iter().all(|s| *s == StatusCode::OK),
        "every text acknowledged, so the provider does not retry"
    );
    let game = app.match_state(B).await.expect("still playing");
    assert!(
        game.state.contains("count=6"),
        "every move applied: {}",
        game.state
    );

    // The flooder's first texts were read (the burst), the rest dropped
    // unrecorded, and he was told so once.
    let to_flooder = app.inbox(FLOODER).await;
    let notice = texts::slow_down(Lang::Ru);
    assert_eq!(
        to_flooder.iter().filter(|t| **t == notice).count(),
        1,
        "one notice: {to_flooder:?}"
    );
    let read = to_flooder.len() as i64 - 1;
    // A burst of ten, less his registration, and what refilled meanwhile.
    assert!((9..=11).contains(&read), "{read} read");
    assert_eq!(app.count("inbound").await - inbound_before, read + 6);
    let stats = app
        .request(
            axum::http::Request::get("/admin/stats")
                .header("authorization", "Bearer t")
                .body(axum::body::Body::empty())
                .unwrap(),
        )
        .await;
    let stats: serde_json::Value = serde_json::from_str(&stats.body).unwrap();
    assert_eq!(stats["limits"]["dropped_texts"], flooded - read);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_address_over_its_limit_is_answered_429_and_the_trusted_ones_never_are() {
    let app = TestApp::with_config(|cfg| {
        cfg.limits.address_burst = 5;
        cfg.limits.address_per_second = 1;
    })
    .await;
    let from = |ip: &str, i: usize| {
        let mut request = sms_request(&format!("{ip}-{i}"), &format!("+79{i:03}"), GAME, "H");
        let addr: SocketAddr = format!("{ip}:40000").parse().unwrap();
        request.extensions_mut().insert(ConnectInfo(addr));
        request
    };
    let mut refused = 0;
    for i in 0..20 {
        let response = app
            .router
            .clone()
            .oneshot(from("203.0.113.7", i))
            .await
            .unwrap();
        if response.status() == StatusCode::TOO_MANY_REQUESTS {
            assert_eq!(response.headers()["retry-after"], "1");
            refused += 1;
        } else {
            assert_eq!(response.status(), StatusCode::OK);
        }
    }
    assert!(
        (14..=15).contains(&refused),
        "the burst of five passed: {refused}"
    );
    assert_eq!(
        app.count("inbound").await,
        20 - refused,
        "nothing refused was read"
    );
    for i in 0..50 {
        let response = app
            .router
            .clone()
            .oneshot(from("127.0.0.1", 100 + i))
            .await
            .unwrap();
        assert_eq!(
            response.status(),
            StatusCode::OK,
            "the local provider is trusted"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_full_writer_queue_is_answered_503_at_once_and_the_retries_apply_once() {
    let app = TestApp::with_config(|cfg| cfg.database.queue_depth = 2).await;
    let url = app.state.config().database.url.clone();
    let phone = |i: usize| format!("+7960{i:02}");
    let lock = WriteLock::take(&url);
    let mut sent = JoinSet::new();
    for i in 0..40 {
        let router = app.router.clone();
        sent.spawn(async move {
            let response = router
                .oneshot(sms_request(&format!("q{i}"), &phone(i), GAME, "H"))
                .await
                .unwrap();
            (
                i,
                response.status(),
                response.headers().get("retry-after").cloned(),
            )
        });
    }
    // While the writer waits for the lock, the queue holds two callers and
    // everyone else is answered at once.
    let mut refused = Vec::new();
    let deadline = Instant::now() + Duration::from_secs(3);
    while refused.len() < 30 && Instant::now() < deadline {
        if let Ok(Some(done)) =
            tokio::time::timeout(Duration::from_millis(100), sent.join_next()).await
        {
            let (i, status, retry_after) = done.unwrap();
            assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE, "text {i}");
            assert_eq!(retry_after.unwrap(), "1");
            refused.push(i);
        }
    }
    assert!(
        refused.len() >= 30,
        "answered while the lock was held: {}",
        refused.len()
    );
    drop(lock);
    while let Some(done) = sent.join_next().await {
        let (i, status, _) = done.unwrap();
        if status != StatusCode::OK {
            assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE);
            refused.push(i);
        }
    }
    // The provider retries what was refused, with the same ids; one of the
    // first batch's is repeated too, as a provider that missed our 200 would.
    for &i in refused.iter().chain(std::iter::once(&0)) {
        let reply = app.post_sms(&format!("q{i}"), &phone(i), GAME, "H").await;
        assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
    }
    assert_eq!(app.count("inbound").await, 40);
    for i in 0..40 {
        assert_eq!(
            app.texts_to(&phone(i)).await.len(),
            1,
            "one answer to text {i}"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_providers_retries_cost_the_phone_nothing() {
    // The default limits: ten texts at once. One text, retried thirty times
    // by its provider (it kept missing our answer), then the player's next
    // nine: every one of them is read.
    let app = TestApp::with_config(|cfg| cfg.limits = LimitsConfig::default()).await;
    for _ in 0..31 {
        let reply = app.post_sms("retried", B, GAME, "R bob").await;
        assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
        assert_ne!(reply.body, r#"{"status":"rate_limited"}"#);
    }
    for i in 0..9 {
        let reply = app.post_sms(&format!("next{i}"), B, GAME, "H").await;
        assert_eq!(reply.body, r#"{"status":"accepted"}"#, "text {i}");
    }
    assert_eq!(app.count("inbound").await, 10);
    let over = app.post_sms("one-too-many", B, GAME, "H").await;
    assert_eq!(
        over.body, r#"{"status":"rate_limited"}"#,
        "new texts are still limited"
    );
}

/// The shipped limits and a real phone: a text a second for a minute, then
/// bursts of five, every one read; a script's ten a second mostly dropped.
/// The limit earns a phone's texts back by the gateway's clock, which this
/// test moves by hand: the minute takes no wall time.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_person_at_a_text_a_second_is_never_dropped_and_a_script_at_ten_a_second_is() {
    let app = TestApp::with_config(|cfg| cfg.limits = LimitsConfig::default()).await;
    let tick = |ms: i64| app.clock.advance(chrono::Duration::milliseconds(ms));
    app.register(&[(B, "bob")]).await;
    for second in 0..60 {
        let reply = app.post_sms(&format!("s{second}"), B, GAME, "H").await;
        assert_eq!(reply.body, r#"{"status":"accepted"}"#, "second {second}");
        tick(1000);
    }
    for burst in 0..6 {
        for text in 0..5 {
            let id = format!("b{burst}-{text}");
            let reply = app.post_sms(&id, B, GAME, "H").await;
            assert_eq!(reply.body, r#"{"status":"accepted"}"#, "{id}");
            tick(300);
        }
        tick(5000);
    }

    app.register(&[(C, "cid")]).await;
    let mut dropped = 0;
    for i in 0..50 {
        let reply = app.post_sms(&format!("script{i}"), C, GAME, "H").await;
        if reply.body == r#"{"status":"rate_limited"}"# {
            dropped += 1;
        }
        tick(100);
    }
    // Five seconds at ten a second: the burst less the registration, and
    // what the steady rate earns back (1.5 a second) are read.
    assert!((30..=35).contains(&dropped), "{dropped} of 50 dropped");
}
