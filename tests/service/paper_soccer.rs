//! Paper soccer over HTTP: a whole game against the robot to its end, a
//! bounce chain spread over two texts, refusals that name the step and change
//! nothing, the record through `H` and the admin API, and two phones drawn to
//! their goals from the lobby.

use crate::common;

use common::{PLAY, TestApp};
use rand::SeedableRng;
use smsarena::games::paper_soccer::{PaperSoccer, State};
use smsarena::games::{Budget, Game, MatchRng};

const ME: &str = "+7911";
const YOU: &str = "+7912";

async fn registered() -> TestApp {
    let app = TestApp::with_config(|cfg| cfg.admin.token = "adm".into()).await;
    app.register(&[(ME, "ann"), (YOU, "bob")]).await;
    app
}

async fn state_of(app: &TestApp, phone: &str) -> Option<State> {
    let record = app.match_state(phone).await?;
    Some(record.state.parse().expect("a stored state reads"))
}

#[tokio::test]
async fn a_whole_game_against_the_robot_to_its_end() {
    let app = registered().await;
    app.sms_to(ME, PLAY, "P PS BOT 3").await;
    let opening = app.one_text(ME).await;
    assert!(opening.contains("Vash xod."), "{opening}");
    assert!(opening.contains('@'), "the ball is drawn: {opening}");
    let game = PaperSoccer;
    let mut rng = MatchRng::seed_from_u64(5);
    let mut turns = 0;
    while let Some(state) = state_of(&app, ME).await {
        assert_eq!(state.to_move(), 0, "my turn after the robot's");
        // I play as a level-1 robot would, one whole turn a text.
        let mv = game.robot_move(&state, 0, 1, &Budget::nodes(2_000), &mut rng);
        app.sms(ME, &mv.to_string()).await;
        app.robots().await;
        turns += 1;
        assert!(turns < 200, "the game ends");
    }
    let (m, seats) = app.last_match(ME).await.unwrap();
    assert!(m.finished);
    let places: Vec<_> = seats.iter().map(|s| s.place).collect();
    assert!(
        places == [Some(1), Some(2)] || places == [Some(2), Some(1)],
        "{places:?}"
    );
    let last = app.texts_to(ME).await.last().unwrap().body.clone();
    assert!(
        last.contains("Vi pobedili.") || last.contains("Vi proigrali."),
        "{last}"
    );
    for text in app.texts_to(ME).await {
        assert_eq!(text.encoding, "gsm7", "{}", text.body);
        assert!(text.parts <= 3, "{} parts: {}", text.parts, text.body);
    }

    // The record: H after the end, and whole through the admin API.
    app.sms(ME, "H").await;
    let record = app.texts_to(ME).await.last().unwrap().body.clone();
    assert!(record.contains("1-0") || record.contains("0-1"), "{record}");
    let reply = app
        .request(
            axum::http::Request::get(format!("/admin/matches/{}", m.id))
                .header("authorization", "Bearer adm")
                .body(axum::body::Body::empty())
                .unwrap(),
        )
        .await;
    let body: serde_json::Value = serde_json::from_str(&reply.body).unwrap();
    let history = body["history"].as_str().unwrap();
    assert!(history.contains("[Result \""), "{history}");
    assert!(history.contains("[Field \"8x10\"]"), "{history}");
    assert_eq!(body["replay"], "ok");
}

#[tokio::test]
async fn a_chain_spans_two_texts_and_an_illegal_step_changes_nothing() {
    let app = registered().await;
    app.sms_to(ME, PLAY, "P PS BOT 1").await;
    app.inbox(ME).await;
    // Up lands on an untouched point, which ends the turn: a second step is refused.
    let before = state_of(&app, ME).await.unwrap();
    app.sms(ME, "28").await;
    let refusal = app.one_text(ME).await;
    assert!(
        refusal.contains("posle shaga 1") && refusal.contains("Nichego ne izmeneno"),
        "names the step: {refusal}"
    );
    assert_eq!(state_of(&app, ME).await.unwrap(), before);
    // Not a move at all.
    app.sms(ME, "25").await;
    app.inbox(ME).await;
    assert_eq!(state_of(&app, ME).await.unwrap(), before);

    // Play whole turns until a first step that bounces is on offer.
    let game = PaperSoccer;
    let mut rng = MatchRng::seed_from_u64(3);
    let mut chain = None;
    for _ in 0..40 {
        let Some(state) = state_of(&app, ME).await else {
            // That game ended first: another.
            app.sms_to(ME, PLAY, "P PS BOT 1").await;
            app.inbox(ME).await;
            continue;
        };
        chain = game.legal_moves(&state, 0).into_iter().find_map(|step| {
            let after = game.play(state.clone(), 0, &step, &mut rng).ok()?;
            (after.effect == smsarena::games::Effect::Continues).then_some((step, after.state))
        });
        if chain.is_some() {
            break;
        }
        let mv = game.robot_move(&state, 0, 1, &Budget::nodes(500), &mut rng);
        app.sms(ME, &mv.to_string()).await;
        app.robots().await;
        app.inbox(ME).await;
    }
    let (first, mid) = chain.expect("a step that bounces came within 40 turns");
    app.sms(ME, &first.to_string()).await;
    let board = app.one_text(ME).await;
    assert!(board.contains("Vash xod."), "still my turn: {board}");
    assert_eq!(state_of(&app, ME).await.unwrap(), mid);
    // Straight back along the line just drawn: refused, naming why.
    let back = 10 - first.to_string().parse::<u32>().unwrap();
    app.sms(ME, &back.to_string()).await;
    let refusal = app.one_text(ME).await;
    assert!(refusal.contains("uzhe narisovana"), "{refusal}");
    assert_eq!(state_of(&app, ME).await.unwrap(), mid);
    let rest = game.robot_move(
        &mid,
        0,
        1,
        &Budget::nodes(500),
        &mut MatchRng::seed_from_u64(1),
    );
    app.sms(ME, &rest.to_string()).await;
    app.robots().await;
    let after = state_of(&app, ME).await;
    assert_ne!(after.as_ref(), Some(&mid), "the second text ended the turn");
}

#[tokio::test]
async fn two_phones_meet_in_the_lobby_and_resigning_ends_it() {
    let app = registered().await;
    app.sms_to(ME, PLAY, "P PS").await;
    app.sms_to(YOU, PLAY, "P PS").await;
    let state = state_of(&app, ME).await.expect("a match began");
    let first = if state.to_move() == 0 { ME } else { YOU };
    let mine = app.texts_to(first).await.last().unwrap().body.clone();
    assert!(mine.contains("Vash xod."), "{mine}");
    app.sms(first, "Q").await;
    assert!(app.match_state(ME).await.is_none(), "resigning ends it");
    let (_, seats) = app.last_match(ME).await.unwrap();
    assert!(seats.iter().all(|s| s.place.is_some()));
}
