//! Provider tables: one harness, one table per provider, real payloads.
//! Each row is a request, the status it must get, and what it must leave in the inbound log.

use crate::common;

use axum::body::Body;
use axum::http::{Request, StatusCode};
use common::TestApp;
use smsarena::providers::signatures::{twilio_signature, vonage_signature};

const SECRET: &str = "s3cret";
const TWILIO_TOKEN: &str = "12345";
const VONAGE_SECRET: &str = "vsecret";

/// One row of a provider table.
struct Case {
    name: &'static str,
    request: Request<Body>,
    status: StatusCode,
    /// Inbound messages recorded after this row (cumulative across the table).
    inbound_after: i64,
}

async fn secured_app() -> TestApp {
    TestApp::with_config(|cfg| {
        cfg.webhooks.secret = SECRET.into();
        cfg.sms.twilio.auth_token = TWILIO_TOKEN.into();
        cfg.sms.vonage.signature_secret = VONAGE_SECRET.into();
        cfg.http.max_body_bytes = 4096;
    })
    .await
}

async fn run_table(app: &TestApp, cases: Vec<Case>) {
    for case in cases {
        let reply = app.request(case.request).await;
        assert_eq!(
            reply.status, case.status,
            "{}: body {}",
            case.name, reply.body
        );
        assert_eq!(
            app.count("inbound").await,
            case.inbound_after,
            "{}: inbound rows",
            case.name
        );
    }
}

fn json_post(uri: &str, secret: Option<&str>, body: &str) -> Request<Body> {
    let mut r = Request::post(uri).header("content-type", "application/json");
    if let Some(s) = secret {
        r = r.header("x-webhook-secret", s);
    }
    r.body(Body::from(body.to_string())).unwrap()
}

fn form_post(uri: &str, headers: &[(&str, &str)], body: &str) -> Request<Body> {
    let mut r = Request::post(uri).header("content-type", "application/x-www-form-urlencoded");
    for (k, v) in headers {
        r = r.header(*k, *v);
    }
    r.body(Body::from(body.to_string())).unwrap()
}

fn get(uri: &str) -> Request<Body> {
    Request::get(uri).body(Body::empty()).unwrap()
}

fn big(n: usize) -> String {
    "x".repeat(n)
}

#[tokio::test]
async fn generic_webhook_table() {
    let app = secured_app().await;
    let ok = r#"{"id":"g1","from":"+79001","to":"002220","text":"R alice"}"#;
    run_table(
        &app,
        vec![
            Case {
                name: "valid",
                request: json_post("/webhooks/generic", Some(SECRET), ok),
                status: StatusCode::OK,
                inbound_after: 1,
            },
            Case {
                name: "duplicate id",
                request: json_post("/webhooks/generic", Some(SECRET), ok),
                status: StatusCode::OK,
                inbound_after: 1,
            },
            Case {
                name: "missing secret",
                request: json_post("/webhooks/generic", None, ok),
                status: StatusCode::UNAUTHORIZED,
                inbound_after: 1,
            },
            Case {
                name: "wrong secret",
                request: json_post("/webhooks/generic", Some("nope"), ok),
                status: StatusCode::UNAUTHORIZED,
                inbound_after: 1,
            },
            Case {
                name: "missing text",
                request: json_post(
                    "/webhooks/generic",
                    Some(SECRET),
                    r#"{"id":"g2","from":"+79001","to":"002220"}"#,
                ),
                status: StatusCode::BAD_REQUEST,
                inbound_after: 1,
            },
            Case {
                name: "empty id",
                request: json_post(
                    "/webhooks/generic",
                    Some(SECRET),
                    r#"{"id":" ","from":"+79001","to":"002220","text":"x"}"#,
                ),
                status: StatusCode::BAD_REQUEST,
                inbound_after: 1,
            },
            Case {
                name: "not JSON",
                request: json_post("/webhooks/generic", Some(SECRET), "id=1"),
                status: StatusCode::BAD_REQUEST,
                inbound_after: 1,
            },
            Case {
                name: "wrong types",
                request: json_post(
                    "/webhooks/generic",
                    Some(SECRET),
                    r#"{"id":1,"from":[],"to":null,"text":{}}"#,
                ),
                status: StatusCode::BAD_REQUEST,
                inbound_after: 1,
            },
            Case {
                name: "oversized body",
                request: json_post(
                    "/webhooks/generic",
                    Some(SECRET),
                    &format!(
                        r#"{{"id":"g3","from":"+79001","to":"002220","text":"{}"}}"#,
                        big(5000)
                    ),
                ),
                status: StatusCode::PAYLOAD_TOO_LARGE,
                inbound_after: 1,
            },
            Case {
                name: "wrong method",
                request: get("/webhooks/generic"),
                status: StatusCode::METHOD_NOT_ALLOWED,
                inbound_after: 1,
            },
            Case {
                name: "cyrillic text",
                request: json_post(
                    "/webhooks/generic",
                    Some(SECRET),
                    r#"{"id":"g4","from":"+79001","to":"002220","text":"Привет"}"#,
                ),
                status: StatusCode::OK,
                inbound_after: 2,
            },
        ],
    )
    .await;
    // Only one registration reply: the duplicate was not applied twice.
    let texts = app.texts_to("+79001").await;
    assert_eq!(
        texts
            .iter()
            .filter(|t| t.body.starts_with("Vy zaregistrirovany"))
            .count(),
        1
    );
}

#[tokio::test]
async fn kannel_webhook_table() {
    let app = secured_app().await;
    let q = |rest: &str| format!("/webhooks/kannel?secret={SECRET}&{rest}");
    // "Привет" in UTF-16BE, as Kannel's %b sends a UCS-2 text.
    let ucs2 = "%04%1F%04%40%04%38%04%32%04%35%04%42";
    run_table(
        &app,
        vec![
            Case {
                name: "valid GET",
                request: get(&q(
                    "from=%2B79002&to=002220&text=R+bob&id=k1&coding=0&charset=UTF-8",
                )),
                status: StatusCode::OK,
                inbound_after: 1,
            },
            Case {
                name: "duplicate id",
                request: get(&q(
                    "from=%2B79002&to=002220&text=R+bob&id=k1&coding=0&charset=UTF-8",
                )),
                status: StatusCode::OK,
                inbound_after: 1,
            },
            Case {
                name: "valid POST form",
                request: form_post(
                    "/webhooks/kannel",
                    &[],
                    &format!("secret={SECRET}&from=%2B79002&to=002220&text=HELP&id=k2"),
                ),
                status: StatusCode::OK,
                inbound_after: 2,
            },
            Case {
                name: "UCS-2 text",
                request: get(&q(&format!(
                    "from=%2B79002&to=002220&text={ucs2}&id=k3&coding=2&charset=UTF-16BE"
                ))),
                status: StatusCode::OK,
                inbound_after: 3,
            },
            Case {
                name: "odd UTF-16 bytes",
                request: get(&q(
                    "from=%2B79002&to=002220&text=%04&id=k4&coding=2&charset=UTF-16BE",
                )),
                status: StatusCode::BAD_REQUEST,
                inbound_after: 3,
            },
            Case {
                name: "missing id",
                request: get(&q("from=%2B79002&to=002220&text=x")),
                status: StatusCode::BAD_REQUEST,
                inbound_after: 3,
            },
            Case {
                name: "missing from",
                request: get(&q("to=002220&text=x&id=k5")),
                status: StatusCode::BAD_REQUEST,
                inbound_after: 3,
            },
            Case {
                name: "missing secret",
                request: get("/webhooks/kannel?from=%2B79002&to=002220&text=x&id=k6"),
                status: StatusCode::UNAUTHORIZED,
                inbound_after: 3,
            },
            Case {
                name: "wrong secret",
                request: get("/webhooks/kannel?secret=no&from=%2B79002&to=002220&text=x&id=k7"),
                status: StatusCode::UNAUTHORIZED,
                inbound_after: 3,
            },
            Case {
                name: "oversized body",
                request: form_post(
                    "/webhooks/kannel",
                    &[],
                    &format!("secret={SECRET}&from=1&to=2&id=k8&text={}", big(5000)),
                ),
                status: StatusCode::PAYLOAD_TOO_LARGE,
                inbound_after: 3,
            },
            Case {
                name: "wrong method",
                request: Request::delete("/webhooks/kannel")
                    .body(Body::empty())
                    .unwrap(),
                status: StatusCode::METHOD_NOT_ALLOWED,
                inbound_after: 3,
            },
        ],
    )
    .await;
    let log = app
        .state
        .store()
        .read(|tx| tx.texts_to("+79002"))
        .await
        .unwrap();
    assert!(
        log[0].body.starts_with("Vy zaregistrirovany kak bob"),
        "{log:?}"
    );
    // The Cyrillic text arrived intact: it was read as text, not as a command.
    assert_eq!(
        log.last().unwrap().body,
        "Neizvestnaya komanda. HELP - spisok komand."
    );
}

/// With `sms.kannel.answer_max_parts`, the lone reply to a phone's text is
/// the webhook's answer, with the headers Kannel reads, and is recorded as
/// sent; a repeat of the text gets the same answer. A reply too long for the
/// answer, or one that would overtake a text still unsent, goes through the
/// outbox, and the answer is empty.
#[tokio::test]
async fn kannel_replies_ride_on_the_answer_when_they_fit() {
    let app = TestApp::with_config(|cfg| {
        cfg.webhooks.secret = SECRET.into();
        cfg.http.public_url = "http://gw.example".into();
        cfg.sms.provider = smsarena::config::ProviderKind::Kannel;
        // Nobody listens there: what goes through the outbox stays unsent.
        cfg.sms.kannel.sendsms_url = "http://127.0.0.1:9/cgi-bin/sendsms".into();
        cfg.sms.kannel.answer_max_parts = 1;
    })
    .await;
    let q = |rest: &str| format!("/webhooks/kannel?secret={SECRET}&from=%2B79005&to=002220&{rest}");
    let reply = app.request(get(&q("text=R+bob&id=uuid-1"))).await;
    assert_eq!(reply.status, StatusCode::OK);
    assert!(
        reply.body.starts_with("Vy zaregistrirovany kak bob"),
        "{}",
        reply.body
    );
    assert_eq!(
        reply.content_type.as_deref(),
        Some("text/plain; charset=utf-8")
    );
    let header = |reply: &common::Reply, name: &str| {
        reply
            .headers
            .get(name)
            .map(|v| v.to_str().unwrap().to_string())
    };
    assert_eq!(header(&reply, "x-kannel-from").as_deref(), Some("002220"));
    assert_eq!(header(&reply, "x-kannel-dlr-mask").as_deref(), Some("31"));
    // The tag of "auuid-1" under "s3cret", not the secret itself.
    assert_eq!(
        header(&reply, "x-kannel-dlr-url").as_deref(),
        Some(
            "http://gw.example/webhooks/kannel/status\
             ?tag=f6cbdae2f6331dca8fb782dba41590ac&ref=auuid-1&type=%d"
        )
    );
    // Kannel did not get that answer and asks again: the same answer, nothing done twice.
    let again = app.request(get(&q("text=R+bob&id=uuid-1"))).await;
    assert_eq!((again.status, &again.body), (StatusCode::OK, &reply.body));
    assert_eq!(app.count("inbound").await, 1);
    // A word battle's board is Cyrillic (UCS-2) and several parts: through
    // the outbox, and an empty answer.
    let board = app.request(get(&q("text=P+WB+BOT+1&id=uuid-2"))).await;
    assert_eq!((board.status, board.body.as_str()), (StatusCode::OK, ""));
    // The board is still unsent: the next reply must not overtake it.
    let unknown = app.request(get(&q("text=QWERTY&id=uuid-3"))).await;
    assert_eq!(
        (unknown.status, unknown.body.as_str()),
        (StatusCode::OK, "")
    );
    let texts = app
        .state
        .store()
        .read(|tx| tx.texts_to("+79005"))
        .await
        .unwrap();
    let answered: Vec<Option<&str>> = texts
        .iter()
        .filter(|t| t.status == smsarena::store::TextStatus::Sent)
        .map(|t| t.provider_ref.as_deref())
        .collect();
    assert_eq!(answered, [Some("auuid-1")], "{texts:?}");
    assert!(
        texts.len() >= 3,
        "the board and the refusal are queued: {texts:?}"
    );
    // A delivery report for the answered text, as Kannel calls that URL, finds it.
    let report = app
        .request(get(
            "/webhooks/kannel/status?tag=f6cbdae2f6331dca8fb782dba41590ac&ref=auuid-1&type=1",
        ))
        .await;
    assert_eq!(report.status, StatusCode::OK);
    let first = app
        .state
        .store()
        .read(|tx| tx.texts_to("+79005"))
        .await
        .unwrap();
    assert_eq!(first[0].status, smsarena::store::TextStatus::Delivered);
}

/// A delivery report proves itself by its reference's tag, or, as reports of
/// texts sent before tags did, by the secret; nothing else passes.
#[tokio::test]
async fn kannel_reports_prove_themselves_by_their_tag_or_the_old_secret() {
    let app = secured_app().await;
    let tag = smsarena::providers::kannel::dlr_tag(SECRET, "k1");
    let report = |query: String| get(&format!("/webhooks/kannel/status?{query}"));
    run_table(
        &app,
        vec![
            Case {
                name: "the reference's tag",
                request: report(format!("tag={tag}&ref=k1&type=8")),
                status: StatusCode::OK,
                inbound_after: 0,
            },
            Case {
                name: "the secret, as before tags",
                request: report(format!("secret={SECRET}&ref=k1&type=8")),
                status: StatusCode::OK,
                inbound_after: 0,
            },
            Case {
                name: "another reference's tag",
                request: report(format!("tag={tag}&ref=k2&type=8")),
                status: StatusCode::UNAUTHORIZED,
                inbound_after: 0,
            },
            Case {
                name: "half the tag",
                request: report(format!("tag={}&ref=k1&type=8", &tag[..16])),
                status: StatusCode::UNAUTHORIZED,
                inbound_after: 0,
            },
            Case {
                name: "a wrong tag and no secret",
                request: report("tag=00&ref=k1&type=8".into()),
                status: StatusCode::UNAUTHORIZED,
                inbound_after: 0,
            },
            Case {
                name: "no proof",
                request: report("ref=k1&type=8".into()),
                status: StatusCode::UNAUTHORIZED,
                inbound_after: 0,
            },
        ],
    )
    .await;
}

fn twilio_form(pairs: &[(&str, &str)]) -> (String, String) {
    let body = serde_urlencoded::to_string(pairs).unwrap();
    let owned: Vec<(String, String)> = pairs
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    let sig = twilio_signature(
        TWILIO_TOKEN,
        "https://sms.example.com/webhooks/twilio",
        &owned,
    );
    (body, sig)
}

#[tokio::test]
async fn twilio_webhook_table() {
    let app = secured_app().await;
    let fields = [
        ("AccountSid", "AC1"),
        ("ApiVersion", "2010-04-01"),
        ("Body", "R carol"),
        ("From", "+79003"),
        ("MessageSid", "SM1"),
        ("NumMedia", "0"),
        ("To", "002220"),
    ];
    let (body, sig) = twilio_form(&fields);
    let (no_sid, no_sid_sig) = twilio_form(&[("Body", "x"), ("From", "+79003"), ("To", "002220")]);
    let reply = app
        .request(form_post(
            "/webhooks/twilio",
            &[("x-twilio-signature", &sig)],
            &body,
        ))
        .await;
    assert_eq!(reply.status, StatusCode::OK);
    assert_eq!(reply.content_type.as_deref(), Some("text/xml"));
    assert!(reply.body.contains("<Response/>"));
    run_table(
        &app,
        vec![
            Case {
                name: "duplicate MessageSid",
                request: form_post("/webhooks/twilio", &[("x-twilio-signature", &sig)], &body),
                status: StatusCode::OK,
                inbound_after: 1,
            },
            Case {
                name: "missing signature",
                request: form_post("/webhooks/twilio", &[], &body),
                status: StatusCode::FORBIDDEN,
                inbound_after: 1,
            },
            Case {
                name: "bad signature",
                request: form_post(
                    "/webhooks/twilio",
                    &[("x-twilio-signature", "0/KCTR6DLpKmkAf8muzZqo1nDgQ=")],
                    &body,
                ),
                status: StatusCode::FORBIDDEN,
                inbound_after: 1,
            },
            Case {
                name: "tampered body",
                request: form_post(
                    "/webhooks/twilio",
                    &[("x-twilio-signature", &sig)],
                    &body.replace("carol", "mallory"),
                ),
                status: StatusCode::FORBIDDEN,
                inbound_after: 1,
            },
            Case {
                name: "missing MessageSid",
                request: form_post(
                    "/webhooks/twilio",
                    &[("x-twilio-signature", &no_sid_sig)],
                    &no_sid,
                ),
                status: StatusCode::BAD_REQUEST,
                inbound_after: 1,
            },
            Case {
                name: "oversized body",
                request: form_post(
                    "/webhooks/twilio",
                    &[("x-twilio-signature", &sig)],
                    &format!("{body}&Pad={}", big(5000)),
                ),
                status: StatusCode::PAYLOAD_TOO_LARGE,
                inbound_after: 1,
            },
            Case {
                name: "wrong method",
                request: get("/webhooks/twilio"),
                status: StatusCode::METHOD_NOT_ALLOWED,
                inbound_after: 1,
            },
            Case {
                name: "JSON instead of form",
                request: json_post("/webhooks/twilio", None, "{}"),
                status: StatusCode::BAD_REQUEST,
                inbound_after: 1,
            },
        ],
    )
    .await;
    assert!(
        app.texts_to("+79003").await[0]
            .body
            .starts_with("Vy zaregistrirovany kak carol")
    );
}

fn vonage_query(pairs: &[(&str, &str)], method: &str) -> String {
    let owned: Vec<(String, String)> = pairs
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    let sig = vonage_signature(VONAGE_SECRET, method, &owned).unwrap();
    let mut all = pairs.to_vec();
    all.push(("sig", &sig));
    serde_urlencoded::to_string(&all).unwrap()
}

#[tokio::test]
async fn vonage_webhook_table() {
    let app = secured_app().await;
    let fields = [
        ("msisdn", "79004"),
        ("to", "002220"),
        ("messageId", "V1"),
        ("text", "R dave"),
        ("type", "text"),
        ("keyword", "R"),
        ("message-timestamp", "2026-12-01 12:00:00"),
        ("timestamp", "1796126400"),
    ];
    let signed = vonage_query(&fields, "md5hash");
    let json_fields = [
        ("msisdn", "79004"),
        ("to", "002220"),
        ("messageId", "V2"),
        ("text", "HELP"),
        ("type", "text"),
        ("timestamp", "1796126400"),
    ];
    let json_sig = vonage_signature(
        VONAGE_SECRET,
        "md5hash",
        &json_fields
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect::<Vec<_>>(),
    )
    .unwrap();
    let mut json_body: serde_json::Map<String, serde_json::Value> = json_fields
        .iter()
        .map(|(k, v)| (k.to_string(), serde_json::Value::from(*v)))
        .collect();
    json_body.insert("sig".into(), json_sig.into());
    let unsigned = serde_urlencoded::to_string(fields).unwrap();
    run_table(
        &app,
        vec![
            Case {
                name: "valid GET",
                request: get(&format!("/webhooks/vonage?{signed}")),
                status: StatusCode::OK,
                inbound_after: 1,
            },
            Case {
                name: "duplicate messageId",
                request: get(&format!("/webhooks/vonage?{signed}")),
                status: StatusCode::OK,
                inbound_after: 1,
            },
            Case {
                name: "valid JSON POST",
                request: json_post(
                    "/webhooks/vonage",
                    None,
                    &serde_json::Value::Object(json_body).to_string(),
                ),
                status: StatusCode::OK,
                inbound_after: 2,
            },
            Case {
                name: "missing sig",
                request: get(&format!("/webhooks/vonage?{unsigned}")),
                status: StatusCode::FORBIDDEN,
                inbound_after: 2,
            },
            Case {
                name: "tampered text",
                request: get(&format!(
                    "/webhooks/vonage?{}",
                    signed.replace("dave", "eve")
                )),
                status: StatusCode::FORBIDDEN,
                inbound_after: 2,
            },
            Case {
                name: "a signed request captured six minutes ago",
                request: get(&format!(
                    "/webhooks/vonage?{}",
                    vonage_query(
                        &[
                            ("msisdn", "79004"),
                            ("to", "002220"),
                            ("messageId", "V3"),
                            ("text", "HELP"),
                            ("timestamp", "1796126040"),
                        ],
                        "md5hash"
                    )
                )),
                status: StatusCode::FORBIDDEN,
                inbound_after: 2,
            },
            Case {
                name: "a signed request without its timestamp",
                request: get(&format!(
                    "/webhooks/vonage?{}",
                    vonage_query(
                        &[
                            ("msisdn", "79004"),
                            ("to", "002220"),
                            ("messageId", "V4"),
                            ("text", "HELP"),
                        ],
                        "md5hash"
                    )
                )),
                status: StatusCode::BAD_REQUEST,
                inbound_after: 2,
            },
            Case {
                name: "form POST without messageId",
                request: form_post(
                    "/webhooks/vonage",
                    &[],
                    &vonage_query(
                        &[
                            ("msisdn", "79004"),
                            ("to", "002220"),
                            ("text", "x"),
                            ("timestamp", "1796126400"),
                        ],
                        "md5hash",
                    ),
                ),
                status: StatusCode::BAD_REQUEST,
                inbound_after: 2,
            },
            Case {
                name: "oversized body",
                request: form_post(
                    "/webhooks/vonage",
                    &[],
                    &format!("{signed}&pad={}", big(5000)),
                ),
                status: StatusCode::PAYLOAD_TOO_LARGE,
                inbound_after: 2,
            },
            Case {
                name: "wrong method",
                request: Request::put("/webhooks/vonage")
                    .body(Body::empty())
                    .unwrap(),
                status: StatusCode::METHOD_NOT_ALLOWED,
                inbound_after: 2,
            },
            Case {
                name: "plain-text POST",
                request: Request::post("/webhooks/vonage")
                    .header("content-type", "text/plain")
                    .body(Body::from("hi"))
                    .unwrap(),
                status: StatusCode::BAD_REQUEST,
                inbound_after: 2,
            },
        ],
    )
    .await;
    assert!(
        app.texts_to("79004").await[0]
            .body
            .starts_with("Vy zaregistrirovany kak dave")
    );
}

#[tokio::test]
async fn hmac_signed_vonage_webhooks_are_checked_too() {
    let app = TestApp::with_config(|cfg| {
        cfg.sms.vonage.signature_secret = VONAGE_SECRET.into();
        cfg.sms.vonage.signature_method = "sha256".into();
    })
    .await;
    let fields = [
        ("msisdn", "79005"),
        ("to", "002220"),
        ("messageId", "H1"),
        ("text", "HELP"),
        ("timestamp", "1796126400"),
    ];
    let reply = app
        .request(get(&format!(
            "/webhooks/vonage?{}",
            vonage_query(&fields, "sha256")
        )))
        .await;
    assert_eq!(reply.status, StatusCode::OK);
    let reply = app
        .request(get(&format!(
            "/webhooks/vonage?{}",
            vonage_query(&fields, "sha512")
        )))
        .await;
    assert_eq!(reply.status, StatusCode::FORBIDDEN);
}

#[tokio::test]
async fn webhooks_without_configured_secrets_accept_unsigned_requests() {
    let app = TestApp::new().await;
    let reply = app
        .request(form_post(
            "/webhooks/twilio",
            &[],
            "From=%2B7001&To=002220&Body=HELP&MessageSid=SMx",
        ))
        .await;
    assert_eq!(reply.status, StatusCode::OK);
    let reply = app
        .request(get("/webhooks/kannel?from=7002&to=002220&text=HELP&id=x"))
        .await;
    assert_eq!(reply.status, StatusCode::OK);
    assert_eq!(reply.body, "");
}

#[tokio::test]
async fn healthz_answers_when_the_database_does() {
    let app = TestApp::new().await;
    let reply = app.request(get("/healthz")).await;
    assert_eq!(reply.status, StatusCode::OK);
    let reply = app.request(get("/nope")).await;
    assert_eq!(reply.status, StatusCode::NOT_FOUND);
}
