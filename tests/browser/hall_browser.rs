//! The training hall in a real headless Chromium, as visitors use it: a
//! robot game of every game from its button with a legal move typed; four
//! virtual phones in one tab playing a football match to its end; a real
//! phone (the generic webhook, a capturing provider) and a virtual phone
//! playing paper soccer against each other; a reload that keeps the phone
//! and its thread. The gateway runs whole (dispatcher, robots, timers) on a
//! loopback port; screenshots on a phone's screen and a desktop's.

use crate::common;

use std::time::{Duration, Instant};

use axum::http::StatusCode;
use common::browser::{Browser, NARROW, WIDE};
use common::hall_page::{Hall, hall_with, inbox};
use common::{GAME, PLAY};
use smsarena::app::AppState;
use smsarena::store::Holder;

async fn hall() -> Hall {
    hall_with(|_| {}).await
}

/// Waits until the thread holds more than `seen` texts in; the new ones.
async fn replies(browser: &Browser, seen: usize) -> Vec<String> {
    let started = Instant::now();
    loop {
        let texts = inbox(browser).await;
        if texts.len() > seen {
            // A burst (a reply and a board) lands together: let it finish.
            tokio::time::sleep(Duration::from_millis(150)).await;
            return inbox(browser).await.split_off(seen);
        }
        assert!(
            started.elapsed() < Duration::from_secs(20),
            "no reply after {seen} texts in; the thread: {texts:?}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// Types `text` to `to` in the compose box of the current phone and waits
/// for its answer; the texts that came.
pub(crate) async fn text(browser: &Browser, to: &str, text: &str) -> Vec<String> {
    let seen = inbox(browser).await.len();
    let select = browser.find("#compose-to").await;
    select
        .select_by_value(to)
        .await
        .unwrap_or_else(|e| panic!("no number {to}: {e}"));
    browser.type_in("#compose-text", text).await;
    browser.click("#send").await;
    replies(browser, seen).await
}

pub(crate) async fn new_phone(browser: &Browser) -> String {
    let before: usize = browser
        .client
        .execute(
            "return document.querySelectorAll('#phone-tabs .tab').length;",
            vec![],
        )
        .await
        .unwrap()
        .as_u64()
        .unwrap() as usize;
    browser.click("#new-phone").await;
    let started = Instant::now();
    loop {
        let tabs = browser
            .client
            .execute(
                "return Array.from(document.querySelectorAll('#phone-tabs .tab'), t => t.title);",
                vec![],
            )
            .await
            .unwrap();
        let tabs: Vec<String> = serde_json::from_value(tabs).unwrap();
        if tabs.len() > before {
            return tabs.last().unwrap().clone();
        }
        assert!(started.elapsed() < Duration::from_secs(10), "no new phone");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

async fn select_phone(browser: &Browser, number: &str) {
    browser
        .click(&format!("#phone-tabs .tab[data-number='{number}']"))
        .await;
}

/// The first legal move of `seat` in a match of `game` in `state`.
pub(crate) fn a_legal_move(game: &str, state: &str, seat: usize) -> Option<String> {
    fn first<G: smsarena::games::Game>(g: &G, state: &str, seat: usize) -> Option<String> {
        let state: G::State = state.parse().ok()?;
        g.legal_moves(&state, seat).first().map(|m| m.to_string())
    }
    use smsarena::games::*;
    match game {
        "FB" => first(&football::Football::default(), state, seat),
        "IB" => first(&intelball::Intelball::default(), state, seat),
        "PS" => first(&paper_soccer::PaperSoccer, state, seat),
        "WB" => first(&word_battle::WordBattle::new(), state, seat),
        "AR" => first(&auto_race::AutoRace::default(), state, seat),
        other => panic!("no game {other}"),
    }
}

/// The match a phone plays, its state and the phone's seat.
pub(crate) async fn seat_of(state: &AppState, number: &str) -> Option<(String, String, usize)> {
    let number = number.to_string();
    state
        .store()
        .read(move |r| {
            let Some(player) = r.player_by_phone(&number)? else {
                return Ok(None);
            };
            let Some(m) = r.active_match_of(player.id)? else {
                return Ok(None);
            };
            let seat = r
                .seats(m.id)?
                .iter()
                .position(|s| matches!(&s.holder, Holder::Player(p) if p.id == player.id))
                .unwrap();
            Ok(Some((m.game, m.state, seat)))
        })
        .await
        .unwrap()
}

/// Waits until `number`'s seat has a legal move (the robots have answered).
async fn my_move(state: &AppState, number: &str) -> (String, String) {
    let started = Instant::now();
    loop {
        if let Some((game, s, seat)) = seat_of(state, number).await
            && let Some(mv) = a_legal_move(&game, &s, seat)
        {
            return (game, mv);
        }
        assert!(
            started.elapsed() < Duration::from_secs(20),
            "{number} never had a move"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_visitor_plays_every_game_against_a_robot_from_its_button() {
    let Some(browser) = Browser::start(WIDE).await else {
        return;
    };
    let hall = hall().await;
    browser.goto(&format!("{}/hall", hall.base)).await;
    browser.screenshot("hall-empty-wide").await;
    let me = new_phone(&browser).await;
    assert!(me.starts_with("+9990"), "a virtual number: {me}");
    browser.type_in("#nick", "ann").await;
    let seen = inbox(&browser).await.len();
    browser.click("#register").await;
    replies(&browser, seen).await;

    let games: Vec<String> = hall
        .state
        .platform()
        .catalog()
        .games()
        .map(|g| g.code().to_string())
        .collect();
    assert_eq!(games, ["FB", "IB", "PS", "WB", "AR"]);
    for code in &games {
        let seen = inbox(&browser).await.len();
        browser
            .click(&format!("button.practice[data-game='{code}']"))
            .await;
        let opening = replies(&browser, seen).await;
        let (game, mv) = my_move(&hall.state, &me).await;
        assert_eq!(&game, code, "{opening:?}");
        let answer = text(&browser, GAME, &mv).await;
        let board = answer.last().unwrap();
        assert!(
            board.lines().count() >= 3,
            "{code}: after {mv} a board: {answer:?}"
        );
        browser
            .screenshot(&format!("hall-{}-wide", code.to_lowercase()))
            .await;
        // On a phone's screen words wrap and a board keeps its lines whole:
        // one wider than the screen scrolls inside its bubble, never the page.
        browser.resize(NARROW).await;
        assert!(
            at_newest(&browser).await,
            "{code}: the thread left its newest text when the window narrowed"
        );
        let wider = browser
            .eval(
                "return [...document.querySelectorAll('ol.thread pre')]
                   .filter(p => !p.classList.contains('drawn'))
                   .filter(p => p.scrollWidth > p.clientWidth + 1).length
                   + (document.documentElement.scrollWidth > innerWidth ? 1 : 0)",
            )
            .await;
        browser
            .screenshot(&format!("hall-{}-narrow", code.to_lowercase()))
            .await;
        assert_eq!(
            wider, 0,
            "{code}: texts wider than a phone's screen: {answer:?}"
        );
        browser.resize(WIDE).await;
        assert!(
            at_newest(&browser).await,
            "{code}: the thread left its newest text when the window widened"
        );
        // Resign, to be free for the next game's button.
        text(&browser, GAME, "Q").await;
    }
    browser.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn four_virtual_phones_in_one_tab_play_football_to_the_end() {
    let Some(browser) = Browser::start(WIDE).await else {
        return;
    };
    let hall = hall().await;
    browser.goto(&format!("{}/hall", hall.base)).await;
    let mut phones = Vec::new();
    for nick in ["ann", "bob", "cid", "dan"] {
        let number = new_phone(&browser).await;
        text(&browser, GAME, &format!("R {nick}")).await;
        phones.push(number);
    }
    for number in &phones {
        select_phone(&browser, number).await;
        let seen = inbox(&browser).await.len();
        let select = browser.find("#compose-to").await;
        select.select_by_value(PLAY).await.unwrap();
        browser.type_in("#compose-text", "P FB").await;
        browser.click("#send").await;
        if number == phones.last().unwrap() {
            replies(&browser, seen).await;
        }
    }
    // Everyone stands until the ball decides (ten moves).
    let mut rounds = 0;
    while seat_of(&hall.state, &phones[0]).await.is_some() {
        assert!(rounds < 30, "the match never ended");
        for number in &phones {
            if let Some((_, s, seat)) = seat_of(&hall.state, number).await
                && a_legal_move("FB", &s, seat).is_some()
            {
                select_phone(&browser, number).await;
                text(&browser, GAME, "5").await;
            }
        }
        rounds += 1;
    }
    for number in &phones {
        select_phone(&browser, number).await;
        let last = inbox(&browser).await.pop().unwrap();
        assert!(
            ["Vi pobedili.", "Vi proigrali.", "Nichya."]
                .iter()
                .any(|r| last.contains(r)),
            "{number}: the result: {last}"
        );
    }
    browser.screenshot("hall-football-end-wide").await;
    browser.resize(NARROW).await;
    browser.screenshot("hall-football-end-narrow").await;
    browser.close().await;
}

/// A real phone's text through the generic webhook.
async fn real_text(hall: &Hall, id: &str, from: &str, to: &str, text: &str) {
    let request = common::sms_request(id, from, to, text);
    let (parts, body) = request.into_parts();
    let body = axum::body::to_bytes(body, usize::MAX).await.unwrap();
    let response = reqwest::Client::new()
        .post(format!("{}{}", hall.base, parts.uri))
        .header("content-type", "application/json")
        .body(body)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::OK);
}

/// Where the operator lets the hall meet real players (off by default:
/// `tests/service/hall.rs` shows them kept apart), the two play one match.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_real_phone_and_a_virtual_phone_play_paper_soccer_where_the_operator_lets_them_meet() {
    let Some(browser) = Browser::start(NARROW).await else {
        return;
    };
    let mut hall = hall_with(|cfg| cfg.hall.meet_real_players = true).await;
    const REAL: &str = "+79001234567";
    browser.goto(&format!("{}/hall", hall.base)).await;
    let virtual_ = new_phone(&browser).await;
    text(&browser, GAME, "R vera").await;
    real_text(&hall, "r1", REAL, GAME, "R rob").await;
    real_text(&hall, "r2", REAL, PLAY, "P PS").await;
    let seen = inbox(&browser).await.len();
    browser
        .find("#compose-to")
        .await
        .select_by_value(PLAY)
        .await
        .unwrap();
    browser.type_in("#compose-text", "P PS").await;
    browser.click("#send").await;
    replies(&browser, seen).await;

    // Turns until the end: each side plays its first legal whole move.
    let mut id = 3;
    let mut turns = 0;
    while let Some((game, s, _)) = seat_of(&hall.state, &virtual_).await {
        assert_eq!(game, "PS");
        assert!(turns < 400, "no end after {turns} turns");
        let (_, _, real_seat) = seat_of(&hall.state, REAL).await.unwrap();
        let (_, _, virtual_seat) = seat_of(&hall.state, &virtual_).await.unwrap();
        if let Some(mv) = a_legal_move(&game, &s, virtual_seat) {
            text(&browser, GAME, &mv).await;
        } else if let Some(mv) = a_legal_move(&game, &s, real_seat) {
            real_text(&hall, &format!("r{id}"), REAL, GAME, &mv).await;
            id += 1;
            // Its answer reaches the page too: the opponent's board.
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        turns += 1;
        if turns == 12 {
            browser.screenshot("hall-ps-real-narrow").await;
        }
    }
    // Both phones heard the result: the virtual one on its page, the real
    // one through the configured provider, and never the other way round.
    let last = replies(&browser, 0).await.pop().unwrap();
    let results = ["Vi pobedili.", "Vi proigrali.", "Nichya."];
    assert!(
        results.iter().any(|r| last.contains(r)),
        "the virtual phone's result: {last}"
    );
    let mut real = Vec::new();
    while let Ok(t) = hall.sent.try_recv() {
        assert!(
            !t.to.starts_with("+9990"),
            "a virtual phone's text at the provider"
        );
        real.push(t);
    }
    assert!(real.iter().all(|t| t.to == REAL));
    let last = &real.last().unwrap().body;
    assert!(
        results.iter().any(|r| last.contains(r)),
        "the real phone's result: {last}"
    );
    browser.screenshot("hall-ps-end-narrow").await;
    browser.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_reload_keeps_the_phone_and_its_thread() {
    let Some(browser) = Browser::start(WIDE).await else {
        return;
    };
    let hall = hall().await;
    browser.goto(&format!("{}/hall", hall.base)).await;
    let number = new_phone(&browser).await;
    text(&browser, GAME, "R ann").await;
    let before = inbox(&browser).await;
    browser.client.refresh().await.unwrap();
    browser.find("#thread li.in").await;
    assert_eq!(inbox(&browser).await, before);
    // Marked virtual, in the page's words (the player's Russian by now).
    assert_eq!(browser.text("#number .virtual").await, "виртуальный");
    let tab = browser
        .text(&format!("#phone-tabs .tab[data-number='{number}']"))
        .await;
    assert_eq!(tab, "ann");
    // And it still plays: a text after the reload is answered.
    text(&browser, GAME, "HELP").await;
    browser.screenshot("hall-reloaded-wide").await;
    browser.close().await;
}

/// Whether the thread shows its newest text (waiting a moment for the page
/// to follow a change of the window's size).
async fn at_newest(browser: &Browser) -> bool {
    for _ in 0..20 {
        let gap = browser
            .eval("const l = document.getElementById('thread'); return l.scrollHeight - l.scrollTop - l.clientHeight")
            .await;
        if gap.as_f64().is_some_and(|gap| gap < 8.0) {
            return true;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    false
}

/// The page's own small courtesies: Play before a phone says what to do and
/// points at the button; a new phone puts the cursor in the text box; the
/// Rules box follows the game played and fetches its guide; a reply is told
/// in one short status line, not by reading the board out; a board's type
/// is 12 px at the least on a phone, and Intelball's stays inside its bubble.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_hall_says_what_to_do_keeps_focus_and_follows_the_game() {
    let Some(browser) = Browser::start((390, 844)).await else {
        return;
    };
    let hall = hall().await;
    browser.goto(&format!("{}/hall", hall.base)).await;
    let active = "return document.activeElement && document.activeElement.id;";

    browser.click("button.practice[data-game='IB']").await;
    let status = browser.text("#hall-status").await;
    assert!(status.contains("Get a virtual phone first"), "{status}");
    assert_eq!(browser.eval(active).await, "new-phone");
    assert_eq!(inbox(&browser).await.len(), 0);
    browser.click("#register").await;
    assert!(browser.text("#hall-status").await.contains("nick"));

    new_phone(&browser).await;
    assert_eq!(
        browser.eval(active).await,
        "compose-text",
        "focus after a new phone"
    );
    browser.type_in("#nick", "ann").await;
    let seen = inbox(&browser).await.len();
    browser.click("#register").await;
    replies(&browser, seen).await;

    let seen = inbox(&browser).await.len();
    browser.click("button.practice[data-game='IB']").await;
    let opening = replies(&browser, seen).await;
    assert!(
        opening.iter().any(|t| t.lines().count() >= 3),
        "Intelball's board: {opening:?}"
    );
    assert_eq!(
        browser
            .eval("return document.getElementById('rules-select').value;")
            .await,
        "IB"
    );
    let started = Instant::now();
    while browser
        .eval("return !!document.querySelector('#rules article.guide[data-game=\"IB\"]');")
        .await
        != true
    {
        assert!(
            started.elapsed() < Duration::from_secs(10),
            "Intelball's guide was not shown"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let status = browser.text("#hall-status").await;
    assert!(
        // ann is a player whose replies are in Russian: the page's words too.
        status.starts_with("Для ann: ") && status.chars().filter(|c| c.is_alphabetic()).count() > 8,
        "the reply told in a line of words: {status}"
    );
    assert!(!status.contains('\n'), "{status}");
    for (size, label) in [
        ((320, 640), "320"),
        ((390, 844), "390"),
        ((1440, 900), "1440"),
    ] {
        browser.resize(size).await;
        let found = browser
            .eval(
                "const thread = document.getElementById('thread').getBoundingClientRect();
                 const pres = [...document.querySelectorAll('#thread li.in pre')];
                 return {
                   smallest: Math.min(...pres.map(p => parseFloat(getComputedStyle(p).fontSize))),
                   outside: pres.filter(p => p.getBoundingClientRect().right > thread.right + 0.5).length,
                   page: document.documentElement.scrollWidth - innerWidth,
                 };",
            )
            .await;
        assert!(
            found["smallest"].as_f64().unwrap() >= 12.0,
            "{label}: {found}"
        );
        assert_eq!(
            found["outside"], 0,
            "{label}: a bubble past the thread: {found}"
        );
        assert!(found["page"].as_i64().unwrap() <= 0, "{label}: {found}");
        browser
            .screenshot(&format!("hall-details-ib-{label}"))
            .await;
    }
    browser.close().await;
}

/// Each mark of a drawn board (column, row, symbol, tone), sorted.
type Marks = Vec<(String, String, String, String)>;

fn marks_of(svg: &str) -> Marks {
    let doc = roxmltree::Document::parse(svg).expect("well-formed SVG");
    let mut marks: Marks = doc
        .descendants()
        .filter(|n| n.has_tag_name("g"))
        .map(|g| {
            let attr = |name: &str| g.attribute(name).unwrap_or_default().to_string();
            let text = g
                .descendants()
                .find(|n| n.has_tag_name("text"))
                .and_then(|t| t.text())
                .unwrap_or_default()
                .to_string();
            (attr("data-col"), attr("data-row"), text, attr("data-tone"))
        })
        .collect();
    marks.sort();
    marks
}

/// The board the page shows beside the thread, as marks; none while hidden.
async fn page_marks(browser: &Browser) -> Option<Marks> {
    let found = browser
        .eval(
            "const f = document.getElementById('board');
             if (!f || f.hidden) return null;
             return [...f.querySelectorAll('svg g')].map(g => [
               g.getAttribute('data-col'), g.getAttribute('data-row'),
               (g.querySelector('text') || {textContent: ''}).textContent,
               g.getAttribute('data-tone')]);",
        )
        .await;
    let mut marks: Marks = serde_json::from_value(found).ok()?;
    marks.sort();
    Some(marks)
}

/// What the game itself draws of the phone's newest match, as marks.
async fn game_marks(state: &AppState, number: &str) -> Option<Marks> {
    let number = number.to_string();
    let found = state
        .store()
        .read(move |r| {
            let Some(player) = r.player_by_phone(&number)? else {
                return Ok(None);
            };
            let Some(m) = r.last_match_of(player.id)? else {
                return Ok(None);
            };
            let seat = r.seats(m.id)?.iter().position(|s| s.is(player.id));
            Ok(seat.map(|seat| (m.game, m.state, seat)))
        })
        .await
        .unwrap()?;
    let (code, stored, seat) = found;
    let catalog = state.platform().catalog();
    let played = catalog.get(&code)?.load(&stored).ok()?;
    Some(marks_of(&played.picture(seat)?))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn each_games_drawn_board_follows_its_state_after_a_move() {
    let Some(browser) = Browser::start(WIDE).await else {
        return;
    };
    let hall = hall().await;
    browser.goto(&format!("{}/hall", hall.base)).await;
    let me = new_phone(&browser).await;
    assert_eq!(
        browser
            .eval("return document.getElementById('board').hidden")
            .await,
        true,
        "no match yet, no board"
    );
    browser.type_in("#nick", "drawn").await;
    let seen = inbox(&browser).await.len();
    browser.click("#register").await;
    replies(&browser, seen).await;
    for code in ["FB", "IB", "PS", "WB", "AR"] {
        let seen = inbox(&browser).await.len();
        browser
            .click(&format!("button.practice[data-game='{code}']"))
            .await;
        replies(&browser, seen).await;
        let (game, mv) = my_move(&hall.state, &me).await;
        assert_eq!(game, code);
        text(&browser, GAME, &mv).await;
        // The robot may answer after the first reply: the page and the
        // game's own drawing of the stored state agree once it is in.
        let started = Instant::now();
        loop {
            let page = page_marks(&browser).await;
            let game = game_marks(&hall.state, &me).await;
            if page.is_some() && page == game {
                assert!(
                    page.as_ref().is_some_and(|m| !m.is_empty()),
                    "{code}: pieces drawn"
                );
                break;
            }
            assert!(
                started.elapsed() < Duration::from_secs(20),
                "{code}: the page shows {page:?}, the game draws {game:?}"
            );
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        let name = code.to_lowercase();
        for (width, height) in [(1440, 900), (390, 844), (320, 640)] {
            browser.resize((width, height)).await;
            let overflow = browser
                .eval(
                    "const f = document.getElementById('board');
                     return f.getBoundingClientRect().right > document.documentElement.clientWidth + 1
                       || document.documentElement.scrollWidth > document.documentElement.clientWidth + 1;",
                )
                .await;
            assert_eq!(
                overflow, false,
                "{code} at {width}px: the board fits across"
            );
            browser
                .eval("document.getElementById('board').scrollIntoView(); return null;")
                .await;
            browser
                .screenshot(&format!("hall-board-{name}-{width}"))
                .await;
        }
        browser.resize(WIDE).await;
        text(&browser, GAME, "Q").await;
    }
    browser.close().await;
}

/// Which phone's tab carries the "your move" mark; waits until exactly one
/// does and it is `expected`'s.
async fn marked_to_move(browser: &Browser, expected: &str) {
    let started = Instant::now();
    loop {
        let marked = browser
            .eval(
                "return Array.from(document.querySelectorAll('#phone-tabs .tab'))\
                 .filter(t => t.querySelector('.turn-mark.mine')).map(t => t.dataset.number);",
            )
            .await;
        let marked: Vec<String> = serde_json::from_value(marked).unwrap();
        if marked == [expected] {
            return;
        }
        assert!(
            started.elapsed() < Duration::from_secs(10),
            "{expected} should be marked to move; marked: {marked:?}"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// Two phones of one tab play paper soccer against each other (a hot seat
/// across phones): the "your move" mark is on the tab of the phone the game
/// awaits and moves to the other with the turn; the current phone's line
/// names the match and counts its deadline down; a move's texts name their
/// match in the thread.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_turn_marker_moves_between_two_hot_seat_phones() {
    let Some(browser) = Browser::start(WIDE).await else {
        return;
    };
    let hall = hall().await;
    browser.goto(&format!("{}/hall", hall.base)).await;
    let mut phones = Vec::new();
    for nick in ["ann", "bob"] {
        let number = new_phone(&browser).await;
        text(&browser, GAME, &format!("R {nick}")).await;
        text(&browser, GAME, "LANG EN").await;
        phones.push(number);
    }
    for number in &phones {
        select_phone(&browser, number).await;
        browser
            .find("#compose-to")
            .await
            .select_by_value(PLAY)
            .await
            .unwrap();
        browser.type_in("#compose-text", "P PS").await;
        browser.click("#send").await;
    }
    let mut turns_passed = 0;
    let mut moves = 0;
    let mut shot = false;
    while turns_passed < 3 {
        assert!(moves < 40, "the turn never passed three times");
        let mover = loop {
            let awaited = futures_util::future::join_all(phones.iter().map(|number| async {
                let (_, s, seat) = seat_of(&hall.state, number).await?;
                a_legal_move("PS", &s, seat).map(|_| number.clone())
            }))
            .await;
            if let Some(number) = awaited.into_iter().flatten().next() {
                break number;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        };
        marked_to_move(&browser, &mover).await;
        select_phone(&browser, &mover).await;
        let line = browser.text("#turn").await;
        assert!(
            line.contains("Paper soccer, match") && line.contains("Your move"),
            "{line}"
        );
        assert!(line.contains(" left"), "the deadline: {line}");
        if turns_passed == 1 && !shot {
            for (size, name) in [((1440, 900), "1440"), (NARROW, "390"), ((320, 640), "320")] {
                browser.resize(size).await;
                browser.screenshot(&format!("hall-turn-{name}")).await;
            }
            browser.resize(WIDE).await;
            shot = true;
        }
        let (_, mv) = my_move(&hall.state, &mover).await;
        text(&browser, GAME, &mv).await;
        moves += 1;
        let still_mine = seat_of(&hall.state, &mover)
            .await
            .and_then(|(_, s, seat)| a_legal_move("PS", &s, seat))
            .is_some();
        if !still_mine {
            turns_passed += 1;
        }
    }
    let labels = browser
        .eval(
            "return Array.from(document.querySelectorAll('#thread li .meta'), m => m.textContent);",
        )
        .await;
    let labels: Vec<String> = serde_json::from_value(labels).unwrap();
    assert!(
        labels.iter().any(|l| l.contains("Paper soccer, match")),
        "texts name their match: {labels:?}"
    );
    browser.close().await;
}

/// Waits until `script` (an expression) is true in the page.
async fn until(browser: &Browser, script: &str, what: &str) {
    let started = Instant::now();
    while browser.eval(&format!("return !!({script});")).await != true {
        assert!(started.elapsed() < Duration::from_secs(10), "never: {what}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// Every word the page says itself, in document order: texts, accessible
/// names and placeholders of the elements marked with their words' keys.
async fn own_words(browser: &Browser) -> Vec<String> {
    let words = browser
        .eval(
            "return [
               ...Array.from(document.querySelectorAll('[data-say]'), e => e.textContent),
               ...Array.from(document.querySelectorAll('[data-say-label]'), e => e.getAttribute('aria-label')),
               ...Array.from(document.querySelectorAll('[data-say-placeholder]'), e => e.placeholder),
               document.title,
             ];",
        )
        .await;
    serde_json::from_value(words).unwrap()
}

/// The language control offers what `LANG` offers and shows the phone's
/// own; the page's words follow it once the phone is a player's; switching
/// texts `LANG EN` as a phone would. A text over the phone's limit is said
/// so in the thread, plainly, with when to send it again.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_page_speaks_the_phones_language_and_a_dropped_text_says_when_to_try_again() {
    let Some(browser) = Browser::start(NARROW).await else {
        return;
    };
    let hall = hall_with(|cfg| {
        cfg.limits.phone_per_minute = 1;
        cfg.limits.phone_burst = 2;
    })
    .await;
    browser.goto(&format!("{}/hall", hall.base)).await;
    new_phone(&browser).await;
    until(
        &browser,
        "document.querySelector('#lang option')",
        "languages",
    )
    .await;
    let offered = browser
        .eval("return Array.from(document.querySelectorAll('#lang option'), o => [o.value, o.selected]);")
        .await;
    assert_eq!(
        offered,
        serde_json::json!([["EN", false], ["RU", true], ["CYR", false]])
    );
    assert_eq!(
        browser.text("#send").await,
        "Send",
        "no player yet: as served"
    );
    let served = own_words(&browser).await;

    text(&browser, GAME, "R ann").await;
    until(
        &browser,
        "document.querySelector('#send').textContent === 'Отправить'",
        "the page in the player's Russian",
    )
    .await;
    assert_eq!(
        browser.eval("return document.documentElement.lang;").await,
        "ru"
    );
    // Every word the page says itself follows: its texts, the names a
    // screen reader reads, the hints in empty boxes, the game names (as the
    // SMS spell them in that language) and the phone button.
    let russian = own_words(&browser).await;
    assert_eq!(served.len(), russian.len());
    let unchanged: Vec<_> = served
        .iter()
        .zip(&russian)
        .filter(|(en, ru)| en == ru)
        .collect();
    assert!(unchanged.is_empty(), "still in English: {unchanged:?}");
    assert!(
        russian.iter().any(|w| w == "Futbol na bumage"),
        "{russian:?}"
    );
    assert_eq!(browser.text("#new-phone").await, "+ телефон");
    browser.screenshot("hall-russian-390").await;

    let seen = inbox(&browser).await.len();
    browser
        .find("#lang")
        .await
        .select_by_value("EN")
        .await
        .unwrap();
    assert_eq!(replies(&browser, seen).await, ["Language: English."]);
    let out = browser
        .eval("return Array.from(document.querySelectorAll('#thread li.out pre'), p => p.textContent);")
        .await;
    assert_eq!(
        out,
        serde_json::json!(["R ann", "LANG EN"]),
        "sent as a phone would"
    );
    until(
        &browser,
        "document.querySelector('#send').textContent === 'Send'",
        "the page in English again",
    )
    .await;
    assert_eq!(own_words(&browser).await, served, "as served again");

    browser.type_in("#compose-text", "H").await;
    browser.click("#send").await;
    until(
        &browser,
        "document.querySelector('#thread .refused')",
        "a refusal",
    )
    .await;
    let said = browser.text("#thread .refused").await;
    // The wait counts down from the minute the limit refills in: a slow
    // machine may read it a second or two later.
    let wait: u64 = said
        .split_once("Wait ")
        .and_then(|(_, rest)| rest.split_once(" s"))
        .and_then(|(n, _)| n.parse().ok())
        .unwrap_or(0);
    assert!(
        said.starts_with("Not read: too many texts in a row.") && (50..=60).contains(&wait),
        "{said}"
    );
    browser.screenshot("hall-refused-390").await;
    browser.close().await;
}

/// Russian in Cyrillic from the page's language control: the reply comes
/// in Cyrillic, the page speaks Russian, and the control names it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_page_offers_russian_in_cyrillic_and_its_replies_come_in_it() {
    let Some(browser) = Browser::start(NARROW).await else {
        return;
    };
    let hall = hall().await;
    browser.goto(&format!("{}/hall", hall.base)).await;
    new_phone(&browser).await;
    text(&browser, GAME, "R ivan").await;
    until(
        &browser,
        "document.querySelector('#lang option[value=CYR]')",
        "the Cyrillic choice",
    )
    .await;
    let seen = inbox(&browser).await.len();
    browser
        .find("#lang")
        .await
        .select_by_value("CYR")
        .await
        .unwrap();
    assert_eq!(
        replies(&browser, seen).await,
        ["Язык: русский (кириллица). SMS вмещает 70 букв."]
    );
    until(
        &browser,
        "document.querySelector('#lang').selectedOptions[0].value === 'CYR'",
        "the control showing the choice",
    )
    .await;
    assert_eq!(browser.text("#send").await, "Отправить");
    let seen = inbox(&browser).await.len();
    type_and_send(&browser, GAME, "HELP").await;
    let help = replies(&browser, seen).await;
    assert!(help[0].starts_with("P - игра (на "), "{help:?}");
    browser.screenshot("hall-cyrillic-390").await;
    browser.close().await;
}

/// Types `text` to `to` and sends it, without waiting for an answer.
pub(crate) async fn type_and_send(browser: &Browser, to: &str, text: &str) {
    browser
        .find("#compose-to")
        .await
        .select_by_value(to)
        .await
        .unwrap();
    browser.type_in("#compose-text", text).await;
    browser.click("#send").await;
}

/// The notes of the texts the page says were not sent.
pub(crate) async fn not_sent(browser: &Browser) -> Vec<String> {
    let notes = browser
        .eval(
            "return Array.from(document.querySelectorAll('#thread li.out .meta'), m => m.textContent)
               .filter(t => t.includes('not sent'));",
        )
        .await;
    serde_json::from_value(notes).unwrap()
}

/// A text the service cannot take this moment (its database held by another
/// program past the writer's wait: a 503) is posted again by the page, as a
/// provider would, with the same id: it is read once and answered, and the
/// thread never says it was not sent.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_text_the_service_cannot_take_now_is_posted_again_and_read_once() {
    let Some(browser) = Browser::start(NARROW).await else {
        return;
    };
    let hall = hall_with(|cfg| cfg.http.request_timeout_ms = 8_000).await;
    browser.goto(&format!("{}/hall", hall.base)).await;
    new_phone(&browser).await;
    text(&browser, GAME, "R held").await;
    let read_before = hall
        .state
        .store()
        .read(|r| r.count_rows("inbound"))
        .await
        .unwrap();
    let seen = inbox(&browser).await.len();

    let lock = common::lock::WriteLock::take(&hall.state.config().database.url);
    type_and_send(&browser, GAME, "H").await;
    // Past SQLite's busy timeout (5 s): the first post is answered 503.
    tokio::time::sleep(Duration::from_millis(6_500)).await;
    drop(lock);
    let help = replies(&browser, seen).await;
    assert!(!help.is_empty(), "answered once the database was free");
    assert_eq!(not_sent(&browser).await, Vec::<String>::new());
    let read = hall
        .state
        .store()
        .read(|r| r.count_rows("inbound"))
        .await
        .unwrap();
    assert_eq!(read, read_before + 1, "read once");
    browser.close().await;
}
