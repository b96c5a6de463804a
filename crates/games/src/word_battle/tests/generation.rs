//! Move generation against a brute-force generator: every dictionary word tried on every
//! cell in every direction through the rules' own checks.

use std::collections::BTreeSet;

use rand::{Rng, SeedableRng};

use super::alphabet::fold;
use super::movegen::{self, Search};
use super::rules::{self, Action};
use super::*;
use super::{leak, play};

type Found = BTreeSet<(Cell, char, String)>;

/// What the rules accept: every word tried in every direction from every
/// cell a word may start on (the side's letters, or its base before its
/// first word: other cells are refused first thing, so trying them only
/// costs time).
fn brute_force(state: &State, dict: &Dictionary, min_rank: u8) -> Found {
    let seat = state.seat_of(state.turn());
    let side = state.turn();
    let starts: Vec<Cell> = (0..100)
        .filter_map(Cell::from_index)
        .filter(|&c| {
            state.board().owner(c) == Some(side)
                || (c == side.base() && !state.board().started(side))
        })
        .collect();
    let mut found = Found::new();
    for (word, rank) in dict.words() {
        if rank < min_rank {
            continue;
        }
        for &start in &starts {
            for dir in Dir::ALL {
                let mv = Move::word(start, dir, &word);
                if let Ok(Action::Place(p)) = rules::check(state, dict, seat, &mv) {
                    found.insert((p.start, p.dir.letter(), fold(&p.word)));
                }
            }
        }
    }
    found
}

fn generated(state: &State, dict: &Dictionary, min_rank: u8) -> Found {
    let played = movegen::played_nodes(state, dict);
    let search = Search {
        dict,
        side: state.turn(),
        max_len: state.max_len(),
        min_rank,
        played: &played,
    };
    movegen::generate(state.board(), &search)
        .iter()
        .map(|c| {
            (
                c.start,
                c.dir.letter(),
                fold(&dict.spelling(c.node, c.codes())),
            )
        })
        .collect()
}

/// Every 25th word of the built-in list (about 800): a real mix of letters.
fn sample_dictionary() -> &'static Dictionary {
    let words: String = Dictionary::builtin(Variant::Ru)
        .words()
        .iter()
        .step_by(25)
        .map(|(w, r)| format!("{w} {r}\n"))
        .collect();
    leak(Variant::Ru, &words)
}

#[test]
fn generation_agrees_with_brute_force_on_random_positions() {
    let dict = sample_dictionary();
    let game = WordBattle::new().with_dictionary(dict);
    let mut checked = 0;
    for seed in 0..6u64 {
        let mut rng = MatchRng::seed_from_u64(seed);
        let max_len = [5, 6, 7][seed as usize % 3];
        let mut state = State::new(Variant::Ru, max_len, 0);
        for step in 0..14 {
            if state.is_over() {
                break;
            }
            if step % 3 == 0 || step < 2 {
                for min_rank in [0, 25] {
                    let want = brute_force(&state, dict, min_rank);
                    assert_eq!(
                        generated(&state, dict, min_rank),
                        want,
                        "seed {seed} step {step}"
                    );
                }
                checked += 1;
            }
            let moves = game.legal_moves(&state, state.seat_of(state.turn()));
            // Mostly words (a pass now and then keeps both sides' turns mixed).
            let mv = &moves[rng.gen_range(0..moves.len())];
            state = play(&game, state, &mv.to_string());
        }
    }
    assert!(checked >= 24);
}

#[test]
fn the_seed_position_has_a_fixed_number_of_words() {
    // Perft-style regression vector: Red's words after РОКОКО with the
    // built-in dictionary, checked once against brute force.
    let game = WordBattle::new();
    let state = game.example_position().unwrap();
    let dict = game.dictionary(Variant::Ru);
    let all = generated(&state, dict, 0);
    assert_eq!(all, brute_force(&state, dict, 0));
    assert!(all.contains(&(cell("d5"), 'r', "рок".into())));
    assert!(all.contains(&(cell("d5"), 'r', "рокот".into())));
    assert_eq!(all.len(), SEED_POSITION_WORDS);
    assert_eq!(
        game.legal_moves(&state, 0).len(),
        SEED_POSITION_WORDS + 1,
        "and the pass"
    );
    let common = generated(&state, dict, 20).len();
    assert!(common < all.len() && common > 100, "{common}");
}

/// Red's legal words in the seed position after РОКОКО (built-in dictionary).
const SEED_POSITION_WORDS: usize = 5571;

fn cell(name: &str) -> Cell {
    name.parse().unwrap()
}
