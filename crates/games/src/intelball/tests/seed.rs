//! The seed's worked examples, reproduced exactly.

use super::*;
use crate::{HistoryEntry, Recorded};

#[test]
fn opening_state_string() {
    assert_eq!(Position::opening().to_string(), OPENING);
    assert_eq!(pos(OPENING), Position::opening());
    let state = game().start(&Options::default(), &mut rng());
    assert_eq!(state.public(), OPENING);
}

/// The seed writes the opening unsorted (goalkeeper first) and with a stray
/// `)` at the end: unsorted is accepted; the stray parenthesis is not in a
/// stored state, but `P IB BOT <state>` reads the line as the seed prints it.
#[test]
fn seed_opening_as_written() {
    let seed = "_S(0)_X()_L(g4,1_3,3_5,3_2,5_4,5_6,5_)_R(g4,12_3,10_5,10_2,8_4,8_6,8_)_B(4,6)_H(L)_T(0)_C(0:0))";
    let err = seed.parse::<Position>().unwrap_err();
    assert!(
        err.to_string().contains("unexpected text at the end"),
        "{err}"
    );
    let fixed = seed.strip_suffix(')').unwrap();
    assert_eq!(pos(fixed), Position::opening());
    assert_eq!(pos(fixed).to_string(), OPENING);
    let pasted: Options = format!("BOT 1 {seed}").parse().unwrap();
    assert_eq!(pasted.start, Some(Position::opening()), "as printed");
    let unbalanced = format!("BOT 1 {}", seed.replace("_B(4,6)", "_B(4,6"));
    assert!(
        unbalanced.parse::<Options>().is_err(),
        "a missing one is still refused"
    );
}

#[test]
fn seed_combination_in_one_text() {
    let state = game().start(
        &Options {
            kind: Kind::Bot(1),
            start: None,
        },
        &mut rng(),
    );
    let played = ok(state, 0, SEED_COMBO);
    assert_eq!(played.effect, Effect::Resolved);
    assert_eq!(played.state.public(), SEED_AFTER);
    assert_eq!(pos(SEED_AFTER), *played.state.position());
}

#[test]
fn seed_combination_code_by_code() {
    let state = game().start(
        &Options {
            kind: Kind::Hot,
            start: None,
        },
        &mut rng(),
    );
    let one = ok(state, 0, "B(4,6)>L(4,5)");
    assert_eq!(one.effect, Effect::Continues);
    assert_eq!(
        one.state.public(),
        "_S(1)_X(B(4,6)>L(4,5))_L(2,5_3,3_g4,1_4,5_5,3_6,5_)_R(2,8_3,10_4,8_g4,12_5,10_6,8_)_B(4,5)_H(L)_T(0)_C(0:0)"
    );
    let two = ok(one.state, 0, " b~l(4,5)>l(6,5) ");
    assert_eq!(two.effect, Effect::Continues);
    assert_eq!(
        two.state.public(),
        "_S(2)_X(B(4,6)>L(4,5)B~L(4,5)>L(6,5))_L(2,5_3,3_g4,1_-4,5_5,3_6,5_)_R(2,8_3,10_4,8_g4,12_5,10_6,8_)_B(6,5)_H(L)_T(0)_C(0:0)"
    );
    let three = ok(two.state, 0, "B~L(6,5)>F(1,10)");
    assert_eq!(three.effect, Effect::Resolved);
    assert_eq!(three.state.public(), SEED_AFTER);
}

/// The seed's codes, each read as the move it describes.
#[test]
fn seed_code_examples() {
    use super::board::Spot;
    use super::code::Code;
    let (a, b) = (Spot::new(4, 7), Spot::new(5, 8));
    let cases = [
        (
            "L(4,7)>F(5,8)",
            Code::Step {
                side: BLUE,
                from: a,
                to: b,
            },
        ),
        (
            "R(4,7)>F(5,8)",
            Code::Step {
                side: RED,
                from: a,
                to: b,
            },
        ),
        (
            "B~L(4,7)>F(5,8)",
            Code::Shot {
                side: BLUE,
                from: a,
                to: b,
            },
        ),
        (
            "B~L(4,7)>L(5,8)",
            Code::Pass {
                side: BLUE,
                from: a,
                to: b,
            },
        ),
        (
            "B&L(4,7)>F(5,8)",
            Code::Dribble {
                side: BLUE,
                from: a,
                to: b,
            },
        ),
        (
            "L(4,5)>B(4,6)",
            Code::ToBall {
                side: BLUE,
                from: Spot::new(4, 5),
                to: Spot::new(4, 6),
            },
        ),
        (
            "B(4,6)>L(4,5)",
            Code::Pull {
                side: BLUE,
                ball: Spot::new(4, 6),
                to: Spot::new(4, 5),
            },
        ),
        (
            "B~R(4,6)>L(4,5)",
            Code::Take {
                side: BLUE,
                from: Spot::new(4, 6),
                to: Spot::new(4, 5),
            },
        ),
        (
            "B~L(4,6)>R(4,5)",
            Code::Take {
                side: RED,
                from: Spot::new(4, 6),
                to: Spot::new(4, 5),
            },
        ),
    ];
    for (text, code) in cases {
        assert_eq!(mv(text), Move::codes(vec![code]), "{text}");
        assert_eq!(code.to_string(), text);
    }
}

/// `H 3` after the seed's combination is the seed's state string; `H 0` the opening.
#[test]
fn the_state_after_step_three() {
    let g = game();
    let opening = g.start(
        &Options {
            kind: Kind::Bot(2),
            start: None,
        },
        &mut rng(),
    );
    let after = ok(opening.clone(), 0, SEED_COMBO).state;
    let entries = [HistoryEntry {
        name: "",
        seat: 0,
        what: Recorded::Move(mv(SEED_COMBO)),
        after: &after,
    }];
    assert!(g.has_state_steps());
    let steps = g.state_steps(&opening, &entries);
    assert_eq!(steps.len(), 4, "the opening and three steps");
    assert_eq!(steps[3], SEED_AFTER);
    assert_eq!(steps[0], OPENING);
    assert!(steps[2].starts_with("_S(2)_X(B(4,6)>L(4,5)B~L(4,5)>L(6,5))"));
    assert_eq!(
        g.history(&opening, &entries, Lang::En),
        format!("L 1-3: {SEED_COMBO}")
    );
}
