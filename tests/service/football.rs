//! Whole SMS football matches over HTTP with four phones on a real SQLite file.

use crate::common;

use chrono::Duration;
use common::{PLAY, TestApp};
use smsarena::games::football::{ATTACK, State};

const PHONES: [&str; 4] = ["+7101", "+7102", "+7103", "+7104"];
const NICKS: [&str; 4] = ["ann", "bob", "cid", "dan"];
const WAIT: &str = "Nedostatochno igrokov dlya nachala igry. Zhdite.";
const HINT: &str = "PA - revansh. S nick tekst - soobshchenie.";

/// Registers the four and queues them in seat order; the fourth `P` starts the match.
async fn start(app: &TestApp) {
    for (phone, nick) in PHONES.iter().zip(NICKS) {
        app.sms(phone, &format!("R {nick}")).await;
        app.inbox(phone).await;
    }
    for (i, phone) in PHONES.iter().enumerate() {
        app.sms_to(phone, PLAY, "P").await;
        if i < 3 {
            assert_eq!(app.one_text(phone).await, WAIT);
        }
    }
}

/// Phones by side, in seat order: (attack, defense).
async fn sides(app: &TestApp) -> (Vec<&'static str>, Vec<&'static str>) {
    let record = app.match_state(PHONES[0]).await.expect("a match");
    let state: State = record.state.parse().unwrap();
    let mut attack = Vec::new();
    let mut defense = Vec::new();
    for (seat, side) in state.sides().iter().enumerate() {
        if *side == ATTACK {
            attack.push(PHONES[seat])
        } else {
            defense.push(PHONES[seat])
        }
    }
    (attack, defense)
}

/// Puts the running match into a position drawn as rows (`0`-`3` seats, `*` ball; seats 0,1 attack).
async fn set_position(app: &TestApp, rows: [&str; 5], moved: (u32, u32)) {
    let record = app.match_state(PHONES[0]).await.expect("a match");
    let state = State::from_board(rows, "AADD")
        .unwrap()
        .with_moved(moved.0, moved.1)
        .unwrap();
    app.set_match_state(record, state.to_string()).await;
}

async fn clear_inboxes(app: &TestApp) {
    for phone in PHONES {
        app.inbox(phone).await;
    }
}

fn status_line(board: &str) -> &str {
    board.lines().last().unwrap()
}

#[tokio::test]
async fn the_fourth_player_starts_a_match_and_each_sees_his_own_board() {
    let app = TestApp::new().await;
    start(&app).await;
    let (attack, defense) = sides(&app).await;
    assert_eq!((attack.len(), defense.len()), (2, 2));
    for phone in PHONES {
        let board = app.one_text(phone).await;
        let rows: Vec<&str> = board.lines().take(5).collect();
        assert!(rows.iter().all(|r| r.len() == 5), "{board}");
        assert_eq!(board.matches('Y').count(), 1, "{board}");
        assert_eq!(board.matches('0').count(), 1, "{board}");
        let expected = if attack.contains(&phone) {
            "Vash xod."
        } else {
            "Xod protivnika."
        };
        assert_eq!(status_line(&board), expected, "{board}");
    }
    // Everyone is in the match: another P answers with the board, not a queue.
    app.sms_to(PHONES[0], PLAY, "P").await;
    assert!(app.one_text(PHONES[0]).await.contains('Y'));
    assert_eq!(app.count("lobby").await, 0);
}

#[tokio::test]
async fn a_turn_resolves_when_both_teammates_have_moved() {
    let app = TestApp::new().await;
    start(&app).await;
    let (attack, defense) = sides(&app).await;
    clear_inboxes(&app).await;

    app.sms(defense[0], "5").await;
    assert_eq!(app.one_text(defense[0]).await, "Seichas xod protivnika.");
    app.sms(attack[0], "5").await;
    assert_eq!(app.one_text(attack[0]).await, "Xod 5 prinyat.");
    // A valid move may be replaced until the turn resolves.
    app.sms(attack[0], "5").await;
    assert_eq!(app.one_text(attack[0]).await, "Xod 5 prinyat.");
    assert!(
        app.inbox(attack[1]).await.is_empty(),
        "the partner is not disturbed"
    );
    app.sms(attack[1], "x").await;
    assert!(
        app.one_text(attack[1])
            .await
            .starts_with("Neponyatnyi xod: xod - tsifra 1-9 ili 0 i tsifra 1-9.")
    );
    app.sms(attack[1], "5").await;
    for phone in &attack {
        assert_eq!(status_line(&app.one_text(phone).await), "Xod protivnika.");
    }
    for phone in &defense {
        assert_eq!(status_line(&app.one_text(phone).await), "Vash xod.");
    }
}

#[tokio::test]
async fn invalid_moves_get_the_original_texts_and_change_nothing() {
    let app = TestApp::new().await;
    start(&app).await;
    set_position(&app, ["2...3", ".....", ".....", "..*..", "01..."], (0, 0)).await;
    clear_inboxes(&app).await;
    let before = app.match_state(PHONES[0]).await.unwrap().state;
    for (text, reply) in [
        (
            "7",
            "Vy ne mozhete peremestit svoego Igroka v dannom napravlenii",
        ),
        ("6", "Kletka na kotoruyu vy hoteli vstat zanyata"),
        ("02", "Vy ne mozhete peredvinut myach"),
        // A push without its direction says so, not only that it is unread.
        (
            "0",
            "Neponyatnyi xod: posle 0 (tolchok) nuzhna tsifra napravleniya 1-9.",
        ),
        (
            "00",
            "Neponyatnyi xod: posle 0 (tolchok) nuzhna tsifra napravleniya 1-9.",
        ),
    ] {
        app.sms(PHONES[0], text).await;
        assert!(app.one_text(PHONES[0]).await.starts_with(reply), "{text}");
    }
    assert_eq!(app.match_state(PHONES[0]).await.unwrap().state, before);
}

#[tokio::test]
async fn a_goal_ends_the_match() {
    let app = TestApp::new().await;
    start(&app).await;
    set_position(&app, ["2...3", "..*..", "..0..", ".....", "1...."], (0, 0)).await;
    clear_inboxes(&app).await;
    app.sms(PHONES[0], "2").await; // kick: the ball flies onto Defense's line
    app.sms(PHONES[1], "5").await;
    for (i, phone) in PHONES.iter().enumerate() {
        let text = app.inbox(phone).await.pop().unwrap();
        let result = if i < 2 {
            "Vi pobedili."
        } else {
            "Vi proigrali."
        };
        assert!(
            text.ends_with(&format!("{result}\n{HINT}")),
            "{phone}: {text}"
        );
    }
    assert!(
        app.match_state(PHONES[0]).await.is_none(),
        "the match is over"
    );
    // Its record keeps every move and board.
    let moves = app.count("match_moves").await;
    assert_eq!(moves, 2);
}

async fn stand_for_rounds(app: &TestApp, rounds: u32) {
    for _ in 0..rounds {
        for seat in [0, 1, 2, 3] {
            app.sms(PHONES[seat], "5").await;
        }
    }
}

#[tokio::test]
async fn after_ten_moves_the_ball_decides() {
    let app = TestApp::new().await;
    start(&app).await;
    set_position(&app, ["2...3", ".....", ".....", "..*..", "01..."], (0, 0)).await;
    clear_inboxes(&app).await;
    stand_for_rounds(&app, 10).await;
    let last = app.inbox(PHONES[2]).await.pop().unwrap();
    assert!(
        last.contains("Vi pobedili."),
        "ball on row 4: Defense wins\n{last}"
    );
    assert!(
        app.inbox(PHONES[0])
            .await
            .pop()
            .unwrap()
            .contains("Vi proigrali.")
    );
}

#[tokio::test]
async fn a_ball_in_midfield_after_ten_moves_is_a_draw() {
    let app = TestApp::new().await;
    start(&app).await;
    set_position(&app, ["2...3", ".....", "..*..", ".....", "01..."], (0, 0)).await;
    clear_inboxes(&app).await;
    stand_for_rounds(&app, 10).await;
    for phone in PHONES {
        assert!(
            app.inbox(phone)
                .await
                .pop()
                .unwrap()
                .ends_with(&format!("Nichya.\n{HINT}"))
        );
    }
}

async fn finish_by_resignation(app: &TestApp) {
    start(app).await;
    set_position(app, ["2...3", ".....", ".....", "..*..", "01..."], (0, 0)).await;
    app.sms(PHONES[2], "Q").await;
    clear_inboxes(app).await;
}

#[tokio::test]
async fn resignation_ends_the_match_for_the_whole_side() {
    let app = TestApp::new().await;
    start(&app).await;
    set_position(&app, ["2...3", ".....", ".....", "..*..", "01..."], (0, 0)).await;
    clear_inboxes(&app).await;
    app.sms(PHONES[2], "Q").await;
    let texts = app.inbox(PHONES[2]).await;
    assert_eq!(texts[0], "Vy sdalis.");
    assert!(texts[1].contains("Vi proigrali."));
    assert!(app.inbox(PHONES[3]).await[0].contains("Vi proigrali."));
    assert!(app.inbox(PHONES[0]).await[0].contains("Vi pobedili."));
}

#[tokio::test]
async fn a_rematch_starts_when_all_four_send_pa_with_sides_swapped() {
    let app = TestApp::new().await;
    finish_by_resignation(&app).await;
    for phone in &PHONES[..3] {
        app.sms_to(phone, PLAY, "PA").await;
    }
    assert_eq!(
        app.inbox(PHONES[0]).await[0],
        "Zayavka na revansh prinyata. Zhdem ostalnyh igrokov."
    );
    assert_eq!(
        app.inbox(PHONES[3]).await,
        vec!["ann predlagaet revansh. Otpravte PA.".to_string()]
    );
    app.sms_to(PHONES[3], PLAY, "PA").await;
    let (attack, _) = sides(&app).await;
    assert_eq!(
        attack,
        vec![PHONES[2], PHONES[3]],
        "the old Defense attacks now"
    );
    for phone in PHONES {
        assert!(app.inbox(phone).await.last().unwrap().contains('Y'));
    }
}

#[tokio::test]
async fn pending_pa_becomes_a_play_request_after_six_minutes() {
    let app = TestApp::new().await;
    finish_by_resignation(&app).await;
    for phone in &PHONES[..3] {
        app.sms_to(phone, PLAY, "PA").await;
        app.advance(Duration::seconds(10)).await;
    }
    app.advance(Duration::minutes(5)).await;
    assert_eq!(
        app.count("lobby").await,
        0,
        "not yet: six minutes from the first PA"
    );
    app.advance(Duration::seconds(31)).await;
    assert_eq!(app.count("lobby").await, 3);
    assert!(
        app.inbox(PHONES[0])
            .await
            .last()
            .unwrap()
            .starts_with("Ne vse igroki soglasilis")
    );
    // A newcomer makes four: the match starts with the three who asked for the rematch.
    app.sms("+7105", "R eve").await;
    app.sms_to("+7105", PLAY, "P").await;
    assert!(app.match_state("+7105").await.is_some());
    for phone in &PHONES[..3] {
        assert!(app.match_state(phone).await.is_some(), "{phone} plays");
    }
    assert!(app.match_state(PHONES[3]).await.is_none());
}

#[tokio::test]
async fn one_message_to_a_player_of_the_last_match_within_thirty_minutes() {
    let app = TestApp::new().await;
    finish_by_resignation(&app).await;
    app.sms(PHONES[0], "S cid kruto mi ix :)").await;
    assert_eq!(
        app.one_text(PHONES[0]).await,
        "Soobshchenie dlya cid otpravleno."
    );
    assert_eq!(app.one_text(PHONES[2]).await, "ann: kruto mi ix :)");
    app.sms(PHONES[0], "S dan eshche").await;
    assert!(
        app.one_text(PHONES[0])
            .await
            .starts_with("Soobshchenie mozhno otpravit odin raz")
    );
    app.sms(PHONES[1], "S zed hi").await;
    assert_eq!(app.one_text(PHONES[1]).await, "Igrok zed ne naiden.");
    app.advance(Duration::minutes(31)).await;
    app.sms(PHONES[1], "S ann late").await;
    assert!(
        app.one_text(PHONES[1])
            .await
            .starts_with("Soobshchenie mozhno otpravit odin raz")
    );
    assert!(app.inbox(PHONES[0]).await.is_empty());
}

#[tokio::test]
async fn a_timeout_mid_match_plays_null_moves_and_silences_the_player() {
    let app = TestApp::new().await;
    start(&app).await;
    set_position(&app, ["2...3", ".....", ".....", "..*..", "01..."], (0, 0)).await;
    clear_inboxes(&app).await;
    app.sms(PHONES[0], "T").await;
    assert!(
        app.one_text(PHONES[0])
            .await
            .starts_with("Vy vzyali taim-aut")
    );
    app.sms(PHONES[1], "6").await; // the partner's move completes the turn at once
    assert_eq!(status_line(&app.one_text(PHONES[2]).await), "Vash xod.");
    assert!(
        app.inbox(PHONES[0]).await.is_empty(),
        "nothing while on a timeout"
    );
    // P brings him back: the answer is the board as it stands.
    app.sms_to(PHONES[0], PLAY, "P").await;
    assert_eq!(
        status_line(&app.one_text(PHONES[0]).await),
        "Xod protivnika."
    );
}

#[tokio::test]
async fn deadlines_play_stand_and_three_misses_lose_the_match_for_an_empty_side() {
    let app = TestApp::new().await;
    start(&app).await;
    set_position(&app, ["2...3", ".....", ".....", "..*..", "01..."], (0, 0)).await;
    clear_inboxes(&app).await;
    app.sms(PHONES[0], "3").await;
    app.advance(Duration::seconds(179)).await;
    assert!(
        app.inbox(PHONES[2]).await.is_empty(),
        "not before the deadline"
    );
    app.advance(Duration::seconds(1)).await;
    let board = app.inbox(PHONES[2]).await.pop().unwrap();
    // Seat 1 missed the deadline and stood; seat 0's step counted.
    assert_eq!(board, "Y...2\n.....\n.....\n.10..\n.1...\n\nVash xod.");
    // From now on nobody moves. Turns expire: D (defenders miss 1), A (seat 0: 1, seat 1: 2),
    // D (2), A (seat 0: 2, seat 1: 3 -> timeout), D (3 -> both defenders time out).
    for _ in 0..4 {
        app.advance(Duration::minutes(3)).await;
    }
    let notices = app.inbox(PHONES[1]).await;
    assert_eq!(
        notices.last().unwrap(),
        "Vy propustili 3 xoda podryad i perevedeny v taim-aut. Dlya vozvrata otpravte P na 002227.",
        "one timeout notice: {notices:?}"
    );
    assert!(
        app.match_state(PHONES[0]).await.is_some(),
        "seat 0 still plays for Attack"
    );
    app.advance(Duration::minutes(3)).await;
    assert!(
        app.match_state(PHONES[0]).await.is_none(),
        "Defense has nobody left and loses"
    );
    assert!(
        app.inbox(PHONES[0])
            .await
            .pop()
            .unwrap()
            .contains("Vi pobedili.")
    );
    for phone in &PHONES[2..] {
        assert!(
            app.inbox(phone)
                .await
                .pop()
                .unwrap()
                .starts_with("Vy propustili 3 xoda podryad")
        );
    }
    assert!(
        app.inbox(PHONES[1]).await.is_empty(),
        "a timed-out player hears nothing more"
    );
}

#[tokio::test]
async fn the_admin_api_shows_a_finished_match_and_its_replay_audit() {
    use axum::body::Body;
    use axum::http::{Request, StatusCode};
    let app = TestApp::with_config(|cfg| cfg.admin.token = "t0ken".into()).await;
    start(&app).await;
    let id = app.match_state(PHONES[0]).await.unwrap().id;
    stand_for_rounds(&app, 3).await;
    // Half of these were refused if the draw made seats 0 and 1 Defense: count what was played.
    app.sms(PHONES[0], "Q").await;
    let get = |auth: Option<&str>| {
        let mut r = Request::get(format!("/admin/matches/{id}"));
        if let Some(a) = auth {
            r = r.header("authorization", a);
        }
        r.body(Body::empty()).unwrap()
    };
    assert_eq!(
        app.request(get(None)).await.status,
        StatusCode::UNAUTHORIZED
    );
    assert_eq!(
        app.request(get(Some("Bearer nope"))).await.status,
        StatusCode::UNAUTHORIZED
    );
    let reply = app.request(get(Some("Bearer t0ken"))).await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
    let record: serde_json::Value = serde_json::from_str(&reply.body).unwrap();
    assert_eq!(record["replay"], "ok", "{record}");
    assert_eq!(record["finished"], true);
    let moves = record["moves"].as_array().unwrap();
    assert!(
        moves.len() >= 7,
        "at least 6 stands and the resignation: {moves:?}"
    );
    let last = moves.last().unwrap();
    assert_eq!(
        (&last["kind"], &last["move"]),
        (&"withdrawal".into(), &"resigned".into())
    );
    assert!(
        moves[..moves.len() - 1].iter().all(|m| m["kind"] == "move"),
        "texted stands: {moves:?}"
    );
    assert_eq!(record["players"][0]["nick"], "ann");
    let missing = Request::get("/admin/matches/999")
        .header("authorization", "Bearer t0ken")
        .body(Body::empty())
        .unwrap();
    assert_eq!(app.request(missing).await.status, StatusCode::NOT_FOUND);

    // Off without a token.
    let off = TestApp::new().await;
    let reply = off
        .request(Request::get("/admin/stats").body(Body::empty()).unwrap())
        .await;
    assert_eq!(reply.status, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn deadlines_and_rematch_windows_survive_a_restart() {
    let app = TestApp::new().await;
    start(&app).await;
    set_position(&app, ["2...3", ".....", ".....", "..*..", "01..."], (0, 0)).await;
    clear_inboxes(&app).await;
    let app = app.restart().await;
    app.advance(Duration::minutes(3)).await;
    assert_eq!(
        status_line(&app.one_text(PHONES[2]).await),
        "Vash xod.",
        "the deadline fired after the restart"
    );

    app.sms(PHONES[2], "Q").await;
    clear_inboxes(&app).await;
    for phone in &PHONES[..3] {
        app.sms_to(phone, PLAY, "PA").await;
    }
    let app = app.restart().await;
    app.advance(Duration::minutes(6)).await;
    assert_eq!(
        app.count("lobby").await,
        3,
        "the window closed after the restart"
    );
}

#[tokio::test]
async fn b_sends_the_board_again() {
    let app = TestApp::new().await;
    start(&app).await;
    let opening = app.inbox(PHONES[1]).await.pop().unwrap();
    app.sms(PHONES[1], "B").await;
    assert_eq!(app.one_text(PHONES[1]).await, opening);
    app.sms(PHONES[1], "HELP").await;
    let help = app.one_text(PHONES[1]).await;
    assert!(
        help.ends_with("B - pole, Q - sdatsya, T - taim-aut, H - xody."),
        "{help}"
    );
    // It used to take two SMS parts.
    let parts = app.texts_to(PHONES[1]).await.last().unwrap().parts;
    assert_eq!(parts, 1, "{help:?} fits one SMS");
}

/// Whether a text is a board as the rules draw it: five rows of five cells
/// (`Y` the reader, `1` `2` the others by team, `0` the ball), a blank line,
/// and a status line (with the rematch hint at the end).
fn is_board(text: &str) -> bool {
    let lines: Vec<&str> = text.lines().collect();
    let rows_ok = lines.len() >= 7
        && lines[..5]
            .iter()
            .all(|r| r.len() == 5 && r.chars().all(|c| ".Y120".contains(c)))
        && lines[5].is_empty();
    let status = &lines[6..];
    let status_ok = matches!(status, ["Vash xod."] | ["Xod protivnika."])
        || (status.len() == 2
            && ["Vi pobedili.", "Vi proigrali.", "Nichya."].contains(&status[0])
            && status[1] == HINT);
    rows_ok && status_ok && text.matches('Y').count() == 1
}

#[tokio::test]
async fn a_player_alone_plays_a_whole_match_against_three_robots() {
    let app = TestApp::with_config(|cfg| cfg.admin.token = "t0ken".into()).await;
    let me = PHONES[0];
    app.sms(me, "R ann").await;
    app.inbox(me).await;
    app.sms_to(me, PLAY, "P FB BOT").await;
    let (m, seats) = app.last_match(me).await.expect("it starts at once");
    assert_eq!(m.options, "BOT");
    assert_eq!(
        seats.iter().filter(|s| s.player().is_none()).count(),
        3,
        "robots in the three other seats"
    );
    let mut texts = Vec::new();
    let mut my_moves = 0;
    for _ in 0..100 {
        app.robots().await;
        texts.extend(app.inbox(me).await);
        let Some(record) = app.match_state(me).await else {
            break;
        };
        let state: State = record.state.parse().unwrap();
        assert!(
            state.turn() == state.sides()[0] && state.pending(0).is_none(),
            "after the robots played, the game waits for me: {}",
            record.state
        );
        // Head for the ball like anyone would: the robots' own rule, for me.
        let moves = smsarena::games::Game::legal_moves(
            &smsarena::games::football::Football::default(),
            &state,
            0,
        );
        let mv = moves.first().map(|m| m.to_string()).unwrap_or("5".into());
        app.sms(me, &mv).await;
        my_moves += 1;
    }
    texts.extend(app.inbox(me).await);
    let (m, _) = app.last_match(me).await.unwrap();
    assert!(m.finished, "the match ended, after {my_moves} of my moves");
    for text in &texts {
        assert!(
            is_board(text) || text.starts_with("Xod ") && text.ends_with(" prinyat."),
            "not a board: {text:?}"
        );
    }
    let last = texts.last().unwrap();
    assert!(last.ends_with(HINT), "the result: {last}");
    // Nothing was queued for a robot: every text went to my phone.
    let everyone = app.count("outbox").await;
    assert_eq!(everyone as usize, app.texts_to(me).await.len());
    // The record replays without a search.
    let reply = app
        .request(
            axum::http::Request::get(format!("/admin/matches/{}", m.id))
                .header("authorization", "Bearer t0ken")
                .body(axum::body::Body::empty())
                .unwrap(),
        )
        .await;
    let record: serde_json::Value = serde_json::from_str(&reply.body).unwrap();
    assert_eq!(record["replay"], "ok", "{record}");
    assert_eq!(record["players"][1]["robot"], 1);
    // And a rematch needs only my PA: robots always agree.
    app.sms_to(me, PLAY, "PA").await;
    let (again, _) = app.last_match(me).await.unwrap();
    assert_eq!(again.rematch_of, Some(m.id));
}

#[tokio::test]
async fn a_player_back_from_a_timeout_starts_counting_missed_turns_from_zero() {
    let app = TestApp::new().await;
    start(&app).await;
    let (attack, defense) = sides(&app).await;
    let (late, partner) = (attack[0], attack[1]);
    /// Attack's turn with `late` silent (his deadline passes), then Defense stands.
    async fn round(app: &TestApp, partner: &str, defense: &[&str]) {
        app.sms(partner, "5").await;
        app.advance(Duration::seconds(181)).await;
        for d in defense {
            app.sms(d, "5").await;
        }
    }
    for _ in 0..3 {
        round(&app, partner, &defense).await;
    }
    assert!(
        app.inbox(late)
            .await
            .iter()
            .any(|t| t.starts_with("Vy propustili 3 xoda podryad")),
        "timed out after three"
    );
    app.sms_to(late, PLAY, "P").await;
    assert!(is_board(&app.one_text(late).await), "back, with the board");
    // While he was away his piece already stood for this turn; the next is his.
    for _ in 0..2 {
        round(&app, partner, &defense).await;
    }
    let texts = app.inbox(late).await;
    assert!(
        !texts.iter().any(|t| t.starts_with("Vy propustili")),
        "one more miss after coming back is one, not four: {texts:?}"
    );
    let (_, seats) = app.last_match(late).await.unwrap();
    let me = seats
        .iter()
        .find(|s| s.player().unwrap().phone == late)
        .unwrap();
    assert_eq!(me.missed, 1);
    assert!(!me.player().unwrap().away);
}

/// `H` after a whole match reads turn by turn: a line a round, each side's
/// players by nick with their moves (`3. A: ann 5, bob 5 / D: cid 5, dan
/// 5`), every page one SMS, the newest ending with the last round and who
/// left in it.
#[tokio::test]
async fn the_record_names_each_round_its_sides_and_their_players_moves() {
    let app = TestApp::new().await;
    start(&app).await;
    let (attack, defense) = sides(&app).await;
    let nick = |phone: &str| NICKS[PHONES.iter().position(|p| *p == phone).unwrap()];
    stand_for_rounds(&app, 10).await;
    // The match to its end: ann leaves, and her side loses (unless the ten
    // rounds already ended it).
    app.sms(PHONES[0], "Q").await;
    assert!(app.last_match(PHONES[0]).await.unwrap().0.finished);
    clear_inboxes(&app).await;
    let mut rounds = Vec::new();
    for page in ["H", "H 2", "H 3", "H 4"] {
        app.sms(PHONES[0], page).await;
        let text = app.one_text(PHONES[0]).await;
        assert_eq!(
            smsarena::encoding::analyse(&text).parts,
            1,
            "{page}: {text}"
        );
        if text.starts_with("There is no page") || text.starts_with("Stranicy") {
            break;
        }
        // The page's footer, `(1/3, ranshe: H 2)`, follows its last line.
        let body = match text.rfind(" (") {
            Some(at) if text[at + 2..].starts_with(|c: char| c.is_ascii_digit()) => &text[..at],
            _ => text.as_str(),
        };
        let lines: Vec<&str> = body.lines().collect();
        rounds.splice(0..0, lines.iter().map(|l| l.to_string()));
    }
    // Rounds whole up to the one in play, which may have only the attack's
    // first move yet.
    let (record, _) = app.last_match(PHONES[0]).await.unwrap();
    let state: State = record.state.parse().unwrap();
    let whole = state.moved()[ATTACK].min(state.moved()[1]) as usize;
    assert!(
        whole >= 5 && rounds.len() >= whole,
        "{whole} whole rounds: {rounds:#?}"
    );
    // The match ends by her leaving, or, when the ten rounds were played
    // before her text, by the ten-move rule.
    let last = rounds.last().unwrap();
    assert!(
        last.contains("ann Q") || last.starts_with("10. "),
        "the last round is where it ended: {last}"
    );
    for (i, line) in rounds.iter().enumerate() {
        let rest = line
            .strip_prefix(&format!("{}. A: ", i + 1))
            .unwrap_or_else(|| panic!("round {}: {line}", i + 1));
        if i >= whole {
            continue;
        }
        let (a, d) = rest
            .split_once(" / D: ")
            .unwrap_or_else(|| panic!("{line}"));
        for phone in &attack {
            assert!(a.contains(&format!("{} 5", nick(phone))), "{line}");
        }
        for phone in &defense {
            assert!(d.contains(&format!("{} 5", nick(phone))), "{line}");
        }
    }
}
