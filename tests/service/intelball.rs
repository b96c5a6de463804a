//! Intelball over HTTP: a whole game against the robot, a two-player game,
//! one phone for both sides, undo and takeback, a bad code that changes
//! nothing, and `H 3` after the seed's combination giving the seed's state string.

use crate::common;

use common::{PLAY, TestApp};
use smsarena::games::Game;
use smsarena::games::intelball::{Intelball, State};

const ME: &str = "+7911";
const YOU: &str = "+7912";
const SEED_COMBINATION: &str = "B(4,6)>L(4,5)B~L(4,5)>L(6,5)B~L(6,5)>F(1,10)";
const SEED_RESULT: &str = "_S(3)_X(B(4,6)>L(4,5)B~L(4,5)>L(6,5)B~L(6,5)>F(1,10))_L(2,5_3,3_g4,1_-4,5_5,3_6,5_)_R(2,8_3,10_4,8_g4,12_5,10_6,8_)_B(1,10)_H(R)_T(0)_C(0:0)";

async fn app_with_time(limit: u32) -> TestApp {
    let app = TestApp::with_config(|cfg| cfg.intelball.time_limit = limit).await;
    app.register(&[(ME, "ann"), (YOU, "bob")]).await;
    app
}

/// One legal code for the seat `phone` moves for, as the game lists them.
async fn a_code(app: &TestApp, phone: &str, seat: usize) -> String {
    let record = app.match_state(phone).await.expect("a match");
    let state: State = record.state.parse().unwrap();
    let moves = Intelball { limit: 90 }.legal_moves(&state, seat);
    // Prefer a real code over the pass, and the undo never.
    moves
        .iter()
        .map(|m| m.to_string())
        .find(|m| m != "-" && m != "U")
        .unwrap_or_else(|| "-".into())
}

#[tokio::test]
async fn a_whole_game_against_the_robot() {
    let app = app_with_time(4).await;
    app.sms_to(ME, PLAY, "P IB BOT 3").await;
    let opening = app.one_text(ME).await;
    assert!(
        opening.starts_with("              111\n  123 456 789 012\n"),
        "{opening}"
    );
    for _ in 0..200 {
        if app.match_state(ME).await.is_none() {
            break;
        }
        let code = a_code(&app, ME, 0).await;
        app.sms(ME, &code).await;
        app.robots().await;
    }
    let (m, seats) = app.last_match(ME).await.unwrap();
    assert!(m.finished, "time ran out");
    assert!(seats.iter().all(|s| s.place.is_some()));
    for text in app.texts_to(ME).await {
        assert_eq!(text.encoding, "gsm7", "{}", text.body);
        assert!(text.parts <= 3, "{} parts", text.parts);
    }
    let last = app.texts_to(ME).await.pop().unwrap().body;
    assert!(
        last.contains("PA - revansh") || last.contains("Vi ") || last.contains("Nichya"),
        "{last}"
    );
}

#[tokio::test]
async fn two_players_and_a_bad_code_that_changes_nothing() {
    let app = app_with_time(90).await;
    app.sms_to(ME, PLAY, "P IB").await;
    app.sms_to(YOU, PLAY, "P IB").await;
    let (m, seats) = app.last_match(ME).await.expect("a match of two");
    assert_eq!(seats.len(), 2);
    let state: State = m.state.parse().unwrap();
    let blue_seat = state.seat_of(0);
    let (blue, red) = if blue_seat == 0 { (ME, YOU) } else { (YOU, ME) };
    app.inbox(ME).await;
    app.inbox(YOU).await;
    app.sms(red, "L(4,5)>F(4,4)").await;
    assert!(!app.one_text(red).await.is_empty(), "not your turn, said");
    app.sms(blue, "L(9,9)>F(9,8)").await;
    let reply = app.one_text(blue).await;
    assert!(reply.contains("L(9,9)>F(9,8)"), "names the code: {reply}");
    assert_eq!(
        app.match_state(ME).await.unwrap().state,
        m.state,
        "nothing changed"
    );
    // A code that does not read is answered with why, in the player's language.
    app.sms(blue, "L(4,7)>X(5,8)").await;
    let reply = app.one_text(blue).await;
    assert!(
        reply.starts_with(
            "Neponyatnyi xod: kod 1: nuzhno F (svobodnaya kletka) ili B (myach), a stoit 'X'."
        ),
        "{reply}"
    );
    // HELP in a match names every code, in one SMS.
    app.sms(blue, "?").await;
    let help = app.one_text(blue).await;
    assert!(
        help.contains("B&L>F") && help.contains("B~R>L") && help.contains(" - konec"),
        "{help}"
    );
    assert_eq!(smsarena::encoding::analyse(&help).parts, 1, "{help}");
    app.sms(blue, SEED_COMBINATION).await;
    let board = app.one_text(red).await;
    assert!(
        board.contains("Vash xod") || board.contains("Your move"),
        "{board}"
    );
    app.sms(red, "Q").await;
    assert!(app.last_match(ME).await.unwrap().0.finished);
}

#[tokio::test]
async fn one_phone_plays_both_sides_and_undoes_the_last_turn() {
    let app = app_with_time(90).await;
    app.sms_to(ME, PLAY, "P IB HOT").await;
    assert_eq!(app.inbox(ME).await.len(), 1, "one board");
    let start = app.match_state(ME).await.unwrap().state;
    app.sms(ME, SEED_COMBINATION).await;
    let after_blue = app.match_state(ME).await.unwrap().state;
    let code = a_code(&app, ME, 1).await;
    app.sms(ME, &code).await;
    assert_eq!(app.inbox(ME).await.len(), 2, "one board per combination");
    app.sms(ME, "U").await;
    let undone: State = app.match_state(ME).await.unwrap().state.parse().unwrap();
    let blue: State = after_blue.parse().unwrap();
    assert_eq!(undone.position(), blue.position(), "Red's turn taken back");
    assert!(
        app.one_text(ME).await.contains("Xod krasnyx (R)."),
        "Red to move again"
    );
    app.sms(ME, "U").await;
    let state: State = app.match_state(ME).await.unwrap().state.parse().unwrap();
    let opening: State = start.parse().unwrap();
    assert_eq!(state.position(), opening.position(), "then Blue's");
}

#[tokio::test]
async fn a_takeback_between_two_players_is_asked_and_granted() {
    let app = app_with_time(90).await;
    app.sms_to(ME, PLAY, "P IB").await;
    app.sms_to(YOU, PLAY, "P IB").await;
    let m = app.match_state(ME).await.unwrap();
    let state: State = m.state.parse().unwrap();
    let (blue, red) = if state.seat_of(0) == 0 {
        (ME, YOU)
    } else {
        (YOU, ME)
    };
    app.sms(blue, SEED_COMBINATION).await;
    app.inbox(blue).await;
    app.inbox(red).await;
    // Blue asks (his turn has passed); Red's U grants it.
    app.sms(blue, "U").await;
    let told = app.inbox(red).await.join("\n");
    assert!(!told.is_empty(), "Red hears of the request");
    app.sms(red, "U").await;
    let back: State = app.match_state(ME).await.unwrap().state.parse().unwrap();
    assert_eq!(
        back.position(),
        state.position(),
        "taken back to the opening"
    );
}

#[tokio::test]
async fn h_3_after_the_seeds_combination_is_the_seeds_state_string() {
    let app = app_with_time(90).await;
    app.sms_to(ME, PLAY, "P IB HOT").await;
    app.sms(ME, SEED_COMBINATION).await;
    app.inbox(ME).await;
    app.sms(ME, "H 3").await;
    assert_eq!(app.one_text(ME).await, SEED_RESULT);
    app.sms(ME, "H").await;
    assert!(app.one_text(ME).await.contains(SEED_COMBINATION));
    // And a game can start from that string.
    app.sms(ME, "Q").await;
    app.inbox(ME).await;
    app.sms_to(ME, PLAY, &format!("P IB BOT 1 {SEED_RESULT}"))
        .await;
    let m = app.match_state(ME).await.expect("started from the state");
    assert!(m.state.contains("_B(1,10)"), "{}", m.state);
    app.sms_to(YOU, PLAY, "P IB BOT _S(0)_X()_L(1,1_1,1)").await;
    let refusal = app.one_text(YOU).await;
    assert!(
        refusal.contains("P IB"),
        "refused with the valid forms: {refusal}"
    );
    assert!(app.match_state(YOU).await.is_none());
}

/// A move texted after the match ended is told the match is over (it was
/// "unknown command"); other text is still unknown, and the reply is one SMS.
#[tokio::test]
async fn a_move_after_the_match_is_told_the_match_is_over() {
    let app = app_with_time(90).await;
    app.sms(ME, "R me").await;
    app.sms_to(ME, PLAY, "P IB BOT 1").await;
    app.sms(ME, "Q").await;
    app.inbox(ME).await;
    app.sms(ME, SEED_COMBINATION).await;
    let texts = app.texts_to(ME).await;
    let reply = texts.last().unwrap();
    assert_eq!(
        reply.body,
        format!("Match uzhe okonchen. Revansh: PA. Novaya igra: P na {PLAY}.")
    );
    assert_eq!(reply.parts, 1);
    app.inbox(ME).await;
    app.sms(ME, "xyzzy").await;
    assert_eq!(
        app.one_text(ME).await,
        "Neizvestnaya komanda. HELP - spisok komand."
    );
}
