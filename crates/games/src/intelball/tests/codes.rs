//! The code notation: every legal code prints and parses back, players'
//! spellings are read, bad ones refused with the code's number; refusal
//! texts name the code as typed.

use super::code::{Code, parse_codes};
use super::robot::combos::legal_codes;
use super::*;
use crate::Reason;

#[test]
fn every_legal_code_round_trips() {
    let mut state = match_on(Position::opening(), Mode::Hot);
    let mut seen = 0;
    for text in [SEED_COMBO, "B~R(1,10)>R(2,9)"] {
        for code in legal_codes(&state.position().field, state.position().turn) {
            let printed = code.to_string();
            assert_eq!(parse_codes(&printed).unwrap(), vec![code]);
            assert_eq!(parse_codes(&printed.to_lowercase()).unwrap(), vec![code]);
            seen += 1;
        }
        state = game()
            .play(state, 0, &mv(text), &mut rng())
            .map(|p| p.state)
            .unwrap_or_else(|r| r.state);
    }
    assert!(seen > 40, "{seen}");
}

#[test]
fn combinations_without_separators() {
    let codes = parse_codes(SEED_COMBO).unwrap();
    assert_eq!(codes.len(), 3);
    assert_eq!(super::code::write_combo(&codes), SEED_COMBO);
    let spaced = " b(4,6)>l(4,5) B~L( 4 , 5 )>L(6,5)\tb~l(6,5)>f(1,10) ";
    assert_eq!(parse_codes(spaced).unwrap(), codes);
    assert_eq!(mv(spaced).to_string(), SEED_COMBO);
    assert_eq!(mv("u"), Move::Undo);
    assert_eq!(mv(" U ").to_string(), "U");
    assert_eq!(mv("-"), Move::pass());
    assert_eq!(mv("B(4,6)>L(4,5)-").to_string(), "B(4,6)>L(4,5)-");
    assert_eq!(
        parse_codes("B~R(1,2)>R(1,3)B~R(1,2)>L(1,3)").unwrap()[1],
        Code::Take {
            side: BLUE,
            from: super::board::Spot::new(1, 2),
            to: super::board::Spot::new(1, 3)
        }
    );
}

#[test]
fn malformed_codes_are_refused() {
    let cases = [
        ("", "no move code"),
        ("  ", "no move code"),
        ("X", "code 1: expected a code"),
        ("L(4,5)", "code 1: expected '>'"),
        ("L(4,5)>Q(1,1)", "expected F (free cell) or B (ball)"),
        ("L(4,5>F(1,1)", "expected ')'"),
        ("L(4,)>F(1,1)", "expected a number"),
        ("L(100,1)>F(1,1)", "at most two digits"),
        ("B~Q(1,1)>F(1,2)", "expected L or R"),
        ("B&L(1,1)>L(1,2)", "expected 'F'"),
        ("B!L(1,1)>F(1,2)", "'(', '~' or '&' after B"),
        ("B(4,6)>L(4,5)B~L(4,5)<L(6,5)", "code 2: expected '>'"),
        ("B(4,6)>L(4,5)UU", "code 2"),
        ("L(4,5)>F(4,4)ё", "code 2"),
        ("L(４,5)>F(4,4)", "expected a number"),
    ];
    for (text, needle) in cases {
        let e = text.parse::<Move>().unwrap_err();
        assert!(e.to_string().contains(needle), "{text:?}: {e}");
    }
}

#[test]
fn refusals_name_the_code_as_typed() {
    let state = match_on(Position::opening(), Mode::Bot);
    let reason = refusal(&state, 0, "b(4,6)>l(4,5) b~l(4,5)>l(3,3)");
    assert_eq!(
        reason.text(Lang::En),
        "Code 2 b~l(4,5)>l(3,3): (4,5) and (3,3) are not on one straight line or diagonal."
    );
    assert_eq!(
        reason.text(Lang::Ru),
        "Kod 2 b~l(4,5)>l(3,3): (4,5) i (3,3) ne na odnoi pryamoi ili diagonali."
    );
    let reason = refusal(
        &state,
        0,
        "B(4,6)>L(4,5)B~L(4,5)>L(6,5)B~L(6,5)>F(1,10)L(3,3)>F(3,4)",
    );
    assert_eq!(
        reason.text(Lang::En),
        "Code 4 L(3,3)>F(3,4): your turn already ended with code 3."
    );
    let texts = [
        (
            "L(9,1)>F(8,1)",
            "Code 1 L(9,1)>F(8,1): (9,1) is off the field (rows 1-7, columns 1-12).",
        ),
        (
            "L(4,4)>F(4,3)",
            "Code 1 L(4,4)>F(4,3): no Blue player on (4,4).",
        ),
        ("R(4,8)>F(4,9)", "Code 1 R(4,8)>F(4,9): it is Blue's turn."),
        (
            "B(4,6)>L(3,3)",
            "Code 1 B(4,6)>L(3,3): (4,6) is not next to (3,3).",
        ),
        (
            "B(4,6)>L(4,5)B~L(4,5)>F(4,10)",
            "Code 2 B~L(4,5)>F(4,10): the ball cannot pass over the player on (4,8).",
        ),
        (
            "B(4,6)>L(4,5)B~L(4,5)>L(6,5)L(4,5)>F(4,4)",
            "Code 3 L(4,5)>F(4,4): the player on (4,5) has passed and is blocked.",
        ),
    ];
    for (text, want) in texts {
        assert_eq!(refusal(&state, 0, text).text(Lang::En), want);
        assert!(refusal(&state, 0, text).text(Lang::Ru).starts_with("Kod "));
    }
    assert_eq!(refusal(&state, 1, "R(4,8)>F(4,9)"), Refusal::NotYourTurn);
    assert_eq!(
        refusal(&state, 1, "R(4,8)>F(4,9)").text(Lang::En),
        "It is not your turn."
    );
}
