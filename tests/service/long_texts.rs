//! A long text from Vonage arrives in parts (`concat=true`, `concat-ref`,
//! `concat-part`, `concat-total`): they are kept durably, across a restart
//! and whichever gateway each part reaches, and the text is handled once,
//! whole, when the last part is in. A part that never completes is dropped
//! after the timeout.

use crate::common;

use axum::body::Body;
use axum::http::{Request, StatusCode};
use common::TestApp;
use smsarena::scheduler::{FRAGMENT_TIMEOUT, drop_stale_fragments};

const PHONE: &str = "79005";

fn part(id: &str, reference: &str, number: u32, total: u32, text: &str) -> Request<Body> {
    let query = serde_urlencoded::to_string([
        ("msisdn", PHONE),
        ("to", common::GAME),
        ("messageId", id),
        ("text", text),
        ("type", "text"),
        ("concat", "true"),
        ("concat-ref", reference),
        ("concat-part", &number.to_string()),
        ("concat-total", &total.to_string()),
    ])
    .unwrap();
    Request::get(format!("/webhooks/vonage?{query}"))
        .body(Body::empty())
        .unwrap()
}

async fn send(app: &TestApp, request: Request<Body>) {
    let reply = app.request(request).await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_parts_of_a_long_text_are_joined_across_a_restart_and_gateways() {
    let first = TestApp::new().await;
    let url = first.state.config().database.url.clone();
    send(&first, part("P1", "9", 1, 3, "R lo")).await;
    assert_eq!(first.count("inbound").await, 0, "a part is not a text");
    assert!(
        first.texts_to(PHONE).await.is_empty(),
        "nothing answered yet"
    );
    let first = first.restart().await;
    send(&first, part("P3", "9", 3, 3, "ck")).await;
    assert_eq!(first.count("inbound_fragments").await, 2);

    // The last part reaches another gateway on the same database: on
    // PostgreSQL one beside the first; a SQLite file takes one gateway at a
    // time, so there the first stops and another starts on its file.
    let (first, second) = if url.starts_with("sqlite://") {
        (None, first.restart().await)
    } else {
        let second = TestApp::with_config(|cfg| cfg.database.url = url.clone()).await;
        (Some(first), second)
    };
    send(&second, part("P2", "9", 2, 3, "ngni")).await;
    assert_eq!(second.count("inbound").await, 1, "one text, whole");
    let answers = second.inbox(PHONE).await;
    assert_eq!(answers.len(), 1, "{answers:?}");
    assert!(
        answers[0].starts_with("Vy zaregistrirovany kak longnick"),
        "the whole text was read as one: {answers:?}"
    );
    assert_eq!(second.count("inbound_fragments").await, 0);

    // The provider repeats the last part (it missed our 200): it is known
    // by its own id, so nothing is applied again, nor kept.
    send(&second, part("P2", "9", 2, 3, "ngni")).await;
    assert_eq!(second.count("inbound").await, 1);
    assert!(
        second.inbox(PHONE).await.is_empty(),
        "nothing answered again"
    );
    assert_eq!(second.count("inbound_fragments").await, 0, "not kept");

    // A part whose text never completes waits, and goes with the timeout.
    send(&second, part("L1", "8", 1, 2, "HE")).await;
    assert_eq!(drop_stale_fragments(&second.state).await, 0, "not yet");
    second
        .clock
        .advance(FRAGMENT_TIMEOUT + chrono::Duration::seconds(1));
    assert_eq!(drop_stale_fragments(&second.state).await, 1);
    assert_eq!(second.count("inbound_fragments").await, 0);

    // The reference comes round again for a new text: a new text.
    let first = first.as_ref().unwrap_or(&second);
    send(first, part("Q1", "9", 1, 2, "HE")).await;
    send(first, part("Q2", "9", 2, 2, "LP")).await;
    assert_eq!(first.count("inbound").await, 2);
}

#[tokio::test]
async fn a_part_numbered_outside_its_text_is_refused_and_kept_nowhere() {
    let app = TestApp::new().await;
    for (number, total) in [(4, 3), (0, 3), (1, 0), (1, 256)] {
        let reply = app.request(part("B1", "7", number, total, "x")).await;
        assert_eq!(reply.status, StatusCode::BAD_REQUEST, "{number} of {total}");
    }
    let missing_ref = Request::get(format!(
        "/webhooks/vonage?msisdn={PHONE}&to=002220&messageId=B2&text=x&concat=true&concat-part=1&concat-total=2"
    ))
    .body(Body::empty())
    .unwrap();
    assert_eq!(
        app.request(missing_ref).await.status,
        StatusCode::BAD_REQUEST
    );
    // A "long" text of one part is whole.
    send(&app, part("B3", "7", 1, 1, "HELP")).await;
    assert_eq!(app.count("inbound").await, 1);
    assert_eq!(app.count("inbound_fragments").await, 0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn parts_replayed_out_of_order_are_one_text_applied_once() {
    let app = TestApp::new().await;
    send(&app, part("A", "5", 1, 2, "R lon")).await;
    send(&app, part("B", "5", 2, 2, "gnick")).await;
    assert_eq!(app.count("inbound").await, 1);
    assert_eq!(app.inbox(PHONE).await.len(), 1, "one reply");
    // The provider retries and replays the parts in the other order.
    for (id, number, text) in [("B", 2, "gnick"), ("A", 1, "R lon"), ("B", 2, "gnick")] {
        send(&app, part(id, "5", number, 2, text)).await;
    }
    assert_eq!(app.count("inbound").await, 1, "still one text");
    assert!(app.inbox(PHONE).await.is_empty(), "no second reply");
    assert_eq!(app.count("inbound_fragments").await, 0, "nothing kept");
    assert_eq!(app.count("inbound_parts").await, 2, "each part once");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn parts_that_declare_different_totals_are_not_joined() {
    let app = TestApp::new().await;
    // Two texts under one reference: "R ann" in two parts, "HELP" in three.
    send(&app, part("T1", "6", 1, 2, "R a")).await;
    send(&app, part("U1", "6", 1, 3, "HE")).await;
    send(&app, part("U2", "6", 2, 3, "L")).await;
    assert_eq!(app.count("inbound").await, 0, "neither is whole");
    send(&app, part("T2", "6", 2, 2, "nn")).await;
    assert_eq!(app.count("inbound").await, 1);
    let answers = app.inbox(PHONE).await;
    assert!(
        answers.len() == 1 && answers[0].starts_with("Vy zaregistrirovany kak ann"),
        "the two-part text alone: {answers:?}"
    );
    send(&app, part("U3", "6", 3, 3, "P")).await;
    assert_eq!(app.count("inbound").await, 2);
    assert_eq!(app.count("inbound_fragments").await, 0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_long_text_costs_its_phone_one_text_of_its_flood_budget() {
    // The default limits: 10 texts at once. A text of 12 parts, then the
    // provider's retries of some of them, then an ordinary text.
    let app = TestApp::with_config(|cfg| cfg.limits = Default::default()).await;
    let words = "R ab".to_string() + &"c".repeat(11);
    let chunks: Vec<String> = words.chars().map(String::from).collect();
    assert!(chunks.len() >= 12);
    let total = chunks.len() as u32;
    for (i, chunk) in chunks.iter().enumerate() {
        send(
            &app,
            part(&format!("M{i}"), "3", i as u32 + 1, total, chunk),
        )
        .await;
    }
    for (i, chunk) in chunks.iter().enumerate().take(5) {
        send(
            &app,
            part(&format!("M{i}"), "3", i as u32 + 1, total, chunk),
        )
        .await;
    }
    assert_eq!(app.count("inbound").await, 1, "the long text is whole");
    let answers = app.inbox(PHONE).await;
    assert!(
        answers[0].starts_with("Vy zaregistrirovany kak abccccccccccc"),
        "{answers:?}"
    );
    // Nine more texts of his own fit the burst.
    for i in 0..9 {
        let query = format!("msisdn={PHONE}&to=002220&messageId=N{i}&text=H&type=text");
        let request = Request::get(format!("/webhooks/vonage?{query}"))
            .body(Body::empty())
            .unwrap();
        send(&app, request).await;
    }
    assert_eq!(app.count("inbound").await, 10, "none of them dropped");
}
