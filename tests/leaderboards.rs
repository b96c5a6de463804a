//! The players' pages over HTTP and in a real headless Chromium: a game's
//! leaderboard, a player's page with his last matches, a finished match's
//! replay step by step; what is not there (a running match, an unknown
//! nick or game) is a 404 page; screenshots on a phone's screen and a
//! desktop's, no page wider than the screen.

mod common;

use axum::body::Body;
use axum::http::{Request, StatusCode};
use common::browser::{Browser, NARROW, WIDE, serve};
use common::{PLAY, TestApp};

const A: &str = "+7801";
const B: &str = "+7802";

async fn get(app: &TestApp, path: &str) -> (StatusCode, String) {
    let mut request = Request::get(path).body(Body::empty()).unwrap();
    let peer: std::net::SocketAddr = "127.0.0.1:50000".parse().unwrap();
    request
        .extensions_mut()
        .insert(axum::extract::ConnectInfo(peer));
    let reply = app.request(request).await;
    (reply.status, reply.body)
}

/// Ann beats Bob at the trial game (rated); a running match is left behind.
async fn played() -> (TestApp, i64) {
    let app = TestApp::new().await;
    app.register(&[(A, "ann"), (B, "bob_long_nick_16")]).await;
    for phone in [A, B] {
        app.sms_to(phone, PLAY, "P TR").await;
    }
    for turn in 0..7 {
        app.sms(if turn % 2 == 0 { A } else { B }, "3").await;
    }
    let (record, _) = app.last_match(A).await.unwrap();
    assert!(record.finished);
    for phone in [A, B] {
        app.sms_to(phone, PLAY, "P TR").await;
    }
    (app, record.id)
}

#[tokio::test]
async fn the_leaderboard_a_players_page_and_a_replay_show_a_finished_match() {
    let (app, id) = played().await;
    let (status, board) = get(&app, "/standings/tr").await;
    assert_eq!(status, StatusCode::OK);
    assert!(
        board.contains(r#"<a href="/players/ann">ann</a>"#),
        "{board}"
    );
    assert!(board.contains("bob_long_nick_16"), "{board}");
    assert!(
        board.contains("?</td>"),
        "provisional ratings are marked: {board}"
    );

    let (status, page) = get(&app, "/players/ANN").await;
    assert_eq!(status, StatusCode::OK);
    assert!(page.contains("<td>won</td>"), "{page}");
    assert!(page.contains(&format!(r#"href="/matches/{id}""#)), "{page}");
    assert!(!page.contains(A), "no phone numbers");

    let (status, replay) = get(&app, &format!("/matches/{id}?step=2")).await;
    assert_eq!(status, StatusCode::OK);
    assert!(replay.contains("Step 2 of 7"), "{replay}");
    assert!(
        replay.contains("Schet 6/21") || replay.contains("6/21"),
        "{replay}"
    );
    assert!(
        replay.contains(&format!("/matches/{id}?step=3")),
        "a next step"
    );
    let (_, end) = get(&app, &format!("/matches/{id}")).await;
    assert!(end.contains("Step 7 of 7"), "the end by default");
    let (_, beyond) = get(&app, &format!("/matches/{id}?step=99")).await;
    assert!(
        beyond.contains("Step 7 of 7"),
        "a step past the end is the end"
    );

    let (running, _) = app.last_match(A).await.unwrap();
    assert!(!running.finished);
    for path in [
        format!("/matches/{}", running.id),
        "/matches/999999".into(),
        "/players/nobody".into(),
        "/standings/XX".into(),
    ] {
        let (status, body) = get(&app, &path).await;
        assert_eq!(status, StatusCode::NOT_FOUND, "{path}");
        assert!(body.contains("<main"), "a page, not an error: {path}");
    }
    let (status, _) = get(&app, "/matches/x").await;
    assert!(status.is_client_error());
    let (status, all) = get(&app, "/standings").await;
    assert_eq!(status, StatusCode::OK);
    assert!(
        all.contains("/standings/PS") && !all.contains("/standings/TR"),
        "{all}"
    );
}

#[tokio::test]
async fn the_players_pages_fit_a_phones_screen_and_a_desktops() {
    let Some(browser) = Browser::start(NARROW).await else {
        return;
    };
    let (app, id) = played().await;
    let base = serve(app.router.clone()).await;
    for (size, label) in [(NARROW, "narrow"), (WIDE, "wide")] {
        browser.resize(size).await;
        for (path, name) in [
            ("/standings/TR".to_string(), "leaderboard"),
            ("/players/bob_long_nick_16".to_string(), "player"),
            (format!("/matches/{id}?step=3"), "replay"),
        ] {
            browser.goto(&format!("{base}{path}")).await;
            let heading = browser.text("header.site h1").await;
            assert!(heading.starts_with("smsarena"), "{path}: {heading}");
            let overflow = browser
                .eval("return document.documentElement.scrollWidth - window.innerWidth;")
                .await;
            assert!(
                overflow.as_i64().unwrap_or(1) <= 0,
                "{path} is wider than a {label} screen by {overflow}"
            );
            browser
                .screenshot(&format!("standings-{name}-{label}"))
                .await;
        }
    }
    browser.close().await;
}
