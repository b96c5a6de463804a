//! State strings and options: what is accepted, and every impossible or
//! malformed string refused with a message that says what is wrong.

use super::*;
use crate::{GameOptions, Lineup, Occupant, OptionsError};

/// Parses `text`, which must be refused with a message containing `needle`.
fn refused(text: &str, needle: &str) {
    match text.parse::<Position>() {
        Ok(p) => panic!("{text} parsed as {p}"),
        Err(e) => assert!(e.to_string().contains(needle), "{text}: {e}"),
    }
}

#[test]
fn accepted_spellings() {
    let messy = SEED_AFTER
        .to_lowercase()
        .replace("_l(", " _L( ")
        .replace(',', " , ");
    assert_eq!(pos(&messy), pos(SEED_AFTER));
    let step_two = "_S(2)_X(B(4,6)>L(4,5)B~L(4,5)>L(6,5))_L(2,5_3,3_g4,1_-4,5_5,3_6,5_)_R(2,8_3,10_4,8_g4,12_5,10_6,8_)_B(6,5)_H(L)_T(0)_C(0:0)";
    assert_eq!(pos(step_two).to_string(), step_two);
    // A turn passed by `-` (a missed deadline).
    let passed = OPENING
        .replace("_S(0)_X()", "_S(1)_X(-)")
        .replace("_H(L)", "_H(R)");
    assert_eq!(pos(&passed).to_string(), passed);
}

/// A hand-written state with no last combination counts a code for every
/// turn played: one a step short was accepted at the start, and its next
/// state (read back through the same check) was not, voiding the match.
#[test]
fn a_state_with_no_last_combination_has_a_step_for_every_turn() {
    let short = "_S(9)_X()_L(g4,1_3,3_5,3_2,5_4,5_6,5_)_R(g4,12_3,10_5,10_2,8_4,8_6,8_)_B(4,6)_H(L)_T(5)_C(0:0)";
    refused(short, "step 9 is too few");
    let enough = short.replace("_S(9)", "_S(10)");
    let mut p = pos(&enough);
    let codes = crate::intelball::code::parse_codes("L(2,5)>F(1,5)").unwrap();
    p.play(&codes[0]).expect("a legal code");
    assert_eq!(p.turn, RED, "the pass ended Blue's turn");
    let after = p.to_string();
    assert!(after.starts_with("_S(11)_X(L(2,5)>F(1,5))"), "{after}");
    assert_eq!(pos(&after).to_string(), after, "the next state reads back");
}

#[test]
fn impossible_positions_are_refused() {
    let cases: &[(String, &str)] = &[
        (OPENING.replace("6,5_)", "6,5_7,7_)"), "Blue has 7 players"),
        (OPENING.replace("2,5_", ""), "Blue has 5 players"),
        (OPENING.replace("g4,1", "4,1"), "Blue has 0 goalkeepers"),
        (OPENING.replace("2,8_", "g2,8_"), "Red has 2 goalkeepers"),
        (OPENING.replace("_R(2,8", "_R(4,5"), "two players on (4,5)"),
        (OPENING.replace("_B(4,6)", "_B()"), "_B (the ball)"),
        (OPENING.replace("_B(4,6)", ""), "expected _B(...)"),
        (OPENING.replace("_B(4,6)", "_B(4,13)"), "off the field"),
        (OPENING.replace("3,3_", "3,33_"), "off the field"),
        (OPENING.replace("_S(0)", "_S(x)"), "_S must be a number"),
        (OPENING.replace("_H(L)", "_H(B)"), "_H must be L or R"),
        (OPENING.replace("_C(0:0)", "_C(0-0)"), "_C must be blue:red"),
        (
            OPENING.replace("_C(0:0)", "_C(2:0)"),
            "more goals than turns",
        ),
        (
            OPENING.replace("4,5_", "-4,5_"),
            "Blue is on turn and has not moved yet",
        ),
        (
            OPENING
                .replace("_B(4,6)", "_B(4,5)")
                .replace("4,5_", "-4,5_"),
            "holding the ball on (4,5) is blocked",
        ),
        (OPENING.replace("_T(0)", "_T(3)"), "step 0 is too few"),
        (OPENING.replace("_X()", "_X(L(4,5)>F(4,4)"), "never closed"),
        (OPENING.replace("_X()", "_X(Q)"), "_X: code 1"),
        (
            OPENING
                .replace("_X()", "_X(B(4,6)>L(4,5))")
                .replace("_S(0)", "_S(1)"),
            "does not lead to this position",
        ),
        (
            SEED_AFTER.replace("_H(R)", "_H(L)"),
            "yet _H says Blue is still on turn",
        ),
        (
            SEED_AFTER.replace("_B(1,10)", "_B(1,9)"),
            "the ball is not free on (1,10)",
        ),
        (SEED_AFTER.replace("-4,5", "4,5"), "exactly the passers"),
        (
            SEED_AFTER.replace("B~L(6,5)>F(1,10)", "B~R(6,5)>F(1,10)"),
            "mixes Blue's and Red's codes",
        ),
        (
            SEED_AFTER.replace("B~L(4,5)>L(6,5)B~L(6,5)", "B~L(4,5)>F(1,10)B~L(6,5)"),
            "goes on after code 2",
        ),
        (format!("{OPENING}_M(BOT)"), "unexpected text at the end"),
        (String::new(), "expected _S(...)"),
    ];
    for (text, needle) in cases {
        refused(text, needle);
    }
}

#[test]
fn stored_states_are_checked_too() {
    let state = match_on(Position::opening(), Mode::Duel { seat0: RED });
    let text = state.to_string();
    assert_eq!(
        text,
        format!("{OPENING}_M(2R)_E(90)_A(-)_Q(-)_Y({OPENING})_Z()")
    );
    assert_eq!(text.parse::<State>().unwrap(), state);
    let bad = [
        (text.replace("_M(2R)", "_M(3R)"), "_M must be"),
        (text.replace("_E(90)", "_E(0)"), "_E must be at least 1"),
        (
            text.replace("_A(-)", "_A(1)"),
            "nothing that seat could take back",
        ),
        (text.replace("_Q(-)", "_Q(Z)"), "_Q must be"),
        (text.replace("_Q(-)", "_Q(X)"), "needs _M(HOT)"),
        (
            text.replace("_Z()", "_Z(L(4,5)>F(3,6))"),
            "do not lead to this position",
        ),
        (
            text.replace("_Z()", "_Z(B(4,6)>L(4,5))"),
            "does not end at its last code",
        ),
        (text.replace("_Y(_S(0)", "_Y(_S(9)"), "do not lead"),
        (
            text.replace("_M(2R)", "_M(BOT)").replace("_A(-)", "_A(0)"),
            "only a seat 0 or 1 of a two-phone match",
        ),
    ];
    for (text, needle) in bad {
        match text.parse::<State>() {
            Ok(_) => panic!("{text} parsed"),
            Err(e) => assert!(e.to_string().contains(needle), "{text}: {e}"),
        }
    }
}

fn options(text: &str) -> Options {
    text.parse()
        .unwrap_or_else(|e: OptionsError| panic!("{text}: {}", e.english()))
}

#[test]
fn options_and_lineups() {
    assert_eq!(options(""), Options::default());
    assert_eq!(options("").lineup(), Lineup::phones(2));
    assert_eq!(options(" bot ").kind, Kind::Bot(options::DEFAULT_LEVEL));
    assert_eq!(options("BOT").to_string(), "BOT 2");
    assert_eq!(options("bot  3").kind, Kind::Bot(3));
    assert_eq!(
        options("BOT 1").lineup(),
        Lineup(vec![Occupant::Phone(0), Occupant::Robot(1)])
    );
    assert_eq!(
        options("hot").lineup(),
        Lineup(vec![Occupant::Phone(0), Occupant::Phone(0)])
    );
    assert_eq!(options("hot").lineup().phones_needed(), 1);
    let from = options(&format!("bot {}", SEED_AFTER.to_lowercase()));
    assert_eq!(from.kind, Kind::Bot(2));
    assert_eq!(from.start, Some(pos(SEED_AFTER)));
    assert_eq!(from.to_string(), format!("BOT 2 {SEED_AFTER}"));
    assert_eq!(options(&format!("BOT 3 {SEED_AFTER}")).kind, Kind::Bot(3));
    assert_eq!(options(&format!("HOT {SEED_AFTER}")).kind, Kind::Hot);
    // A state string split by the phone is joined again.
    let split = SEED_AFTER.replace("_R(", " _R(");
    assert_eq!(
        options(&format!("BOT 1 {split}")).start,
        Some(pos(SEED_AFTER))
    );
    for o in [
        "",
        "BOT 1",
        "HOT",
        &format!("BOT 3 {SEED_AFTER}"),
        &format!("HOT {OPENING}"),
        OPENING,
    ] {
        assert_eq!(options(o).to_string(), o);
    }
    let refusals = [
        ("BOT 4", "Robot level 4"),
        ("BOT 0", "Robot level 0"),
        ("FOO", "Unknown option: FOO."),
        ("HOT BOT", "Unknown option: BOT."),
        ("BOT 2 _S(0)", "Bad state string"),
        (
            &*format!("BOT {}", OPENING.replace("6,5_)", "6,5_7,7_)")),
            "Blue has 7 players",
        ),
    ];
    for (text, needle) in refusals {
        let e = text.parse::<Options>().unwrap_err();
        assert!(e.english().contains(needle), "{text}: {}", e.english());
        assert!(!e.0.text(Lang::Ru).is_empty());
    }
    // One language a text: a Russian refusal of a state string carries no
    // English reason.
    let e = format!("BOT {}", OPENING.replace("6,5_)", "6,5_7,7_)"))
        .parse::<Options>()
        .unwrap_err();
    assert_eq!(
        e.0.text(Lang::Ru),
        "Oshibka v stroke sostoyaniya: proverte ee."
    );
}

#[test]
fn a_match_starts_from_the_given_position() {
    let g = game();
    let state = g.start(&options(&format!("BOT 3 {SEED_AFTER}")), &mut rng());
    assert_eq!(state.public(), SEED_AFTER);
    assert_eq!(state.mode(), Mode::Bot);
    // Red, the robot, is on turn.
    assert_eq!(g.status(&state), crate::Status::Awaiting(vec![1]));
}
