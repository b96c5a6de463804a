//! `U`: within a combination, the whole round against the robot, the last
//! turn on one phone, a takeback asked and granted between two phones, and
//! refusals.

use super::*;
use crate::Reason;

const RED_REPLY: &str = "R(2,8)>F(2,9)";

fn opening(mode: Mode) -> State {
    match_on(Position::opening(), mode)
}

#[test]
fn undo_within_a_combination() {
    for mode in [Mode::Bot, Mode::Hot, Mode::Duel { seat0: BLUE }] {
        let one = ok(opening(mode), 0, "B(4,6)>L(4,5)").state;
        let two = ok(one.clone(), 0, "B~L(4,5)>L(6,5)").state;
        let back = ok(two, 0, "U");
        assert_eq!(back.effect, Effect::Continues);
        assert_eq!(back.state, one, "{mode:?}");
        let start = ok(back.state, 0, "U").state;
        assert_eq!(start.public(), OPENING);
        assert_eq!(refusal(&start, 0, "U"), Refusal::NothingToUndo, "{mode:?}");
    }
}

#[test]
fn undo_takes_back_the_round_against_the_robot() {
    let blue = ok(opening(Mode::Bot), 0, SEED_COMBO).state;
    assert_eq!(
        refusal(&blue, 0, "U"),
        Refusal::NotYourTurn,
        "the robot is thinking"
    );
    let red = ok(blue, 1, RED_REPLY).state;
    let back = ok(red, 0, "U");
    assert_eq!(back.effect, Effect::Continues);
    assert_eq!(back.state.public(), OPENING);
    assert_eq!(refusal(&back.state, 0, "U"), Refusal::NothingToUndo);
    // Two rounds played: one U takes back only the last.
    let mut state = opening(Mode::Bot);
    for (seat, text) in [(0, SEED_COMBO), (1, RED_REPLY)] {
        state = ok(state, seat, text).state;
    }
    let before_second = state.clone();
    state = ok(state, 0, "L(3,3)>F(3,4)").state;
    state = ok(state, 1, "R(2,9)>F(2,10)").state;
    let back = ok(state, 0, "U").state;
    assert_eq!(back.public(), before_second.public());
    assert_eq!(back.position().turn, BLUE);
}

#[test]
fn undo_takes_back_the_last_turn_on_one_phone() {
    // Right after a combination: that combination, and Blue is to move again.
    let blue = ok(opening(Mode::Hot), 0, SEED_COMBO).state;
    let back = ok(blue.clone(), 1, "U");
    assert_eq!(back.effect, Effect::Resolved);
    assert_eq!(back.state.public(), OPENING);
    assert_eq!(back.state.position().turn, BLUE);
    assert_eq!(refusal(&back.state, 0, "U"), Refusal::NothingToUndo);
    // After Red's reply: Red's reply only, then Blue's combination.
    let red = ok(blue.clone(), 1, RED_REPLY).state;
    let once = ok(red, 0, "U").state;
    assert_eq!(once.public(), blue.public());
    assert_eq!(once.position().turn, RED);
    let twice = ok(once, 1, "U").state;
    assert_eq!(twice.public(), OPENING);
    // Mid-combination, U first takes back the codes of that combination.
    let mut state = ok(opening(Mode::Hot), 0, SEED_COMBO).state;
    state = ok(state, 1, RED_REPLY).state;
    let blue = ok(state, 0, "L(2,5)>F(1,6)");
    assert_eq!(blue.effect, Effect::Resolved);
    let mid = ok(blue.state.clone(), 1, "B(1,10)>R(2,9)");
    assert_eq!(mid.effect, Effect::Continues);
    let back = ok(mid.state, 1, "U");
    assert_eq!(back.effect, Effect::Continues);
    assert_eq!(back.state, blue.state);
    assert!(back.state.public().starts_with("_S(5)_X(L(2,5)>F(1,6))"));
}

#[test]
fn takeback_asked_and_granted_between_two_phones() {
    let g = game();
    let duel = opening(Mode::Duel { seat0: BLUE });
    let blue = ok(duel, 0, SEED_COMBO).state;
    let asked = ok(blue.clone(), 0, "U");
    assert_eq!(asked.effect, Effect::Resolved, "both players are told");
    assert_eq!(asked.state.asked(), Some(0));
    assert_eq!(
        asked.state.public(),
        SEED_AFTER,
        "asking changes nothing on the field"
    );
    assert!(
        g.render(&asked.state, 1, Lang::En)
            .contains("Takeback asked: U to agree.")
    );
    assert!(
        g.render(&asked.state, 0, Lang::En)
            .contains("You asked a takeback")
    );
    assert!(
        g.render(&asked.state, 1, Lang::Ru)
            .contains("Sopernik prosit otmenu")
    );
    assert_eq!(refusal(&asked.state, 0, "U"), Refusal::AlreadyAsked);
    let parsed: State = asked.state.to_string().parse().unwrap();
    assert_eq!(parsed, asked.state);
    let granted = ok(asked.state.clone(), 1, "U");
    assert_eq!(granted.effect, Effect::Resolved);
    assert_eq!(granted.state.public(), OPENING);
    assert_eq!(granted.state.asked(), None);
    // Playing on instead declines it.
    let declined = ok(asked.state, 1, RED_REPLY).state;
    assert_eq!(declined.asked(), None);
    // Now Red has moved: his U asks to take back his own reply.
    assert_eq!(ok(declined, 1, "U").state.asked(), Some(1));
}

#[test]
fn round_takeback_between_two_phones() {
    let mut state = opening(Mode::Duel { seat0: RED });
    // Seat 1 plays Blue here.
    state = ok(state, 1, SEED_COMBO).state;
    state = ok(state, 0, RED_REPLY).state;
    let asked = ok(state, 1, "U").state;
    assert_eq!(asked.asked(), Some(1));
    // The asker may play on instead, which withdraws the request.
    let on = game()
        .play(asked.clone(), 1, &mv("L(3,3)>F(3,4)"), &mut rng())
        .unwrap();
    assert_eq!(on.state.asked(), None);
    let granted = ok(asked, 0, "U").state;
    assert_eq!(granted.public(), OPENING);
}

#[test]
fn nothing_to_undo_at_the_start() {
    let duel = opening(Mode::Duel { seat0: BLUE });
    assert_eq!(refusal(&duel, 0, "U"), Refusal::NothingToUndo);
    assert_eq!(refusal(&duel, 1, "U"), Refusal::NothingToUndo);
    assert_eq!(Refusal::NothingToUndo.text(Lang::Ru), "Nechego otmenyat.");
    let bot = opening(Mode::Bot);
    assert_eq!(refusal(&bot, 0, "U"), Refusal::NothingToUndo);
    assert_eq!(refusal(&bot, 1, "U"), Refusal::NotYourTurn);
}
