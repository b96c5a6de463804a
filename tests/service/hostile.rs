//! Hostile texts: very long, control characters, NUL, emoji and surrogates,
//! right-to-left marks, broken bytes and broken percent-encoding. Sent into a
//! match of every game, each is answered (a hint or a refusal), never a
//! panic or a 5xx, and leaves the match as it was.

use crate::common;

use axum::body::Body;
use axum::http::{Request, StatusCode};
use common::{GAME, PLAY, TestApp};

const ME: &str = "+79501";

/// What a phone might send, written out, for the JSON webhook.
fn hostile_texts() -> Vec<String> {
    vec![
        "x".repeat(10_000),
        "6".repeat(2_000),
        "\u{0}".into(),
        "Q\u{0}".into(),
        "\u{0}Q".into(),
        "B\u{7}\u{1b}[2J".into(),
        "\r\n\t".into(),
        "\u{202e}Q".into(),
        "Q\u{200f}".into(),
        "\u{feff}H".into(),
        "⚽🏆👍🏽".into(),
        "1\u{fe0f}\u{20e3}".into(),
        "𝟏𝟐".into(),
        "Ｑ".into(),
        "S\u{301}".into(),
        "%00%FF".into(),
        "'; DROP TABLE matches; --".into(),
        "P IB BOT 9".into(),
        "B(99999999999999999999,1)>L(1,1)".into(),
        "H 18446744073709551616".into(),
    ]
}

/// Raw Kannel query strings whose bytes are not text: broken percent
/// escapes, invalid UTF-8, an odd number of UTF-16 bytes, a lone surrogate.
fn hostile_kannel_queries() -> Vec<&'static str> {
    vec![
        "text=%FF%FE%FD&coding=0",
        "text=%C3%28&coding=0",
        "text=%ZZ%4&coding=0",
        "text=%&coding=0",
        "text=%04&coding=2&charset=UTF-16BE",
        "text=%D8%00&coding=2&charset=UTF-16BE",
        "text=%DC%00%00Q&coding=2&charset=UTF-16BE",
        "text=%FF&coding=7",
        "text=%FFQ&charset=EBCDIC",
    ]
}

async fn app() -> TestApp {
    TestApp::new().await
}

async fn post_json(app: &TestApp, id: usize, text: &str) -> StatusCode {
    app.post_sms(&format!("h{id}"), ME, GAME, text).await.status
}

/// Plays every hostile text into the match `start` opened and checks that
/// each was answered and none changed the match.
async fn survives(start: &str) {
    let app = app().await;
    app.register(&[(ME, "mal")]).await;
    app.sms_to(ME, PLAY, start).await;
    app.robots().await;
    let before = app.match_state(ME).await.expect("in a match");
    let mut id = 0;
    for text in hostile_texts() {
        id += 1;
        let texts_before = app.texts_to(ME).await.len();
        let status = post_json(&app, id, &text).await;
        assert_eq!(status, StatusCode::OK, "{start}: {text:?}");
        let after = app.match_state(ME).await.expect("still in the match");
        assert_eq!(
            after.state, before.state,
            "{start}: {text:?} changed the match"
        );
        let answers = app.texts_to(ME).await;
        assert_eq!(
            answers.len(),
            texts_before + 1,
            "{start}: one answer to {text:?}"
        );
        let answer = &answers.last().unwrap().body;
        assert!(
            !answer.contains('\u{0}') && !answer.contains('\u{202e}') && answer.len() < 1500,
            "{start}: the answer to {text:?} echoes it: {answer:?}"
        );
    }
    for query in hostile_kannel_queries() {
        id += 1;
        let uri = format!("/webhooks/kannel?from=%2B79501&to={GAME}&id=k{id}&{query}");
        let reply = app
            .request(Request::get(uri.as_str()).body(Body::empty()).unwrap())
            .await;
        assert!(
            reply.status == StatusCode::OK || reply.status.is_client_error(),
            "{start}: {query}: {} {}",
            reply.status,
            reply.body
        );
        let after = app.match_state(ME).await;
        assert_eq!(
            after.map(|m| m.state),
            Some(before.state.clone()),
            "{start}: {query} changed the match"
        );
    }
    // NUL in the id: stored as U+FFFD (PostgreSQL's text cannot hold one),
    // never a 503 that the provider would retry for ever. In a number it is
    // no number at all: a 400 that says so.
    let reply = app.post_sms("nu\u{0}l", ME, GAME, "B").await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
    let reply = app.post_sms("nul2", "+79501\u{0}", GAME, "B").await;
    assert_eq!(reply.status, StatusCode::BAD_REQUEST, "{}", reply.body);
    assert!(
        reply.body.contains("control or invisible character"),
        "{}",
        reply.body
    );

    // A JSON body that is not JSON, or carries a lone surrogate, is a 400.
    for body in [
        "{\"id\":\"j1\",\"from\":\"+79501\",\"to\":\"002220\",\"text\":\"\\ud800\"}".to_string(),
        "{\"id\":\"j2\",\"from\":\"+79501\",\"to\":\"002220\",\"text\":".to_string(),
        "\u{0}\u{0}".to_string(),
    ] {
        let reply = app
            .request(
                Request::post("/webhooks/generic")
                    .header("content-type", "application/json")
                    .body(Body::from(body.clone()))
                    .unwrap(),
            )
            .await;
        assert_eq!(reply.status, StatusCode::BAD_REQUEST, "{body:?}");
    }
    let after = app.match_state(ME).await.expect("still in the match");
    assert_eq!(after.state, before.state);
}

/// The trial game (two phones, each answered with a refusal or a hint).
#[tokio::test]
async fn a_trial_match_survives_hostile_texts() {
    let app = app().await;
    app.register(&[(ME, "mal"), ("+79502", "bea")]).await;
    app.sms_to(ME, PLAY, "P TR").await;
    app.sms_to("+79502", PLAY, "P TR").await;
    let before = app.match_state(ME).await.expect("in a match");
    for (i, text) in hostile_texts().iter().enumerate() {
        assert_eq!(post_json(&app, i, text).await, StatusCode::OK, "{text:?}");
        let after = app.match_state(ME).await.expect("still in the match");
        assert_eq!(after.state, before.state, "{text:?} changed the match");
    }
}

/// Every game of the catalog, in a practice match against its weakest
/// robots: a game added to the catalog is covered without a line here.
#[tokio::test]
async fn a_match_of_every_game_survives_hostile_texts() {
    let probe = TestApp::new().await;
    let starts: Vec<(&str, String)> = probe
        .state
        .platform()
        .catalog()
        .games()
        .map(|game| {
            let level = *game.robot_levels().start();
            let start = format!("P {} {}", game.code(), game.practice(level));
            (game.code(), start.trim_end().to_string())
        })
        .collect();
    for (_, start) in &starts {
        survives(start).await;
    }
    let codes: Vec<&str> = starts.iter().map(|(code, _)| *code).collect();
    assert_eq!(codes, ["FB", "IB", "PS", "WB", "AR", "TR"]);
}

#[tokio::test]
async fn a_disabled_webhook_is_not_there() {
    let app = TestApp::with_config(|cfg| {
        cfg.webhooks.twilio = false;
        cfg.webhooks.kannel = false;
    })
    .await;
    for request in [
        Request::post("/webhooks/twilio")
            .header("content-type", "application/x-www-form-urlencoded")
            .body(Body::from(
                "From=%2B79501&To=002220&Body=HELP&MessageSid=SM1",
            ))
            .unwrap(),
        Request::get("/webhooks/kannel?from=%2B79501&to=002220&text=HELP&id=k1")
            .body(Body::empty())
            .unwrap(),
        Request::get("/webhooks/kannel/status?ref=x&status=1")
            .body(Body::empty())
            .unwrap(),
    ] {
        let reply = app.request(request).await;
        assert_eq!(reply.status, StatusCode::NOT_FOUND, "{}", reply.body);
    }
    assert_eq!(app.count("inbound").await, 0);
    // The others still answer.
    app.sms("+79501", "HELP").await;
    assert_eq!(app.count("inbound").await, 1);
}
