//! The training hall without a browser: a virtual phone plays through the
//! SMS path, its texts are routed by number and nowhere else, a phone's
//! token is its key, and the hall is served where its settings say.

use crate::common;

use std::net::SocketAddr;
use std::time::Duration;

use axum::body::Body;
use axum::extract::ConnectInfo;
use axum::http::{Request, StatusCode};
use common::{GAME, PLAY, TestApp};
use http_body_util::BodyExt;
use serde_json::{Value, json};
use smsarena::config::Config;
use smsarena::lang::Lang;
use smsarena::platform::texts::{self, Numbers};
use smsarena::providers::Provider;
use smsarena::providers::SendError;
use smsarena::providers::capture::Capture;
use smsarena::providers::hall::Hall;
use smsarena::settings::Switch;
use smsarena::store::{Holder, OutboxText, TextStatus};
use tower::ServiceExt;

fn post(uri: &str, body: Value) -> Request<Body> {
    Request::post(uri)
        .header("content-type", "application/json")
        .body(Body::from(body.to_string()))
        .unwrap()
}

fn from(mut request: Request<Body>, ip: [u8; 4]) -> Request<Body> {
    request
        .extensions_mut()
        .insert(ConnectInfo(SocketAddr::from((ip, 40000))));
    request
}

/// A new virtual phone: its number and its token.
async fn open_phone(app: &TestApp) -> (String, String) {
    let reply = app.request(post("/hall/phones", json!({}))).await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
    let answer: Value = serde_json::from_str(&reply.body).unwrap();
    (
        answer["number"].as_str().unwrap().to_string(),
        answer["token"].as_str().unwrap().to_string(),
    )
}

async fn type_text(
    app: &TestApp,
    number: &str,
    token: &str,
    id: &str,
    to: &str,
    text: &str,
) -> (StatusCode, Value) {
    let reply = app
        .request(post(
            &format!("/hall/phones/{number}/texts"),
            json!({ "token": token, "id": id, "to": to, "text": text }),
        ))
        .await;
    let body = serde_json::from_str(&reply.body).unwrap_or(Value::Null);
    (reply.status, body)
}

/// The request for one stream of `phones` (number, token, newest text
/// shown), as the page's worker makes it.
fn events_of(phones: &[(&str, &str, i64)]) -> Request<Body> {
    let phones: Vec<Value> = phones
        .iter()
        .map(|(number, token, after)| json!({ "number": number, "token": token, "after": after }))
        .collect();
    post("/hall/events", json!({ "phones": phones }))
}

/// The first event of a phone's stream, as the page reads it.
async fn first_event(app: &TestApp, number: &str, token: &str, after: i64) -> String {
    let request = events_of(&[(number, token, after)]);
    let response = app.router.clone().oneshot(request).await.unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    assert_eq!(response.headers()["content-type"], "text/event-stream");
    let mut body = response.into_body();
    let mut seen = String::new();
    while !seen.contains("\n\n") {
        let frame = tokio::time::timeout(Duration::from_secs(10), body.frame())
            .await
            .expect("an event within 10 s")
            .expect("the stream goes on")
            .unwrap();
        if let Ok(data) = frame.into_data() {
            seen.push_str(&String::from_utf8_lossy(&data));
        }
    }
    seen
}

#[tokio::test]
async fn a_virtual_phone_plays_through_the_sms_path() {
    let app = TestApp::new().await;
    let (number, token) = open_phone(&app).await;
    assert!(smsarena::phone::is_virtual(&number), "{number}");

    let (status, answer) = type_text(&app, &number, &token, "a1", GAME, "R hallie").await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    assert_eq!(answer["status"], "accepted");
    assert_eq!(
        (answer["parts"].as_u64(), answer["encoding"].as_str()),
        (Some(1), Some("gsm7"))
    );
    let (_, again) = type_text(&app, &number, &token, "a1", GAME, "R hallie").await;
    assert_eq!(
        again["status"], "duplicate",
        "the page's id is the text's, as a provider's is"
    );
    assert_eq!(app.count("players").await, 1);

    let welcome = app.one_text(&number).await;
    assert!(welcome.to_lowercase().contains("hallie"), "{welcome}");
    let event = first_event(&app, &number, &token, 0).await;
    assert!(event.starts_with("event: text\n"), "{event}");
    assert!(
        event.contains("hallie"),
        "the waiting text comes first: {event}"
    );

    let practice = {
        let catalog = app.state.platform().catalog();
        let ps = catalog
            .games()
            .find(|g| g.code() == "PS")
            .expect("paper soccer");
        format!("P PS {}", ps.practice(1))
    };
    let (status, _) = type_text(&app, &number, &token, "a2", PLAY, &practice).await;
    assert_eq!(status, StatusCode::OK);
    let board = app.inbox(&number).await.join("\n");
    assert!(!board.is_empty(), "the practice match answers");

    let (status, answer) = type_text(&app, &number, &token, "a3", "+79001234567", "hi").await;
    assert_eq!(
        status,
        StatusCode::BAD_REQUEST,
        "only the service numbers: {answer}"
    );
    let (status, _) = type_text(&app, &number, &token, "bad id!", GAME, "H").await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
}

#[tokio::test]
async fn a_visitor_cannot_read_or_text_from_another_phone() {
    let app = TestApp::new().await;
    let (mine, my_token) = open_phone(&app).await;
    let (theirs, _their_token) = open_phone(&app).await;
    type_text(&app, &theirs, &_their_token, "t1", GAME, "R other").await;

    let (status, _) = type_text(&app, &theirs, &my_token, "x1", GAME, "S other hi").await;
    assert_eq!(status, StatusCode::FORBIDDEN, "my token is not theirs");
    let (status, _) = type_text(&app, "+99909999999", &my_token, "x2", GAME, "H").await;
    assert_eq!(
        status,
        StatusCode::FORBIDDEN,
        "an unknown phone looks the same"
    );
    let events = app
        .request(events_of(&[(&mine, &my_token, 0), (&theirs, &my_token, 0)]))
        .await;
    assert_eq!(events.status, StatusCode::FORBIDDEN, "{}", events.body);
    let refused: Value = serde_json::from_str(&events.body).unwrap();
    assert_eq!(
        refused["phones"],
        json!([theirs]),
        "each phone's token is proved; the page learns which failed"
    );
    assert!(app.texts_to(&mine).await.is_empty());
    assert_eq!(app.count("players").await, 1, "nothing done in their name");
}

#[tokio::test]
async fn a_provider_cannot_text_as_a_virtual_phone() {
    let app = TestApp::new().await;
    let reply = app.post_sms("v1", "+99901234567", GAME, "R faker").await;
    assert_eq!(reply.status, StatusCode::BAD_REQUEST, "{}", reply.body);
    assert!(reply.body.contains("training hall phone"), "{}", reply.body);
    assert_eq!(app.count("inbound").await, 0);
}

fn outbox_text(id: i64, to: &str) -> OutboxText {
    OutboxText {
        id,
        from: GAME.into(),
        to: to.into(),
        body: "hello".into(),
        encoding: "gsm7".into(),
        parts: 1,
        attempts: 1,
        status: TextStatus::Sending,
        provider_ref: None,
        last_error: None,
    }
}

#[tokio::test]
async fn texts_are_routed_by_number_to_the_hall_or_the_provider_and_nowhere_else() {
    let hall =
        std::sync::Arc::new(Hall::for_config(&Config::default()).expect("served on loopback"));
    let (capture, mut provider_saw) = Capture::new();
    let provider = Provider::capture(capture).beside(Some(hall.clone()));
    let mut page = hall.hub().subscribe("+99900000007");

    provider
        .send(&outbox_text(1, "+99900000007"))
        .await
        .unwrap();
    assert_eq!(
        page.try_recv().unwrap().id,
        1,
        "the hall has the virtual phone's text"
    );
    assert!(
        provider_saw.try_recv().is_err(),
        "the provider never sees it"
    );

    provider
        .send(&outbox_text(2, "+79001234567"))
        .await
        .unwrap();
    assert_eq!(
        provider_saw.try_recv().unwrap().id,
        2,
        "the provider has the real phone's"
    );
    assert!(page.try_recv().is_err(), "the hall never sees it");

    let (capture, mut provider_saw) = Capture::new();
    let without_hall = Provider::capture(capture);
    let refused = without_hall.send(&outbox_text(3, "+99900000007")).await;
    assert!(
        matches!(refused, Err(SendError::Final { .. })),
        "{refused:?}"
    );
    assert!(
        provider_saw.try_recv().is_err(),
        "no hall: still never the provider"
    );
}

#[tokio::test]
async fn the_hall_is_served_off_loopback_only_when_enabled() {
    for (listen, enabled, served) in [
        ("127.0.0.1:8080", Switch::Auto, true),
        ("0.0.0.0:8080", Switch::Auto, false),
        ("0.0.0.0:8080", Switch::On, true),
        ("127.0.0.1:8080", Switch::Off, false),
    ] {
        let app = TestApp::with_config(|cfg| {
            cfg.http.listen = listen.parse().unwrap();
            cfg.hall.enabled = enabled;
        })
        .await;
        let page = app
            .request(Request::get("/hall").body(Body::empty()).unwrap())
            .await;
        let phones = app.request(post("/hall/phones", json!({}))).await;
        let expected = if served {
            StatusCode::OK
        } else {
            StatusCode::NOT_FOUND
        };
        assert_eq!(
            (page.status, phones.status),
            (expected, expected),
            "{listen} {enabled:?}"
        );
        if served {
            assert!(page.body.contains("training hall"), "{}", page.body);
            let csp = page.headers["content-security-policy"].to_str().unwrap();
            assert!(csp.contains("script-src 'self'"), "{csp}");
        }
    }
}

#[tokio::test]
async fn the_hall_offers_every_game_with_its_rules() {
    let app = TestApp::new().await;
    let page = app
        .request(Request::get("/hall").body(Body::empty()).unwrap())
        .await;
    assert_eq!(page.status, StatusCode::OK);
    for game in app.state.platform().catalog().games() {
        assert!(
            page.body
                .contains(&format!("data-game=\"{}\"", game.code())),
            "a button and rules for {}",
            game.code()
        );
    }
    for asset in ["/hall/hall.js", "/hall/hall.css", "/assets/page.css"] {
        let reply = app
            .request(Request::get(asset).body(Body::empty()).unwrap())
            .await;
        assert_eq!(reply.status, StatusCode::OK, "{asset}");
        assert!(!reply.body.is_empty(), "{asset}");
    }
}

#[tokio::test]
async fn one_address_opens_only_so_many_phones_and_sends_only_so_many_texts() {
    let app = TestApp::with_config(|cfg| {
        cfg.hall.phones_per_hour = 2;
        cfg.hall.texts_per_minute = 3;
    })
    .await;
    let mut statuses = Vec::new();
    for _ in 0..3 {
        let reply = app
            .request(from(post("/hall/phones", json!({})), [10, 0, 0, 1]))
            .await;
        statuses.push(reply.status);
    }
    assert_eq!(
        statuses,
        [
            StatusCode::OK,
            StatusCode::OK,
            StatusCode::TOO_MANY_REQUESTS
        ]
    );
    let other = app
        .request(from(post("/hall/phones", json!({})), [10, 0, 0, 2]))
        .await;
    assert_eq!(other.status, StatusCode::OK, "another address has its own");

    let (number, token) = open_phone(&app).await;
    let mut statuses = Vec::new();
    for i in 0..4 {
        let request = post(
            &format!("/hall/phones/{number}/texts"),
            json!({ "token": token, "id": format!("f{i}"), "to": GAME, "text": "H" }),
        );
        statuses.push(app.request(from(request, [10, 0, 0, 3])).await.status);
    }
    assert_eq!(statuses[3], StatusCode::TOO_MANY_REQUESTS, "{statuses:?}");
    assert!(
        statuses[..3].iter().all(|s| *s == StatusCode::OK),
        "{statuses:?}"
    );
}

fn from_ip(mut request: Request<Body>, ip: &str) -> Request<Body> {
    let ip: std::net::IpAddr = ip.parse().unwrap();
    request
        .extensions_mut()
        .insert(ConnectInfo(SocketAddr::from((ip, 40000))));
    request
}

fn forwarded_for(mut request: Request<Body>, client: &str) -> Request<Body> {
    request
        .headers_mut()
        .insert("x-forwarded-for", client.parse().unwrap());
    request
}

async fn open_phone_status(app: &TestApp, request: Request<Body>) -> StatusCode {
    app.request(request).await.status
}

#[tokio::test]
async fn an_ipv6_client_counts_per_64() {
    let app = TestApp::with_config(|cfg| cfg.hall.phones_per_hour = 1).await;
    let phone = || post("/hall/phones", json!({}));
    let mut statuses = Vec::new();
    for ip in ["2001:db8:1:2::1", "2001:db8:1:2:ffff::9", "2001:db8:1:3::1"] {
        statuses.push(open_phone_status(&app, from_ip(phone(), ip)).await);
    }
    assert_eq!(
        statuses,
        [
            StatusCode::OK,
            StatusCode::TOO_MANY_REQUESTS,
            StatusCode::OK
        ],
        "two addresses of one /64 share a budget; the next /64 has its own"
    );
}

#[tokio::test]
async fn behind_a_trusted_proxy_each_forwarded_client_has_its_own_budget_and_a_forged_header_changes_nothing()
 {
    let app = TestApp::with_config(|cfg| {
        cfg.hall.phones_per_hour = 1;
        cfg.http.trusted_proxies = "10.0.0.0/8".parse().unwrap();
    })
    .await;
    let phone = || post("/hall/phones", json!({}));
    let via_proxy = |client: &str| forwarded_for(from_ip(phone(), "10.0.0.5"), client);
    assert_eq!(
        open_phone_status(&app, via_proxy("192.0.2.1")).await,
        StatusCode::OK
    );
    assert_eq!(
        open_phone_status(&app, via_proxy("192.0.2.2")).await,
        StatusCode::OK,
        "another visitor behind the same proxy"
    );
    assert_eq!(
        open_phone_status(&app, via_proxy("192.0.2.1")).await,
        StatusCode::TOO_MANY_REQUESTS,
        "the first visitor again"
    );
    assert_eq!(
        open_phone_status(&app, via_proxy("198.51.100.9, 192.0.2.1")).await,
        StatusCode::TOO_MANY_REQUESTS,
        "a hop the visitor wrote himself, left of what the proxy saw, changes nothing"
    );

    let stranger = |client: &str| forwarded_for(from_ip(phone(), "198.51.100.7"), client);
    assert_eq!(
        open_phone_status(&app, stranger("192.0.2.3")).await,
        StatusCode::OK
    );
    assert_eq!(
        open_phone_status(&app, stranger("192.0.2.4")).await,
        StatusCode::TOO_MANY_REQUESTS,
        "an untrusted peer is counted as itself, whatever it forwards"
    );
}

/// Opens a phone's event stream from `ip`, the response kept open.
async fn watch(
    app: &TestApp,
    number: &str,
    token: &str,
    ip: &str,
    after: i64,
) -> axum::http::Response<Body> {
    watch_all(app, &[(number, token, after)], ip).await
}

/// Opens one stream of several phones from `ip`, the response kept open.
async fn watch_all(
    app: &TestApp,
    phones: &[(&str, &str, i64)],
    ip: &str,
) -> axum::http::Response<Body> {
    app.router
        .clone()
        .oneshot(from_ip(events_of(phones), ip))
        .await
        .unwrap()
}

/// The ids of the texts a stream carries until it ends.
async fn ids_until_the_end(response: axum::http::Response<Body>, within: Duration) -> Vec<i64> {
    let mut body = response.into_body();
    let mut seen = String::new();
    loop {
        let frame = tokio::time::timeout(within, body.frame())
            .await
            .expect("the stream ends within its lifetime");
        match frame {
            None => break,
            Some(frame) => {
                if let Ok(data) = frame.unwrap().into_data() {
                    seen.push_str(&String::from_utf8_lossy(&data));
                }
            }
        }
    }
    seen.lines()
        .filter_map(|l| l.strip_prefix("id: "))
        .map(|id| id.trim().parse().unwrap())
        .collect()
}

#[tokio::test]
async fn streams_are_capped_per_phone_and_per_client_and_a_refusal_says_why() {
    let app = TestApp::with_config(|cfg| {
        cfg.hall.streams_per_phone = 2;
        cfg.hall.streams_per_client = 3;
    })
    .await;
    let (one, one_token) = open_phone(&app).await;
    let (two, two_token) = open_phone(&app).await;
    let first = watch(&app, &one, &one_token, "192.0.2.1", 0).await;
    let second = watch(&app, &one, &one_token, "192.0.2.2", 0).await;
    assert_eq!(
        (first.status(), second.status()),
        (StatusCode::OK, StatusCode::OK)
    );

    let refused = watch(&app, &one, &one_token, "192.0.2.3", 0).await;
    assert_eq!(refused.status(), StatusCode::TOO_MANY_REQUESTS);
    assert_eq!(refused.headers()["retry-after"], "30");
    let why = refused.into_body().collect().await.unwrap().to_bytes();
    let why = String::from_utf8_lossy(&why);
    assert!(
        why.contains(&format!("the phone {one} already has 2 pages watching it")),
        "{why}"
    );

    let third = watch(&app, &two, &two_token, "192.0.2.1", 0).await;
    let fourth = watch(&app, &two, &two_token, "192.0.2.1", 0).await;
    assert_eq!(
        (third.status(), fourth.status()),
        (StatusCode::OK, StatusCode::OK)
    );
    let (three, three_token) = open_phone(&app).await;
    let refused = watch(&app, &three, &three_token, "192.0.2.1", 0).await;
    assert_eq!(
        refused.status(),
        StatusCode::TOO_MANY_REQUESTS,
        "192.0.2.1 already watches three: the client's cap"
    );
    let why = refused.into_body().collect().await.unwrap().to_bytes();
    let why = String::from_utf8_lossy(&why);
    assert!(why.contains("you already watch 3"), "{why}");
    let other = watch(&app, &three, &three_token, "192.0.2.2", 0).await;
    assert_eq!(other.status(), StatusCode::OK, "another client has its own");

    drop(first);
    assert_eq!(
        watch(&app, &three, &three_token, "192.0.2.1", 0)
            .await
            .status(),
        StatusCode::OK,
        "a stream that ended gives its places back"
    );
    drop((second, third, fourth, other));
}

#[tokio::test]
async fn a_stream_ends_after_its_lifetime_and_the_next_one_resumes_with_nothing_lost_or_twice() {
    let app = TestApp::with_config(|cfg| cfg.hall.stream_max_secs = 1).await;
    let (number, token) = open_phone(&app).await;
    let (status, _) = type_text(&app, &number, &token, "l1", GAME, "R lifer").await;
    assert_eq!(status, StatusCode::OK);
    app.one_text(&number).await;

    let started = std::time::Instant::now();
    let first = ids_until_the_end(
        watch(&app, &number, &token, "192.0.2.1", 0).await,
        Duration::from_secs(10),
    )
    .await;
    let lived = started.elapsed();
    assert!(
        lived >= Duration::from_millis(900) && lived < Duration::from_secs(5),
        "ended after {lived:?}"
    );
    assert_eq!(first.len(), 1, "the welcome: {first:?}");

    // While no page watches, the phone is texted; the page comes back from
    // the newest text it has, as its script does.
    type_text(&app, &number, &token, "l2", GAME, "H").await;
    assert!(!app.inbox(&number).await.is_empty(), "H is answered");
    let second = ids_until_the_end(
        watch(&app, &number, &token, "192.0.2.1", first[0]).await,
        Duration::from_secs(10),
    )
    .await;
    assert!(!second.is_empty(), "the text sent meanwhile is not lost");
    assert!(
        second.iter().all(|id| *id > first[0]),
        "nothing shown twice: {first:?} then {second:?}"
    );

    let third = ids_until_the_end(
        watch(&app, &number, &token, "192.0.2.1", *second.last().unwrap()).await,
        Duration::from_secs(10),
    )
    .await;
    assert!(third.is_empty(), "all was seen: {third:?}");
}

/// A virtual phone as a visitor holds it: its number, its token, and the
/// ids of the texts it typed.
struct Visitor {
    number: String,
    token: String,
    typed: std::sync::atomic::AtomicU32,
}

impl Visitor {
    /// A new virtual phone, registered as `nick`.
    async fn open(app: &TestApp, nick: &str) -> Visitor {
        let (number, token) = open_phone(app).await;
        let visitor = Visitor {
            number,
            token,
            typed: Default::default(),
        };
        visitor.types(app, &format!("R {nick}")).await;
        visitor
    }

    /// Types `text` to the game number; the hall must take it.
    async fn types(&self, app: &TestApp, text: &str) {
        let id = self
            .typed
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let (status, answer) = type_text(
            app,
            &self.number,
            &self.token,
            &format!("v{id}"),
            GAME,
            text,
        )
        .await;
        assert_eq!(status, StatusCode::OK, "{text:?}: {answer}");
    }
}

/// A phone over the per-phone flood limit hears, in the text's answer,
/// that it was not read and when its next one will be.
#[tokio::test]
async fn a_text_over_the_phones_limit_says_when_to_try_again() {
    let app = roomy_hall(|cfg| cfg.limits = Default::default()).await;
    let (number, token) = open_phone(&app).await;
    for i in 0..10 {
        let (status, answer) = type_text(&app, &number, &token, &format!("t{i}"), GAME, "H").await;
        assert_eq!(
            (status, &answer["status"]),
            (StatusCode::OK, &json!("accepted")),
            "{i}"
        );
        assert!(answer.get("retry_after_secs").is_none(), "{answer}");
    }
    let (status, answer) = type_text(&app, &number, &token, "over", GAME, "H").await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    assert_eq!(answer["status"], "rate_limited");
    assert_eq!(
        answer["retry_after_secs"], 1,
        "1.5 texts a second come back"
    );
    app.clock.advance(chrono::Duration::seconds(1));
    let (_, answer) = type_text(&app, &number, &token, "later", GAME, "H").await;
    assert_eq!(answer["status"], "accepted", "read once the wait is over");
}

async fn turn_of(app: &TestApp, number: &str, token: &str) -> Value {
    let reply = app
        .request(
            Request::get(format!("/hall/phones/{number}/turn?token={token}"))
                .body(Body::empty())
                .unwrap(),
        )
        .await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
    serde_json::from_str(&reply.body).unwrap()
}

/// Each phone's tab learns its language, its match, whether it must move
/// and the deadline, as the platform keeps them; and only with its token.
#[tokio::test]
async fn a_phones_turn_says_its_match_whose_move_and_the_deadline() {
    let app = roomy_hall(|_| {}).await;
    let (ann, ann_token) = open_phone(&app).await;
    let (bob, bob_token) = open_phone(&app).await;
    let fresh = turn_of(&app, &ann, &ann_token).await;
    assert_eq!(
        fresh,
        json!({ "lang": "RU", "langs": ["EN", "RU", "CYR"], "player": false, "nick": null, "match": null })
    );
    let reply = app
        .request(
            Request::get(format!("/hall/phones/{ann}/turn?token={bob_token}"))
                .body(Body::empty())
                .unwrap(),
        )
        .await;
    assert_eq!(reply.status, StatusCode::FORBIDDEN, "another phone's token");

    for (number, token, nick) in [(&ann, &ann_token, "ann"), (&bob, &bob_token, "bob")] {
        type_text(&app, number, token, "r", GAME, &format!("R {nick}")).await;
        type_text(&app, number, token, "p", PLAY, "P TR").await;
    }
    type_text(&app, &ann, &ann_token, "l", GAME, "LANG EN").await;
    let (first, second) = {
        let a = turn_of(&app, &ann, &ann_token).await;
        let b = turn_of(&app, &bob, &bob_token).await;
        assert_eq!(
            (&a["lang"], &a["player"], &a["nick"]),
            (&json!("EN"), &json!(true), &json!("ann"))
        );
        assert_eq!(a["match"]["name"], "Count to 21");
        assert_eq!(b["match"]["name"], "Schet do 21");
        assert_eq!(a["match"]["id"], b["match"]["id"], "one match");
        assert_ne!(a["match"]["to_move"], b["match"]["to_move"], "{a} {b}");
        assert_eq!(a["match"]["seconds_left"], 180, "the trial's deadline");
        if a["match"]["to_move"] == true {
            ((&ann, &ann_token), (&bob, &bob_token))
        } else {
            ((&bob, &bob_token), (&ann, &ann_token))
        }
    };
    app.clock.advance(chrono::Duration::seconds(60));
    let before = turn_of(&app, first.0, first.1).await;
    assert_eq!(before["match"]["seconds_left"], 120, "counting down");

    type_text(&app, first.0, first.1, "m", GAME, "1").await;
    let mover = turn_of(&app, first.0, first.1).await;
    let next = turn_of(&app, second.0, second.1).await;
    assert_eq!(mover["match"]["to_move"], false, "{mover}");
    assert_eq!(next["match"]["to_move"], true, "{next}");
    assert_eq!(
        next["match"]["seconds_left"], 180,
        "a new turn, a new deadline"
    );
}

/// A gateway whose hall opens phones and takes texts without a limit: the
/// limits have their own test.
async fn roomy_hall(adjust: impl FnOnce(&mut Config)) -> TestApp {
    TestApp::with_config(|cfg| {
        cfg.hall.phones_per_hour = 0;
        cfg.hall.texts_per_minute = 0;
        adjust(cfg);
    })
    .await
}

/// The phones seated in `phone`'s newest match.
async fn seated_with(app: &TestApp, phone: &str) -> Vec<String> {
    let (_, seats) = app.last_match(phone).await.expect("a match");
    seats
        .iter()
        .filter_map(|s| match &s.holder {
            Holder::Player(p) => Some(p.phone.clone()),
            Holder::Robot(_) => None,
        })
        .collect()
}

/// Each of `visitors` resigns until `visitor`'s match is over.
async fn resign_all(app: &TestApp, visitor: &Visitor, visitors: &[&Visitor]) {
    for other in visitors {
        if app.match_state(&visitor.number).await.is_none() {
            return;
        }
        other.types(app, "Q").await;
    }
    assert!(
        app.match_state(&visitor.number).await.is_none(),
        "everyone resigned: the match is over"
    );
}

/// Under the default settings a web visitor never makes a real phone get an
/// SMS: real phones wait in every game's lobby (and in the one `P AR 3 BOT 1
/// L1` takes players from); a hall phone plays every game with other hall
/// phones and robots, asks for rematches and tries `S` to a real player.
/// From its first text on, not one text goes to a real number.
#[tokio::test]
async fn a_hall_phone_plays_every_game_and_no_real_phone_hears_of_it() {
    let app = roomy_hall(|_| {}).await;
    let games: Vec<(String, usize)> = app
        .state
        .platform()
        .catalog()
        .games()
        .map(|g| {
            let options = g.options("").expect("every game has default options");
            (g.code().to_string(), options.lineup.phones_needed())
        })
        .collect();
    let mut real = Vec::new();
    for (code, needed) in &games {
        for _ in 1..*needed {
            let phone = format!("+7900100{:04}", real.len());
            app.register(&[(&phone, &format!("real{}", real.len()))])
                .await;
            app.sms(&phone, &format!("P {code}")).await;
            real.push(phone);
        }
    }
    let racer = format!("+7900100{:04}", real.len());
    app.register(&[(&racer, "realracer")]).await;
    app.sms(&racer, "P AR 3 L1").await;
    real.push(racer);
    let mut heard = Vec::new();
    for phone in &real {
        assert!(app.match_state(phone).await.is_none(), "{phone} waits");
        heard.push(app.texts_to(phone).await.len());
    }
    assert_eq!(app.count("lobby").await, real.len() as i64);

    let visitor = Visitor::open(&app, "visitor").await;
    let mut helpers = 0;
    for (code, needed) in &games {
        visitor.types(&app, &format!("P {code}")).await;
        let mut table = vec![&visitor];
        let mut others = Vec::new();
        for _ in 1..*needed {
            helpers += 1;
            others.push(Visitor::open(&app, &format!("hall{helpers}")).await);
        }
        for other in &others {
            other.types(&app, &format!("P {code}")).await;
        }
        table.extend(others.iter());
        assert!(
            app.match_state(&visitor.number).await.is_some(),
            "{code}: the hall's phones are matched with each other"
        );
        let seated = seated_with(&app, &visitor.number).await;
        assert!(
            seated.iter().all(|p| smsarena::phone::is_virtual(p)),
            "{code}: only hall phones at the table: {seated:?}"
        );
        resign_all(&app, &visitor, &table).await;
        // A rematch request tells the others of the match: hall phones only.
        visitor.types(&app, "PA").await;
    }
    // Robots race on once he retires, so another visitor asks for this one.
    let racer = Visitor::open(&app, "webracer").await;
    racer.types(&app, "P AR 3 BOT 1 L1").await;
    let seated = seated_with(&app, &racer.number).await;
    assert_eq!(
        seated,
        [racer.number.as_str()],
        "robots take the seats, not the real phone waiting for that race"
    );
    app.inbox(&visitor.number).await;
    visitor.types(&app, "S real0 hi from the web").await;
    assert_eq!(
        app.one_text(&visitor.number).await,
        texts::message_across_the_hall(Lang::Ru)
    );

    for (phone, before) in real.iter().zip(heard) {
        let texts = app.texts_to(phone).await;
        assert_eq!(
            texts.len(),
            before,
            "{phone} got texts a hall phone caused: {:?}",
            &texts[before..]
        );
        assert!(
            app.match_state(phone).await.is_none(),
            "{phone} still waits"
        );
    }
}

/// With `hall.meet_real_players` on, a hall phone and a real one are
/// matched in one lobby, and `S` passes between them.
#[tokio::test]
async fn with_meet_real_players_on_the_hall_meets_real_phones() {
    let app = roomy_hall(|cfg| cfg.hall.meet_real_players = true).await;
    const REAL: &str = "+79001000001";
    app.register(&[(REAL, "realone")]).await;
    app.sms(REAL, "P PS").await;
    app.inbox(REAL).await;
    let visitor = Visitor::open(&app, "visitor").await;
    visitor.types(&app, "P PS").await;
    let mut seated = seated_with(&app, REAL).await;
    seated.sort();
    assert_eq!(seated, [REAL.to_string(), visitor.number.clone()]);
    assert!(
        !app.inbox(REAL).await.is_empty(),
        "the real phone is told of the match"
    );
    visitor.types(&app, "Q").await;
    app.inbox(REAL).await;
    visitor.types(&app, "S realone hi from the web").await;
    assert_eq!(app.one_text(REAL).await, "visitor: hi from the web");
}

/// A match of a hall phone and a real one, played while the setting let
/// them meet, is not played again nor messaged across once it is off.
#[tokio::test]
async fn a_mixed_match_from_before_the_setting_went_off_stays_apart() {
    let app = roomy_hall(|cfg| cfg.hall.meet_real_players = true).await;
    const REAL: &str = "+79001000001";
    app.register(&[(REAL, "realone")]).await;
    app.sms(REAL, "P PS").await;
    let visitor = Visitor::open(&app, "visitor").await;
    visitor.types(&app, "P PS").await;
    visitor.types(&app, "Q").await;
    assert!(app.match_state(REAL).await.is_none(), "the match is over");

    let app = app
        .restart_with(|cfg| cfg.hall.meet_real_players = false)
        .await;
    let before = app.texts_to(REAL).await.len();
    app.inbox(&visitor.number).await;
    visitor.types(&app, "PA").await;
    assert_eq!(
        app.one_text(&visitor.number).await,
        texts::rematch_closed(
            Lang::Ru,
            Numbers {
                play: PLAY,
                game: GAME
            }
        )
    );
    visitor.types(&app, "S realone hi").await;
    assert_eq!(
        app.one_text(&visitor.number).await,
        texts::message_across_the_hall(Lang::Ru)
    );
    app.sms(REAL, "PA").await;
    assert_eq!(app.matches().await, 1, "no rematch across the hall");
    let texts = app.texts_to(REAL).await;
    assert_eq!(
        texts.len(),
        before + 1,
        "only the real phone's own answer: {:?}",
        &texts[before..]
    );
}

/// The events of a stream until `count` texts came, each as
/// (phone, id); the stream is left open.
async fn texts_of(response: axum::http::Response<Body>, count: usize) -> Vec<(String, i64)> {
    assert_eq!(response.status(), StatusCode::OK);
    let mut body = response.into_body();
    let mut seen = String::new();
    let mut texts = Vec::new();
    while texts.len() < count {
        let frame = tokio::time::timeout(Duration::from_secs(10), body.frame())
            .await
            .unwrap_or_else(|_| panic!("{count} texts within 10 s, got {texts:?}"))
            .expect("the stream goes on")
            .unwrap();
        if let Ok(data) = frame.into_data() {
            seen.push_str(&String::from_utf8_lossy(&data));
        }
        while let Some(end) = seen.find("\n\n") {
            let block: String = seen.drain(..end + 2).collect();
            if let Some(data) = block.lines().find_map(|l| l.strip_prefix("data: ")) {
                let text: Value = serde_json::from_str(data).unwrap();
                texts.push((
                    text["phone"].as_str().unwrap().to_string(),
                    text["id"].as_i64().unwrap(),
                ));
            }
        }
    }
    texts
}

#[tokio::test]
async fn one_stream_carries_every_phone_each_event_naming_its_phone_from_its_own_cursor() {
    let app = TestApp::new().await;
    let mut phones = Vec::new();
    for i in 0..3 {
        let (number, token) = open_phone(&app).await;
        let (status, _) = type_text(&app, &number, &token, "a", GAME, &format!("R many{i}")).await;
        assert_eq!(status, StatusCode::OK);
        app.one_text(&number).await;
        phones.push((number, token));
    }
    let first = texts_of(
        watch_all(
            &app,
            &phones
                .iter()
                .map(|(n, t)| (n.as_str(), t.as_str(), 0))
                .collect::<Vec<_>>(),
            "192.0.2.1",
        )
        .await,
        3,
    )
    .await;
    let named: std::collections::BTreeSet<&str> = first.iter().map(|(p, _)| p.as_str()).collect();
    assert_eq!(named.len(), 3, "each phone's welcome, named: {first:?}");

    // The second phone texts again; the next stream goes on from each
    // phone's own newest text: only the new one comes, to its phone.
    let (two, two_token) = &phones[1];
    type_text(&app, two, two_token, "b", GAME, "H").await;
    assert!(!app.inbox(two).await.is_empty(), "H is answered");
    let cursors: Vec<(&str, &str, i64)> = phones
        .iter()
        .map(|(n, t)| {
            let newest = first.iter().find(|(p, _)| p == n).unwrap().1;
            (n.as_str(), t.as_str(), newest)
        })
        .collect();
    let response = watch_all(&app, &cursors, "192.0.2.1").await;
    let next = texts_of(response, 1).await;
    assert_eq!(next[0].0, *two, "the new text names its phone");
    assert!(
        first.iter().all(|(_, id)| *id != next[0].1),
        "nothing shown twice: {first:?} then {next:?}"
    );
}

#[tokio::test]
async fn a_stream_of_several_phones_takes_a_place_for_each_and_a_bad_request_is_told() {
    let app = TestApp::with_config(|cfg| {
        cfg.hall.streams_per_phone = 1;
        cfg.hall.streams_per_client = 3;
    })
    .await;
    let mut phones = Vec::new();
    for _ in 0..4 {
        phones.push(open_phone(&app).await);
    }
    let named = |range: std::ops::Range<usize>| -> Vec<(&str, &str, i64)> {
        phones[range]
            .iter()
            .map(|(n, t)| (n.as_str(), t.as_str(), 0))
            .collect()
    };
    let three = watch_all(&app, &named(0..3), "192.0.2.1").await;
    assert_eq!(three.status(), StatusCode::OK);
    let refused = watch_all(&app, &named(3..4), "192.0.2.1").await;
    assert_eq!(
        refused.status(),
        StatusCode::TOO_MANY_REQUESTS,
        "three phones watched: the client's three places are taken"
    );
    let refused = watch_all(&app, &named(2..4), "192.0.2.2").await;
    assert_eq!(refused.status(), StatusCode::TOO_MANY_REQUESTS);
    let why = refused.into_body().collect().await.unwrap().to_bytes();
    assert!(
        String::from_utf8_lossy(&why).contains(&phones[2].0),
        "the phone at its cap is named"
    );
    assert_eq!(
        watch_all(&app, &named(3..4), "192.0.2.2").await.status(),
        StatusCode::OK,
        "the refused stream kept none of its places"
    );
    drop(three);
    assert_eq!(
        watch_all(&app, &named(0..3), "192.0.2.1").await.status(),
        StatusCode::OK,
        "an ended stream gave back every place it took"
    );

    for body in [
        json!({ "phones": [] }),
        json!({ "phones": vec![json!({"number": phones[0].0, "token": phones[0].1}); 65] }),
        json!({ "phones": "all" }),
    ] {
        let reply = app.request(post("/hall/events", body)).await;
        assert_eq!(reply.status, StatusCode::BAD_REQUEST, "{}", reply.body);
    }
}

#[tokio::test]
async fn a_browsers_next_stream_takes_its_last_ones_places_and_ends_it() {
    let app = TestApp::with_config(|cfg| cfg.hall.streams_per_phone = 1).await;
    let (one, one_token) = open_phone(&app).await;
    let (two, two_token) = open_phone(&app).await;
    let stream = |phones: Vec<(&str, &str)>, browser: &str| {
        let phones: Vec<Value> = phones
            .iter()
            .map(|(n, t)| json!({ "number": n, "token": t }))
            .collect();
        from_ip(
            post(
                "/hall/events",
                json!({ "phones": phones, "browser": browser }),
            ),
            "192.0.2.1",
        )
    };
    let first = app
        .router
        .clone()
        .oneshot(stream(vec![(&one, &one_token)], "worker-1"))
        .await
        .unwrap();
    assert_eq!(first.status(), StatusCode::OK);
    // The page made a second phone: its worker asks for both at once,
    // before the server has seen the first stream's connection close.
    let second = app
        .router
        .clone()
        .oneshot(stream(
            vec![(&one, &one_token), (&two, &two_token)],
            "worker-1",
        ))
        .await
        .unwrap();
    assert_eq!(
        second.status(),
        StatusCode::OK,
        "the first's place is taken over"
    );
    let ended = ids_until_the_end(first, Duration::from_secs(5)).await;
    assert!(ended.is_empty(), "the first stream ended: {ended:?}");
    let other = app
        .router
        .clone()
        .oneshot(stream(vec![(&one, &one_token)], "worker-2"))
        .await
        .unwrap();
    assert_eq!(
        other.status(),
        StatusCode::TOO_MANY_REQUESTS,
        "another browser's stream takes no one's places"
    );
    let reply = app
        .request(post(
            "/hall/events",
            json!({ "phones": [{ "number": one, "token": one_token }], "browser": "no spaces" }),
        ))
        .await;
    assert_eq!(reply.status, StatusCode::BAD_REQUEST, "{}", reply.body);
    drop(second);
}

/// The phone's drawn board as the page asks for it, with the phone's token.
async fn board(app: &TestApp, number: &str, token: Option<&str>) -> common::Reply {
    let mut request = Request::get(format!("/hall/phones/{number}/board"));
    if let Some(token) = token {
        request = request.header("x-hall-token", token);
    }
    app.request(request.body(Body::empty()).unwrap()).await
}

/// What the game itself draws of the phone's newest match, for its seat.
async fn drawn_by_the_game(app: &TestApp, number: &str) -> String {
    let key = number.to_string();
    let (record, seat) = app
        .state
        .store()
        .read(move |r| {
            let player = r.player_by_phone(&key)?.expect("a player");
            let record = r.last_match_of(player.id)?.expect("a match");
            let seat = r.seats(record.id)?.iter().position(|s| s.is(player.id));
            Ok((record, seat.expect("seated")))
        })
        .await
        .unwrap();
    let catalog = app.state.platform().catalog();
    let game = catalog.get(&record.game).expect("a game of the catalogue");
    let played = game.load(&record.state).expect("a stored state loads");
    played.picture(seat).expect("every game draws its board")
}

#[tokio::test]
async fn the_drawn_board_is_the_phones_match_as_the_game_draws_it_and_inert() {
    let app = TestApp::new().await;
    let (number, token) = open_phone(&app).await;
    let (other, other_token) = open_phone(&app).await;
    assert_eq!(
        board(&app, &number, None).await.status,
        StatusCode::FORBIDDEN
    );
    assert_eq!(
        board(&app, &number, Some(&other_token)).await.status,
        StatusCode::FORBIDDEN,
        "another phone's token shows nothing"
    );
    assert_eq!(
        board(&app, &number, Some(&token)).await.status,
        StatusCode::NOT_FOUND,
        "no match yet"
    );
    assert_eq!(
        board(&app, &other, Some(&other_token)).await.status,
        StatusCode::NOT_FOUND
    );

    type_text(&app, &number, &token, "b1", GAME, "R drawn").await;
    let practice = {
        let catalog = app.state.platform().catalog();
        let ps = catalog.get("PS").expect("paper soccer");
        format!("P PS {}", ps.practice(1))
    };
    let (status, _) = type_text(&app, &number, &token, "b2", PLAY, &practice).await;
    assert_eq!(status, StatusCode::OK);
    let reply = board(&app, &number, Some(&token)).await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
    assert_eq!(
        reply.headers["content-type"],
        "image/svg+xml; charset=utf-8"
    );
    assert_eq!(
        reply.headers["content-security-policy"],
        "default-src 'none'; frame-ancestors 'none'"
    );
    assert_eq!(reply.headers["x-content-type-options"], "nosniff");
    assert_eq!(reply.headers["cache-control"], "no-store");
    let svg = roxmltree::Document::parse(&reply.body).expect("well-formed SVG");
    assert_eq!(svg.root_element().tag_name().name(), "svg");
    assert!(
        !svg.descendants().any(|n| n.has_tag_name("script")),
        "nothing to run"
    );
    assert_eq!(reply.body, drawn_by_the_game(&app, &number).await);

    // A move later, the picture is the new state's.
    let before = reply.body;
    for (i, step) in ["8", "2", "4", "6"].into_iter().enumerate() {
        type_text(&app, &number, &token, &format!("m{i}"), GAME, step).await;
    }
    let after = board(&app, &number, Some(&token)).await.body;
    assert_ne!(after, before, "a move or the robot's answer moved the ball");
    assert_eq!(after, drawn_by_the_game(&app, &number).await);
}
