//! The operator's console over HTTP: its refusals (401 without the admin
//! token, in pages and JSON; 404 while it is off), the login cookie's
//! flags, live counts, a player found by nick or number with his number
//! masked, a match's replay, parked texts retried and dropped, and an audit
//! row for every action that survives a restart. On PostgreSQL, two
//! instances on one database show the same counts.

mod common;

use std::net::SocketAddr;
use std::sync::Arc;

use axum::body::Body;
use axum::extract::ConnectInfo;
use axum::http::{Request, StatusCode};
use chrono::Utc;
use common::{GAME, PLAY, TestApp};
use serde_json::Value;

const TOKEN: &str = "an-admin-token-long-enough";
const ANN: &str = "+79001230001";
const BEA: &str = "+79001230002";

fn get(path: &str, auth: Option<&str>) -> Request<Body> {
    get_from(path, auth, "198.51.100.20")
}

/// A request from `ip`: the admin limit counts refusals per address.
fn get_from(path: &str, auth: Option<&str>, ip: &str) -> Request<Body> {
    let mut request = Request::get(path);
    if let Some(auth) = auth {
        request = if auth.starts_with("smsarena_console=") {
            request.header("cookie", auth)
        } else {
            request.header("authorization", format!("Bearer {auth}"))
        };
    }
    let mut request = request.body(Body::empty()).unwrap();
    let addr: SocketAddr = format!("{ip}:40000").parse().unwrap();
    request.extensions_mut().insert(ConnectInfo(addr));
    request
}

fn post(path: &str, auth: &str) -> Request<Body> {
    let mut request = Request::post(path)
        .header("authorization", format!("Bearer {auth}"))
        .body(Body::empty())
        .unwrap();
    let addr: SocketAddr = "198.51.100.20:40000".parse().unwrap();
    request.extensions_mut().insert(ConnectInfo(addr));
    request
}

async fn console() -> TestApp {
    TestApp::with_config(|cfg| cfg.admin.token = TOKEN.into()).await
}

/// Two registered players in a match of the trial game, each having texted.
async fn two_players(app: &TestApp) {
    app.register(&[(ANN, "ann"), (BEA, "bea")]).await;
    app.sms_to(ANN, PLAY, "P TR").await;
    app.sms_to(BEA, PLAY, "P TR").await;
}

async fn json(app: &TestApp, path: &str) -> Value {
    let reply = app.request(get(path, Some(TOKEN))).await;
    assert_eq!(reply.status, StatusCode::OK, "{path}: {}", reply.body);
    serde_json::from_str(&reply.body).unwrap()
}

#[tokio::test]
async fn without_the_token_every_page_and_its_json_is_refused_and_shows_nothing() {
    let app = console().await;
    two_players(&app).await;
    let paths = [
        "/console",
        "/console/players?q=ann",
        "/console/players/1",
        "/console/matches/1",
        "/console/parked",
        "/console/audit",
        "/console/api/summary",
        "/console/api/players?q=ann",
        "/console/api/players/1",
        "/console/api/matches/1",
        "/console/api/parked",
        "/console/api/audit",
    ];
    for (i, path) in paths.iter().enumerate() {
        for auth in [
            None,
            Some("a-wrong-token-of-some-length"),
            Some("smsarena_console=ann.9999999999.00"),
        ] {
            let reply = app
                .request(get_from(path, auth, &format!("203.0.113.{i}")))
                .await;
            assert_eq!(reply.status, StatusCode::UNAUTHORIZED, "{path} {auth:?}");
            assert!(
                !reply.body.contains("79001230001") && !reply.body.contains("P TR"),
                "{path} shows a number or a text: {}",
                reply.body
            );
        }
    }
    let page = app.request(get("/console", None)).await;
    assert!(
        page.body.contains("action=\"/console/login\""),
        "{}",
        page.body
    );
    // Retrying or dropping without the token changes nothing either.
    let reply = app
        .request(post("/console/api/parked/1/retry", "nope"))
        .await;
    assert_eq!(reply.status, StatusCode::UNAUTHORIZED);

    let off = TestApp::new().await;
    for path in ["/console", "/console/login", "/console/api/summary"] {
        assert_eq!(
            off.request(get(path, Some(TOKEN))).await.status,
            StatusCode::NOT_FOUND,
            "{path}"
        );
    }
}

#[tokio::test]
async fn logging_in_sets_a_strict_cookie_that_opens_the_console() {
    let app = console().await;
    let login = |body: &str| {
        let mut request = Request::post("/console/login")
            .header("content-type", "application/x-www-form-urlencoded")
            .body(Body::from(body.to_string()))
            .unwrap();
        let addr: SocketAddr = "198.51.100.21:40000".parse().unwrap();
        request.extensions_mut().insert(ConnectInfo(addr));
        request
    };
    let wrong = app.request(login("name=anna&token=not-the-token")).await;
    assert_eq!(wrong.status, StatusCode::UNAUTHORIZED);
    assert!(wrong.headers.get("set-cookie").is_none());

    let right = app
        .request(login(&format!("name=anna&token={TOKEN}")))
        .await;
    assert_eq!(right.status, StatusCode::SEE_OTHER, "{}", right.body);
    let cookie = right.headers["set-cookie"].to_str().unwrap().to_string();
    for flag in ["HttpOnly", "Secure", "SameSite=Strict", "Path=/console"] {
        assert!(cookie.contains(flag), "{cookie}");
    }
    assert!(
        !cookie.contains(TOKEN),
        "the cookie carries the token: {cookie}"
    );
    let session = cookie.split(';').next().unwrap();
    let page = app.request(get("/console", Some(session))).await;
    assert_eq!(page.status, StatusCode::OK, "{}", page.body);
    assert!(page.body.contains("anna"), "{}", page.body);
    let audit = json(&app, "/console/api/audit").await;
    assert_eq!(audit[0]["action"], "login");
    assert_eq!(audit[0]["actor"], "anna");
    assert_eq!(audit[0]["address"], "198.51.100.21");
}

#[tokio::test]
async fn counts_players_and_a_match_replay_read_what_the_database_holds() {
    let app = console().await;
    two_players(&app).await;
    let summary = json(&app, "/console/api/summary").await;
    assert_eq!(summary["players"], 2);
    let running: Vec<(String, i64)> = serde_json::from_value(summary["running"].clone()).unwrap();
    assert!(running.contains(&("TR".to_string(), 1)), "{running:?}");
    assert!(running.contains(&("FB".to_string(), 0)), "{running:?}");
    let minutes = summary["inbound_per_minute"].as_array().unwrap();
    assert_eq!(minutes.len(), 60);
    assert_eq!(
        minutes.last().unwrap(),
        4,
        "four texts this minute: {summary}"
    );

    // By nick and by digits of the number; the number masked.
    let by_nick = json(&app, "/console/api/players?q=AN").await;
    assert_eq!(by_nick.as_array().unwrap().len(), 1, "{by_nick}");
    assert_eq!(by_nick[0]["nick"], "ann");
    assert!(
        !by_nick[0]["phone"].as_str().unwrap().contains("1230001"),
        "{by_nick}"
    );
    let by_number = json(&app, "/console/api/players?q=1230002").await;
    assert_eq!(by_number[0]["nick"], "bea");
    let id = by_nick[0]["id"].as_i64().unwrap();
    let match_id = by_nick[0]["current_match"].as_i64().expect("in a match");

    let detail = json(&app, &format!("/console/api/players/{id}")).await;
    assert_eq!(detail["player"]["status"], "in a match");
    assert!(
        detail["texts_in"]
            .as_array()
            .unwrap()
            .iter()
            .any(|t| t["text"] == "P TR")
    );
    assert!(
        !detail["player"]["phone"]
            .as_str()
            .unwrap()
            .contains("1230001")
    );
    let whole = json(&app, &format!("/console/api/players/{id}?numbers=full")).await;
    assert_eq!(whole["player"]["phone"], ANN);
    let audit = json(&app, "/console/api/audit").await;
    let actions: Vec<&str> = audit
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["action"].as_str().unwrap())
        .collect();
    assert_eq!(actions, ["show numbers", "look at texts"]);

    // The replay's last step is the board the player was last texted.
    app.sms_to(ANN, GAME, "1").await;
    let m = json(&app, &format!("/console/api/matches/{match_id}?seat=0")).await;
    let steps = m["replay"]["steps"].as_u64().unwrap();
    assert!(steps >= 1, "{m}");
    assert_eq!(m["replay"]["step"], steps);
    let board = m["replay"]["board"].as_str().unwrap().to_string();
    let last = app.texts_to(ANN).await.last().unwrap().body.clone();
    assert!(
        last.contains(&board),
        "the last text {last:?} holds the board {board:?}"
    );
    let first = json(&app, &format!("/console/api/matches/{match_id}?step=0")).await;
    assert_eq!(first["replay"]["step"], 0);
    assert!(first["replay"]["played"].is_null());
    let missing = app
        .request(get("/console/api/matches/999", Some(TOKEN)))
        .await;
    assert_eq!(missing.status, StatusCode::NOT_FOUND);
}

/// Parks a text to `to` as the dispatcher would after its last attempt.
async fn park(app: &TestApp, to: &str) -> i64 {
    let to = to.to_string();
    app.state
        .store()
        .run(move |tx| {
            let text = smsarena::platform::compose_text(GAME, &to, "a board".into(), true);
            tx.outbox().enqueue(text, Utc::now())?;
            let id = tx.outbox().pending()?.last().unwrap().0.id;
            tx.outbox()
                .mark_failed(id, 5, "HTTP 400: no such number", Utc::now())?;
            Ok(id)
        })
        .await
        .unwrap()
}

#[tokio::test]
async fn parked_texts_are_retried_and_dropped_and_every_action_is_audited_for_good() {
    let app = console().await;
    let first = park(&app, ANN).await;
    let second = park(&app, BEA).await;
    let parked = json(&app, "/console/api/parked").await;
    assert_eq!(parked.as_array().unwrap().len(), 2, "{parked}");
    assert_eq!(parked[0]["last_error"], "HTTP 400: no such number");
    assert_eq!(json(&app, "/console/api/summary").await["parked"], 2);

    let retried = app
        .request(post(&format!("/console/api/parked/{first}/retry"), TOKEN))
        .await;
    assert_eq!(retried.status, StatusCode::OK, "{}", retried.body);
    let dropped = app
        .request(post(&format!("/console/api/parked/{second}/drop"), TOKEN))
        .await;
    assert_eq!(dropped.status, StatusCode::OK, "{}", dropped.body);
    // Not parked any more: a second try is refused and not audited.
    let again = app
        .request(post(&format!("/console/api/parked/{second}/drop"), TOKEN))
        .await;
    assert_eq!(again.status, StatusCode::CONFLICT);
    let unknown = app
        .request(post(&format!("/console/api/parked/{first}/burn"), TOKEN))
        .await;
    assert_eq!(unknown.status, StatusCode::NOT_FOUND);

    let statuses: Vec<String> = [ANN, BEA].iter().map(|p| p.to_string()).collect::<Vec<_>>();
    let mut now = Vec::new();
    for phone in statuses {
        now.push(app.texts_to(&phone).await.last().unwrap().status.as_str());
    }
    assert_eq!(now, ["queued", "cancelled"]);
    assert_eq!(
        json(&app, "/console/api/parked")
            .await
            .as_array()
            .unwrap()
            .len(),
        0
    );

    let app = app.restart().await;
    let audit = json(&app, "/console/api/audit").await;
    let rows: Vec<(String, String, String)> = audit
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            (
                e["actor"].as_str().unwrap().to_string(),
                e["action"].as_str().unwrap().to_string(),
                e["target"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    assert_eq!(
        rows,
        [
            (
                "bearer".to_string(),
                "drop".to_string(),
                format!("text #{second}")
            ),
            (
                "bearer".to_string(),
                "retry".to_string(),
                format!("text #{first}")
            ),
        ]
    );
    assert_eq!(audit[0]["address"], "198.51.100.20");
    let page = app.request(get("/console/audit", Some(TOKEN))).await;
    assert!(
        page.body.contains(&format!("text #{first}")),
        "{}",
        page.body
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_instances_on_one_postgresql_database_show_the_same_counts() {
    let Some(admin) = common::postgres_admin_url().await else {
        return;
    };
    let url = common::fresh_postgres_database(&admin).await;
    let mut cfg = smsarena::config::Config::default();
    cfg.database.url = url;
    cfg.admin.token = TOKEN.into();
    cfg.limits.phone_per_minute = 0;
    let cfg = Arc::new(cfg);
    let mut gateways = Vec::new();
    for _ in 0..2 {
        let provider = smsarena::providers::Provider::from_config(&cfg).unwrap();
        let catalog = smsarena::platform::catalog::Catalog::new(&cfg);
        let clock = Arc::new(smsarena::clock::SystemClock);
        gateways.push(
            smsarena::gateway::Gateway::open(cfg.clone(), clock, provider, catalog)
                .await
                .unwrap()
                .router(),
        );
    }
    // Texts to both instances, alternately.
    for (i, (from, text)) in [(ANN, "R ann"), (BEA, "R bea"), (ANN, "P PS"), (BEA, "P PS")]
        .iter()
        .enumerate()
    {
        let to = if text.starts_with('P') { PLAY } else { GAME };
        let request = common::sms_request(&format!("c{i}"), from, to, text);
        let router = gateways[i % 2].clone();
        let reply = tower::ServiceExt::oneshot(router, request).await.unwrap();
        assert_eq!(reply.status(), StatusCode::OK);
    }
    let mut seen = Vec::new();
    for router in &gateways {
        let reply =
            tower::ServiceExt::oneshot(router.clone(), get("/console/api/summary", Some(TOKEN)))
                .await
                .unwrap();
        let body = http_body_util::BodyExt::collect(reply.into_body())
            .await
            .unwrap()
            .to_bytes();
        let mut summary: Value = serde_json::from_slice(&body).unwrap();
        summary
            .as_object_mut()
            .unwrap()
            .remove("oldest_waiting_secs");
        seen.push(summary);
    }
    assert_eq!(seen[0], seen[1]);
    assert_eq!(seen[0]["players"], 2);
    let running: Vec<(String, i64)> = serde_json::from_value(seen[0]["running"].clone()).unwrap();
    assert!(running.contains(&("PS".to_string(), 1)), "{running:?}");
}
