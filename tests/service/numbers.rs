//! Phone numbers: every spelling of one number is one player, a number that
//! hides control or bidirectional characters or is longer than any phone
//! number is refused with a clear 400, and replies go out only from the
//! service's own numbers, whatever an inbound `to` says.

use crate::common;

use axum::http::StatusCode;
use common::{GAME, PLAY, TestApp};

#[tokio::test]
async fn the_spellings_of_one_number_are_one_player() {
    let app = TestApp::new().await;
    app.sms("+79001234567", "R ann").await;
    for (i, spelling) in [
        "89001234567",
        "+7 900 123-45-67",
        "79001234567",
        "8 (900) 123-45-67",
    ]
    .into_iter()
    .enumerate()
    {
        let reply = app.post_sms(&format!("s{i}"), spelling, GAME, "HELP").await;
        assert_eq!(reply.status, StatusCode::OK, "{spelling}: {}", reply.body);
    }
    assert_eq!(app.count("players").await, 1, "one player");
    let texts = app.texts_to("+79001234567").await;
    assert_eq!(texts.len(), 5, "every answer to the one number: {texts:?}");
}

#[tokio::test]
async fn what_is_no_phone_number_is_refused_and_changes_nothing() {
    let app = TestApp::new().await;
    let long = "7".repeat(2000);
    for (from, why) in [
        (long.as_str(), "longer than any phone number"),
        ("+7900\u{1b}1234567", "control or invisible character"),
        ("+7900\u{7}1234567", "control or invisible character"),
        ("+7900123\u{202e}4567", "control or invisible character"),
        ("\u{200f}+79001234567", "control or invisible character"),
        ("+79001234567;DROP", "no alphanumeric sender"),
        ("09B7 3", "a name (an alphanumeric sender)"),
        ("MY BANK", "a name (an alphanumeric sender)"),
        ("+0079001234", "no international number"),
    ] {
        let reply = app.post_sms("x", from, GAME, "R eve").await;
        assert_eq!(reply.status, StatusCode::BAD_REQUEST, "{from:?}");
        assert!(
            reply.body.contains("the sender's number") && reply.body.contains(why),
            "{from:?}: {}",
            reply.body
        );
    }
    assert_eq!(app.count("inbound").await, 0);
    assert_eq!(app.count("players").await, 0);
    assert_eq!(app.count("outbox").await, 0);
}

#[tokio::test]
async fn replies_go_out_only_from_the_service_numbers() {
    let app = TestApp::new().await;
    let bank = app.post_sms("b1", "+79001234567", "BANK", "R ann").await;
    assert_eq!(bank.status, StatusCode::BAD_REQUEST, "{}", bank.body);
    assert!(
        bank.body.contains("none of this gateway's numbers"),
        "{}",
        bank.body
    );
    let stranger = app
        .post_sms("b2", "+79001234567", "+79990000000", "R ann")
        .await;
    assert_eq!(stranger.status, StatusCode::BAD_REQUEST);
    let ours = app.post_sms("b3", GAME, PLAY, "R ann").await;
    assert_eq!(
        ours.status,
        StatusCode::BAD_REQUEST,
        "a text from our own number"
    );
    assert!(ours.body.contains("own numbers"), "{}", ours.body);
    assert_eq!(app.count("outbox").await, 0, "nothing sent from anywhere");

    // Our numbers, however the provider spells them, answer from themselves.
    app.sms_to("+79001234567", "00 22 20", "R ann").await;
    app.sms_to("+79001234567", "002227", "P TR").await;
    let from: Vec<String> = app
        .texts_to("+79001234567")
        .await
        .into_iter()
        .map(|t| t.from)
        .collect();
    assert_eq!(from, [GAME, PLAY]);
}
