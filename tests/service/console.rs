//! The operator's console over HTTP: its refusals (401 without the admin
//! token, in pages and JSON; 404 while it is off; 403 for an action from
//! another origin, 415 for an API call that is not JSON), the login
//! cookie's flags, a logout that ends the session on the server, the right
//! token let in after a stranger's wrong ones, live counts, a player found
//! by nick or whole number (never by digits of one) with his number masked
//! and the search audited, a match's replay, parked texts retried and
//! dropped, and an audit row for every action that survives a restart. On
//! PostgreSQL, two instances on one database show the same counts.

use crate::common;

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

/// The console's own origin in these tests (`http.public_url`).
const OWN: &str = "https://sms.example.com";

/// A script's API call: the bearer token, JSON.
fn post(path: &str, auth: &str) -> Request<Body> {
    let mut request = Request::post(path)
        .header("authorization", format!("Bearer {auth}"))
        .header("content-type", "application/json")
        .body(Body::empty())
        .unwrap();
    let addr: SocketAddr = "198.51.100.20:40000".parse().unwrap();
    request.extensions_mut().insert(ConnectInfo(addr));
    request
}

/// A browser's POST with a session cookie, from `origin` (none: no
/// `Origin` header), of `content_type` when given.
fn browser_post(
    path: &str,
    cookie: &str,
    origin: Option<&str>,
    content_type: Option<&str>,
) -> Request<Body> {
    let mut request = Request::post(path).header("cookie", cookie);
    if let Some(origin) = origin {
        request = request.header("origin", origin);
    }
    if let Some(kind) = content_type {
        request = request.header("content-type", kind);
    }
    let mut request = request.body(Body::from("{}")).unwrap();
    let addr: SocketAddr = "198.51.100.20:40000".parse().unwrap();
    request.extensions_mut().insert(ConnectInfo(addr));
    request
}

/// The login form posted from the console's own page, from `ip`.
fn login_from(body: &str, ip: &str) -> Request<Body> {
    let mut request = Request::post("/console/login")
        .header("content-type", "application/x-www-form-urlencoded")
        .header("origin", OWN)
        .body(Body::from(body.to_string()))
        .unwrap();
    let addr: SocketAddr = format!("{ip}:40000").parse().unwrap();
    request.extensions_mut().insert(ConnectInfo(addr));
    request
}

/// Logs `name` in; the session cookie as a `Cookie` header's value.
async fn log_in(app: &TestApp, name: &str) -> String {
    let reply = app
        .request(login_from(
            &format!("name={name}&token={TOKEN}"),
            "198.51.100.21",
        ))
        .await;
    assert_eq!(reply.status, StatusCode::SEE_OTHER, "{}", reply.body);
    let cookie = reply.headers["set-cookie"].to_str().unwrap();
    cookie.split(';').next().unwrap().to_string()
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
    let login = |body: &str| login_from(body, "198.51.100.21");
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

    // By nick and by the whole number in another spelling; the number masked.
    let by_nick = json(&app, "/console/api/players?q=AN").await;
    assert_eq!(by_nick.as_array().unwrap().len(), 1, "{by_nick}");
    assert_eq!(by_nick[0]["nick"], "ann");
    assert!(
        !by_nick[0]["phone"].as_str().unwrap().contains("1230001"),
        "{by_nick}"
    );
    let by_number = json(&app, "/console/api/players?q=8%20900%20123-00-02").await;
    assert_eq!(by_number.as_array().unwrap().len(), 1, "{by_number}");
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
    assert_eq!(
        actions,
        ["show numbers", "look at texts", "search", "search"]
    );

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
    // The page numbers seats from 1, as the public pages do; the link's
    // `seat=` stays the game's own index.
    let page = app
        .request(get(&format!("/console/matches/{match_id}"), Some(TOKEN)))
        .await;
    assert_eq!(page.status, StatusCode::OK);
    let mut labels: Vec<&str> = ["ann", "bea"]
        .iter()
        .map(|nick| {
            let end = page.body.find(&format!(" {nick}</option>")).expect(nick);
            &page.body[end - 1..end]
        })
        .collect();
    labels.sort();
    assert_eq!(labels, ["1", "2"], "{}", page.body);
    assert!(page.body.contains("<td>1</td>"), "{}", page.body);
    assert!(!page.body.contains("<td>0</td>"), "{}", page.body);
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

/// The audit's rows as (actor, action, target).
async fn audit_rows(app: &TestApp) -> Vec<(String, String, String)> {
    json(app, "/console/api/audit")
        .await
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            let field = |k: &str| e[k].as_str().unwrap().to_string();
            (field("actor"), field("action"), field("target"))
        })
        .collect()
}

#[tokio::test]
async fn a_forged_action_from_another_origin_changes_nothing_and_writes_no_audit_row() {
    let app = console().await;
    let text = park(&app, ANN).await;
    let session = log_in(&app, "anna").await;
    let drop = format!("/console/parked/{text}/drop");
    let api_drop = format!("/console/api/parked/{text}/drop");
    // Another port of the same host, a sibling subdomain, a page that
    // hides its origin, and no origin at all: the same site to SameSite.
    for origin in [
        Some("https://sms.example.com:8443"),
        Some("https://hall.sms.example.com"),
        Some("http://sms.example.com.evil.test"),
        Some("null"),
        None,
    ] {
        let form = app
            .request(browser_post(
                &drop,
                &session,
                origin,
                Some("application/x-www-form-urlencoded"),
            ))
            .await;
        assert_eq!(
            form.status,
            StatusCode::FORBIDDEN,
            "{origin:?}: {}",
            form.body
        );
        let api = app
            .request(browser_post(
                &api_drop,
                &session,
                origin,
                Some("application/json"),
            ))
            .await;
        assert_eq!(
            api.status,
            StatusCode::FORBIDDEN,
            "{origin:?}: {}",
            api.body
        );
        let logout = app
            .request(browser_post("/console/logout", &session, origin, None))
            .await;
        assert_eq!(logout.status, StatusCode::FORBIDDEN, "{origin:?}");
    }
    // The API takes JSON only, even from the console's own origin.
    for kind in [
        Some("text/plain"),
        Some("application/x-www-form-urlencoded"),
        None,
    ] {
        let reply = app
            .request(browser_post(&api_drop, &session, Some(OWN), kind))
            .await;
        assert_eq!(reply.status, StatusCode::UNSUPPORTED_MEDIA_TYPE, "{kind:?}");
    }
    let reply = app.request(post(&api_drop, TOKEN)).await;
    let plain = {
        let mut request = Request::post(&api_drop)
            .header("authorization", format!("Bearer {TOKEN}"))
            .header("content-type", "text/plain")
            .body(Body::from("{}"))
            .unwrap();
        request.extensions_mut().insert(ConnectInfo(
            "198.51.100.20:40000".parse::<SocketAddr>().unwrap(),
        ));
        app.request(request).await
    };
    assert_eq!(
        plain.status,
        StatusCode::UNSUPPORTED_MEDIA_TYPE,
        "a script's too"
    );
    assert_eq!(
        reply.status,
        StatusCode::OK,
        "a script's JSON call needs no origin"
    );

    // Nothing was dropped by the forgeries, the session still works, and
    // the audit names only the login and the script's drop.
    let page = app.request(get("/console", Some(&session))).await;
    assert_eq!(
        page.status,
        StatusCode::OK,
        "the forged logout ended nothing"
    );
    assert_eq!(
        audit_rows(&app).await,
        [
            ("bearer".into(), "drop".into(), format!("text #{text}")),
            ("anna".into(), "login".into(), "console".into()),
        ]
    );

    // The console's own form, from its own origin, acts.
    let other = park(&app, BEA).await;
    let own = app
        .request(browser_post(
            &format!("/console/parked/{other}/drop"),
            &session,
            Some(OWN),
            Some("application/x-www-form-urlencoded"),
        ))
        .await;
    assert_eq!(own.status, StatusCode::SEE_OTHER, "{}", own.body);
    assert_eq!(
        app.texts_to(BEA).await.last().unwrap().status.as_str(),
        "cancelled"
    );
}

#[tokio::test]
async fn logging_out_ends_the_session_on_the_server_and_a_session_ends_in_twelve_hours() {
    let app = console().await;
    let session = log_in(&app, "anna").await;
    let kept = log_in(&app, "bob").await;
    assert_ne!(session, kept, "each login its own session");
    assert_eq!(
        app.request(get("/console", Some(&session))).await.status,
        StatusCode::OK
    );

    let out = app
        .request(browser_post("/console/logout", &session, Some(OWN), None))
        .await;
    assert_eq!(out.status, StatusCode::SEE_OTHER, "{}", out.body);
    let cleared = out.headers["set-cookie"].to_str().unwrap();
    assert!(cleared.contains("Max-Age=0"), "{cleared}");
    // The old cookie, kept by whoever copied it, opens nothing any more.
    for path in ["/console", "/console/api/summary", "/console/api/audit"] {
        let reply = app.request(get(path, Some(&session))).await;
        assert_eq!(reply.status, StatusCode::UNAUTHORIZED, "{path}");
    }
    let text = park(&app, ANN).await;
    let replayed = app
        .request(browser_post(
            &format!("/console/parked/{text}/drop"),
            &session,
            Some(OWN),
            None,
        ))
        .await;
    assert_eq!(replayed.status, StatusCode::UNAUTHORIZED);
    assert_eq!(
        app.texts_to(ANN).await.last().unwrap().status.as_str(),
        "failed"
    );
    // Another operator's session is his own.
    assert_eq!(
        app.request(get("/console", Some(&kept))).await.status,
        StatusCode::OK
    );
    let actions: Vec<(String, String)> = audit_rows(&app)
        .await
        .into_iter()
        .map(|(actor, action, _)| (actor, action))
        .collect();
    assert_eq!(actions[0], ("anna".to_string(), "logout".to_string()));

    // A session ends twelve hours after its login, logged out or not.
    app.advance(chrono::Duration::hours(11)).await;
    assert_eq!(
        app.request(get("/console", Some(&kept))).await.status,
        StatusCode::OK
    );
    app.advance(chrono::Duration::hours(1)).await;
    assert_eq!(
        app.request(get("/console", Some(&kept))).await.status,
        StatusCode::UNAUTHORIZED
    );
}

#[tokio::test]
async fn a_search_by_digits_finds_no_one_and_every_search_is_audited() {
    let app = console().await;
    two_players(&app).await;
    let session = log_in(&app, "anna").await;
    // The probe's attack: a number recovered digit by digit.
    let digits = "79001230001";
    let mut searched = Vec::new();
    for end in 3..digits.len() {
        for q in [&digits[..end], &digits[end - 3..end]] {
            let reply = app
                .request(get(&format!("/console/api/players?q={q}"), Some(&session)))
                .await;
            assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
            let found: Value = serde_json::from_str(&reply.body).unwrap();
            assert_eq!(found, serde_json::json!([]), "{q} finds someone");
            searched.push(q.to_string());
        }
    }
    // The page searches the same way, and the whole number finds him.
    let page = app
        .request(get(
            "/console/players?q=%2B7%20900%20123%2000%2001",
            Some(&session),
        ))
        .await;
    assert_eq!(page.status, StatusCode::OK);
    assert!(
        page.body.contains("href=\"/console/players/"),
        "{}",
        page.body
    );
    searched.push("+7 900 123 00 01".into());

    let audit = json(&app, "/console/api/audit").await;
    let searches: Vec<&Value> = audit
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["action"] == "search")
        .collect();
    assert_eq!(searches.len(), searched.len(), "one row a search: {audit}");
    for (row, q) in searches.iter().rev().zip(&searched) {
        assert_eq!(row["actor"], "anna");
        assert_eq!(row["target"], format!("{q:?}"));
        assert_eq!(row["address"], "198.51.100.20");
    }
}

#[tokio::test]
async fn the_right_token_gets_in_after_a_strangers_wrong_guesses_from_the_same_address() {
    let app = console().await;
    let shared = "203.0.113.77";
    let mut statuses = Vec::new();
    for i in 0..40 {
        let guess = format!("a-wrong-guess-number-{i}");
        statuses.push(
            app.request(get_from("/console/api/summary", Some(&guess), shared))
                .await
                .status,
        );
        let login = app
            .request(login_from(&format!("name=x&token={guess}"), shared))
            .await;
        statuses.push(login.status);
    }
    assert!(
        statuses.contains(&StatusCode::TOO_MANY_REQUESTS),
        "the stranger is limited: {statuses:?}"
    );
    assert!(
        statuses
            .iter()
            .all(|s| [StatusCode::UNAUTHORIZED, StatusCode::TOO_MANY_REQUESTS].contains(s))
    );
    // The operator behind the same address: his token, and his login.
    let reply = app
        .request(get_from("/console/api/summary", Some(TOKEN), shared))
        .await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
    let login = app
        .request(login_from(&format!("name=anna&token={TOKEN}"), shared))
        .await;
    assert_eq!(login.status, StatusCode::SEE_OTHER, "{}", login.body);
    let cookie = login.headers["set-cookie"].to_str().unwrap();
    let session = cookie.split(';').next().unwrap();
    let page = app
        .request(get_from("/console", Some(session), shared))
        .await;
    assert_eq!(page.status, StatusCode::OK);
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
