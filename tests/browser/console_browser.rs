//! The console in a real headless Chromium, as an operator uses it: logs
//! in, finds a player who just finished an SMS football match against
//! robots, opens the match and steps its replay to the end (the board the
//! player was last texted), retries a parked text, and sees both actions in
//! the audit; a page on another port of the same host, which `SameSite`
//! counts as the same site, fails to drop a parked text with his session;
//! and logging out ends the session. Screenshots on a phone's screen and a
//! desktop's.

use crate::common;

use chrono::Utc;
use common::browser::{Browser, NARROW, WIDE, serve};
use common::{GAME, PLAY, TestApp};
use smsarena::games::Game;
use smsarena::games::football::{Football, State};

const TOKEN: &str = "an-admin-token-long-enough";
const ME: &str = "+79001231234";

/// A whole football match by SMS, one phone against three robots; the
/// texts the phone got.
async fn play_football(app: &TestApp) -> Vec<String> {
    app.sms(ME, "R ann").await;
    app.sms_to(ME, PLAY, "P FB BOT").await;
    let mut texts = Vec::new();
    for _ in 0..100 {
        app.robots().await;
        texts.extend(app.inbox(ME).await);
        let Some(record) = app.match_state(ME).await else {
            break;
        };
        let state: State = record.state.parse().unwrap();
        let moves = Football::default().legal_moves(&state, 0);
        let mv = moves.first().map(|m| m.to_string()).unwrap_or("5".into());
        app.sms(ME, &mv).await;
    }
    texts.extend(app.inbox(ME).await);
    texts
}

async fn park_a_text(app: &TestApp) -> i64 {
    app.state
        .store()
        .run(|tx| {
            let text =
                smsarena::platform::compose_text(GAME, "+79009990000", "a lost board".into(), true);
            tx.outbox().enqueue(text, Utc::now())?;
            let id = tx.outbox().pending()?.last().unwrap().0.id;
            tx.outbox()
                .mark_failed(id, 5, "HTTP 400: unknown subscriber", Utc::now())?;
            Ok(id)
        })
        .await
        .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_operator_finds_a_match_replays_it_and_retries_a_parked_text() {
    let Some(browser) = Browser::start(WIDE).await else {
        return;
    };
    let app = TestApp::with_config(|cfg| cfg.admin.token = TOKEN.into()).await;
    let texts = play_football(&app).await;
    let (finished, _) = app.last_match(ME).await.unwrap();
    assert!(finished.finished, "the match is over");
    let parked = park_a_text(&app).await;
    let base = serve(app.router.clone()).await;

    // Not logged in: the login form, and no count behind it.
    browser.goto(&format!("{base}/console")).await;
    browser.find("form.login").await;
    browser.screenshot("console-login-wide").await;
    browser.type_in("input[name=name]", "anna").await;
    browser.type_in("input[name=token]", TOKEN).await;
    browser.click("form.login button").await;
    assert_eq!(browser.text("#players").await, "1");
    browser.screenshot("console-overview-wide").await;

    // The player, by nick.
    browser.goto(&format!("{base}/console/players")).await;
    browser.type_in("input[name=q]", "ann").await;
    browser.click("form.search button").await;
    browser
        .click("table.list a[href^='/console/players/']")
        .await;
    assert_eq!(browser.text("h2").await, "ann");
    browser.screenshot("console-player-wide").await;

    // His match, its replay stepped to the end.
    browser.click("dl.facts a[href^='/console/matches/']").await;
    browser.click("#first").await;
    assert!(browser.text("#position").await.starts_with("move 0 of "));
    browser.click("#next").await;
    assert!(browser.text("#position").await.starts_with("move 1 of "));
    browser.click("#last").await;
    let position = browser.text("#position").await;
    let (at, of) = position
        .strip_prefix("move ")
        .and_then(|p| p.split_once(" of "))
        .unwrap();
    assert_eq!(at, of, "{position}");
    let board = browser.text("#board").await;
    let last = texts.last().unwrap();
    assert_eq!(
        board.trim_end(),
        last.trim_end(),
        "the replay ends on the last board texted"
    );
    browser.screenshot("console-match-wide").await;
    browser.resize(NARROW).await;
    browser.screenshot("console-match-narrow").await;
    browser.resize(WIDE).await;

    // The parked text, retried.
    browser.goto(&format!("{base}/console/parked")).await;
    assert!(
        browser
            .text("td.error")
            .await
            .contains("unknown subscriber")
    );
    browser.screenshot("console-parked-wide").await;
    browser
        .click(&format!("button[data-retry='{parked}']"))
        .await;
    assert_eq!(browser.text("p.note").await, "The text is queued again.");
    let status = app
        .state
        .store()
        .read(|tx| tx.texts_to("+79009990000"))
        .await
        .unwrap()[0]
        .status;
    assert_eq!(status.as_str(), "queued");

    // A page on another port of the same host: the browser sends the
    // session cookie with its form and its fetch, and the console refuses.
    let target = park_a_text(&app).await;
    let drop = format!("{base}/console/parked/{target}/drop");
    let api_drop = format!("{base}/console/api/parked/{target}/drop");
    let lure = format!(
        "<!doctype html><title>prize</title><form method=post action='{drop}'>\
         <button id=claim>Claim</button></form>"
    );
    let elsewhere = serve(axum::Router::new().route(
        "/",
        axum::routing::get(move || async move { axum::response::Html(lure) }),
    ))
    .await;
    assert_ne!(elsewhere, base);
    browser.goto(&elsewhere).await;
    let sent = browser
        .eval(&format!(
            "return fetch('{api_drop}', {{method: 'POST', mode: 'no-cors', \
             credentials: 'include', headers: {{'content-type': 'text/plain'}}, body: '{{}}'}})\
             .then(() => 'sent', e => String(e));"
        ))
        .await;
    assert_eq!(sent, "sent");
    browser.click("#claim").await;
    let answer = browser.page_text_with("own origin").await;
    assert!(answer.contains("own origin"), "{answer}");
    let still = app
        .state
        .store()
        .read(|tx| tx.texts_to("+79009990000"))
        .await
        .unwrap();
    let still = still.iter().find(|t| t.id == target).unwrap().status;
    assert_eq!(still.as_str(), "failed", "the forged drop changed nothing");

    // Both actions in the audit, by the name given at login; no drop.
    browser.goto(&format!("{base}/console/audit")).await;
    let audit = browser.text("table.audit").await;
    assert!(audit.contains(&format!("retry text #{parked}")), "{audit}");
    assert!(audit.contains("look at texts player #"), "{audit}");
    assert!(audit.contains("anna"), "{audit}");
    assert!(!audit.contains("drop"), "{audit}");
    browser.screenshot("console-audit-wide").await;
    browser.resize(NARROW).await;
    browser.goto(&format!("{base}/console")).await;
    browser.screenshot("console-overview-narrow").await;
    browser.goto(&format!("{base}/console/audit")).await;
    browser.screenshot("console-audit-narrow").await;
    browser
        .goto(&format!("{base}/console/parked?done=retry"))
        .await;
    browser.screenshot("console-parked-narrow").await;

    // Logging out ends the session: the console asks for the token again.
    browser.click("form.logout button").await;
    browser.find("form.login").await;
    browser.goto(&format!("{base}/console/audit")).await;
    browser.find("form.login").await;
    browser.close().await;
}
