//! What the public pages cost a visitor: compressed as his browser asks
//! (never an event stream, which must not wait in a compressor), a favicon
//! instead of a 404, and the hall's game guides fetched one at a time
//! rather than all five inline.

use crate::common;

use std::io::Read;

use axum::body::Body;
use axum::http::{Request, StatusCode, header};
use common::TestApp;
use http_body_util::BodyExt;
use serde_json::Value;
use tower::ServiceExt;

/// A GET as a browser sends it, answered whole: status, headers, raw body.
async fn fetch(
    app: &TestApp,
    path: &str,
    encoding: Option<&str>,
) -> (StatusCode, axum::http::HeaderMap, Vec<u8>) {
    let mut request = Request::get(path);
    if let Some(encoding) = encoding {
        request = request.header(header::ACCEPT_ENCODING, encoding);
    }
    let response = app
        .router
        .clone()
        .oneshot(request.body(Body::empty()).unwrap())
        .await
        .unwrap();
    let (parts, body) = response.into_parts();
    let bytes = body.collect().await.unwrap().to_bytes().to_vec();
    (parts.status, parts.headers, bytes)
}

fn gunzip(bytes: &[u8]) -> String {
    let mut text = String::new();
    flate2::read::GzDecoder::new(bytes)
        .read_to_string(&mut text)
        .expect("a gzip body");
    text
}

#[tokio::test]
async fn pages_styles_and_scripts_are_compressed_as_the_browser_asks() {
    let app = TestApp::new().await;
    for path in ["/hall", "/hall/hall.js", "/assets/page.css", "/standings"] {
        let (status, plain_headers, plain) = fetch(&app, path, None).await;
        assert_eq!(status, StatusCode::OK, "{path}");
        assert!(
            plain_headers.get(header::CONTENT_ENCODING).is_none(),
            "{path}"
        );

        let (status, headers, zipped) = fetch(&app, path, Some("gzip")).await;
        assert_eq!(status, StatusCode::OK, "{path}");
        assert_eq!(headers[header::CONTENT_ENCODING], "gzip", "{path}");
        assert!(
            zipped.len() < plain.len(),
            "{path}: {} of {}",
            zipped.len(),
            plain.len()
        );
        assert_eq!(gunzip(&zipped).as_bytes(), plain.as_slice(), "{path}");
        assert!(
            headers.get(header::CONTENT_SECURITY_POLICY).is_some(),
            "{path}: compressed and still protected"
        );

        let (_, headers, _) = fetch(&app, path, Some("br;q=1, gzip;q=0.5")).await;
        assert_eq!(headers[header::CONTENT_ENCODING], "br", "{path}");
    }
}

#[tokio::test]
async fn an_event_stream_is_never_compressed() {
    let app = TestApp::new().await;
    let open = Request::post("/hall/phones")
        .header("content-type", "application/json")
        .body(Body::from("{}"))
        .unwrap();
    let reply = app.request(open).await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
    let phone: Value = serde_json::from_str(&reply.body).unwrap();
    let (number, token) = (
        phone["number"].as_str().unwrap(),
        phone["token"].as_str().unwrap(),
    );
    let watching =
        serde_json::json!({ "phones": [{ "number": number, "token": token, "after": 0 }] });
    let request = Request::post("/hall/events")
        .header("content-type", "application/json")
        .header(header::ACCEPT_ENCODING, "gzip, br")
        .body(Body::from(watching.to_string()))
        .unwrap();
    // The stream does not end: its head is all this reads.
    let response = app.router.clone().oneshot(request).await.unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    assert_eq!(
        response.headers()[header::CONTENT_TYPE],
        "text/event-stream"
    );
    assert!(
        response.headers().get(header::CONTENT_ENCODING).is_none(),
        "{:?}",
        response.headers()
    );
}

#[tokio::test]
async fn a_favicon_is_served_and_every_page_links_it() {
    let app = TestApp::new().await;
    for path in ["/favicon.ico", "/favicon.svg"] {
        let (status, headers, body) = fetch(&app, path, None).await;
        assert_eq!(status, StatusCode::OK, "{path}");
        assert_eq!(headers[header::CONTENT_TYPE], "image/svg+xml", "{path}");
        assert!(
            String::from_utf8(body).unwrap().starts_with("<svg"),
            "{path}"
        );
    }
    for path in ["/hall", "/standings"] {
        let (_, _, body) = fetch(&app, path, None).await;
        let page = String::from_utf8(body).unwrap();
        assert!(
            page.contains(r#"<link rel="icon" href="/favicon.svg" type="image/svg+xml">"#),
            "{path}: {page}"
        );
    }
}

#[tokio::test]
async fn the_guides_are_pages_of_their_own_and_the_hall_carries_none() {
    let app = TestApp::new().await;
    let (status, _, hall) = fetch(&app, "/hall", None).await;
    assert_eq!(status, StatusCode::OK);
    let hall = String::from_utf8(hall).unwrap();
    assert!(hall.len() < 16_000, "the hall page is {} bytes", hall.len());
    assert!(hall.contains(r#"href="/hall/guides/"#), "{hall}");
    for code in ["FB", "PS", "IB", "WB", "AR"] {
        let (status, headers, body) = fetch(&app, &format!("/hall/guides/{code}"), None).await;
        let page = String::from_utf8(body).unwrap();
        assert_eq!(status, StatusCode::OK, "{code}: {page}");
        assert!(headers.get(header::CONTENT_SECURITY_POLICY).is_some());
        assert!(
            page.contains(&format!(
                r#"<article class="rules guide" data-game="{code}">"#
            )),
            "{code}: {page}"
        );
        assert!(
            page.contains("<h1>") || page.contains("<h2>"),
            "{code}: a guide's headings"
        );
        let article = &page[page.find("<article").unwrap()..page.find("</article>").unwrap()];
        assert!(
            !hall.contains(article),
            "{code}'s guide is no longer inline"
        );
    }
    let (status, _, lower) = fetch(&app, "/hall/guides/ps", None).await;
    assert_eq!(status, StatusCode::OK, "a code in any case");
    assert!(
        String::from_utf8(lower)
            .unwrap()
            .contains(r#"data-game="PS""#)
    );
    let (status, _, missing) = fetch(&app, "/hall/guides/XX", None).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert!(String::from_utf8(missing).unwrap().contains("No such game"));
}

#[tokio::test]
async fn each_practice_button_is_named_after_its_game_and_the_board_is_not_read_out() {
    let app = TestApp::new().await;
    let (_, _, hall) = fetch(&app, "/hall", None).await;
    let hall = String::from_utf8(hall).unwrap();
    for name in ["SMS football", "Paper soccer", "Intelball"] {
        assert!(
            hall.contains(&format!(r#"aria-label="Play {name} against a robot""#)),
            "{name}: {hall}"
        );
    }
    assert!(
        !hall.contains("aria-live"),
        "no live region holds a board: {hall}"
    );
    assert!(hall.contains(r#"id="hall-status" role="status""#), "{hall}");
}
