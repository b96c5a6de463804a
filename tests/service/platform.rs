//! The platform on the trial game (`TR`, count to 21), over HTTP: options
//! parsed and refused, one lobby per option set, a withdrawal in a 3-seat
//! game that goes on, results per seat, robots (also across a restart), one
//! phone with several seats, a turn over two texts, deadlines, history, and
//! the rematch and message flows with their defects fixed.

use crate::common;

use chrono::Duration;
use common::{PLAY, TestApp};
use smsarena::lang::Lang;
use smsarena::platform::robot_turns::SEARCH_ATTEMPTS;
use smsarena::platform::texts;
use smsarena::store::{Holder, MoveKind, Store};

const A: &str = "+7801";
const B: &str = "+7802";
const C: &str = "+7803";
const D: &str = "+7804";
const WAIT: &str = "Nedostatochno igrokov dlya nachala igry. Zhdite.";

async fn four() -> TestApp {
    let app = TestApp::new().await;
    app.register(&[(A, "ann"), (B, "bob"), (C, "cid"), (D, "dan")])
        .await;
    app.sms(A, "LANG EN").await;
    app.inbox(A).await;
    app
}

async fn play(app: &TestApp, phone: &str, text: &str) {
    app.sms_to(phone, PLAY, text).await;
}

/// Counts the trial game to its end by threes, from whoever is on turn.
async fn count_to_the_end(app: &TestApp, phones: &[&str]) {
    for _ in 0..30 {
        let Some(m) = app.match_state(phones[0]).await else {
            return;
        };
        let turn: usize = m
            .state
            .split(' ')
            .find_map(|f| f.strip_prefix("turn="))
            .unwrap()
            .parse()
            .unwrap();
        let (_, seats) = app.last_match(phones[0]).await.unwrap();
        let phone = match &seats[turn].holder {
            Holder::Player(p) => p.phone.clone(),
            Holder::Robot(_) => {
                app.robots().await;
                continue;
            }
        };
        app.sms(&phone, "3").await;
    }
    panic!("the match did not end");
}

#[tokio::test]
async fn bad_options_and_unknown_games_are_answered_with_the_valid_ones_and_change_nothing() {
    let app = four().await;
    play(&app, A, "P TR 4").await;
    let reply = app.one_text(A).await;
    assert!(
        reply.contains("Unknown option: 4.") && reply.contains("P TR [3]"),
        "{reply}"
    );
    play(&app, B, "P TR BOT 9").await;
    assert!(app.one_text(B).await.starts_with("Uroven 1-3."));
    play(&app, C, "P ZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZ").await;
    let reply = app.one_text(C).await;
    assert!(
        reply.starts_with("Igry ZZZZZZZZ... net. Igry: FB, "),
        "{reply}"
    );
    assert!(
        !reply.contains("ZZZZZZZZZ"),
        "a long word is not echoed back: {reply}"
    );
    assert_eq!(app.count("lobby").await, 0);
    assert_eq!(app.matches().await, 0);
    play(&app, D, "P ?").await;
    let list = app.one_text(D).await;
    assert!(list.starts_with("Igry:\nP FB - SMS-futbol\n"), "{list}");
    assert!(list.ends_with("\nP TR - Schet do 21"), "{list}");
    assert!(list.lines().count() >= 5, "one line a game: {list}");
    let parts = app.texts_to(D).await.last().unwrap().parts;
    assert_eq!(parts, 1, "within one SMS");
}

#[tokio::test]
async fn each_option_set_has_its_own_lobby() {
    let app = four().await;
    play(&app, A, "P TR 3").await;
    play(&app, B, "p tr").await;
    play(&app, C, "P  tr  3").await;
    assert_eq!(
        app.one_text(A).await,
        "Not enough players to start yet. Please wait."
    );
    assert_eq!(app.one_text(B).await, WAIT);
    assert_eq!(app.one_text(C).await, WAIT);
    // B waits for one more two-seat player, not for the three-seat game.
    assert_eq!(app.matches().await, 0);
    play(&app, D, "P TR 3").await;
    let (m, seats) = app.last_match(D).await.expect("a three-seat match");
    assert_eq!(
        (m.game.as_str(), m.options.as_str(), seats.len()),
        ("TR", "3", 3)
    );
    let phones: Vec<String> = seats
        .iter()
        .map(|s| s.player().unwrap().phone.clone())
        .collect();
    assert_eq!(phones, [A, C, D], "longest-waiting first");
    assert!(app.match_state(B).await.is_none(), "B still waits");
    assert_eq!(app.count("lobby").await, 1);
}

/// PostgreSQL: a gateway where A, B and C are registered, and `P TR`'s
/// queue held by another instance's store; none without PostgreSQL.
async fn three_and_a_held_queue() -> Option<(TestApp, common::QueueHold)> {
    let admin = common::postgres_admin_url().await?;
    let url = common::fresh_postgres_database(&admin).await;
    let app = TestApp::with_config(|cfg| cfg.database.url = url.clone()).await;
    app.register(&[(A, "ann"), (B, "bob"), (C, "cid")]).await;
    let other = Store::open(&url, 8)
        .await
        .expect("another instance's store");
    let hold = common::hold_queue(&other, "TR", "").await;
    Some((app, hold))
}

/// PostgreSQL, several instances: `P`s whose queue another instance's batch
/// is matching do not wait for that batch, and once it has committed the
/// queue is matched again. That look answers them: the two who meet get
/// only their board, the one left over is told to wait.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_queue_another_instance_was_matching_is_matched_again_after_its_commit() {
    let Some((app, hold)) = three_and_a_held_queue().await else {
        return;
    };
    for phone in [A, B, C] {
        play(&app, phone, "P TR").await;
    }
    assert_eq!(app.count("lobby").await, 3, "all three wait in the queue");
    for phone in [A, B, C] {
        assert!(
            app.inbox(phone).await.is_empty(),
            "answered by the second look"
        );
    }
    hold.release().await;
    assert_eq!(
        app.state.match_busy_queues().await,
        1,
        "one look at one queue"
    );
    let (m, seats) = app.last_match(A).await.expect("two of them meet");
    assert_eq!(m.game, "TR");
    let phones: Vec<&str> = seats
        .iter()
        .map(|s| s.player().unwrap().phone.as_str())
        .collect();
    assert_eq!(phones, [A, B], "longest-waiting first");
    for phone in [A, B] {
        let texts = app.inbox(phone).await;
        assert_eq!(texts.len(), 1, "only the board: {texts:?}");
        assert_ne!(texts[0], WAIT);
    }
    assert_eq!(app.inbox(C).await, [WAIT]);
    assert_eq!(app.count("lobby").await, 1);
    assert_eq!(
        app.state.match_busy_queues().await,
        0,
        "nothing left to look at"
    );
    let counted = app.state.metrics().render();
    assert!(
        counted.contains("smsarena_lobby_second_looks_total{outcome=\"done\"} 1\n"),
        "one second look counted: {counted}"
    );
}

/// PostgreSQL: a `P` that meets two players a busy queue left waiting
/// seats them, and is itself told to wait at once, though a match started;
/// the second look then tells no one anything more.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_p_that_seats_players_a_busy_queue_left_waiting_is_told_to_wait_itself() {
    let Some((app, hold)) = three_and_a_held_queue().await else {
        return;
    };
    for phone in [A, B] {
        play(&app, phone, "P TR").await;
    }
    hold.release().await;
    play(&app, C, "P TR").await;
    let (_, seats) = app.last_match(A).await.expect("A and B meet");
    let phones: Vec<&str> = seats
        .iter()
        .map(|s| s.player().unwrap().phone.as_str())
        .collect();
    assert_eq!(phones, [A, B]);
    assert_eq!(app.inbox(C).await, [WAIT], "C waits, and hears so");
    assert_eq!(app.state.match_busy_queues().await, 1);
    for phone in [A, B] {
        let texts = app.inbox(phone).await;
        assert_eq!(texts.len(), 1, "only the board: {texts:?}");
        assert_ne!(texts[0], WAIT);
    }
    assert!(app.inbox(C).await.is_empty(), "told once");
    assert_eq!(app.count("lobby").await, 1);
}

#[tokio::test]
async fn a_withdrawal_in_a_three_seat_game_lets_the_others_play_on_and_results_are_stored() {
    let app = four().await;
    for phone in [A, B, C] {
        play(&app, phone, "P TR 3").await;
    }
    for phone in [A, B, C] {
        app.inbox(phone).await;
    }
    app.sms(A, "Q").await;
    assert_eq!(app.inbox(A).await[0], "You resigned.");
    let m = app.match_state(B).await.expect("the match goes on");
    assert!(m.state.contains("out=0"), "{}", m.state);
    count_to_the_end(&app, &[B, C]).await;
    let (m, seats) = app.last_match(B).await.unwrap();
    assert!(m.finished);
    let places: Vec<Option<u8>> = seats.iter().map(|s| s.place).collect();
    let scores: Vec<Option<i64>> = seats.iter().map(|s| s.score).collect();
    assert_eq!(places[0], Some(3), "the one who left is last");
    assert!(places[1..].contains(&Some(1)) && places[1..].contains(&Some(2)));
    assert_eq!(scores[0], Some(0));
    assert_eq!(scores[1].unwrap() + scores[2].unwrap(), 21);
    let record = app.state.store().read({
        let id = m.id;
        move |r| r.moves(id)
    });
    let moves = record.await.unwrap();
    assert_eq!(
        (moves[0].kind, moves[0].notation.as_str()),
        (MoveKind::Withdrawal, "resigned")
    );
}

#[tokio::test]
async fn a_robot_plays_its_turns_off_the_writer_and_is_never_texted() {
    let app = four().await;
    play(&app, B, "P TR BOT 3").await;
    let opening = app.one_text(B).await;
    assert_eq!(opening, "Schet 0/21. Vash xod.");
    let (m, seats) = app.last_match(B).await.unwrap();
    assert_eq!(seats[1].holder, Holder::Robot(3));
    assert_eq!(m.options, "BOT 3");
    app.sms(B, "2").await;
    assert!(
        app.inbox(B).await.is_empty(),
        "the robot's reply brings the board: one text, not two"
    );
    // Not on the writer: nothing has moved until the pool plays.
    assert_eq!(
        app.state
            .store()
            .read(|r| r.robot_turns())
            .await
            .unwrap()
            .len(),
        1
    );
    assert_eq!(app.robots().await, 1);
    // Level 3 leaves the count a multiple of 4 short of 21: it adds 3.
    assert_eq!(app.one_text(B).await, "Schet 5/21. Vash xod.");
    assert_eq!(app.robots().await, 0, "one move per turn");
    count_to_the_end(&app, &[B]).await;
    let (m, seats) = app.last_match(B).await.unwrap();
    assert!(m.finished);
    assert_eq!(seats[1].place, Some(1), "the robot plays the winning line");
    assert_eq!(app.count("robot_turns").await, 0);
    // The robot's moves are recorded like any other, and the match replays.
    let moves = app
        .state
        .store()
        .read(move |r| r.moves(m.id))
        .await
        .unwrap();
    assert!(
        moves
            .iter()
            .any(|mv| mv.seat == 1 && mv.kind == MoveKind::Move && !mv.automatic)
    );
}

#[tokio::test]
async fn a_robot_turn_due_at_a_restart_is_played_exactly_once_and_the_match_goes_on() {
    let app = four().await;
    play(&app, B, "P TR BOT 1").await;
    app.sms(B, "2").await;
    app.inbox(B).await;
    assert_eq!(app.count("robot_turns").await, 1, "due, durably");
    let app = app.restart().await;
    assert_eq!(app.robots().await, 1);
    assert_eq!(app.robots().await, 0);
    let (m, _) = app.last_match(B).await.unwrap();
    let moves = app
        .state
        .store()
        .read(move |r| r.moves(m.id))
        .await
        .unwrap();
    let robot_moves = moves.iter().filter(|mv| mv.seat == 1).count();
    assert_eq!(robot_moves, 1, "{moves:?}");
    let board = app.one_text(B).await;
    assert!(board.ends_with("Vash xod."), "{board}");
    app.sms(B, "1").await;
    assert_eq!(app.robots().await, 1, "the match goes on");
    assert!(app.one_text(B).await.ends_with("Vash xod."));
}

/// A robot's search that keeps failing (it panicked, or its instance died
/// under it) is not retried after every lease for ever: each claim is
/// counted, and a turn claimed more than `SEARCH_ATTEMPTS` times is given
/// up. The seat plays its null move (or resigns in a game with none), so
/// the player is not kept waiting on a turn that never comes.
#[tokio::test]
async fn a_robot_turn_whose_search_keeps_failing_is_given_up_after_its_attempts() {
    let app = four().await;
    play(&app, B, "P TR BOT 1").await;
    app.sms(B, "2").await;
    app.inbox(B).await;
    // Three claims that never came back, as a search that panics leaves it.
    common::raw_sql(
        &app.state.config().database.url,
        &format!("UPDATE robot_turns SET attempts = {SEARCH_ATTEMPTS}"),
    )
    .await;
    assert_eq!(app.robots().await, 1, "the turn is settled, not searched");
    assert_eq!(app.count("robot_turns").await, 0, "nothing left to retry");
    let (m, _) = app.last_match(B).await.unwrap();
    let moves = app
        .state
        .store()
        .read(move |r| r.moves(m.id))
        .await
        .unwrap();
    let robot: Vec<_> = moves.iter().filter(|mv| mv.seat == 1).collect();
    assert_eq!(robot.len(), 1, "{moves:?}");
    assert_eq!(robot[0].kind, MoveKind::Null, "the robot's null move");
    assert!(
        app.one_text(B).await.ends_with("Vash xod."),
        "the match goes on"
    );
}

#[tokio::test]
async fn one_phone_plays_every_seat_gets_one_board_and_starts_the_rematch() {
    let app = four().await;
    play(&app, C, "P TR HOT").await;
    assert_eq!(
        app.inbox(C).await,
        ["Schet 0/21. Vash xod."],
        "one board, not two"
    );
    for _ in 0..7 {
        app.sms(C, "3").await;
    }
    let texts = app.inbox(C).await;
    assert_eq!(texts.len(), 7, "one board a move: {texts:?}");
    assert_eq!(texts.last().unwrap(), "Schet 21/21. Vi pobedili.");
    let (first, seats) = app.last_match(C).await.unwrap();
    assert!(first.finished);
    assert_eq!(seats.len(), 2);
    assert!(seats.iter().all(|s| s.player().unwrap().phone == C));
    play(&app, C, "PA").await;
    let (rematch, _) = app.last_match(C).await.unwrap();
    assert_eq!(rematch.rematch_of, Some(first.id), "its PA is everyone's");
    assert!(!rematch.finished);
}

#[tokio::test]
async fn history_and_states_by_step_on_a_finished_match() {
    let app = four().await;
    play(&app, C, "P TR HOT").await;
    for text in ["3", "2", "1"] {
        app.sms(C, text).await;
    }
    app.sms(C, "Q").await;
    app.inbox(C).await;
    app.sms(C, "H").await;
    assert_eq!(app.one_text(C).await, "1:+3 2:+2 1:+1 2:out");
    app.sms(C, "H 2").await;
    assert_eq!(
        app.one_text(C).await,
        "TR1 count=5 turn=0 scores=3,2 out=- chain=0 part=0 winner=-"
    );
    app.sms(C, "H 0").await;
    assert!(app.one_text(C).await.starts_with("TR1 count=0 "));
    app.sms(C, "H 9").await;
    assert_eq!(app.one_text(C).await, "Xoda 9 eshche ne bylo.");
    app.sms(C, "H x").await;
    assert!(app.one_text(C).await.starts_with("Format: H"));
}

#[tokio::test]
async fn a_turn_over_two_texts_shows_the_mover_his_board_and_restarts_his_deadline() {
    let app = four().await;
    play(&app, A, "P TR CHAIN").await;
    play(&app, B, "P TR CHAIN").await;
    app.inbox(A).await;
    app.inbox(B).await;
    let before = app.match_state(A).await.unwrap().deadline_at.unwrap();
    app.clock.advance(Duration::seconds(60));
    app.sms(A, "1").await;
    assert_eq!(app.inbox(A).await, ["Count 1/21. Your move."]);
    assert!(
        app.inbox(B).await.is_empty(),
        "the other seat is not disturbed"
    );
    let after = app.match_state(A).await.unwrap().deadline_at.unwrap();
    assert_eq!(
        after - before,
        Duration::seconds(60),
        "his deadline starts again"
    );
    app.sms(A, "1").await;
    assert_eq!(app.one_text(B).await, "Schet 2/21. Vash xod.");
}

#[tokio::test]
async fn missed_deadlines_play_the_null_move_and_three_in_a_row_withdraw_the_player() {
    let app = four().await;
    play(&app, A, "P TR").await;
    play(&app, B, "P TR").await;
    app.inbox(A).await;
    app.inbox(B).await;
    // A is on turn and misses it: the null move (1) is played for him.
    app.advance(Duration::seconds(181)).await;
    assert!(
        app.match_state(A)
            .await
            .unwrap()
            .state
            .contains("count=1 turn=1")
    );
    app.sms(B, "1").await;
    for _ in 0..2 {
        app.advance(Duration::seconds(181)).await;
        app.sms(B, "1").await;
    }
    let texts = app.inbox(A).await;
    assert!(
        texts
            .iter()
            .any(|t| t.starts_with("You missed 3 turns in a row")),
        "{texts:?}"
    );
    let (m, seats) = app.last_match(A).await.unwrap();
    assert!(m.finished, "a two-seat game ends when one seat withdraws");
    assert_eq!((seats[0].place, seats[1].place), (Some(3), Some(1)));
}

/// Two players finish a trial match; returns the match id.
async fn finished_pair(app: &TestApp) -> i64 {
    play(app, A, "P TR").await;
    play(app, B, "P TR").await;
    count_to_the_end(app, &[A, B]).await;
    for phone in [A, B] {
        app.inbox(phone).await;
    }
    app.last_match(A).await.unwrap().0.id
}

#[tokio::test]
async fn timeout_stop_or_another_lobby_withdraw_a_pending_rematch_request() {
    for leave in ["T", "STOP", "P TR 3"] {
        let app = four().await;
        let first = finished_pair(&app).await;
        play(&app, A, "PA").await;
        play(&app, A, leave).await;
        play(&app, B, "PA").await;
        let (last, _) = app.last_match(B).await.unwrap();
        assert_eq!(last.id, first, "{leave}: no rematch without A");
        assert_eq!(app.matches().await, 1, "{leave}");
    }
}

#[tokio::test]
async fn a_rematch_request_is_for_the_last_match_within_its_window() {
    let app = four().await;
    finished_pair(&app).await;
    app.advance(Duration::seconds(361)).await;
    play(&app, A, "PA").await;
    assert!(
        app.one_text(A)
            .await
            .starts_with("The time for a rematch is over.")
    );
    assert!(app.inbox(B).await.is_empty(), "B is not invited again");
    assert_eq!(app.matches().await, 1);
}

#[tokio::test]
async fn a_request_just_after_the_window_closed_seats_nobody_in_two_matches() {
    let app = four().await;
    finished_pair(&app).await;
    play(&app, A, "PA").await;
    // The window closes, but its timer has not fired yet.
    app.clock.advance(Duration::seconds(361));
    play(&app, B, "PA").await;
    let told = app.inbox(B).await;
    assert!(
        told.last()
            .unwrap()
            .starts_with("Vremya dlya revansha isteklo."),
        "{told:?}"
    );
    // A's request became an ordinary P; C joins and they play.
    play(&app, C, "P TR").await;
    assert_eq!(app.matches().await, 2);
    for phone in [A, B, C] {
        let active = app.match_state(phone).await.map(|m| m.id);
        let (last, _) = app.last_match(phone).await.unwrap();
        assert!(active.is_none() || active == Some(last.id));
    }
    assert!(
        app.match_state(B).await.is_none(),
        "B is in no match: his PA came late"
    );
    app.advance(Duration::seconds(1)).await;
    assert_eq!(
        app.matches().await,
        2,
        "the timer firing later starts nothing"
    );
}

#[tokio::test]
async fn a_message_to_a_player_who_cannot_receive_it_is_not_counted_as_sent() {
    let app = four().await;
    finished_pair(&app).await;
    play(&app, B, "T").await;
    app.sms(A, "S bob well played").await;
    assert_eq!(
        app.one_text(A).await,
        "bob is not receiving messages now. Yours was not sent; you may send it later."
    );
    play(&app, B, "P TR").await;
    app.inbox(B).await;
    app.sms(A, "S bob well played").await;
    assert_eq!(app.one_text(A).await, "Message to bob sent.");
    assert_eq!(app.inbox(B).await, ["ann: well played"]);
}

#[tokio::test]
async fn a_relayed_message_is_held_to_two_parts_and_loses_its_hidden_characters() {
    let app = four().await;
    finished_pair(&app).await;
    // Ten thousand characters with ESC, BEL, a right-to-left override and a
    // link: refused, the sender told how much fits, nothing relayed.
    let flood = format!(
        "{}\u{1b}[2J\u{7}\u{202e}moc.knab//:sptth {}",
        "x".repeat(5000),
        "y".repeat(5000)
    );
    app.sms(A, &format!("S bob {flood}")).await;
    assert_eq!(
        app.one_text(A).await,
        "Message too long: at most 301 characters. Not sent."
    );
    assert!(app.inbox(B).await.is_empty(), "nothing relayed");
    // A message that fits goes out without what a phone would hide or act on.
    app.sms(A, "S bob gg\u{1b}[31m \u{7}well\u{202e} played\u{200b}!")
        .await;
    assert_eq!(app.one_text(A).await, "Message to bob sent.");
    let relayed = app.texts_to(B).await.pop().unwrap();
    assert_eq!(relayed.body, "ann: gg[31m well played!");
    assert!(relayed.parts <= 2);
    // The help says how long a message may be.
    app.sms(A, "HELP").await;
    assert!(
        app.one_text(A)
            .await
            .contains("S nick text - message (2 SMS max)")
    );
}

/// The pool's lanes: a level-1 robot's turn is played while a level-3 search
/// still runs, with one search thread per lane. In one first-come queue it
/// waited for the deep search's whole budget.
#[tokio::test]
async fn a_level_1_robot_answers_while_a_level_3_robot_still_thinks() {
    let app = TestApp::with_config(|cfg| {
        cfg.robots.budget_ms = 10_000;
        cfg.robots.threads = 1;
    })
    .await;
    app.register(&[(A, "ann"), (B, "bob")]).await;
    app.sms_to(A, PLAY, "P PS BOT 3").await;
    app.sms(A, "2").await;
    let (deep_match, _) = app.last_match(A).await.unwrap();
    app.sms_to(B, PLAY, "P FB BOT").await;
    let (quick_match, quick_seats) = app.last_match(B).await.unwrap();
    let due = |app: &TestApp| {
        let store = app.state.store().clone();
        async move { store.read(|r| r.robot_turns()).await.unwrap() }
    };
    let waiting: Vec<i64> = due(&app).await.iter().map(|t| t.match_id).collect();
    assert!(waiting.contains(&deep_match.id) && waiting.contains(&quick_match.id));

    let (stop, shutdown) = tokio::sync::watch::channel(false);
    let pool = tokio::spawn(app.state.robots().clone().run(shutdown));
    let started = std::time::Instant::now();
    loop {
        let waiting = due(&app).await;
        if waiting.iter().all(|t| t.match_id != quick_match.id) {
            assert!(
                waiting.iter().any(|t| t.match_id == deep_match.id),
                "the level-3 robot is still thinking"
            );
            break;
        }
        assert!(
            started.elapsed() < std::time::Duration::from_secs(9),
            "the level-1 robots waited behind the level-3 search"
        );
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    let id = quick_match.id;
    let moves = app.state.store().read(move |r| r.moves(id)).await.unwrap();
    assert!(
        moves
            .iter()
            .any(|mv| quick_seats[mv.seat].player().is_none() && mv.kind == MoveKind::Move),
        "the level-1 robots played: {moves:?}"
    );
    stop.send(true).unwrap();
    pool.await.unwrap();
}

/// `P` naming a game during a match starts nothing and returns no other
/// board: the player is told he is in a match and how to leave it, in his
/// language; a bare `P` is still the match as it stands, and `Q` (the
/// command the text names) does leave it.
#[tokio::test]
async fn play_during_a_match_says_which_match_and_how_to_leave_it() {
    let app = four().await;
    play(&app, A, "P TR").await;
    play(&app, B, "P TR").await;
    app.inbox(A).await;
    app.inbox(B).await;
    let before = app.matches().await;

    play(&app, A, "P PS").await;
    assert_eq!(
        app.one_text(A).await,
        texts::already_in_match(Lang::En, "Count to 21")
    );
    play(&app, B, "P TR BOT 1").await;
    assert_eq!(
        app.one_text(B).await,
        "Vy v matche Schet do 21: Q - vyiti iz nego (sdatsya), B - pole."
    );
    assert_eq!(app.matches().await, before, "no second match");
    assert_eq!(
        texts::already_in_match(Lang::En, "Intelball"),
        "You are in an Intelball match: Q to leave it (you resign), B for the board."
    );
    for game in ["SMS football", "Futbol na bumage", "Avtogonki"] {
        let text = texts::already_in_match(Lang::Ru, game);
        assert_eq!(smsarena::encoding::analyse(&text).parts, 1, "{text}");
    }

    play(&app, A, "P").await;
    assert!(app.one_text(A).await.contains("0/21"), "the board");

    app.sms(A, "Q").await;
    assert!(app.match_state(A).await.is_none(), "Q left the match");
}
