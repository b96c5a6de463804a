//! Word battle over HTTP: a whole game against the robot, Cyrillic words in
//! and Cyrillic boards out (UCS-2, at most 3 parts), refusals that change
//! nothing, two players waiting in the lobby of their word length, and the
//! Cyrillic look-alikes kept as letters of words in a match.

use crate::common;

use common::{PLAY, TestApp};
use smsarena::games::Game;
use smsarena::games::word_battle::{State, WordBattle};

const ME: &str = "+7901";
const YOU: &str = "+7902";

async fn registered() -> TestApp {
    let app = TestApp::new().await;
    app.register(&[(ME, "ann"), (YOU, "bob")]).await;
    app
}

#[tokio::test]
async fn a_whole_game_against_the_robot_in_cyrillic() {
    let app = registered().await;
    app.sms_to(ME, PLAY, "P WB BOT 2").await;
    let opening = app.one_text(ME).await;
    assert!(opening.contains("a1") || opening.contains('1'), "{opening}");
    let game = WordBattle::new();
    let mut moves = 0;
    for _ in 0..120 {
        let Some(record) = app.match_state(ME).await else {
            break;
        };
        let state: State = record.state.parse().unwrap();
        let legal = game.legal_moves(&state, 0);
        assert!(
            !legal.is_empty(),
            "my turn after the robot's: {}",
            record.state
        );
        // The longest word there is, as a person texting in Cyrillic would send it.
        let mv = legal
            .iter()
            .max_by_key(|m| m.to_string().chars().count())
            .unwrap()
            .to_string();
        app.sms(ME, &mv.to_uppercase()).await;
        moves += 1;
        app.robots().await;
    }
    let (m, seats) = app.last_match(ME).await.unwrap();
    assert!(m.finished, "the game ended after {moves} of my moves");
    assert!(seats.iter().all(|s| s.place.is_some() && s.score.is_some()));
    let texts = app.texts_to(ME).await;
    let boards: Vec<_> = texts.iter().filter(|t| t.body.contains("10\n")).collect();
    assert!(boards.len() > 4, "boards came: {}", boards.len());
    for board in &boards {
        assert_eq!(board.encoding, "ucs2", "{}", board.body);
        assert!(board.parts <= 3, "{} parts: {}", board.parts, board.body);
        assert!(
            board.body.chars().any(|c| ('А'..='я').contains(&c)),
            "Cyrillic letters on the board: {}",
            board.body
        );
    }
    assert!(
        ["Vi pobedili.", "Vi proigrali.", "Nichya."]
            .iter()
            .any(|r| texts.last().unwrap().body.contains(r)),
        "{}",
        texts.last().unwrap().body
    );
}

#[tokio::test]
async fn refusals_say_why_and_change_nothing() {
    let app = registered().await;
    app.sms_to(ME, PLAY, "P WB BOT 1").await;
    app.inbox(ME).await;
    let before = app.match_state(ME).await.unwrap().state;
    for (text, why) in [
        ("a1r ыыыыы", "slovar"),
        ("a1u", ""),
        ("j10l будуар", ""),
        ("z9r кот", "\"z9\" - ne kletka: stolbec a-j i ryad 1-10"),
        ("a1 r", "napravlenie bez slova"),
    ] {
        app.sms(ME, text).await;
        let reply = app.one_text(ME).await;
        assert!(!reply.is_empty(), "{text}");
        if !why.is_empty() {
            assert!(reply.to_lowercase().contains(why), "{text}: {reply}");
        }
        assert_eq!(app.match_state(ME).await.unwrap().state, before, "{text}");
    }
    assert_eq!(app.count("match_moves").await, 0);
}

#[tokio::test]
async fn cyrillic_lookalikes_are_letters_in_a_match_and_commands_outside() {
    let app = registered().await;
    app.sms_to(ME, PLAY, "P WB 5").await;
    app.sms_to(YOU, PLAY, "P WB").await;
    assert!(
        app.match_state(ME).await.is_none(),
        "5 and 6 letters wait apart"
    );
    app.sms_to(YOU, PLAY, "P WB 5").await;
    let m = app
        .match_state(ME)
        .await
        .expect("two for five-letter words");
    assert_eq!(m.options, "5");
    app.inbox(ME).await;
    // In a match, a Cyrillic В is no B (board) command: it is read as a move.
    app.sms(ME, "В").await;
    let reply = app.one_text(ME).await;
    assert!(!reply.contains("10\n"), "not the board: {reply}");
    // The Latin B still is.
    app.sms(ME, "B").await;
    assert!(app.one_text(ME).await.contains("10"), "the board");
}
