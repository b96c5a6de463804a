//! Every kind of refusal, from the seed's position after РОКОКО (Red, seat 0, to move).

use super::*;
use super::{SEED_WORDS, cell, leak, play, rng, seed_game};
use crate::Reason;

/// The seed's game up to РОКОКО.
fn position(game: &WordBattle) -> State {
    game.example_position().expect("the example plays")
}

fn refusal(game: &WordBattle, state: &State, seat: Seat, text: &str) -> Refusal {
    let mv: Move = text.parse().unwrap_or_else(|e| panic!("{text}: {e}"));
    let mut r = rng();
    let before = r.clone();
    let refused = game.play(state.clone(), seat, &mv, &mut r).expect_err(text);
    assert_eq!(&refused.state, state, "{text}: a refusal changes nothing");
    assert_eq!(r, before, "{text}: a refusal draws nothing");
    refused.reason
}

fn clash(at: &str, board: char, word: char) -> Refusal {
    Refusal::Clash {
        cell: cell(at),
        board,
        word,
    }
}

#[test]
fn each_refusal_names_what_is_wrong() {
    let game = seed_game();
    let state = position(&game);
    let cases: Vec<(Seat, &str, Refusal)> = vec![
        (1, "j7l ток", Refusal::NotYourTurn),
        (2, "a1r кот", Refusal::NotYourTurn),
        (
            0,
            "a1l кот",
            Refusal::WrongDirection {
                side: Colour::Red,
                dir: Dir::Left,
            },
        ),
        (
            0,
            "d5d рок",
            Refusal::WrongDirection {
                side: Colour::Red,
                dir: Dir::Down,
            },
        ),
        (
            0,
            "a5r cat",
            Refusal::WrongAlphabet {
                variant: Variant::Ru,
            },
        ),
        (0, "a5r ок", Refusal::TooShort { len: 2 }),
        (0, "a5r окурокк", Refusal::TooLong { len: 7, max: 6 }),
        (
            0,
            "g1r кот",
            Refusal::NotYourLetter {
                cell: cell("g1"),
                enemy: false,
            },
        ),
        (
            0,
            "e5r кот",
            Refusal::NotYourLetter {
                cell: cell("e5"),
                enemy: true,
            },
        ),
        (
            0,
            "b5u кокос",
            Refusal::NotInDictionary {
                word: "кокос".into(),
            },
        ),
        (
            0,
            "a1r бамбук",
            Refusal::AlreadyPlayed {
                word: "бамбук".into(),
            },
        ),
        (
            0,
            "a1r БАМБУК",
            Refusal::AlreadyPlayed {
                word: "бамбук".into(),
            },
        ),
        (
            0,
            "e5u рококо",
            Refusal::NotYourLetter {
                cell: cell("e5"),
                enemy: true,
            },
        ),
        (
            0,
            "d5u рококо",
            Refusal::AlreadyPlayed {
                word: "рококо".into(),
            },
        ),
        (
            0,
            "f1r кадило",
            Refusal::OffBoard {
                cell: cell("f1"),
                dir: Dir::Right,
                len: 6,
            },
        ),
        (
            0,
            "a1u бамбук",
            Refusal::AlreadyPlayed {
                word: "бамбук".into(),
            },
        ),
        (0, "a1u бар", clash("a2", 'О', 'А')),
        (0, "a1r кот", clash("a1", 'Б', 'К')),
        (0, "d5r рот", clash("f5", 'К', 'Т')),
        (
            0,
            "d5 рок",
            Refusal::BothFit {
                cell: cell("d5"),
                dirs: [Dir::Right, Dir::Up],
            },
        ),
        (
            0,
            "a1 кот",
            Refusal::NeitherFits(Box::new([
                (Dir::Right, clash("a1", 'Б', 'К')),
                (Dir::Up, clash("a1", 'Б', 'К')),
            ])),
        ),
        (
            0,
            "f1 кадило",
            Refusal::NeitherFits(Box::new([
                (
                    Dir::Right,
                    Refusal::OffBoard {
                        cell: cell("f1"),
                        dir: Dir::Right,
                        len: 6,
                    },
                ),
                (Dir::Up, clash("f5", 'К', 'Л')),
            ])),
        ),
    ];
    for (seat, text, want) in cases {
        let got = refusal(&game, &state, seat, text);
        assert_eq!(got, want, "{text}");
        for lang in [Lang::Ru, Lang::En] {
            let words = got.text(lang);
            assert!(words.len() > 10 && words.len() < 300, "{text}: {words}");
            let latin = words
                .chars()
                .all(|c| c.is_ascii() || alphabet::script(c).is_some());
            assert!(latin, "{text}: {words}");
        }
    }
}

#[test]
fn refusal_texts_say_the_cell_and_the_letters() {
    let game = seed_game();
    let state = position(&game);
    let r = refusal(&game, &state, 0, "a1u бар");
    assert_eq!(r.text(Lang::Ru), "V kletke a2 stoit О, a v slove tam А.");
    assert_eq!(r.text(Lang::En), "a2 holds О, but your word has А there.");
    let r = refusal(&game, &state, 0, "a1l кот");
    assert_eq!(
        r.text(Lang::En),
        "l (left) is not your direction: Red writes r (right) or u (up)."
    );
    let r = refusal(&game, &state, 0, "f1 кадило");
    assert_eq!(
        r.text(Lang::En),
        "r: A word of 6 letters from f1 right runs off the board. u: f5 holds К, but your word has Л there."
    );
    let r = refusal(&game, &state, 0, "b5u кокос");
    assert_eq!(
        r.text(Lang::En),
        "КОКОС is not in the dictionary (common nouns, singular)."
    );
}

#[test]
fn a_left_out_direction_is_found_when_only_one_fits() {
    let game = seed_game();
    let state = position(&game);
    // Right from b5 runs into У at c5; up is free.
    let after = play(&game, state, "b5 кот");
    assert_eq!(after.words().last().map(|p| p.dir), Some(Dir::Up));
    assert_eq!(after.board().owner(cell("b7")), Some(Colour::Red));
}

#[test]
fn yo_is_e_for_matching_and_repeats_but_shown_as_played() {
    let game = seed_game();
    let state = position(&game);
    let state = play(&game, state, "f1u краска");
    // Blue writes НАМЕК without ё: it is the dictionary's НАМЁК.
    let state = play(&game, state, "j5l намек");
    assert_eq!(
        state.board().tile(cell("g5")).map(|t| t.letter.yo),
        Some(false)
    );
    let mut again = state.clone();
    again.turn = Colour::Blue;
    let r = refusal(&game, &again, 1, "j5l НАМЁК");
    assert_eq!(
        r,
        Refusal::AlreadyPlayed {
            word: "намёк".into()
        }
    );
    // A word with ё runs through a plain е (and the reverse).
    let game = WordBattle::new().with_dictionary(leak(Variant::Ru, "ёлка 9\nель 9\nлес 9"));
    let state = play(&game, State::new(Variant::Ru, 6, 0), "a1r ёлка");
    let state = play(&game, state, "j10d лес");
    let state = play(&game, state, "a1u ель");
    assert!(game.render(&state, 0, Lang::Ru).contains("ЁЛКА"));
    assert!(game.render(&state, 0, Lang::Ru).contains("Ь.........3"));
}

#[test]
fn a_finished_match_refuses_everything() {
    let game = seed_game();
    let state = game.withdraw(position(&game), 0, crate::Withdrawal::Resigned, &[false; 2]);
    assert_eq!(refusal(&game, &state, 0, "-"), Refusal::Finished);
    assert_eq!(refusal(&game, &state, 1, "j7l ток"), Refusal::Finished);
    assert!(SEED_WORDS.contains("ток"));
}

/// `a1 u`, the word forgotten, is no move (it was read as the word "u" and
/// refused as "write the word in Russian letters"); a one-letter word that
/// is no direction is still read, and refused as too short.
#[test]
fn a_direction_without_its_word_is_no_move() {
    for text in ["a1 u", "A1 R", "j10 d"] {
        let e = text.parse::<Move>().expect_err(text);
        assert!(e.to_string().contains("no word"), "{text}: {e}");
    }
    assert!("a1 я".parse::<Move>().is_ok());
}
