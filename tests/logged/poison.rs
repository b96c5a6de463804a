//! A match whose stored state no longer parses, or holds other seats than
//! the match, is a poison message: it must not turn every text of its
//! players into a 503 (which the provider retries for ever), nor stop every
//! other deadline, nor have its robot's turn retried for ever. It is ended
//! as void instead, its players told in one text, the fault logged loudly
//! and counted in the admin stats, and the players play on.

use crate::common;

use axum::body::Body;
use chrono::Duration;
use common::{PLAY, TestApp};

const A: &str = "+7931";
const B: &str = "+7932";
const C: &str = "+7933";
const D: &str = "+7934";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_corrupt_match_is_ended_as_void_and_nothing_else_stops() {
    let logs = common::logs::captured();
    let app = TestApp::with_config(|cfg| cfg.admin.token = "t".into()).await;
    app.register(&[(A, "ann"), (B, "bob"), (C, "cid"), (D, "dan")])
        .await;
    for phone in [A, B, C, D] {
        app.sms_to(phone, PLAY, "P TR").await;
    }
    for phone in [A, B, C, D] {
        app.inbox(phone).await;
    }
    let poisoned = app.match_state(A).await.expect("A and B play");
    let healthy = app.match_state(C).await.expect("C and D play");
    assert_ne!(poisoned.id, healthy.id);
    let url = app.state.config().database.url.clone();
    common::raw_sql(
        &url,
        &format!(
            "UPDATE matches SET state = 'TR1 count=gibberish' WHERE id = {}",
            poisoned.id
        ),
    )
    .await;

    // Both deadlines pass: the healthy match's fires, the poisoned one ends.
    app.advance(Duration::seconds(181)).await;
    let healthy_now = app.match_state(C).await.expect("still playing");
    assert!(
        healthy_now.state.contains("count=1"),
        "its null move: {}",
        healthy_now.state
    );
    let (void, _) = app.last_match(A).await.unwrap();
    assert!(void.finished);
    assert!(
        void.void_reason
            .as_deref()
            .is_some_and(|r| r.contains("not a trial state"))
    );
    for phone in [A, B] {
        let texts = app.inbox(phone).await;
        assert_eq!(texts.len(), 1, "one text each: {texts:?}");
        assert!(texts[0].starts_with("Vash match prervan"), "{texts:?}");
    }

    // A text of a player in a poisoned match is answered, not refused with 503.
    app.sms_to(C, PLAY, "P TR").await; // C sits in the healthy match: the board
    app.inbox(C).await;
    app.inbox(D).await; // the null move's prompt
    // Written by the gateway's own writer: it is the file's only writer, and
    // what it keeps of a match in play (`store/sqlite/copies.rs`) learns of
    // no write made beside it.
    let id = healthy.id;
    app.state
        .store()
        .run(move |tx| {
            let mut stored = tx.matches().by_id(id)?.expect("the healthy match");
            stored.state = "nonsense".into();
            tx.matches().save(&stored)
        })
        .await
        .unwrap();
    app.sms(D, "2").await; // the webhook must accept it (sms() asserts a 200)
    assert!(app.one_text(D).await.starts_with("Vash match prervan"));
    assert!(app.inbox(C).await[0].starts_with("Vash match prervan"));

    // Counted, logged loudly, and the players play on.
    let stats = app
        .request(
            axum::http::Request::get("/admin/stats")
                .header("authorization", "Bearer t")
                .body(Body::empty())
                .unwrap(),
        )
        .await;
    let stats: serde_json::Value = serde_json::from_str(&stats.body).unwrap();
    assert_eq!(stats["void_matches"], 2);
    assert!(
        logs.text()
            .contains("a stored match does not load; it is ended as void")
    );
    app.sms_to(A, PLAY, "P TR").await;
    app.sms_to(B, PLAY, "P TR").await;
    let again = app.match_state(A).await.expect("a new match");
    assert!(again.id > healthy.id);
    app.sms(A, "H").await;
    assert!(!app.inbox(A).await.is_empty());
}

#[tokio::test]
async fn a_state_whose_seats_disagree_with_the_stored_seats_is_ended_as_void() {
    let app = TestApp::new().await;
    app.register(&[(A, "ann"), (B, "bob")]).await;
    for phone in [A, B] {
        app.sms_to(phone, PLAY, "P TR").await;
    }
    for phone in [A, B] {
        app.inbox(phone).await;
    }
    let record = app.match_state(A).await.expect("A and B play");
    let id = record.id;
    // A state of three seats, the second on turn, in a match of two: the
    // second seat's move would hand the turn to a seat nobody holds.
    let three = "TR1 count=0 turn=1 scores=0,0,0 out=- chain=0 part=0 winner=-";
    app.set_match_state(record, three.into()).await;

    app.sms(B, "2").await; // the webhook must accept it (sms() asserts a 200)
    let (void, _) = app.last_match(A).await.unwrap();
    assert_eq!(void.id, id);
    assert!(void.finished);
    assert!(
        void.void_reason
            .as_deref()
            .is_some_and(|r| r.contains("3 seats") && r.contains("2")),
        "{:?}",
        void.void_reason
    );
    for phone in [A, B] {
        let texts = app.inbox(phone).await;
        assert_eq!(texts.len(), 1, "one text each: {texts:?}");
        assert!(texts[0].starts_with("Vash match prervan"), "{texts:?}");
    }
    // No deadline is left to fire on it.
    app.advance(Duration::seconds(181)).await;
    assert!(app.inbox(A).await.is_empty());
}

#[tokio::test]
async fn a_robot_turn_whose_match_will_not_load_ends_it_as_void_and_is_not_retried() {
    let app = TestApp::new().await;
    app.register(&[(A, "ann")]).await;
    app.sms_to(A, PLAY, "P TR BOT 1").await;
    app.inbox(A).await;
    app.sms(A, "2").await;
    app.inbox(A).await;
    let record = app.match_state(A).await.expect("A plays a robot");
    assert_eq!(app.count("robot_turns").await, 1, "the robot's turn is due");
    let url = app.state.config().database.url.clone();
    common::raw_sql(
        &url,
        &format!(
            "UPDATE matches SET state = 'TR1 count=gibberish' WHERE id = {}",
            record.id
        ),
    )
    .await;

    assert_eq!(app.robots().await, 0, "nothing to play");
    let (void, _) = app.last_match(A).await.unwrap();
    assert!(void.finished);
    assert!(
        void.void_reason
            .as_deref()
            .is_some_and(|r| r.contains("not a trial state")),
        "{:?}",
        void.void_reason
    );
    assert_eq!(app.count("robot_turns").await, 0, "the turn is dropped");
    let texts = app.inbox(A).await;
    assert_eq!(texts.len(), 1, "told once: {texts:?}");
    assert!(texts[0].starts_with("Vash match prervan"), "{texts:?}");
    // Long after any lease, nothing is left to retry.
    app.advance(Duration::seconds(600)).await;
    assert_eq!(app.robots().await, 0);
    assert!(app.inbox(A).await.is_empty());
}
