//! Each provider's sender against a local fake of its API: the request it makes, and how
//! it reads the answer (accepted, retry later, refused for good, recipient opted out).

use std::sync::{Arc, Mutex};

use axum::extract::{Request, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use http_body_util::BodyExt;
use smsarena::config::{Config, ProviderKind};
use smsarena::providers::{Provider, SendError};
use smsarena::store::{OutboxText, TextStatus};

/// What the fake saw: method, path and query, authorization header, body.
type Seen = Arc<Mutex<Vec<(String, String, Option<String>, String)>>>;

/// A fake API that answers every request with `answer` and remembers it.
async fn fake(answer: (StatusCode, &'static str)) -> (String, Seen) {
    let seen: Seen = Arc::default();
    let handler = move |State(seen): State<Seen>, request: Request| async move {
        let (parts, body) = request.into_parts();
        let body = String::from_utf8(body.collect().await.unwrap().to_bytes().to_vec()).unwrap();
        let auth = parts
            .headers
            .get("authorization")
            .map(|v| v.to_str().unwrap().to_string());
        seen.lock()
            .unwrap()
            .push((parts.method.to_string(), parts.uri.to_string(), auth, body));
        let response: Response =
            (answer.0, [("content-type", "application/json")], answer.1).into_response();
        response
    };
    let router = axum::Router::new()
        .fallback(handler)
        .with_state(seen.clone());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, router).await.unwrap() });
    (url, seen)
}

fn text(body: &str, encoding: &str) -> OutboxText {
    OutboxText {
        id: 42,
        from: "002220".into(),
        to: "+79001234567".into(),
        body: body.into(),
        encoding: encoding.into(),
        parts: 1,
        attempts: 1,
        status: TextStatus::Sending,
        provider_ref: None,
        last_error: None,
    }
}

fn form(body: &str) -> Vec<(String, String)> {
    serde_urlencoded::from_str(body).unwrap()
}

fn field<'a>(pairs: &'a [(String, String)], key: &str) -> Option<&'a str> {
    pairs
        .iter()
        .find(|(k, _)| k == key)
        .map(|(_, v)| v.as_str())
}

fn twilio(url: &str) -> Provider {
    let mut cfg = Config::default();
    cfg.http.public_url = "https://gw.example".into();
    cfg.sms.provider = ProviderKind::Twilio;
    cfg.sms.twilio.account_sid = "AC123".into();
    cfg.sms.twilio.auth_token = "tok".into();
    cfg.sms.twilio.base_url = url.into();
    Provider::from_config(&cfg).unwrap()
}

#[tokio::test]
async fn twilio_posts_the_message_with_basic_auth_and_a_status_callback() {
    let (url, seen) = fake((StatusCode::CREATED, r#"{"sid":"SM0001","status":"queued"}"#)).await;
    let accepted = twilio(&url).send(&text("Vash xod.", "gsm7")).await.unwrap();
    assert_eq!(accepted.provider_ref.as_deref(), Some("SM0001"));
    let (method, path, auth, body) = seen.lock().unwrap()[0].clone();
    assert_eq!(
        (method.as_str(), path.as_str()),
        ("POST", "/2010-04-01/Accounts/AC123/Messages.json")
    );
    // "AC123:tok" in Base64.
    assert_eq!(auth.as_deref(), Some("Basic QUMxMjM6dG9r"));
    let body = form(&body);
    assert_eq!(field(&body, "To"), Some("+79001234567"));
    assert_eq!(field(&body, "From"), Some("002220"));
    assert_eq!(field(&body, "Body"), Some("Vash xod."));
    assert_eq!(
        field(&body, "StatusCallback"),
        Some("https://gw.example/webhooks/twilio/status")
    );
}

#[tokio::test]
async fn twilio_errors_are_typed_by_what_to_do() {
    let (url, _) = fake((
        StatusCode::BAD_REQUEST,
        r#"{"code":21610,"message":"Attempt to send to unsubscribed recipient"}"#,
    ))
    .await;
    assert_eq!(
        twilio(&url).send(&text("x", "gsm7")).await,
        Err(SendError::RecipientOptedOut)
    );
    let (url, _) = fake((
        StatusCode::BAD_REQUEST,
        r#"{"code":21211,"message":"Invalid 'To' Phone Number"}"#,
    ))
    .await;
    assert!(matches!(
        twilio(&url).send(&text("x", "gsm7")).await,
        Err(SendError::Final { .. })
    ));
    let (url, _) = fake((StatusCode::TOO_MANY_REQUESTS, r#"{"code":20429}"#)).await;
    assert!(matches!(
        twilio(&url).send(&text("x", "gsm7")).await,
        Err(SendError::Retry { .. })
    ));
    let (url, _) = fake((StatusCode::SERVICE_UNAVAILABLE, "")).await;
    assert!(matches!(
        twilio(&url).send(&text("x", "gsm7")).await,
        Err(SendError::Retry { .. })
    ));
}

fn vonage(url: &str) -> Provider {
    let mut cfg = Config::default();
    cfg.http.public_url = "https://gw.example".into();
    cfg.sms.provider = ProviderKind::Vonage;
    cfg.sms.vonage.api_key = "key".into();
    cfg.sms.vonage.api_secret = "secret".into();
    cfg.sms.vonage.base_url = url.into();
    Provider::from_config(&cfg).unwrap()
}

#[tokio::test]
async fn vonage_sends_unicode_for_cyrillic_and_asks_for_receipts() {
    let ok = r#"{"message-count":"1","messages":[{"to":"79001234567","message-id":"0A1","status":"0"}]}"#;
    let (url, seen) = fake((StatusCode::OK, ok)).await;
    let accepted = vonage(&url).send(&text("Привет", "ucs2")).await.unwrap();
    assert_eq!(
        accepted.provider_ref.as_deref(),
        Some("v42"),
        "receipts carry our client-ref"
    );
    let (method, path, _, body) = seen.lock().unwrap()[0].clone();
    assert_eq!((method.as_str(), path.as_str()), ("POST", "/sms/json"));
    let body = form(&body);
    assert_eq!(field(&body, "type"), Some("unicode"));
    assert_eq!(field(&body, "text"), Some("Привет"));
    assert_eq!(field(&body, "api_key"), Some("key"));
    assert_eq!(field(&body, "client-ref"), Some("v42"));
    assert_eq!(
        field(&body, "callback"),
        Some("https://gw.example/webhooks/vonage/status")
    );

    vonage(&url).send(&text("Vash xod.", "gsm7")).await.unwrap();
    assert_eq!(
        field(&form(&seen.lock().unwrap()[1].3), "type"),
        Some("text")
    );
}

#[tokio::test]
async fn vonage_reads_the_verdict_inside_a_200() {
    let throttled = r#"{"message-count":"1","messages":[{"status":"1","error-text":"Throttled"}]}"#;
    let (url, _) = fake((StatusCode::OK, throttled)).await;
    assert!(matches!(
        vonage(&url).send(&text("x", "gsm7")).await,
        Err(SendError::Retry { .. })
    ));
    let invalid = r#"{"message-count":"1","messages":[{"status":"3","error-text":"Invalid to"}]}"#;
    let (url, _) = fake((StatusCode::OK, invalid)).await;
    assert!(matches!(
        vonage(&url).send(&text("x", "gsm7")).await,
        Err(SendError::Final { .. })
    ));
}

#[tokio::test]
async fn kannel_sends_cyrillic_as_ucs2_and_points_reports_back_at_us() {
    let (url, seen) = fake((StatusCode::ACCEPTED, "0: Accepted for delivery")).await;
    let mut cfg = Config::default();
    cfg.http.public_url = "https://gw.example".into();
    cfg.sms.provider = ProviderKind::Kannel;
    cfg.sms.kannel.sendsms_url = format!("{url}/cgi-bin/sendsms");
    cfg.sms.kannel.username = "u".into();
    cfg.sms.kannel.password = "p".into();
    let kannel = Provider::from_config(&cfg).unwrap();
    let accepted = kannel.send(&text("Привет", "ucs2")).await.unwrap();
    assert_eq!(accepted.provider_ref.as_deref(), Some("k42"));
    let (method, path, _, _) = seen.lock().unwrap()[0].clone();
    assert_eq!(method, "GET");
    let query = form(path.split_once('?').unwrap().1);
    assert_eq!(field(&query, "coding"), Some("2"));
    assert_eq!(field(&query, "charset"), Some("UTF-16BE"));
    assert_eq!(
        field(&query, "to"),
        Some("+79001234567"),
        "the + is escaped, not read as a space"
    );
    assert_eq!(
        field(&query, "dlr-url"),
        Some("https://gw.example/webhooks/kannel/status?ref=k42&type=%d")
    );
    // The text travels as UTF-16BE bytes, which are not UTF-8: compare the raw escape.
    let raw = path
        .split('&')
        .find_map(|kv| kv.strip_prefix("text="))
        .unwrap();
    let bytes: Vec<u8> = percent_encoding::percent_decode_str(raw).collect();
    let utf16: Vec<u8> = "Привет".encode_utf16().flat_map(u16::to_be_bytes).collect();
    assert_eq!(bytes, utf16, "{path}");

    let (url, _) = fake((StatusCode::SERVICE_UNAVAILABLE, "")).await;
    cfg.sms.kannel.sendsms_url = format!("{url}/cgi-bin/sendsms");
    let err = Provider::from_config(&cfg)
        .unwrap()
        .send(&text("x", "gsm7"))
        .await;
    assert!(matches!(err, Err(SendError::Retry { .. })));
}

#[tokio::test]
async fn a_provider_without_its_credentials_refuses_to_start() {
    for kind in [
        ProviderKind::Twilio,
        ProviderKind::Vonage,
        ProviderKind::Generic,
    ] {
        let mut cfg = Config::default();
        cfg.sms.provider = kind;
        assert!(Provider::from_config(&cfg).is_err(), "{kind:?}");
    }
}
