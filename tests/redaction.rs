//! No configured secret leaks: every sender made to fail in every way it can
//! (refused connection, timeout, 4xx and 5xx answers that echo the request
//! back) leaves no password, token or secret in the logs, in the outbox's
//! `last_error`, in the configuration's `Debug`, or in any admin answer.

mod common;

use std::sync::Arc;
use std::time::Duration;

use axum::body::Body;
use axum::extract::Request;
use axum::http::StatusCode;
use axum::response::IntoResponse;
use common::TestApp;
use smsarena::clock::{Clock, SystemClock};
use smsarena::config::{Config, ProviderKind};
use smsarena::platform::compose_text;
use smsarena::sms::Provider;
use smsarena::sms::dispatcher::Dispatcher;
use tokio::sync::watch;

const KANNEL_PASSWORD: &str = "kann3l-pa55&word";
const TWILIO_TOKEN: &str = "tw1l1o-t0ken";
const VONAGE_SECRET: &str = "v0nage-s3cret";
const GENERIC_SECRET: &str = "gener1c-s3cret";
const WEBHOOK_SECRET: &str = "w3bhook-s3cret";
const ADMIN_TOKEN: &str = "adm1n-t0ken";
const SECRETS: [&str; 6] = [
    KANNEL_PASSWORD,
    TWILIO_TOKEN,
    VONAGE_SECRET,
    GENERIC_SECRET,
    WEBHOOK_SECRET,
    ADMIN_TOKEN,
];

/// How the fake provider fails.
#[derive(Clone, Copy, Debug)]
enum Failure {
    Refused,
    Timeout,
    Echo4xx,
    Echo5xx,
}

/// A fake provider that answers every request with `status` and the whole
/// request (URL, headers, body) in its body, the worst a provider can do.
async fn echo_server(status: StatusCode, hang: bool) -> String {
    let router = axum::Router::new().fallback(move |request: Request| async move {
        if hang {
            tokio::time::sleep(Duration::from_secs(5)).await;
        }
        let (parts, body) = request.into_parts();
        let body = axum::body::to_bytes(body, 1 << 20)
            .await
            .unwrap_or_default();
        let echo = format!(
            "{} {} {:?} {}",
            parts.method,
            parts.uri,
            parts.headers,
            String::from_utf8_lossy(&body)
        );
        (status, echo).into_response()
    });
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, router).await.unwrap() });
    url
}

async fn base_url(failure: Failure) -> String {
    match failure {
        Failure::Refused => {
            let port = std::net::TcpListener::bind("127.0.0.1:0")
                .unwrap()
                .local_addr()
                .unwrap()
                .port();
            format!("http://127.0.0.1:{port}")
        }
        Failure::Timeout => echo_server(StatusCode::OK, true).await,
        Failure::Echo4xx => echo_server(StatusCode::BAD_REQUEST, false).await,
        Failure::Echo5xx => echo_server(StatusCode::INTERNAL_SERVER_ERROR, false).await,
    }
}

fn configure(cfg: &mut Config, provider: ProviderKind, base: &str) {
    cfg.sms.provider = provider;
    cfg.sms.kannel.sendsms_url = format!("{base}/cgi-bin/sendsms");
    cfg.sms.kannel.username = "smsarena".into();
    cfg.sms.kannel.password = KANNEL_PASSWORD.into();
    cfg.sms.twilio.account_sid = "AC123".into();
    cfg.sms.twilio.auth_token = TWILIO_TOKEN.into();
    cfg.sms.twilio.base_url = base.into();
    cfg.sms.vonage.api_key = "key".into();
    cfg.sms.vonage.api_secret = VONAGE_SECRET.into();
    cfg.sms.vonage.base_url = base.into();
    cfg.sms.generic.url = format!("{base}/send");
    cfg.sms.generic.secret = GENERIC_SECRET.into();
    cfg.webhooks.secret = WEBHOOK_SECRET.into();
    cfg.admin.token = ADMIN_TOKEN.into();
    cfg.sms.send_timeout_ms = 300;
    cfg.sms.retry_base_ms = 10;
    cfg.sms.retry_max_ms = 20;
    cfg.sms.max_attempts = 2;
}

fn assert_clean(what: &str, text: &str) {
    use base64::Engine;
    // Twilio's Basic credentials, as an echo would show them.
    let basic = base64::engine::general_purpose::STANDARD.encode(format!("AC123:{TWILIO_TOKEN}"));
    for secret in SECRETS.iter().copied().chain([basic.as_str()]) {
        let encoded =
            percent_encoding::utf8_percent_encode(secret, percent_encoding::NON_ALPHANUMERIC)
                .to_string();
        assert!(
            !text.contains(secret) && !text.contains(&encoded),
            "{what} holds the secret {secret:?}: {text}"
        );
    }
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
        for failure in [Refused, Timeout, Echo4xx, Echo5xx] {
            let base = base_url(failure).await;
            let app = TestApp::with_config(|cfg| configure(cfg, provider, &base)).await;
            let cfg = app.state.config().clone();
            assert_clean("the configuration's Debug", &format!("{cfg:?}"));
            let store = app.state.store().clone();
            let phone = "+79990001";
            store
                .run(move |tx| {
                    let text = compose_text("002220", phone, "hi".into(), true);
                    tx.outbox().enqueue(&text, chrono::Utc::now())
                })
                .await
                .unwrap();
            let clock: Arc<dyn Clock> = Arc::new(SystemClock);
            let (stop, stopped) = watch::channel(false);
            let sender = Provider::from_config(&cfg).unwrap();
            tokio::spawn(
                Dispatcher::new(store.clone(), sender, cfg.sms.clone(), clock).run(stopped),
            );
            // Until the text is parked (two attempts) or has failed once at least.
            let mut last_error = None;
            for _ in 0..200 {
                let text = app.texts_to(phone).await.pop().unwrap();
                if text.last_error.is_some() && text.attempts >= 1 {
                    last_error = text.last_error;
                    if text.status == smsarena::store::TextStatus::Failed {
                        break;
                    }
                }
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
            stop.send(true).ok();
            let last_error = last_error
                .unwrap_or_else(|| panic!("{provider:?} {failure:?}: the send never failed"));
            assert_clean(&format!("{provider:?} {failure:?} last_error"), &last_error);
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
            eprintln!("{provider:?} {failure:?}: {last_error}");
        }
    }
    let logged = logs.text();
    assert!(logged.contains("send failed"), "the failures were logged");
    assert_clean("the logs", &logged);
}
