//! No configured secret leaks, with every crate logging at `trace`: every
//! sender made to fail in every way it can (refused connection, timeout, 4xx
//! and 5xx answers that echo the request back, an answer that repeats every
//! secret in every spelling, a secret across the cut of a long answer) leaves
//! no password, token or secret in the logs, in the outbox's `last_error`, in
//! the configuration's `Debug`, or in any admin answer; Kannel is not given
//! the webhook secret; request URIs are logged without their query, wrong
//! guesses included; and a configuration error names the key, not the value.

use crate::common;

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::body::Body;
use axum::extract::Request;
use axum::http::StatusCode;
use axum::response::IntoResponse;
use common::TestApp;
use percent_encoding::{AsciiSet, NON_ALPHANUMERIC, utf8_percent_encode};
use smsarena::clock::{Clock, SystemClock};
use smsarena::config::{Config, EnvStrings, ProviderKind};
use smsarena::dispatcher::Dispatcher;
use smsarena::platform::compose_text;
use smsarena::providers::Provider;
use smsarena::store::{Store, TextStatus};
use tokio::sync::watch;

const KANNEL_PASSWORD: &str = "kann3l-pa55&word";
const TWILIO_TOKEN: &str = "tw1l1o-t0ken";
/// Form-encoded (as it goes to Vonage) `v0nage+s3cret*%7Ex`, which is none
/// of its percent-encoded spellings.
const VONAGE_SECRET: &str = "v0nage s3cret*~x";
/// Sent nowhere; only a provider that repeats it could show it.
const VONAGE_SIGNATURE: &str = "v0nage-s1gnature";
const GENERIC_SECRET: &str = "gener1c-s3cret";
/// Not ASCII: percent-encoded it holds `%C3`, which Kannel would expand.
const WEBHOOK_SECRET: &str = "w3bhook-s3cr\u{e9}t";
const ADMIN_TOKEN: &str = "adm1n-t0ken";
const SECRETS: [&str; 7] = [
    KANNEL_PASSWORD,
    TWILIO_TOKEN,
    VONAGE_SECRET,
    VONAGE_SIGNATURE,
    GENERIC_SECRET,
    WEBHOOK_SECRET,
    ADMIN_TOKEN,
];

/// Twilio's Basic credentials, as an echo of its request shows them.
fn basic() -> String {
    use base64::Engine;
    base64::engine::general_purpose::STANDARD.encode(format!("AC123:{TWILIO_TOKEN}"))
}

/// RFC 3986's unreserved characters kept, as many URL encoders do.
const UNRESERVED_KEPT: &AsciiSet = &NON_ALPHANUMERIC
    .remove(b'-')
    .remove(b'.')
    .remove(b'_')
    .remove(b'~');

/// The same escapes with lower-case hex digits.
fn lower_hex(encoded: &str) -> String {
    let mut parts = encoded.split('%');
    let first = parts.next().unwrap_or_default().to_string();
    parts.fold(first, |out, part| {
        let (hex, rest) = part.split_at(2.min(part.len()));
        format!("{out}%{}{rest}", hex.to_lowercase())
    })
}

/// Every spelling of `secret` a log line, a URL, a form or a JSON body may hold.
fn spellings(secret: &str) -> Vec<String> {
    let percent = utf8_percent_encode(secret, NON_ALPHANUMERIC).to_string();
    let unreserved = utf8_percent_encode(secret, UNRESERVED_KEPT).to_string();
    let form: String = form_urlencoded::byte_serialize(secret.as_bytes()).collect();
    let json = serde_json::to_string(secret).unwrap();
    let mut all = vec![
        secret.to_string(),
        lower_hex(&percent),
        lower_hex(&unreserved),
        lower_hex(&form),
        percent,
        unreserved,
        form,
        json.trim_matches('"').to_string(),
    ];
    all.sort();
    all.dedup();
    all
}

/// How the webhook secret stood in the `sendsms` URL when the `dlr-url`
/// carried it: percent-encoded, `%` doubled for Kannel, and the whole
/// percent-encoded again as a parameter.
fn in_old_dlr_url(secret: &str) -> String {
    let percent = utf8_percent_encode(secret, NON_ALPHANUMERIC).to_string();
    utf8_percent_encode(&percent.replace('%', "%%"), NON_ALPHANUMERIC).to_string()
}

fn assert_free_of(what: &str, text: &str, secrets: &[&str]) {
    for secret in secrets {
        for spelled in spellings(secret) {
            assert!(
                !text.contains(&spelled),
                "{what} holds the secret {secret:?} as {spelled:?}: {text}"
            );
        }
    }
}

/// No secret in any spelling, nor the first characters of one (what a cut
/// across it would leave).
fn assert_clean(what: &str, text: &str) {
    let basic = basic();
    assert_free_of(
        what,
        text,
        &SECRETS
            .iter()
            .copied()
            .chain([basic.as_str()])
            .collect::<Vec<_>>(),
    );
    for secret in SECRETS {
        assert!(
            !text.contains(&secret[..6]),
            "{what} holds the start of {secret:?}: {text}"
        );
    }
}

/// How the fake provider fails.
#[derive(Clone, Copy, Debug)]
enum Failure {
    Refused,
    Timeout,
    Echo4xx,
    Echo5xx,
    /// 400, its answer the provider's own secret across the reason's 200-character cut.
    Straddle,
    /// 500 to every attempt, each answer one spelling of one secret.
    Tattle,
}

/// What the fake provider answers.
#[derive(Clone)]
enum Answer {
    /// `status` and the whole request (body, method, URI, headers), the
    /// worst a provider can do.
    Echo(StatusCode, bool),
    /// `status` and the next of these bodies, one a request.
    Each(StatusCode, Arc<Vec<String>>),
}

/// The request URIs a fake provider was sent (what Kannel would log).
type Seen = Arc<Mutex<Vec<String>>>;

async fn fake(answer: Answer) -> (String, Seen) {
    let seen = Seen::default();
    let count = Arc::new(AtomicUsize::new(0));
    let log = seen.clone();
    let router = axum::Router::new().fallback(move |request: Request| {
        let (answer, log, count) = (answer.clone(), log.clone(), count.clone());
        async move {
            let (parts, body) = request.into_parts();
            log.lock().unwrap().push(parts.uri.to_string());
            let body = axum::body::to_bytes(body, 1 << 20)
                .await
                .unwrap_or_default();
            match answer {
                Answer::Echo(status, hang) => {
                    if hang {
                        tokio::time::sleep(Duration::from_secs(5)).await;
                    }
                    // The body first: what the request carries is within the cut.
                    let echo = format!(
                        "{} {} {} {:?}",
                        String::from_utf8_lossy(&body),
                        parts.method,
                        parts.uri,
                        parts.headers,
                    );
                    (status, echo).into_response()
                }
                Answer::Each(status, bodies) => {
                    let i = count.fetch_add(1, Ordering::SeqCst);
                    (status, bodies[i % bodies.len()].clone()).into_response()
                }
            }
        }
    });
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, router).await.unwrap() });
    (url, seen)
}

/// One spelling of one secret per answer, for the tattling provider.
fn tattles() -> Vec<String> {
    let basic = basic();
    SECRETS
        .iter()
        .copied()
        .chain([basic.as_str()])
        .flat_map(spellings)
        .map(|spelled| format!("you sent {spelled} to us"))
        .collect()
}

fn own_secret(provider: ProviderKind) -> &'static str {
    match provider {
        ProviderKind::Kannel => KANNEL_PASSWORD,
        ProviderKind::Twilio => TWILIO_TOKEN,
        ProviderKind::Vonage => VONAGE_SECRET,
        _ => GENERIC_SECRET,
    }
}

/// The provider's base URL, and what its fake was sent (nothing for a refused one).
async fn base_url(failure: Failure, provider: ProviderKind) -> (String, Seen) {
    match failure {
        Failure::Refused => {
            let port = std::net::TcpListener::bind("127.0.0.1:0")
                .unwrap()
                .local_addr()
                .unwrap()
                .port();
            (format!("http://127.0.0.1:{port}"), Seen::default())
        }
        Failure::Timeout => fake(Answer::Echo(StatusCode::OK, true)).await,
        Failure::Echo4xx => fake(Answer::Echo(StatusCode::BAD_REQUEST, false)).await,
        Failure::Echo5xx => fake(Answer::Echo(StatusCode::INTERNAL_SERVER_ERROR, false)).await,
        Failure::Straddle => {
            // The reason is "HTTP 400 Bad Request: " (22 characters) and the
            // body: the secret starts at character 195 of the 200 kept.
            let body = format!("{}{}", "x".repeat(173), own_secret(provider));
            fake(Answer::Each(StatusCode::BAD_REQUEST, Arc::new(vec![body]))).await
        }
        Failure::Tattle => {
            let bodies = Arc::new(tattles());
            fake(Answer::Each(StatusCode::INTERNAL_SERVER_ERROR, bodies)).await
        }
    }
}

fn configure(cfg: &mut Config, provider: ProviderKind, failure: Failure, base: &str) {
    cfg.sms.provider = provider;
    cfg.sms.kannel.sendsms_url = format!("{base}/cgi-bin/sendsms");
    cfg.sms.kannel.username = "smsarena".into();
    cfg.sms.kannel.password = KANNEL_PASSWORD.into();
    cfg.sms.twilio.account_sid = "AC123".into();
    cfg.sms.twilio.auth_token = TWILIO_TOKEN.into();
    cfg.sms.twilio.base_url = base.into();
    cfg.sms.vonage.api_key = "key".into();
    cfg.sms.vonage.api_secret = VONAGE_SECRET.into();
    cfg.sms.vonage.signature_secret = VONAGE_SIGNATURE.into();
    cfg.sms.vonage.base_url = base.into();
    cfg.sms.generic.url = format!("{base}/send");
    cfg.sms.generic.secret = GENERIC_SECRET.into();
    cfg.webhooks.secret = WEBHOOK_SECRET.into();
    cfg.admin.token = ADMIN_TOKEN.into();
    cfg.sms.send_timeout_ms = 300;
    match failure {
        // Every spelling is answered once, each within the reason's cut.
        Failure::Tattle => {
            cfg.sms.max_attempts = tattles().len() as u32;
            cfg.sms.retry_base_ms = 1;
            cfg.sms.retry_max_ms = 2;
        }
        _ => {
            cfg.sms.max_attempts = 2;
            cfg.sms.retry_base_ms = 10;
            cfg.sms.retry_max_ms = 20;
        }
    }
}

/// Queues one text, runs a dispatcher until the text is parked as failed,
/// and says its last error and how many attempts it took.
async fn send_until_parked(app: &TestApp, what: &str) -> (String, u32) {
    let cfg = app.state.config().clone();
    let store = app.state.store().clone();
    let phone = "+79990001";
    store
        .run(move |tx| {
            let text = compose_text("002220", phone, "hi".into(), true);
            tx.outbox().enqueue(text, chrono::Utc::now())
        })
        .await
        .unwrap();
    let clock: Arc<dyn Clock> = Arc::new(SystemClock);
    let (stop, stopped) = watch::channel(false);
    let sender = Provider::from_config(&cfg).unwrap();
    tokio::spawn(
        Dispatcher::new(
            store.clone(),
            sender,
            cfg.sms.clone(),
            clock,
            Default::default(),
        )
        .run(stopped),
    );
    let mut parked = None;
    for _ in 0..300 {
        let text = app.texts_to(phone).await.pop().unwrap();
        if text.status == TextStatus::Failed {
            parked = text.last_error.map(|e| (e, text.attempts));
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    stop.send(true).ok();
    parked.unwrap_or_else(|| panic!("{what}: the text was never parked"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_secret_leaks_whatever_the_provider_does() {
    let logs = common::logs::captured();
    use Failure::*;
    for provider in [
        ProviderKind::Kannel,
        ProviderKind::Twilio,
        ProviderKind::Vonage,
        ProviderKind::Generic,
    ] {
        for failure in [Refused, Timeout, Echo4xx, Echo5xx, Straddle, Tattle] {
            let what = format!("{provider:?} {failure:?}");
            let (base, seen) = base_url(failure, provider).await;
            let app = TestApp::with_config(|cfg| configure(cfg, provider, failure, &base)).await;
            assert_clean(
                "the configuration's Debug",
                &format!("{:?}", app.state.config()),
            );
            let (last_error, attempts) = send_until_parked(&app, &what).await;
            assert_clean(&format!("{what} last_error"), &last_error);
            match failure {
                // The proof that the secret did stand across the cut.
                Straddle => assert!(last_error.ends_with("[reda"), "{what}: {last_error}"),
                Tattle => assert_eq!(
                    (attempts as usize, seen.lock().unwrap().len()),
                    (tattles().len(), tattles().len()),
                    "{what}: every spelling was answered once"
                ),
                _ => {}
            }
            if provider == ProviderKind::Kannel {
                for uri in seen.lock().unwrap().iter() {
                    assert_free_of(&format!("{what}: Kannel's sendsms"), uri, &[WEBHOOK_SECRET]);
                    assert!(
                        !uri.contains(&in_old_dlr_url(WEBHOOK_SECRET)),
                        "{what}: {uri}"
                    );
                    let query = uri.split_once('?').map_or("", |(_, q)| q);
                    let dlr_url = form_urlencoded::parse(query.as_bytes())
                        .find(|(k, _)| k == "dlr-url")
                        .map(|(_, v)| v.into_owned())
                        .unwrap_or_else(|| panic!("{what}: no dlr-url in {uri}"));
                    assert!(
                        dlr_url.contains("tag=") && !dlr_url.contains("secret"),
                        "{what}: {dlr_url}"
                    );
                }
            }
            for path in ["/admin/stats", "/admin/matches/1"] {
                let reply = app
                    .request(
                        axum::http::Request::get(path)
                            .header("authorization", format!("Bearer {ADMIN_TOKEN}"))
                            .body(Body::empty())
                            .unwrap(),
                    )
                    .await;
                assert_clean(&format!("the admin answer of {path}"), &reply.body);
            }
            eprintln!("{what}: {last_error}");
        }
    }
    let logged = logs.text();
    assert!(logged.contains("send failed"), "the failures were logged");
    assert!(logged.contains("TRACE"), "every crate logs at trace");
    assert_clean("the logs", &logged);
}

fn get(uri: &str, token: Option<&str>) -> axum::http::Request<Body> {
    let mut request = axum::http::Request::get(uri);
    if let Some(token) = token {
        request = request.header("authorization", format!("Bearer {token}"));
    }
    request.body(Body::empty()).unwrap()
}

/// Request URIs are logged by path: the query, where Kannel's webhooks take
/// the secret, is left out, with the right secret and with wrong guesses
/// (the near misses an attacker tries, or an operator's typo of the real one).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn request_uris_are_logged_without_their_query() {
    let logs = common::logs::captured();
    let app = TestApp::with_config(|cfg| {
        cfg.webhooks.secret = WEBHOOK_SECRET.into();
        cfg.admin.token = ADMIN_TOKEN.into();
    })
    .await;
    let enc = |s: &str| utf8_percent_encode(s, NON_ALPHANUMERIC).to_string();
    let guesses: Vec<String> = (0..3)
        .map(|i| format!("GUESS{i}-{WEBHOOK_SECRET}"))
        .collect();
    for (i, guess) in guesses.iter().enumerate() {
        let text = format!(
            "/webhooks/kannel?secret={}&from=%2B79001&to=002220&text=HELP&id=g{i}",
            enc(guess)
        );
        assert_eq!(
            app.request(get(&text, None)).await.status,
            StatusCode::UNAUTHORIZED
        );
        let report = format!(
            "/webhooks/kannel/status?secret={}&ref=k1&type=1",
            enc(guess)
        );
        assert_eq!(
            app.request(get(&report, None)).await.status,
            StatusCode::UNAUTHORIZED
        );
    }
    let secret = enc(WEBHOOK_SECRET);
    let text = format!("/webhooks/kannel?secret={secret}&from=%2B79001&to=002220&text=HELP&id=r1");
    assert_eq!(app.request(get(&text, None)).await.status, StatusCode::OK);
    let report = format!("/webhooks/kannel/status?secret={secret}&ref=k1&type=1");
    assert_eq!(app.request(get(&report, None)).await.status, StatusCode::OK);
    // The admin token in a query, and a wrong one as the bearer.
    let admin = format!("/admin/stats?token={ADMIN_TOKEN}");
    let wrong = app.request(get(&admin, Some("GUESS-adm1n"))).await;
    assert_eq!(wrong.status, StatusCode::UNAUTHORIZED);
    assert_eq!(
        app.request(get(&admin, Some(ADMIN_TOKEN))).await.status,
        StatusCode::OK
    );

    let logged = logs.text();
    assert!(
        !logged.contains("GUESS"),
        "a wrong guess was logged: {logged}"
    );
    assert_clean("the logs", &logged);
    for path in [
        "path=/webhooks/kannel ",
        "path=/webhooks/kannel/status",
        "path=/admin/stats",
    ] {
        assert!(
            logged.contains(path),
            "the requests were logged, by path: {path}"
        );
    }
}

/// A configuration that does not load says which key and what is wrong, and
/// never the value, nor the file's line around it; the database URL is
/// shown with its credentials masked, whatever the scheme.
#[tokio::test]
async fn configuration_errors_name_the_key_never_the_value() {
    let dir = tempfile::tempdir().unwrap();
    let load = |toml: &str, vars: &[(&str, &str)]| {
        let path = dir.path().join("smsarena.toml");
        std::fs::write(&path, toml).unwrap();
        let env = EnvStrings::from_vars(vars.iter().map(|(k, v)| (k.to_string(), v.to_string())));
        let err = Config::load_with_env(Some(&path), env).expect_err(toml);
        format!("{err} / {err:?}")
    };
    let path = dir.path().join("smsarena.toml").display().to_string();

    // A digits-only password unquoted: a number where a string is expected.
    let shown = load("[sms.kannel]\nusername = \"u\"\npassword = 20261201\n", &[]);
    assert!(
        shown.contains("sms.kannel.password") && shown.contains(&path),
        "{shown}"
    );
    assert!(shown.contains("expected a string"), "{shown}");
    assert!(!shown.contains("20261201"), "{shown}");

    // An unclosed quote: the file and the line, not the line's text.
    let shown = load(
        &format!("[sms.kannel]\npassword = \"{KANNEL_PASSWORD}\n"),
        &[],
    );
    assert!(shown.contains(&path) && shown.contains("line 2"), "{shown}");
    assert_clean("a TOML syntax error", &shown);

    // A number by environment that is not one; a secret where an address goes.
    let shown = load("", &[("SMSARENA_SMS__MAX_ATTEMPTS", "many")]);
    assert!(shown.contains("SMSARENA_SMS__MAX_ATTEMPTS"), "{shown}");
    assert!(!shown.contains("many"), "{shown}");
    let shown = load("", &[("SMSARENA_HTTP__LISTEN", ADMIN_TOKEN)]);
    assert!(shown.contains("SMSARENA_HTTP__LISTEN"), "{shown}");
    assert_clean("a bad address", &shown);

    // The database URL's credentials, in its userinfo and in its query.
    let mut cfg = Config::default();
    cfg.database.url = format!(
        "postgres://u:{}@db/x?sslmode=disable&password={}",
        utf8_percent_encode(KANNEL_PASSWORD, NON_ALPHANUMERIC),
        utf8_percent_encode(ADMIN_TOKEN, NON_ALPHANUMERIC),
    );
    assert_eq!(
        cfg.database.shown_url(),
        "postgres://u:***@db/x?sslmode=disable&password=***"
    );
    let secrets = cfg.secrets();
    assert!(
        secrets.iter().any(|s| s == KANNEL_PASSWORD) && secrets.iter().any(|s| s == ADMIN_TOKEN),
        "the database URL's credentials are scrubbed too"
    );
    // An unsupported scheme is refused showing the URL masked.
    let unsupported = format!("mysql://u:{TWILIO_TOKEN}@h/db?password={GENERIC_SECRET}");
    let err = Store::open(&unsupported, 1)
        .await
        .err()
        .expect("mysql is refused");
    let shown = err.to_string();
    assert!(shown.contains("mysql://u:***@h/db?password=***"), "{shown}");
    assert_clean("an unsupported database URL", &shown);
}
