//! The robot levels on positions made to tell them apart.

use rand::SeedableRng;

use super::*;
use super::{leak, play, rng};
use crate::Budget;

/// Red holds К О Т on a1-c1; Blue's row 3 and column j reach down to a3,
/// so Blue threatens `a3d ток`, which ends on Red's base.
const THREAT: &str = "WB1 v=ru len=6 red=0 turn=R passes=0 end=- board=\
    .........т/.........т/.........т/.........т/.........т/.........т/.........т/\
    тттттттттт/........../КОТ....... words=-";

fn threat_game() -> WordBattle {
    WordBattle::new().with_dictionary(leak(Variant::Ru, "ток 50\nкит 50\nтополь 50\nкот 50"))
}

/// Whether Blue, to move, can take Red's base at once.
fn blue_takes_the_base(game: &WordBattle, state: &State) -> bool {
    let blue = state.seat_of(Colour::Blue);
    game.legal_moves(state, blue)
        .iter()
        .any(|mv| play(game, state.clone(), &mv.to_string()).end() == state::End::Base)
}

#[test]
fn level_three_parries_a_threat_that_level_two_walks_into() {
    let game = threat_game();
    let state: State = THREAT.parse().unwrap();
    let greedy = game.robot_move(&state, 0, 2, &Budget::nodes(100), &mut rng());
    assert_eq!(greedy.to_string(), "c1r тополь", "the biggest gain");
    assert!(blue_takes_the_base(
        &game,
        &play(&game, state.clone(), &greedy.to_string())
    ));
    // Level 3 blocks a2-a3 (`a1u кит`, `a1u кот`) or uses up `ток` itself.
    let careful = game.robot_move(&state, 0, 3, &Budget::nodes(100), &mut rng());
    assert_ne!(careful, greedy);
    assert!(!blue_takes_the_base(
        &game,
        &play(&game, state, &careful.to_string())
    ));
}

#[test]
fn every_level_takes_a_base_it_can_reach() {
    let game = threat_game();
    let mut state: State = THREAT.parse().unwrap();
    state.turn = Colour::Blue;
    for level in 1..=3 {
        let mv = game.robot_move(&state, 1, level, &Budget::nodes(100), &mut rng());
        // Level 1 plays at random, but `ток` down from a3 is its only 3-letter word with a gain.
        if level > 1 {
            assert_eq!(mv.to_string(), "a3d ток", "level {level}");
        }
        assert!(game.legal_moves(&state, 1).contains(&mv));
    }
}

#[test]
fn robots_pass_when_no_word_gains() {
    // Red's only legal word is КОТ along its own К О Т: legal, but it gains nothing.
    let game = WordBattle::new().with_dictionary(leak(Variant::Ru, "кот 50"));
    let state: State = THREAT.replace('т', "м").parse().unwrap();
    let legal: Vec<String> = game
        .legal_moves(&state, 0)
        .iter()
        .map(Move::to_string)
        .collect();
    assert_eq!(legal, ["a1r кот", "-"]);
    for level in 1..=3 {
        assert_eq!(
            game.robot_move(&state, 0, level, &Budget::nodes(100), &mut rng()),
            Move::Pass
        );
    }
    // And a robot asked out of turn passes rather than play for the other side.
    assert_eq!(
        game.robot_move(&state, 1, 3, &Budget::nodes(100), &mut rng()),
        Move::Pass
    );
}

#[test]
fn level_one_prefers_short_words_and_level_two_long_ones() {
    let game = WordBattle::new();
    let opening = State::new(Variant::Ru, 7, 0);
    for seed in 0..5 {
        let mut r = crate::MatchRng::seed_from_u64(seed);
        let easy = game.robot_move(&opening, 0, 1, &Budget::nodes(10), &mut r);
        let greedy = game.robot_move(&opening, 0, 2, &Budget::nodes(10), &mut r);
        let len = |m: &Move| match m {
            Move::Word(w) => w.word.chars().count(),
            Move::Pass => 0,
        };
        assert!((3..=4).contains(&len(&easy)), "{easy}");
        assert_eq!(len(&greedy), 7, "{greedy}");
    }
}

/// Every Russian word the robot may play (its vocabulary's lowest rank and
/// up) reads as a noun and not as a function word: none is a spelling
/// OpenCorpora reads, in any form, as a pronoun, preposition, conjunction,
/// particle or adverb (`data/word_battle/function-words-ru.txt`, made by
/// `build.py` from the same dictionary). A player may still play `весь` (a
/// village); the robot does not.
#[test]
fn the_robot_plays_no_word_that_reads_as_a_function_word() {
    const FUNCTION_WORDS: &str = include_str!(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../data/word_battle/function-words-ru.txt"
    ));
    let function: std::collections::HashSet<&str> = FUNCTION_WORDS
        .lines()
        .filter(|l| !l.starts_with('#'))
        .collect();
    assert!(
        ["той", "весь", "тут", "обо"]
            .iter()
            .all(|w| function.contains(w)),
        "the list holds the pronouns, adverbs and prepositions it is for"
    );
    let lowest = crate::word_battle::robot::vocabulary(Variant::Ru).common;
    let dict = crate::word_battle::dictionary::Dictionary::builtin(Variant::Ru);
    let robots: Vec<String> = dict
        .words()
        .into_iter()
        .filter(|(_, rank)| *rank >= lowest)
        .map(|(word, _)| word.replace('ё', "е"))
        .collect();
    assert!(robots.len() > 5_000, "{} robot words", robots.len());
    let offending: Vec<&String> = robots
        .iter()
        .filter(|w| function.contains(w.as_str()))
        .collect();
    assert!(offending.is_empty(), "the robot may play {offending:?}");
}
