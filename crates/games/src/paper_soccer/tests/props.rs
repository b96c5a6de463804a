//! Property tests: random games, the whole-move generator against a plain reference, notations round-trip.

use std::collections::HashSet;

use proptest::prelude::*;
use rand::{Rng, SeedableRng};

use super::field::{Dir, Field};
use super::movegen::{MoveGen, Outcome};
use super::position::{Position, Step};
use super::*;
use crate::{Game, Status};

/// A random game of up to `steps` random legal steps on a `w`x`l` field.
fn random_game(w: u8, l: u8, seed: u64, steps: usize) -> State {
    let mut rng = MatchRng::seed_from_u64(seed);
    let mut s = State::new(w, l, (seed % 2) as usize);
    for _ in 0..steps {
        if s.end.is_some() {
            break;
        }
        let moves = PaperSoccer.legal_moves(&s, s.to_move());
        // Steps that would end the game are avoided while others exist.
        let next: Vec<State> = moves
            .iter()
            .map(|m| play_text(&s, s.to_move(), &m.0).unwrap().0)
            .collect();
        let running: Vec<&State> = next.iter().filter(|t| t.end.is_none()).collect();
        s = if running.is_empty() {
            next[rng.gen_range(0..next.len())].clone()
        } else {
            running[rng.gen_range(0..running.len())].clone()
        };
    }
    s
}

/// Every end of the chain by plain recursion (no deduplication).
fn reference(
    f: &Field,
    pos: &Position,
    out: &mut HashSet<Position>,
    flags: &mut (bool, bool),
    budget: &mut u32,
) {
    let mover = pos.side;
    for d in 0..8 {
        if pos.free(f) >> d & 1 == 0 {
            continue;
        }
        if *budget == 0 {
            return;
        }
        *budget -= 1;
        let mut c = *pos;
        match c.step(f, d as Dir) {
            Step::Pass => {
                out.insert(c);
            }
            Step::Bounce => reference(f, &c, out, flags, budget),
            Step::Goal { winner } => {
                if winner == mover {
                    flags.0 = true
                } else {
                    flags.1 = true
                }
            }
            Step::Stuck => {
                if c.side == mover {
                    flags.1 = true
                } else {
                    flags.0 = true
                }
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn random_games_end_with_a_winner_and_never_reuse_a_segment(seed in any::<u64>(), size in 0usize..4) {
        let (w, l) = [(8, 10), (6, 8), (4, 4), (12, 14)][size];
        let mut rng = MatchRng::seed_from_u64(seed);
        let mut s = State::new(w, l, 0);
        let f = s.field();
        let mut drawn = HashSet::new();
        let mut steps = 0;
        while s.end.is_none() {
            let moves = PaperSoccer.legal_moves(&s, s.to_move());
            prop_assert!(!moves.is_empty());
            let d = moves[rng.gen_range(0..moves.len())].0[0];
            let (a, b) = (s.pos.ball, f.nbr[s.pos.ball as usize][d as usize]);
            prop_assert!(drawn.insert((a.min(b), a.max(b))), "segment reused");
            s = play_text(&s, s.to_move(), &[d]).unwrap().0;
            steps += 1;
            prop_assert!(steps < 2000);
        }
        match PaperSoccer.status(&s) {
            Status::Finished(st) => prop_assert_eq!(st.iter().filter(|x| x.place == 1).count(), 1),
            other => prop_assert!(false, "{:?}", other),
        }
        prop_assert_eq!(s.to_string().parse::<State>().unwrap(), s.clone());
        let rec = Record::of_state(&s, &[("White", "a")]);
        let back: Record = rec.to_string().parse().unwrap();
        prop_assert_eq!(&back, &rec);
        let mut again = back.replay().unwrap();
        again.top = s.top;
        // Replays put White on seat 0; compare the play itself.
        prop_assert_eq!(again.pos, s.pos);
        prop_assert_eq!(again.turns, s.turns.clone());
    }

    #[test]
    fn the_generator_agrees_with_the_reference(seed in any::<u64>(), steps in 0usize..120, size in 0usize..3) {
        let (w, l) = [(8, 10), (6, 8), (4, 6)][size];
        let s = random_game(w, l, seed, steps);
        prop_assume!(s.end.is_none());
        let f = s.field();
        let mut expected = HashSet::new();
        let mut flags = (false, false);
        // Positions whose chains take the plain enumeration longer are skipped:
        // it is exponential, and the test runs in debug builds too.
        let mut budget = 30_000;
        reference(f, &s.pos, &mut expected, &mut flags, &mut budget);
        prop_assume!(budget > 0);
        let mut mg = MoveGen::new();
        let got = mg.collect(f, &s.pos, u64::MAX).unwrap();
        let passes: Vec<_> = got.iter().filter(|m| m.1 == Outcome::Pass).map(|m| m.0).collect();
        let set: HashSet<_> = passes.iter().copied().collect();
        prop_assert_eq!(set.len(), passes.len(), "an end reported twice");
        prop_assert_eq!(&set, &expected);
        prop_assert_eq!(got.iter().any(|m| m.1 == Outcome::Win), flags.0);
        prop_assert_eq!(got.iter().any(|m| m.1 == Outcome::Loss), flags.1);
        // Every reported path replays to its end through the game's rules.
        for (end, outcome, path) in &got {
            let (t, _) = play_text(&s, s.to_move(), path).unwrap();
            prop_assert_eq!(t.pos, *end);
            prop_assert_eq!(t.end.is_some(), *outcome != Outcome::Pass);
        }
    }

    #[test]
    fn state_strings_round_trip(seed in any::<u64>(), steps in 0usize..300) {
        let s = random_game(8, 10, seed, steps);
        let text = s.to_string();
        prop_assert_eq!(text.parse::<State>().unwrap(), s);
    }

    #[test]
    fn a_broken_state_string_is_refused_or_reads_as_a_state_that_writes_back(seed in any::<u64>(), steps in 0usize..100, cut in any::<prop::sample::Index>(), junk in "[ -~é]{0,4}") {
        let text = random_game(8, 10, seed, steps).to_string();
        let i = cut.index(text.len() + 1);
        let broken = format!("{}{}{}", &text[..i], junk, &text[i..]);
        // Whatever a broken string reads as is a state in its own right: it
        // writes back as itself, and the game can say who is to move.
        for candidate in [broken.as_str(), &text[..i]] {
            if let Ok(state) = candidate.parse::<State>() {
                let shown = state.to_string();
                prop_assert_eq!(shown.parse::<State>().ok(), Some(state.clone()), "{:?} read as {:?}", candidate, shown);
                let _ = PaperSoccer.status(&state);
            }
            if let Ok(record) = candidate.parse::<Record>() {
                let shown = record.to_string();
                prop_assert_eq!(shown.parse::<Record>().ok(), Some(record), "{:?} read as {:?}", candidate, shown);
            }
        }
        // Nothing inserted: the string reads as the state it was.
        if junk.is_empty() {
            prop_assert_eq!(broken.parse::<State>().ok(), text.parse::<State>().ok());
        }
    }

    #[test]
    fn any_text_parses_or_errs(text in "\\PC{0,12}") {
        let _ = text.parse::<State>();
        if let Ok(m) = text.parse::<Move>() {
            prop_assert_eq!(m.to_string().parse::<Move>().unwrap(), m.clone());
            prop_assert_eq!(Move::from_kurnik(&m.kurnik()).unwrap(), m);
        }
        let _ = text.parse::<Options>();
        let _ = text.parse::<Record>();
    }
}

#[test]
fn two_hundred_random_games_render_within_three_parts() {
    let mut worst = 0;
    for seed in 0..200u64 {
        let mut rng = MatchRng::seed_from_u64(seed);
        let mut s = State::new(8, 10, (seed % 2) as usize);
        // Level-1 robots: long games (they avoid losing on the spot).
        while s.end.is_none() {
            for seat in 0..2 {
                for lang in [Lang::Ru, Lang::En] {
                    let text = PaperSoccer.render(&s, seat, lang);
                    let a = smsarena_text::encoding::analyse(&text);
                    assert!(
                        a.encoding == smsarena_text::encoding::Encoding::Gsm7
                            && a.parts <= render::MAX_PARTS,
                        "{} parts, {} septets\n{text}",
                        a.parts,
                        a.units
                    );
                    worst = worst.max(a.units);
                }
            }
            let m =
                PaperSoccer.robot_move(&s, s.to_move(), 1, &crate::Budget::nodes(1000), &mut rng);
            s = play_text(&s, s.to_move(), &m.0).unwrap().0;
        }
    }
    assert!(worst > 300, "{worst}");
}
