//! The admin API under attack and in use: its own limit per address on
//! wrong tokens (which never holds back the right one), a log line for every
//! refusal within it with the address it came from, and players' numbers
//! masked unless asked for.

use crate::common;

use std::net::SocketAddr;

use axum::body::Body;
use axum::extract::ConnectInfo;
use axum::http::{Request, StatusCode};
use common::{PLAY, TestApp};

const TOKEN: &str = "an-admin-token-long-enough";

fn admin(path: &str, token: &str, peer: &str) -> Request<Body> {
    let mut request = Request::get(path)
        .header("authorization", format!("Bearer {token}"))
        .body(Body::empty())
        .unwrap();
    let addr: SocketAddr = format!("{peer}:50000").parse().unwrap();
    request.extensions_mut().insert(ConnectInfo(addr));
    request
}

#[tokio::test]
async fn wrong_tokens_are_limited_per_address_and_each_is_logged() {
    let logs = common::logs::captured();
    let app = TestApp::with_config(|cfg| cfg.admin.token = TOKEN.into()).await;
    let mut statuses = Vec::new();
    for i in 0..40 {
        let reply = app
            .request(admin("/admin/stats", &format!("guess-{i}"), "203.0.113.5"))
            .await;
        statuses.push(reply.status);
    }
    let refused = statuses
        .iter()
        .filter(|s| **s == StatusCode::UNAUTHORIZED)
        .count();
    let limited = statuses
        .iter()
        .filter(|s| **s == StatusCode::TOO_MANY_REQUESTS)
        .count();
    // A burst of twenty, then five a second.
    assert!((20..=22).contains(&refused), "{statuses:?}");
    assert_eq!(refused + limited, 40, "{statuses:?}");
    // The right token from that very address (the operator behind the
    // stranger's NAT) gets in, again and again; so does another address's.
    for _ in 0..30 {
        let reply = app
            .request(admin("/admin/stats", TOKEN, "203.0.113.5"))
            .await;
        assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
    }
    let reply = app
        .request(admin("/admin/stats", TOKEN, "198.51.100.7"))
        .await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);

    let logged = logs.text();
    let lines: Vec<&str> = logged
        .lines()
        .filter(|l| l.contains("admin request refused") && l.contains("203.0.113.5"))
        .collect();
    assert_eq!(lines.len(), refused, "one line per refusal, with its peer");
    assert!(lines.iter().all(|l| l.contains("WARN")), "{lines:?}");
    assert!(!logged.contains(TOKEN), "never the token");
}

#[tokio::test]
async fn players_numbers_are_masked_unless_asked_for() {
    let app = TestApp::with_config(|cfg| cfg.admin.token = TOKEN.into()).await;
    let (a, b) = ("+79001234567", "+79007654321");
    app.register(&[(a, "ann"), (b, "bob")]).await;
    app.sms_to(a, PLAY, "P TR").await;
    app.sms_to(b, PLAY, "P TR").await;
    let id = app.match_state(a).await.expect("a match").id;
    let get = |query: &str| admin(&format!("/admin/matches/{id}{query}"), TOKEN, "127.0.0.1");
    let masked = app.request(get("")).await;
    assert_eq!(masked.status, StatusCode::OK);
    assert!(
        !masked.body.contains(a) && !masked.body.contains(b),
        "{}",
        masked.body
    );
    let record: serde_json::Value = serde_json::from_str(&masked.body).unwrap();
    assert_eq!(record["players"][0]["phone"], "+790*****567");
    assert_eq!(record["players"][0]["nick"], "ann");
    let whole = app.request(get("?phones=full")).await;
    let record: serde_json::Value = serde_json::from_str(&whole.body).unwrap();
    assert_eq!(record["players"][0]["phone"], a);
    assert_eq!(record["players"][1]["phone"], b);
}

/// A panic in code run under a read (the admin replay runs game code) is a
/// failed read, not a poisoned reader: `/healthz` and every later read
/// still answer, where before one panic made them fail until a restart.
#[tokio::test]
async fn a_panic_inside_a_read_leaves_the_reader_usable() {
    let app = TestApp::new().await;
    let failed = app
        .state
        .store()
        .read(|_| -> smsarena::store::StoreResult<()> { panic!("a game's code broke") })
        .await;
    assert!(failed.is_err(), "{failed:?}");
    let reply = app
        .request(Request::get("/healthz").body(Body::empty()).unwrap())
        .await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
    let players = app
        .state
        .store()
        .read(|tx| tx.count_rows("players"))
        .await
        .expect("a read after the panic");
    assert_eq!(players, 0);
}
