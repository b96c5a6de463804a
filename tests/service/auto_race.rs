//! Auto race over HTTP: a three-player race with one robot (two people, one
//! of whom started it with `BOT` while the other waited) to the end, with
//! the series points and the next race of the series; an eight-player race
//! of robots and one person, every text within 2 SMS parts; refusals that
//! change nothing.

use crate::common;

use common::{PLAY, TestApp};
use smsarena::games::Game;
use smsarena::games::auto_race::{AutoRace, State};
use smsarena::store::Holder;

const A: &str = "+7921";
const B: &str = "+7922";

/// Drives the race `phone` sits in to its end: each person sends a legal
/// move (the longest) when his car is next, robots play in between.
async fn race_to_the_end(app: &TestApp, phone: &str) {
    let game = AutoRace::default();
    for _ in 0..2000 {
        let Some(record) = app.match_state(phone).await else {
            return;
        };
        let state: State = record.state.parse().unwrap();
        let Some(car) = state.to_move() else {
            return;
        };
        let seat = state.owner(car);
        let (_, seats) = app.last_match(phone).await.unwrap();
        match &seats[seat].holder {
            Holder::Robot(_) => {
                assert!(app.robots().await > 0, "a robot's car is next and it moves");
            }
            Holder::Player(p) => {
                let moves = game.legal_moves(&state, seat);
                let mv = moves
                    .iter()
                    .max_by_key(|m| m.to_string().len())
                    .map(|m| m.to_string())
                    .unwrap_or_else(|| "0".into());
                app.sms(&p.phone, &mv).await;
            }
        }
    }
    panic!("the race did not end");
}

#[tokio::test]
async fn three_players_one_robot_to_the_end_with_the_series_points() {
    let app = TestApp::new().await;
    app.register(&[(A, "ann"), (B, "bob")]).await;
    app.sms_to(A, PLAY, "P AR 3 L1").await;
    assert!(app.one_text(A).await.starts_with("Nedostatochno igrokov"));
    // B will not wait for a third person: a robot takes the third seat, and
    // A, who was waiting for this very race, takes the second.
    app.sms_to(B, PLAY, "P AR 3 BOT 1 L1").await;
    let (m, seats) = app.last_match(B).await.expect("it starts at once");
    assert_eq!(m.options, "3 BOT 1 H2 L1");
    let holders: Vec<&str> = seats
        .iter()
        .map(|s| match &s.holder {
            Holder::Player(p) if p.phone == A => "A",
            Holder::Player(_) => "B",
            Holder::Robot(_) => "robot",
        })
        .collect();
    assert_eq!(holders, ["B", "A", "robot"]);
    race_to_the_end(&app, A).await;
    let (m, seats) = app.last_match(A).await.unwrap();
    assert!(m.finished);
    let mut places: Vec<u8> = seats.iter().map(|s| s.place.unwrap()).collect();
    places.sort();
    assert_eq!(places, [1, 2, 3], "every player placed");
    let last = app.texts_to(A).await.pop().unwrap().body;
    assert!(last.contains("Ochki:") && last.contains("Seriya"), "{last}");
    // The next race of the series: both ask, the robot agrees.
    app.sms_to(A, PLAY, "PA").await;
    app.sms_to(B, PLAY, "PA").await;
    let (next, _) = app.last_match(A).await.unwrap();
    assert_eq!(next.rematch_of, Some(m.id));
    race_to_the_end(&app, A).await;
    let last = app.texts_to(A).await.pop().unwrap().body;
    assert!(
        last.contains("Seriya, gonka 2 iz 3:"),
        "the series goes on: {last}"
    );
}

#[tokio::test]
async fn eight_cars_of_robots_and_one_person_every_text_within_two_parts() {
    let app = TestApp::new().await;
    app.register(&[(A, "ann")]).await;
    app.sms_to(A, PLAY, "P AR 8 BOT 2 L1").await;
    let (_, seats) = app.last_match(A).await.expect("it starts at once");
    assert_eq!(seats.iter().filter(|s| s.player().is_none()).count(), 7);
    race_to_the_end(&app, A).await;
    assert!(app.last_match(A).await.unwrap().0.finished);
    let texts = app.texts_to(A).await;
    assert!(texts.len() > 5, "told as his cars move: {}", texts.len());
    for text in &texts {
        assert_eq!(text.encoding, "gsm7", "{}", text.body);
        assert!(text.parts <= 2, "{} parts: {}", text.parts, text.body);
    }
}

#[tokio::test]
async fn bad_paths_and_bad_options_are_refused_and_change_nothing() {
    let app = TestApp::new().await;
    app.register(&[(A, "ann"), (B, "bob")]).await;
    app.sms_to(B, PLAY, "P AR 4 NOSUCH").await;
    assert!(
        app.one_text(B).await.contains("NOSUCH"),
        "the unknown track named"
    );
    app.sms_to(B, PLAY, "P AR 9").await;
    assert!(app.one_text(B).await.contains('9'));
    app.sms_to(A, PLAY, "P AR 2 BOT 1").await;
    // Until A's car is next (the grid is drawn by lot).
    for _ in 0..4 {
        let state: State = app.match_state(A).await.unwrap().state.parse().unwrap();
        if state.owner(state.to_move().unwrap()) == 0 {
            break;
        }
        app.robots().await;
    }
    app.inbox(A).await;
    let before = app.match_state(A).await.unwrap().state;
    let state: State = before.parse().unwrap();
    assert_eq!(state.owner(state.to_move().unwrap()), 0, "A is next");
    let moves = app.count("match_moves").await;
    for bad in ["FFFFFFFFFF", "X", "FOOO", "IIIII", "-3"] {
        app.sms(A, bad).await;
        assert!(!app.one_text(A).await.is_empty(), "{bad}: a reason");
        assert_eq!(app.match_state(A).await.unwrap().state, before, "{bad}");
    }
    assert_eq!(app.count("match_moves").await, moves, "nothing recorded");
}
