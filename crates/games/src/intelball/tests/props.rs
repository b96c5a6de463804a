//! Properties: random legal games keep every invariant, print and parse back
//! to the same state, and end; no parser panics on any input.

use proptest::prelude::*;
use rand::Rng;

use super::*;
use crate::{GameOptions, Status};

/// Every invariant of a reachable state, checked apart from `State`'s own parser.
fn assert_sound(state: &State) {
    let text = state.to_string();
    let back: State = text.parse().unwrap_or_else(|e| panic!("{text}: {e}"));
    assert_eq!(&back, state);
    assert_eq!(back.to_string(), text);
    let public = state.public();
    let pos_back: Position = public.parse().unwrap_or_else(|e| panic!("{public}: {e}"));
    assert_eq!(&pos_back, state.position());
    let field = &state.position().field;
    let pieces: Vec<_> = field.pieces().collect();
    assert_eq!(pieces.len(), 12, "{public}");
    for side in [BLUE, RED] {
        assert_eq!(field.team(side).count(), 6);
        assert_eq!(field.team(side).filter(|(_, p)| p.keeper).count(), 1);
    }
    assert!(field.holder().is_none_or(|p| !p.blocked));
    let p = state.position();
    assert!(
        p.score[BLUE] <= p.time + 1 && p.score[RED] <= p.time,
        "{public}"
    );
    assert!(p.time <= state.limit());
    assert!(text.is_ascii() && !text.contains(' '));
}

/// Plays a random game: mostly legal single codes of the seat on turn,
/// sometimes `U` (either seat), sometimes a whole robot combination; then
/// passes until the end. Returns the texts played, goals and undos.
fn random_game(mode: Mode, seed: u64, texts: usize) -> (usize, u32, usize) {
    let g = Intelball { limit: 12 };
    let mut r = MatchRng::seed_from_u64(seed);
    let mut state = State::new(Position::opening(), mode, g.limit);
    let (mut played, mut goals, mut undos) = (0, 0, 0);
    for _ in 0..texts {
        if state.finished() {
            break;
        }
        let Status::Awaiting(seats) = g.status(&state) else {
            unreachable!()
        };
        let seat = if r.gen_bool(0.1) {
            1 - seats[0]
        } else {
            seats[0]
        };
        let moves = g.legal_moves(&state, seat);
        let mv = if r.gen_bool(0.2) && seat == seats[0] {
            let budget = crate::Budget::nodes(300);
            g.robot_move(&state, seat, 1 + r.gen_range(0..3), &budget, &mut r)
        } else if moves.is_empty() {
            continue;
        } else {
            moves[r.gen_range(0..moves.len())].clone()
        };
        let before = state.clone();
        match g.play(state.clone(), seat, &mv, &mut r) {
            Ok(p) => {
                if mv != Move::Undo {
                    let (a, b) = (before.position(), p.state.position());
                    let gained = [b.score[BLUE] - a.score[BLUE], b.score[RED] - a.score[RED]];
                    assert!(gained.iter().sum::<u32>() <= 1, "{mv}");
                    goals += gained[a.turn];
                    if gained[a.turn] == 1 {
                        assert_eq!(b.field, Field::kick_off(b.turn));
                    }
                }
                undos += usize::from(mv == Move::Undo);
                state = p.state;
                played += 1;
            }
            Err(e) => panic!("legal move {mv} refused: {:?} in {before}", e.reason),
        }
        assert_sound(&state);
    }
    let mut passes = 0;
    while !state.finished() {
        let Status::Awaiting(seats) = g.status(&state) else {
            unreachable!()
        };
        let null = g.null_move(&state, seats[0]).unwrap();
        state = g.play(state, seats[0], &null, &mut r).unwrap().state;
        assert_sound(&state);
        passes += 1;
        assert!(passes <= 2 * 12 + 2, "the match does not end");
    }
    assert!(matches!(g.status(&state), Status::Finished(_)));
    (played, goals, undos)
}

#[test]
fn random_games_keep_invariants() {
    let modes = [
        Mode::Duel { seat0: BLUE },
        Mode::Duel { seat0: RED },
        Mode::Bot,
        Mode::Hot,
    ];
    let (mut goals, mut undos) = (0, 0);
    for seed in 0..24u64 {
        let (played, g, u) = random_game(modes[seed as usize % 4], seed, 160);
        assert!(played > 20, "seed {seed} played only {played}");
        goals += g;
        undos += u;
    }
    assert!(
        goals > 0 && undos > 10,
        "{goals} goals, {undos} undos: the games must reach both"
    );
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, .. ProptestConfig::default() })]

    #[test]
    fn move_parser_never_panics(s in "\\PC{0,40}") {
        let _ = s.parse::<Move>();
    }

    #[test]
    fn code_like_text_never_panics(s in "[LRBFU~&>()0-9, -]{0,40}") {
        if let Ok(m) = s.parse::<Move>() {
            prop_assert_eq!(m.to_string().parse::<Move>().ok(), Some(m));
        }
    }

    #[test]
    fn state_parsers_never_panic(s in "\\PC{0,80}") {
        let _ = s.parse::<Position>();
        let _ = s.parse::<State>();
        let _ = s.parse::<Options>();
    }

    #[test]
    fn mutated_state_strings_never_panic(i in 0usize..400, c in "[-_()0-9,:gLRX~>&BF]") {
        for base in [OPENING, SEED_AFTER] {
            let mut text: Vec<char> = base.chars().collect();
            let at = i % text.len();
            text[at] = c.chars().next().unwrap();
            let text: String = text.into_iter().collect();
            if let Ok(p) = text.parse::<Position>() {
                prop_assert_eq!(p.to_string().parse::<Position>().ok(), Some(p));
            }
        }
    }

    #[test]
    fn options_round_trip(level in 0u8..5, hot in any::<bool>(), start in any::<bool>()) {
        let mut text = if hot { "hot".to_string() } else { format!("bot {level}") };
        if start {
            text.push(' ');
            text.push_str(SEED_AFTER);
        }
        if let Ok(o) = text.parse::<Options>() {
            prop_assert_eq!(o.to_string().parse::<Options>().ok(), Some(o.clone()));
            prop_assert!(o.lineup().seats() == 2);
        }
    }

    #[test]
    fn random_game_prop(seed in any::<u64>()) {
        random_game(Mode::Duel { seat0: BLUE }, seed, 60);
    }
}
