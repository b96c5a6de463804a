//! `/metrics`: Prometheus' text format, read back with a Prometheus parser;
//! its counters move as texts come in, are refused, are sent, fail and are
//! parked, and are reported delivered; it is off a public address unless
//! enabled, asks for its own token when one is set (wrong ones logged and
//! limited per address, the right one never held back), and no label
//! carries a phone number.

use crate::common;

use std::sync::Arc;
use std::time::Duration;

use axum::body::Body;
use axum::extract::State;
use axum::http::{Request, StatusCode};
use axum::routing::post;
use chrono::Utc;
use common::{GAME, TestApp, sms_request};
use smsarena::clock::SystemClock;
use smsarena::config::{Config, GenericConfig, ProviderKind};
use smsarena::gateway::Gateway;
use smsarena::platform::catalog::Catalog;
use smsarena::platform::compose_text;
use smsarena::providers::Provider;
use tower::ServiceExt;

/// One sample's value, by name and labels; none when it is not there.
fn sample(text: &str, name: &str, labels: &[(&str, &str)]) -> Option<f64> {
    let lines = text.lines().map(|l| Ok(l.to_string()));
    let scrape = prometheus_parse::Scrape::parse(lines).expect("Prometheus text format");
    scrape
        .samples
        .iter()
        .find(|s| s.metric == name && labels.iter().all(|(k, v)| s.labels.get(k) == Some(*v)))
        .map(|s| match s.value {
            prometheus_parse::Value::Counter(v)
            | prometheus_parse::Value::Gauge(v)
            | prometheus_parse::Value::Untyped(v) => v,
            _ => f64::NAN,
        })
}

async fn scrape(router: &axum::Router, token: Option<&str>) -> (StatusCode, String) {
    let mut request = Request::get("/metrics");
    if let Some(token) = token {
        request = request.header("authorization", format!("Bearer {token}"));
    }
    let response = router
        .clone()
        .oneshot(request.body(Body::empty()).unwrap())
        .await
        .unwrap();
    let status = response.status();
    let body = http_body_util::BodyExt::collect(response.into_body())
        .await
        .unwrap()
        .to_bytes();
    (status, String::from_utf8_lossy(&body).into_owned())
}

fn inbound(text: &str, outcome: &str) -> f64 {
    sample(
        text,
        "smsarena_inbound_texts_total",
        &[("provider", "generic"), ("outcome", outcome)],
    )
    .unwrap_or(0.0)
}

#[tokio::test]
async fn texts_in_are_counted_by_what_became_of_them() {
    let app = TestApp::with_config(|cfg| cfg.webhooks.secret = "a-webhook-secret".into()).await;
    let (status, before) = scrape(&app.router, None).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(inbound(&before, "applied"), 0.0);

    let signed = |id: &str, text: &str| {
        let mut request = sms_request(id, "+79001234567", GAME, text);
        request
            .headers_mut()
            .insert("x-webhook-secret", "a-webhook-secret".parse().unwrap());
        request
    };
    assert_eq!(
        app.request(signed("m1", "R qzv")).await.status,
        StatusCode::OK
    );
    assert_eq!(
        app.request(signed("m2", "HELP")).await.status,
        StatusCode::OK
    );
    // The provider's retry of m2.
    assert_eq!(
        app.request(signed("m2", "HELP")).await.status,
        StatusCode::OK
    );
    // No secret, and a malformed one.
    let unsigned = app
        .request(sms_request("m3", "+79001234567", GAME, "HELP"))
        .await;
    assert_eq!(unsigned.status, StatusCode::UNAUTHORIZED);
    let mut malformed = signed("m4", "HELP");
    *malformed.body_mut() = Body::from("{\"id\":");
    assert_eq!(app.request(malformed).await.status, StatusCode::BAD_REQUEST);

    let (_, after) = scrape(&app.router, None).await;
    assert_eq!(inbound(&after, "applied"), 2.0, "{after}");
    assert_eq!(inbound(&after, "repeat"), 1.0, "{after}");
    assert_eq!(inbound(&after, "rejected_signature"), 1.0, "{after}");
    assert_eq!(inbound(&after, "refused"), 1.0, "{after}");
    let timed = sample(
        &after,
        "smsarena_webhook_duration_seconds_count",
        &[("provider", "generic")],
    );
    assert_eq!(timed, Some(5.0), "every webhook request is timed: {after}");
    assert!(
        !after.contains("79001234567") && !after.contains("qzv"),
        "a label carries a number or a text: {after}"
    );
}

/// What the fake provider answers, by the recipient's last digit: 1 accepted,
/// 2 a passing failure (503), 3 a final refusal (400).
async fn fake_send(
    State(requests): State<Arc<std::sync::Mutex<Vec<String>>>>,
    axum::Json(body): axum::Json<serde_json::Value>,
) -> StatusCode {
    let to = body["to"].as_str().unwrap_or_default().to_string();
    requests.lock().unwrap().push(to.clone());
    match to.chars().last() {
        Some('1') => StatusCode::OK,
        Some('2') => StatusCode::SERVICE_UNAVAILABLE,
        _ => StatusCode::BAD_REQUEST,
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn texts_out_are_counted_as_they_are_sent_fail_are_parked_and_delivered() {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/send", listener.local_addr().unwrap());
    let requests = Arc::new(std::sync::Mutex::new(Vec::new()));
    let fake = axum::Router::new()
        .route("/send", post(fake_send))
        .with_state(requests.clone());
    tokio::spawn(async move { axum::serve(listener, fake).await.unwrap() });

    let dir = tempfile::tempdir().unwrap();
    let mut cfg = Config::default();
    cfg.database.url = common::fresh_database(dir.path()).await;
    cfg.sms.provider = ProviderKind::Generic;
    cfg.sms.generic = GenericConfig {
        url,
        secret: "x".into(),
    };
    cfg.sms.retry_base_ms = 10;
    cfg.sms.retry_max_ms = 20;
    cfg.sms.max_attempts = 2;
    let cfg = Arc::new(cfg);
    let provider = Provider::from_config(&cfg).unwrap();
    let gateway = Gateway::open(
        cfg.clone(),
        Arc::new(SystemClock),
        provider,
        Catalog::new(&cfg),
    )
    .await
    .unwrap();
    let router = gateway.router();
    let (stop, _) = tokio::sync::watch::channel(false);
    let (state, _running) = gateway.spawn(&stop);
    state
        .store()
        .run(|tx| {
            for to in ["+79000000001", "+79000000002", "+79000000003"] {
                tx.outbox()
                    .enqueue(compose_text("002220", to, "hi".into(), true), Utc::now())?;
            }
            Ok(())
        })
        .await
        .unwrap();

    let outbound = |text: &str, status: &str| {
        sample(
            text,
            "smsarena_outbound_texts_total",
            &[("provider", "generic"), ("status", status)],
        )
        .unwrap_or(0.0)
    };
    let mut text = String::new();
    for _ in 0..200 {
        text = scrape(&router, None).await.1;
        if outbound(&text, "parked") >= 2.0 && outbound(&text, "sent") >= 1.0 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    assert_eq!(outbound(&text, "sent"), 1.0, "{text}");
    // The 503 is tried twice (one failure, then parked); the 400 parked at once.
    assert_eq!(outbound(&text, "failed"), 1.0, "{text}");
    assert_eq!(outbound(&text, "parked"), 2.0, "{text}");

    // The provider reports the sent text delivered.
    let id = state
        .store()
        .read(|tx| tx.texts_to("+79000000001"))
        .await
        .unwrap()[0]
        .id;
    let report = Request::post("/webhooks/generic/status")
        .header("content-type", "application/json")
        .body(Body::from(format!(
            "{{\"id\":\"g{id}\",\"status\":\"delivered\"}}"
        )))
        .unwrap();
    let response = router.clone().oneshot(report).await.unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    let text = scrape(&router, None).await.1;
    assert_eq!(outbound(&text, "delivered"), 1.0, "{text}");
    let _ = stop.send(true);
}

#[tokio::test]
async fn metrics_are_off_a_public_address_unless_enabled_and_ask_for_their_token() {
    let public = TestApp::with_config(|cfg| {
        cfg.http.listen = "0.0.0.0:8080".parse().unwrap();
    })
    .await;
    assert_eq!(scrape(&public.router, None).await.0, StatusCode::NOT_FOUND);

    let guarded = TestApp::with_config(|cfg| {
        cfg.http.listen = "0.0.0.0:8080".parse().unwrap();
        cfg.metrics.enabled = smsarena::settings::Switch::On;
        cfg.metrics.token = "a-scraper-token-long-enough".into();
    })
    .await;
    assert_eq!(
        scrape(&guarded.router, None).await.0,
        StatusCode::UNAUTHORIZED
    );
    assert_eq!(
        scrape(&guarded.router, Some("a-scraper-token-wrong-by-one"))
            .await
            .0,
        StatusCode::UNAUTHORIZED
    );
    let (status, text) = scrape(&guarded.router, Some("a-scraper-token-long-enough")).await;
    assert_eq!(status, StatusCode::OK);
    assert!(
        text.contains("# HELP smsarena_inbound_texts_total"),
        "{text}"
    );
}

/// A scrape from `peer` with `token`.
async fn scrape_from(app: &TestApp, token: &str, peer: &str) -> StatusCode {
    let mut request = Request::get("/metrics")
        .header("authorization", format!("Bearer {token}"))
        .body(Body::empty())
        .unwrap();
    let addr: std::net::SocketAddr = format!("{peer}:40000").parse().unwrap();
    request
        .extensions_mut()
        .insert(axum::extract::ConnectInfo(addr));
    app.request(request).await.status
}

#[tokio::test]
async fn wrong_scraper_tokens_are_logged_and_limited_and_the_right_one_still_gets_in() {
    const SCRAPER: &str = "a-scraper-token-long-enough";
    let logs = common::logs::captured();
    let app = TestApp::with_config(|cfg| {
        cfg.metrics.enabled = smsarena::settings::Switch::On;
        cfg.metrics.token = SCRAPER.into();
    })
    .await;
    let mut statuses = Vec::new();
    for i in 0..40 {
        statuses.push(scrape_from(&app, &format!("guess-{i}"), "203.0.113.9").await);
    }
    let refused = statuses
        .iter()
        .filter(|s| **s == StatusCode::UNAUTHORIZED)
        .count();
    let limited = statuses
        .iter()
        .filter(|s| **s == StatusCode::TOO_MANY_REQUESTS)
        .count();
    // A burst of twenty, then five a second, as the admin token's.
    assert!((20..=22).contains(&refused), "{statuses:?}");
    assert_eq!(refused + limited, 40, "{statuses:?}");
    for _ in 0..30 {
        assert_eq!(
            scrape_from(&app, SCRAPER, "203.0.113.9").await,
            StatusCode::OK
        );
    }
    let logged = logs.text();
    let lines = logged
        .lines()
        .filter(|l| l.contains("metrics request refused") && l.contains("203.0.113.9"))
        .count();
    assert_eq!(
        lines, refused,
        "one line per refusal within the limit, with its peer"
    );
    assert!(!logged.contains(SCRAPER), "never the token");
}

#[tokio::test]
async fn matches_players_the_writer_and_the_outbox_are_counted() {
    let app = TestApp::new().await;
    app.register(&[("+79001230001", "ann"), ("+79001230002", "bea")])
        .await;
    app.sms_to("+79001230001", common::PLAY, "P TR").await;
    app.sms_to("+79001230002", common::PLAY, "P TR").await;
    let (_, text) = scrape(&app.router, None).await;
    let game = |name: &str| sample(&text, name, &[("game", "TR")]);
    assert_eq!(game("smsarena_matches_started_total"), Some(1.0), "{text}");
    assert_eq!(game("smsarena_matches_running"), Some(1.0), "{text}");
    assert_eq!(sample(&text, "smsarena_players_registered", &[]), Some(2.0));
    let queued = sample(
        &text,
        "smsarena_outbound_texts_total",
        &[("provider", "console"), ("status", "queued")],
    )
    .unwrap();
    let written = app.count("outbox").await as f64;
    assert_eq!(
        queued, written,
        "every text written is counted once: {text}"
    );
    let batches = sample(
        &text,
        "smsarena_writer_transaction_duration_seconds_count",
        &[],
    )
    .unwrap();
    assert!(batches >= 4.0, "{text}");
    assert_eq!(sample(&text, "smsarena_writer_queue_depth", &[]), Some(0.0));
    assert_eq!(
        sample(&text, "smsarena_outbox_backlog_texts", &[]),
        Some(written)
    );

    app.sms("+79001230001", "Q").await;
    let (_, text) = scrape(&app.router, None).await;
    let game = |name: &str| sample(&text, name, &[("game", "TR")]);
    assert_eq!(game("smsarena_matches_finished_total"), Some(1.0), "{text}");
    assert_eq!(game("smsarena_matches_running"), Some(0.0), "{text}");
}
