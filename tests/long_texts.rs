//! A long text from Vonage arrives in parts (`concat=true`, `concat-ref`,
//! `concat-part`, `concat-total`): they are kept durably, across a restart
//! and whichever gateway each part reaches, and the text is handled once,
//! whole, when the last part is in. A part that never completes is dropped
//! after the timeout.

mod common;

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

    // The last part reaches another gateway on the same database.
    let second = TestApp::with_config(|cfg| cfg.database.url = url.clone()).await;
    send(&second, part("P2", "9", 2, 3, "ngni")).await;
    assert_eq!(second.count("inbound").await, 1, "one text, whole");
    let answers = second.inbox(PHONE).await;
    assert_eq!(answers.len(), 1, "{answers:?}");
    assert!(
        answers[0].starts_with("Vy zaregistrirovany kak longnick"),
        "the whole text was read as one: {answers:?}"
    );
    assert_eq!(second.count("inbound_fragments").await, 0);

    // The provider repeats the last part (it missed our 200): nothing is
    // applied again; the lone repeat waits, and goes with the timeout.
    send(&second, part("P2", "9", 2, 3, "ngni")).await;
    assert_eq!(second.count("inbound").await, 1);
    assert!(
        second.inbox(PHONE).await.is_empty(),
        "nothing answered again"
    );
    assert_eq!(
        second.count("inbound_fragments").await,
        1,
        "the repeat waits"
    );
    assert_eq!(drop_stale_fragments(&second.state).await, 0, "not yet");
    second
        .clock
        .advance(FRAGMENT_TIMEOUT + chrono::Duration::seconds(1));
    assert_eq!(drop_stale_fragments(&second.state).await, 1);
    assert_eq!(second.count("inbound_fragments").await, 0);

    // The reference comes round again for a new text: a new text.
    send(&first, part("Q1", "9", 1, 2, "HE")).await;
    send(&first, part("Q2", "9", 2, 2, "LP")).await;
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
