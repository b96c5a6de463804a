//! The players' pages over HTTP and in a real headless Chromium: a game's
//! leaderboard, a player's page with his last matches, a finished match's
//! replay step by step; what is not there (a running match, an unknown
//! nick or game) is a 404 page; screenshots on a phone's screen and a
//! desktop's, no page wider than the screen.

use crate::common;

use axum::body::Body;
use axum::http::{Request, StatusCode};
use common::browser::{Browser, NARROW, serve};
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

/// Gives the player on `phone` a rating in `game` that rests on twelve
/// rated games: established, so the leaderboards list it.
async fn established(app: &TestApp, phone: &str, game: &'static str, points: f64) {
    let phone = phone.to_string();
    let id = app
        .state
        .store()
        .read(move |r| Ok(r.player_by_phone(&phone)?.unwrap().id))
        .await
        .unwrap();
    app.state
        .store()
        .run(move |tx| {
            let row = smsarena::store::StandingRow {
                rating: smsarena::ratings::Rating {
                    rating: points,
                    deviation: 80.0,
                    volatility: 0.06,
                },
                rated_games: 12,
                games: 12,
                wins: 7,
                losses: 5,
                ..smsarena::store::StandingRow::new(id, game)
            };
            tx.standings().save(&row, chrono::Utc::now())
        })
        .await
        .unwrap();
}

#[tokio::test]
async fn the_leaderboard_a_players_page_and_a_replay_show_a_finished_match() {
    let (app, id) = played().await;
    // One game makes no leader: the board lists none yet and says why.
    let (status, board) = get(&app, "/standings/tr").await;
    assert_eq!(status, StatusCode::OK);
    assert!(board.contains("No established rating yet"), "{board}");
    assert!(
        board.contains("rest on 10 rated games or more"),
        "the rule is on the page: {board}"
    );
    assert!(!board.contains("bob_long_nick_16"), "{board}");
    let (_, own) = get(&app, "/players/bob_long_nick_16").await;
    assert!(
        own.contains("?</td>"),
        "a provisional rating, marked: {own}"
    );

    established(&app, A, "TR", 1620.0).await;
    let (_, board) = get(&app, "/standings/tr").await;
    assert!(
        board.contains(r#"<a href="/players/ann">ann</a>"#),
        "{board}"
    );
    assert!(board.contains("1620</td>"), "{board}");
    assert!(
        !board.contains("bob_long_nick_16"),
        "still provisional: {board}"
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

/// A paper soccer match against the robot played to its end by a player
/// with a long nick: a leaderboard line on `/standings`, and a record with
/// a header of tags. Its match id.
async fn paper_soccer_played(app: &TestApp) -> i64 {
    use rand::SeedableRng;
    use smsarena::games::paper_soccer::{PaperSoccer, State};
    use smsarena::games::{Budget, Game, MatchRng};
    const C: &str = "+7803";
    app.register(&[(C, "newbie_player_16")]).await;
    app.sms_to(C, PLAY, "P PS BOT 1").await;
    let mut rng = MatchRng::seed_from_u64(7);
    let mut turns = 0;
    while let Some(record) = app.match_state(C).await {
        let state: State = record.state.parse().unwrap();
        let mv = PaperSoccer.robot_move(&state, 0, 1, &Budget::nodes(2_000), &mut rng);
        app.sms(C, &mv.to_string()).await;
        app.robots().await;
        turns += 1;
        assert!(turns < 200, "the game ends");
    }
    let (record, _) = app.last_match(C).await.unwrap();
    assert!(record.finished);
    record.id
}

#[tokio::test]
async fn a_paper_soccer_replay_has_no_empty_score_column() {
    let app = TestApp::new().await;
    let id = paper_soccer_played(&app).await;
    let (status, page) = get(&app, &format!("/matches/{id}")).await;
    assert_eq!(status, StatusCode::OK);
    assert!(page.contains("<th class=\"num\">Place</th>"), "{page}");
    assert!(!page.contains("Score"), "no score in paper soccer: {page}");
}

/// The widths a page must fit: a small phone, a common one, a desktop.
const SIZES: [((u32, u32), &str); 3] = [
    ((320, 640), "320"),
    ((390, 844), "390"),
    ((1440, 900), "1440"),
];

/// How the page in the browser overflows, if it does: the page wider than
/// the window, a card or table wider than its box, a nick on two lines.
const OVERFLOWS: &str = r#"
const faults = [];
if (document.documentElement.scrollWidth > window.innerWidth)
  faults.push("page " + document.documentElement.scrollWidth + " > " + window.innerWidth);
for (const el of document.querySelectorAll(".card, div.fit, main, header.site"))
  if (el.scrollWidth > el.clientWidth)
    faults.push(el.tagName + "." + el.className + " " + el.scrollWidth + " > " + el.clientWidth);
const nicks = document.querySelectorAll("td.nick a, span.nick");
for (const nick of nicks)
  if (nick.getClientRects().length > 1) faults.push("nick split: " + nick.textContent);
return { faults, nicks: nicks.length };
"#;

#[tokio::test]
async fn the_players_pages_fit_a_phones_screen_and_a_desktops() {
    let Some(browser) = Browser::start(NARROW).await else {
        return;
    };
    let (app, id) = played().await;
    let ps = paper_soccer_played(&app).await;
    // Long nicks on the leaderboards, which list established ratings only.
    established(&app, B, "TR", 1655.0).await;
    established(&app, "+7803", "PS", 1540.0).await;
    let base = serve(app.router.clone()).await;
    for (size, label) in SIZES {
        browser.resize(size).await;
        for (path, name, nicks) in [
            ("/standings".to_string(), "all", true),
            ("/standings/PS".to_string(), "leaderboard", true),
            ("/players/bob_long_nick_16".to_string(), "player", true),
            ("/players/newbie_player_16".to_string(), "player-ps", false),
            (format!("/matches/{id}?step=3"), "replay", true),
            (format!("/matches/{ps}"), "replay-ps", true),
            ("/hall".to_string(), "hall", false),
            ("/hall/guides/IB".to_string(), "guide", false),
        ] {
            browser.goto(&format!("{base}{path}")).await;
            let heading = browser.text("header.site h1").await;
            assert!(heading.starts_with("smsarena"), "{path}: {heading}");
            let found = browser.eval(OVERFLOWS).await;
            assert_eq!(
                found["faults"],
                serde_json::json!([]),
                "{path} at {label} px"
            );
            if nicks {
                assert!(
                    found["nicks"].as_u64().unwrap() > 0,
                    "{path}: nicks were looked at"
                );
            }
            browser
                .screenshot(&format!("standings-{name}-{label}"))
                .await;
        }
    }
    // The record's header of tags keeps its lines.
    browser.goto(&format!("{base}/matches/{ps}")).await;
    let record = browser
        .eval("return document.querySelector('p.notation').innerText;")
        .await;
    let record = record.as_str().unwrap();
    assert!(
        record.lines().count() > 1 && record.lines().next().unwrap().starts_with('['),
        "{record}"
    );
    browser.close().await;
}
