//! Property tests: parsers never panic and round-trip; random matches keep the invariants and end.

use proptest::prelude::*;
use rand::{Rng, SeedableRng};

use super::*;
use super::{SEED_WORDS, leak, play};
use crate::{Budget, LEVELS, Status};

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn parsers_never_panic(text in "\\PC{0,60}") {
        let _ = text.parse::<Move>();
        let _ = text.parse::<Options>();
        let _ = text.parse::<State>();
    }

    #[test]
    fn move_like_texts_never_panic_and_round_trip(
        text in "[a-kA-Kасе]{0,2}[0-9]{0,3}[rludRLUDx]{0,2} {0,2}[ruld]? ?[а-яёА-ЯЁa-z-]{0,9}"
    ) {
        if let Ok(mv) = text.parse::<Move>() {
            prop_assert_eq!(mv.to_string().parse::<Move>(), Ok(mv));
        }
    }

    #[test]
    fn option_like_texts_never_panic_and_round_trip(
        text in "( {0,2}(bot|BOT|en|ru|[0-9]{1,2}|x)){0,4} {0,2}"
    ) {
        if let Ok(options) = text.parse::<Options>() {
            prop_assert_eq!(options.to_string().parse::<Options>(), Ok(options));
        }
    }

    #[test]
    fn mutated_state_strings_never_panic(pick in 0usize..1000, at in 0usize..400, with in "\\PC{0,3}") {
        let states = some_states();
        let text = states[pick % states.len()].to_string();
        let at = text.char_indices().map(|(i, _)| i).nth(at % text.chars().count()).unwrap_or(0);
        let mutated = format!("{}{with}{}", &text[..at], &text[at..].chars().skip(1).collect::<String>());
        if let Ok(parsed) = mutated.parse::<State>() {
            prop_assert_eq!(parsed.to_string(), mutated);
        }
    }
}

/// States of a few random matches, made once.
fn some_states() -> &'static [State] {
    static STATES: std::sync::OnceLock<Vec<State>> = std::sync::OnceLock::new();
    STATES.get_or_init(|| {
        (0..3)
            .flat_map(|seed| random_match(seed, 12).1.into_iter().step_by(3))
            .collect()
    })
}

fn game() -> WordBattle {
    WordBattle::new().with_dictionary(leak(Variant::Ru, SEED_WORDS))
}

/// Every invariant a reachable state keeps.
fn assert_sound(game: &WordBattle, state: &State) {
    state.check().unwrap_or_else(|e| panic!("{state}: {e}"));
    let text = state.to_string();
    assert!(!text.contains('\n'));
    assert_eq!(text.parse::<State>().as_ref(), Ok(state), "{text}");
    let (red, blue) = (state.score(Colour::Red), state.score(Colour::Blue));
    assert!(red + blue <= 100);
    match game.status(state) {
        Status::Awaiting(seats) => {
            assert!(!state.is_over());
            assert_eq!(seats, vec![state.seat_of(state.turn())]);
        }
        Status::Finished(standings) => {
            assert!(state.is_over());
            assert_eq!(standings.len(), 2);
            assert!(standings.iter().any(|s| s.place == 1));
        }
    }
    for seat in 0..2 {
        let text = game.render(state, seat, Lang::Ru);
        assert!(smsarena_text::encoding::analyse(&text).parts <= 3, "{text}");
    }
}

/// A match of random legal moves (words four times in five) with the
/// built-in dictionary, passing out after `words` words; with the states seen.
fn random_match(seed: u64, words: usize) -> (State, Vec<State>) {
    let game = WordBattle::new();
    let mut rng = MatchRng::seed_from_u64(seed);
    let options = Options {
        max_len: [5, 6, 7][seed as usize % 3],
        ..Options::default()
    };
    let mut state = game.start(&options, &mut rng);
    let mut seen = vec![state.clone()];
    let mut played = 0;
    while !state.is_over() {
        let seat = state.seat_of(state.turn());
        let moves = game.legal_moves(&state, seat);
        let word = moves.len() > 1 && played < words && rng.gen_range(0..5) != 0;
        let mv = if word {
            played += 1;
            moves[rng.gen_range(0..moves.len() - 1)].clone()
        } else {
            game.null_move(&state, seat).unwrap()
        };
        state = game.play(state, seat, &mv, &mut rng).unwrap().state;
        seen.push(state.clone());
    }
    (state, seen)
}

#[test]
fn random_matches_keep_the_invariants_and_end() {
    let game = WordBattle::new();
    for seed in 0..12 {
        let (end, seen) = random_match(seed, 60);
        assert!(end.is_over());
        for state in &seen {
            assert_sound(&game, state);
        }
    }
}

#[test]
fn every_legal_move_is_accepted_and_the_rest_refused() {
    let game = game();
    let mut rng = MatchRng::seed_from_u64(3);
    let mut state = State::new(Variant::Ru, 6, 1);
    for _ in 0..12 {
        if state.is_over() {
            break;
        }
        let seat = state.seat_of(state.turn());
        let legal = game.legal_moves(&state, seat);
        assert!(game.legal_moves(&state, 1 - seat).is_empty());
        for mv in &legal {
            assert!(game.play(state.clone(), seat, mv, &mut rng).is_ok(), "{mv}");
            assert!(game.play(state.clone(), 1 - seat, mv, &mut rng).is_err());
        }
        // Every dictionary word from every own cell: accepted exactly when listed.
        for (word, _) in game.dictionary(Variant::Ru).words() {
            for start in movegen::starts(state.board(), state.turn()) {
                for dir in state.turn().dirs() {
                    let mv = Move::word(start, dir, &word);
                    let ok = game.play(state.clone(), seat, &mv, &mut rng).is_ok();
                    assert_eq!(ok, legal.contains(&mv), "{mv}");
                }
            }
        }
        let mv = legal[rng.gen_range(0..legal.len())].clone();
        state = play(&game, state, &mv.to_string());
    }
}

#[test]
fn robots_play_legal_moves_and_finish() {
    let game = WordBattle::new();
    for seed in 0..3u64 {
        let mut rng = MatchRng::seed_from_u64(seed);
        let mut state = State::new(Variant::Ru, 6, 0);
        let mut plies = 0;
        while !state.is_over() {
            let seat = state.seat_of(state.turn());
            let level = LEVELS.start() + ((seed as u8 + seat as u8) % 3);
            let budget = Budget::nodes(40);
            let mv = game.robot_move(&state, seat, level, &budget, &mut rng);
            state = game
                .play(state, seat, &mv, &mut rng)
                .unwrap_or_else(|r| panic!("level {level}: {mv} refused: {:?}", r.reason))
                .state;
            plies += 1;
            assert!(plies < 300, "robots never stop");
        }
        assert_sound(&game, &state);
    }
}

#[test]
fn robots_are_deterministic_with_a_node_budget() {
    let game = WordBattle::new();
    let (state, _) = random_match(5, 8);
    let mut state = state;
    // Reopen the finished random match: same board, still playing.
    state.end = state::End::Playing;
    state.passes = 0;
    let seat = state.seat_of(state.turn());
    for level in LEVELS {
        let a = game.robot_move(
            &state,
            seat,
            level,
            &Budget::nodes(30),
            &mut MatchRng::seed_from_u64(9),
        );
        let b = game.robot_move(
            &state,
            seat,
            level,
            &Budget::nodes(30),
            &mut MatchRng::seed_from_u64(9),
        );
        assert_eq!(a, b, "level {level}");
        assert!(game.legal_moves(&state, seat).contains(&a) || a == Move::Pass);
    }
}
