//! The outbound path against a misbehaving fake provider: retries, order per recipient,
//! exactly-once delivery, restarts between commit and send, and delivery reports.

use crate::common;

use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::Json;
use axum::body::Body;
use axum::extract::State;
use axum::http::{Request, StatusCode};
use axum::routing::post;
use chrono::Utc;
use common::TestApp;
use smsarena::clock::{Clock, SystemClock};
use smsarena::config::{Config, GenericConfig, ProviderKind};
use smsarena::dispatcher::Dispatcher;
use smsarena::platform::compose_text;
use smsarena::providers::Provider;
use smsarena::store::{OutboxText, SentText, Store, TextStatus};
use tokio::sync::watch;

/// What the fake provider does with each request, in arrival order; then it accepts.
#[derive(Clone, Copy, Debug)]
enum Misbehave {
    ServerError,
    Hang,
    TooMany,
    BadRequest,
}

#[derive(Clone, Default)]
struct Fake {
    script: Arc<Mutex<Vec<Misbehave>>>,
    /// (id, to, text) of every text the fake accepted, in order.
    accepted: Arc<Mutex<Vec<(String, String, String)>>>,
    requests: Arc<Mutex<usize>>,
}

async fn fake_send(State(fake): State<Fake>, Json(body): Json<serde_json::Value>) -> StatusCode {
    *fake.requests.lock().unwrap() += 1;
    let next = {
        let mut script = fake.script.lock().unwrap();
        if script.is_empty() {
            None
        } else {
            Some(script.remove(0))
        }
    };
    match next {
        Some(Misbehave::ServerError) => StatusCode::INTERNAL_SERVER_ERROR,
        Some(Misbehave::TooMany) => StatusCode::TOO_MANY_REQUESTS,
        Some(Misbehave::BadRequest) => StatusCode::BAD_REQUEST,
        Some(Misbehave::Hang) => {
            // Longer than the sender's timeout; and even then not an acceptance.
            tokio::time::sleep(Duration::from_secs(2)).await;
            StatusCode::SERVICE_UNAVAILABLE
        }
        None => {
            let field = |k: &str| body[k].as_str().unwrap_or_default().to_string();
            fake.accepted
                .lock()
                .unwrap()
                .push((field("id"), field("to"), field("text")));
            StatusCode::OK
        }
    }
}

async fn start_fake(script: Vec<Misbehave>) -> (Fake, String) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    start_fake_on(listener, script)
}

/// The fake provider on a listener the test chose (a port that refused connections until now).
fn start_fake_on(listener: tokio::net::TcpListener, script: Vec<Misbehave>) -> (Fake, String) {
    let fake = Fake {
        script: Arc::new(Mutex::new(script)),
        ..Default::default()
    };
    let router = axum::Router::new()
        .route("/send", post(fake_send))
        .with_state(fake.clone());
    let url = format!("http://{}/send", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, router).await.unwrap() });
    (fake, url)
}

fn fast_config(url: &str) -> Config {
    let mut cfg = Config::default();
    cfg.sms.provider = ProviderKind::Generic;
    cfg.sms.generic = GenericConfig {
        url: url.to_string(),
        secret: "x".into(),
    };
    cfg.sms.retry_base_ms = 10;
    cfg.sms.retry_max_ms = 50;
    cfg.sms.send_timeout_ms = 300;
    cfg.sms.lease_ms = 1000;
    cfg.sms.max_attempts = 20;
    cfg
}

fn start_dispatcher(store: &Store, cfg: &Config) -> watch::Sender<bool> {
    let clock: Arc<dyn Clock> = Arc::new(SystemClock);
    let provider = Provider::from_config(cfg).unwrap();
    let (stop, stopped) = watch::channel(false);
    tokio::spawn(
        Dispatcher::new(
            store.clone(),
            provider,
            cfg.sms.clone(),
            clock,
            Default::default(),
        )
        .run(stopped),
    );
    stop
}

/// Queues `per_phone` numbered texts to each phone, all committed before anything is sent.
async fn queue_texts(store: &Store, phones: &[&str], per_phone: usize) {
    let phones: Vec<String> = phones.iter().map(|p| p.to_string()).collect();
    store
        .run(move |tx| {
            for i in 0..per_phone {
                for phone in &phones {
                    let text = compose_text("002220", phone, format!("{phone} #{i}"), true);
                    tx.outbox().enqueue(text, Utc::now())?;
                }
            }
            Ok(())
        })
        .await
        .unwrap();
}

async fn wait_until_delivered(fake: &Fake, expected: usize) {
    for _ in 0..500 {
        if fake.accepted.lock().unwrap().len() >= expected {
            // A little longer, so a duplicate would have time to show up.
            tokio::time::sleep(Duration::from_millis(100)).await;
            return;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    panic!(
        "only {} of {expected} texts arrived",
        fake.accepted.lock().unwrap().len()
    );
}

fn assert_exactly_once_in_order(fake: &Fake, phones: &[&str], per_phone: usize) {
    let accepted = fake.accepted.lock().unwrap().clone();
    assert_eq!(
        accepted.len(),
        phones.len() * per_phone,
        "every text exactly once: {accepted:?}"
    );
    let mut ids: Vec<&String> = accepted.iter().map(|(id, _, _)| id).collect();
    ids.sort();
    ids.dedup();
    assert_eq!(ids.len(), accepted.len(), "no text twice");
    for phone in phones {
        let bodies: Vec<&String> = accepted
            .iter()
            .filter(|(_, to, _)| to == phone)
            .map(|(_, _, t)| t)
            .collect();
        let expected: Vec<String> = (0..per_phone).map(|i| format!("{phone} #{i}")).collect();
        assert_eq!(
            bodies,
            expected.iter().collect::<Vec<_>>(),
            "order to {phone}"
        );
    }
}

async fn open_store(url: &str) -> Store {
    Store::open(url, 64).await.unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_text_arrives_once_in_order_despite_failures() {
    use Misbehave::*;
    let (fake, url) =
        start_fake(vec![ServerError, Hang, TooMany, ServerError, TooMany, Hang]).await;
    let dir = tempfile::tempdir().unwrap();
    let db = common::fresh_database(dir.path()).await;
    let store = open_store(&db).await;
    let cfg = fast_config(&url);
    let phones = ["+1001", "+1002", "+1003"];
    let stop = start_dispatcher(&store, &cfg);
    queue_texts(&store, &phones, 5).await;
    wait_until_delivered(&fake, 15).await;
    stop.send(true).unwrap();
    assert_exactly_once_in_order(&fake, &phones, 5);
    assert!(
        *fake.requests.lock().unwrap() >= 21,
        "the failures were really served"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_provider_that_is_down_gets_every_text_once_in_order_when_it_comes_up() {
    // A port nothing listens on: every send is a refused connection.
    let port = {
        let probe = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        probe.local_addr().unwrap().port()
    };
    let dir = tempfile::tempdir().unwrap();
    let db = common::fresh_database(dir.path()).await;
    let store = open_store(&db).await;
    let mut cfg = fast_config(&format!("http://127.0.0.1:{port}/send"));
    // Retries come every 10-50 ms here: enough of them to outlast the outage.
    cfg.sms.max_attempts = 1000;
    let phones = ["+1101", "+1102"];
    let stop = start_dispatcher(&store, &cfg);
    queue_texts(&store, &phones, 4).await;
    tokio::time::sleep(Duration::from_millis(800)).await;
    let attempted = store
        .read(|tx| tx.texts_to("+1101"))
        .await
        .unwrap()
        .iter()
        .filter(|t| t.status != TextStatus::Sent && t.attempts > 0)
        .count();
    assert!(
        attempted > 0,
        "sends were tried while the provider was down"
    );
    // The provider comes up on the same port, slow at first.
    let listener = tokio::net::TcpListener::bind(("127.0.0.1", port))
        .await
        .unwrap();
    let (fake, _) = start_fake_on(listener, vec![Misbehave::Hang, Misbehave::TooMany]);
    wait_until_delivered(&fake, 8).await;
    stop.send(true).unwrap();
    assert_exactly_once_in_order(&fake, &phones, 4);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_restart_between_commit_and_send_loses_nothing_and_sends_nothing_twice() {
    let (fake, url) = start_fake(vec![]).await;
    let dir = tempfile::tempdir().unwrap();
    let cfg = fast_config(&url);
    let db = common::fresh_database(dir.path()).await;
    let phones = ["+2001", "+2002"];
    {
        // The first life: texts committed, then a "crash" before any was sent;
        // two of them were even claimed (leased) by a dispatcher that died.
        let store = open_store(&db).await;
        queue_texts(&store, &phones, 4).await;
        let now = Utc::now();
        let claimed = store
            .run(move |tx| {
                tx.outbox()
                    .claim(now, now + chrono::Duration::milliseconds(500), 10)
            })
            .await
            .unwrap();
        assert_eq!(claimed.len(), 2, "one text per phone at a time");
    }
    tokio::time::sleep(Duration::from_millis(100)).await;
    let store = open_store(&db).await;
    let stop = start_dispatcher(&store, &cfg);
    wait_until_delivered(&fake, 8).await;
    stop.send(true).unwrap();
    assert_exactly_once_in_order(&fake, &phones, 4);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_opt_out_cancels_what_waits_but_not_the_text_on_its_way() {
    let (fake, url) = start_fake(vec![Misbehave::Hang]).await;
    let dir = tempfile::tempdir().unwrap();
    let db = common::fresh_database(dir.path()).await;
    let store = open_store(&db).await;
    let stop = start_dispatcher(&store, &fast_config(&url));
    queue_texts(&store, &["+7001"], 3).await;
    for _ in 0..200 {
        if *fake.requests.lock().unwrap() >= 1 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    // The first text hangs at the provider; the phone opts out meanwhile.
    store
        .run(|tx| tx.outbox().cancel_to("+7001", Utc::now()))
        .await
        .unwrap();
    wait_until_delivered(&fake, 1).await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    stop.send(true).unwrap();
    let accepted = fake.accepted.lock().unwrap().clone();
    assert_eq!(accepted.len(), 1, "{accepted:?}");
    assert_eq!(accepted[0].2, "+7001 #0");
    let statuses: Vec<TextStatus> = store
        .read(|tx| tx.texts_to("+7001"))
        .await
        .unwrap()
        .iter()
        .map(|t| t.status)
        .collect();
    assert_eq!(
        statuses,
        [
            TextStatus::Sent,
            TextStatus::Cancelled,
            TextStatus::Cancelled
        ]
    );
}

#[tokio::test]
async fn many_sends_are_recorded_at_once_with_or_without_a_reference() {
    let dir = tempfile::tempdir().unwrap();
    let db = common::fresh_database(dir.path()).await;
    let store = open_store(&db).await;
    queue_texts(&store, &["+8001", "+8002"], 1).await;
    let now = Utc::now();
    store
        .run(move |tx| {
            let claimed = tx
                .outbox()
                .claim(now, now + chrono::Duration::seconds(30), 10)?;
            let sent: Vec<SentText<'_>> = claimed
                .iter()
                .map(|t| SentText {
                    id: t.id,
                    attempts: 2,
                    provider_ref: (t.to == "+8001").then_some("ref-8001"),
                    at: now,
                })
                .collect();
            tx.outbox().mark_sent(&sent)
        })
        .await
        .unwrap();
    let texts = store
        .read(|tx| Ok(vec![tx.texts_to("+8001")?, tx.texts_to("+8002")?]))
        .await
        .unwrap();
    for (phone, reference) in [(0, Some("ref-8001")), (1, None)] {
        let text = &texts[phone][0];
        assert_eq!(text.status, TextStatus::Sent);
        assert_eq!(text.attempts, 2);
        assert_eq!(text.provider_ref.as_deref(), reference);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_final_refusal_parks_the_text_with_its_reason_and_the_next_one_goes_on() {
    let (fake, url) = start_fake(vec![Misbehave::BadRequest]).await;
    let dir = tempfile::tempdir().unwrap();
    let db = common::fresh_database(dir.path()).await;
    let store = open_store(&db).await;
    let stop = start_dispatcher(&store, &fast_config(&url));
    queue_texts(&store, &["+3001"], 2).await;
    wait_until_delivered(&fake, 1).await;
    stop.send(true).unwrap();
    let texts = store.read(|tx| tx.texts_to("+3001")).await.unwrap();
    assert_eq!(texts[0].status, TextStatus::Failed);
    assert!(
        texts[0].last_error.as_deref().unwrap().contains("400"),
        "{:?}",
        texts[0].last_error
    );
    assert_eq!(texts[0].attempts, 1, "a 4xx is not retried");
    assert_eq!(texts[1].status, TextStatus::Sent);
    assert_eq!(fake.accepted.lock().unwrap().len(), 1);
}

/// One text to `phone`, sent to a fake provider that plays `script` by a
/// dispatcher that tries it `max_attempts` times: the text once parked as
/// failed, and the fake.
async fn parked_text(script: Vec<Misbehave>, max_attempts: u32, phone: &str) -> (OutboxText, Fake) {
    let (fake, url) = start_fake(script).await;
    let dir = tempfile::tempdir().unwrap();
    let db = common::fresh_database(dir.path()).await;
    let store = open_store(&db).await;
    let mut cfg = fast_config(&url);
    cfg.sms.max_attempts = max_attempts;
    let stop = start_dispatcher(&store, &cfg);
    queue_texts(&store, &[phone], 1).await;
    let phone = phone.to_string();
    for _ in 0..200 {
        let phone = phone.clone();
        let mut texts = store.read(move |tx| tx.texts_to(&phone)).await.unwrap();
        if texts[0].status == TextStatus::Failed {
            stop.send(true).unwrap();
            return (texts.remove(0), fake);
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    panic!("the text was never parked");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn texts_are_parked_after_the_configured_attempts() {
    let (text, _fake) = parked_text(vec![Misbehave::ServerError; 10], 3, "+4001").await;
    assert_eq!(text.attempts, 3);
    let reason = text.last_error.as_deref().unwrap();
    assert!(reason.contains("gave up after 3 attempts"), "{reason}");
}

/// The dispatcher's timeout is the only one on a send (the senders' client
/// has none of its own): a provider that takes the request and never
/// answers is given up on after `sms.send_timeout_ms`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_provider_that_never_answers_is_given_up_on_after_the_send_timeout() {
    let (text, fake) = parked_text(vec![Misbehave::Hang], 1, "+4101").await;
    assert_eq!(text.attempts, 1);
    let reason = text.last_error.as_deref().unwrap();
    // Not the 503 the fake gives after 2 s: the 300 ms timeout came first.
    assert!(reason.contains("send timed out"), "{reason}");
    assert_eq!(*fake.requests.lock().unwrap(), 1);
}

#[tokio::test]
async fn delivery_reports_move_a_status_forward_only() {
    let app = TestApp::new().await;
    app.sms("+5001", "R erin").await;
    let id = app.texts_to("+5001").await[0].id;
    let now = Utc::now();
    app.state
        .store()
        .run(move |tx| {
            tx.outbox().claim(now, now, 10)?;
            let provider_ref = format!("k{id}");
            tx.outbox().mark_sent(&[SentText {
                id,
                attempts: 1,
                provider_ref: Some(&provider_ref),
                at: now,
            }])
        })
        .await
        .unwrap();
    let report = |kind: u32| {
        Request::get(format!("/webhooks/kannel/status?ref=k{id}&type={kind}"))
            .body(Body::empty())
            .unwrap()
    };
    // The phone-level report overtakes the SMSC-level one.
    assert_eq!(app.request(report(1)).await.status, StatusCode::OK);
    assert_eq!(app.request(report(8)).await.status, StatusCode::OK);
    assert_eq!(app.texts_to("+5001").await[0].status, TextStatus::Delivered);
    assert_eq!(app.request(report(2)).await.status, StatusCode::OK);
    assert_eq!(app.texts_to("+5001").await[0].status, TextStatus::Delivered);
    // Reports for texts we never sent are acknowledged and change nothing.
    let stray = Request::get("/webhooks/kannel/status?ref=k999999&type=1")
        .body(Body::empty())
        .unwrap();
    assert_eq!(app.request(stray).await.status, StatusCode::OK);
    let bad = Request::get(format!("/webhooks/kannel/status?ref=k{id}&type=77"))
        .body(Body::empty())
        .unwrap();
    assert_eq!(app.request(bad).await.status, StatusCode::BAD_REQUEST);
}

#[tokio::test]
async fn twilio_vonage_and_generic_reports_are_understood() {
    let app = TestApp::new().await;
    for phone in ["+6001", "+6002", "+6003"] {
        app.sms(phone, "HELP").await;
    }
    let ids: Vec<i64> = [
        app.texts_to("+6001").await[0].id,
        app.texts_to("+6002").await[0].id,
        app.texts_to("+6003").await[0].id,
    ]
    .to_vec();
    let now = Utc::now();
    let refs = [
        "SMabc".to_string(),
        format!("v{}", ids[1]),
        format!("g{}", ids[2]),
    ];
    let (ids2, refs2) = (ids.clone(), refs.clone());
    app.state
        .store()
        .run(move |tx| {
            tx.outbox().claim(now, now, 10)?;
            let sent: Vec<SentText<'_>> = ids2
                .iter()
                .zip(&refs2)
                .map(|(&id, r)| SentText {
                    id,
                    attempts: 1,
                    provider_ref: Some(r),
                    at: now,
                })
                .collect();
            tx.outbox().mark_sent(&sent)
        })
        .await
        .unwrap();
    let twilio = Request::post("/webhooks/twilio/status")
        .header("content-type", "application/x-www-form-urlencoded")
        .body(Body::from(
            "MessageSid=SMabc&MessageStatus=undelivered&ErrorCode=30003",
        ))
        .unwrap();
    assert_eq!(app.request(twilio).await.status, StatusCode::OK);
    let vonage = Request::get(format!(
        "/webhooks/vonage/status?messageId=X&status=delivered&client-ref=v{}",
        ids[1]
    ))
    .body(Body::empty())
    .unwrap();
    assert_eq!(app.request(vonage).await.status, StatusCode::OK);
    let generic = Request::post("/webhooks/generic/status")
        .header("content-type", "application/json")
        .body(Body::from(format!(
            r#"{{"id":"g{}","status":"delivered"}}"#,
            ids[2]
        )))
        .unwrap();
    assert_eq!(app.request(generic).await.status, StatusCode::OK);

    let t = app.texts_to("+6001").await;
    assert_eq!(t[0].status, TextStatus::Failed);
    assert_eq!(t[0].last_error.as_deref(), Some("Twilio error 30003"));
    assert_eq!(app.texts_to("+6002").await[0].status, TextStatus::Delivered);
    assert_eq!(app.texts_to("+6003").await[0].status, TextStatus::Delivered);
}
