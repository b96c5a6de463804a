//! Game-level tests through the `Game` trait: the seed's examples and every rule.

use rand::SeedableRng;

use super::render::{Legend, render_with};
use super::*;
use crate::{Effect, Reason, Standing, Status};

mod props;

/// `seat`'s side resigns.
fn resign(state: State, seat: Seat) -> State {
    turn::resign(state, seat)
}

const RU: Lang = Lang::Ru;
const HINT: &str = "PA - revansh. S nick tekst - soobshchenie.";

fn rng(seed: u64) -> MatchRng {
    MatchRng::seed_from_u64(seed)
}

fn game() -> Football {
    Football::default()
}

fn mv(text: &str) -> Move {
    text.parse().unwrap()
}

/// Plays a move that must be accepted.
fn ok(state: State, seat: Seat, text: &str, rng: &mut MatchRng) -> Played<State> {
    game()
        .play(state, seat, &mv(text), rng)
        .unwrap_or_else(|r| panic!("seat {seat} {text} refused: {:?}", r.reason))
}

/// Plays both moves of a turn; the second must resolve it.
fn turn(state: State, moves: [(Seat, &str); 2], rng: &mut MatchRng) -> State {
    let first = ok(state, moves[0].0, moves[0].1, rng);
    assert_eq!(first.effect, Effect::Pending);
    let second = ok(first.state, moves[1].0, moves[1].1, rng);
    assert_eq!(second.effect, Effect::Resolved);
    second.state
}

fn refusal(state: &State, seat: Seat, text: &str) -> Refusal {
    let refused = game()
        .play(state.clone(), seat, &mv(text), &mut rng(0))
        .unwrap_err();
    assert_eq!(
        &refused.state, state,
        "a refusal leaves the state as it was"
    );
    refused.reason
}

/// The seed's opening: player 1 (seat 0) and his partner (seat 1) attack from
/// row 5, the defenders (seats 2, 3) stand on row 1, the ball on row 4.
fn seed_opening() -> State {
    State::from_board(["...23", ".....", ".....", "..*..", ".0.1."], "AADD").unwrap()
}

mod seed {
    use super::*;

    const OPENING: [&str; 4] = [
        "...22\n.....\n.....\n..0..\n.Y.1.\n\nVash xod.",
        "...22\n.....\n.....\n..0..\n.1.Y.\n\nVash xod.",
        "...Y2\n.....\n.....\n..0..\n.1.1.\n\nXod protivnika.",
        "...2Y\n.....\n.....\n..0..\n.1.1.\n\nXod protivnika.",
    ];

    const AFTER_KICK: [&str; 4] = [
        "...22\n.....\n...0.\n..Y1.\n.....\n\nXod protivnika.",
        "...22\n.....\n...0.\n..1Y.\n.....\n\nXod protivnika.",
        "...Y2\n.....\n...0.\n..11.\n.....\n\nVash xod.",
        "...2Y\n.....\n...0.\n..11.\n.....\n\nVash xod.",
    ];

    const GOAL_FOR_DEFENSE: &str = ".....\n.....\n.....\n.21Y.\n.1.0.\n\nVi pobedili.";

    #[test]
    fn opening_views() {
        let state = seed_opening();
        for (seat, want) in OPENING.iter().enumerate() {
            assert_eq!(game().render(&state, seat, RU), *want, "seat {seat}");
        }
    }

    #[test]
    fn worked_example_kick_3_and_step_2() {
        let mut rng = rng(2024);
        let played = ok(seed_opening(), 0, "3", &mut rng);
        assert_eq!(played.effect, Effect::Pending);
        // Nothing visible changes until the partner's move is in.
        assert_eq!(game().render(&played.state, 0, RU), OPENING[0]);
        let played = ok(played.state, 1, "2", &mut rng);
        assert_eq!(played.effect, Effect::Resolved);
        for (seat, want) in AFTER_KICK.iter().enumerate() {
            assert_eq!(game().render(&played.state, seat, RU), *want, "seat {seat}");
        }
        assert_eq!(game().status(&played.state), Status::Awaiting(vec![2, 3]));
    }

    #[test]
    fn worked_example_in_either_order() {
        let state = turn(seed_opening(), [(1, "2"), (0, "3")], &mut rng(1));
        assert_eq!(game().render(&state, 0, RU), AFTER_KICK[0]);
    }

    #[test]
    fn goal_example_defense_steps_next_to_the_ball_on_the_line() {
        // Before: the ball lies on row 5 at (5,4); defender seat 2 at (3,4)
        // steps down to (4,4), next to it. Attackers: (4,3) and (5,2).
        let before = State::from_board([".....", ".....", "...2.", ".30..", ".1.*."], "AADD")
            .unwrap()
            .with_moved(6, 5)
            .unwrap();
        let after = turn(before, [(2, "8"), (3, "5")], &mut rng(5));
        assert_eq!(
            game().render(&after, 2, RU),
            format!("{GOAL_FOR_DEFENSE}\n{HINT}")
        );
        assert!(
            game()
                .render(&after, 0, RU)
                .ends_with(&format!("\n\nVi proigrali.\n{HINT}"))
        );
        assert_eq!(
            game().status(&after),
            Status::Finished(vec![
                Standing::place(2),
                Standing::place(2),
                Standing::place(1),
                Standing::place(1)
            ])
        );
    }

    #[test]
    fn the_prose_legend_is_one_switch_away() {
        // With "1 partner, 2 opponents" a defender's view of the opening differs
        // from the seed's board; attackers' views are the same either way.
        let state = seed_opening();
        assert_eq!(
            render_with(&state, 2, RU, Legend::Partner),
            "...Y1\n.....\n.....\n..0..\n.2.2.\n\nXod protivnika."
        );
        assert_eq!(render_with(&state, 0, RU, Legend::Partner), OPENING[0]);
    }
}

mod texts {
    use super::*;

    #[test]
    fn english_views() {
        let state = seed_opening();
        assert_eq!(
            game().render(&state, 0, Lang::En),
            "...22\n.....\n.....\n..0..\n.Y.1.\n\nYour move."
        );
        assert!(
            game()
                .render(&state, 2, Lang::En)
                .ends_with("\n\nOpponents' move.")
        );
        let won = resign(state.clone(), 2);
        assert!(
            game()
                .render(&won, 0, Lang::En)
                .ends_with("\n\nYou won.\nPA - rematch. S nick text - message.")
        );
        assert!(
            game()
                .render(&won, 3, Lang::En)
                .ends_with("\n\nYou lost.\nPA - rematch. S nick text - message.")
        );
    }

    /// Whole replies as the catalogs word them, in both languages: a
    /// finished match's board text, a refused move, a move that cannot be
    /// read, options the game does not offer.
    #[test]
    fn whole_replies_come_from_the_catalogs_in_both_languages() {
        let won = resign(seed_opening(), 2);
        assert_eq!(
            game().render(&won, 0, RU),
            "...22\n.....\n.....\n..0..\n.Y.1.\n\nVi pobedili.\nPA - revansh. S nick tekst - soobshchenie."
        );
        assert_eq!(
            game().render(&won, 2, Lang::En),
            "...Y2\n.....\n.....\n..0..\n.1.1.\n\nYou lost.\nPA - rematch. S nick text - message."
        );
        let off = refusal(&seed_opening(), 0, "7");
        assert_eq!(
            off.text(RU),
            "Vy ne mozhete peremestit svoego Igroka v dannom napravlenii"
        );
        assert_eq!(
            off.text(Lang::En),
            "You cannot move your player in that direction."
        );
        let unread = "7x".parse::<Move>().unwrap_err();
        assert_eq!(
            unread.for_player(RU).as_deref(),
            Some("xod - tsifra 1-9 ili 0 i tsifra 1-9")
        );
        assert_eq!(
            unread.for_player(Lang::En).as_deref(),
            Some("a move is a digit 1-9, or 0 and a digit 1-9")
        );
        let level = "BOT 2".parse::<Options>().unwrap_err();
        assert_eq!(level.0.text(RU), "V SMS-futbole roboty tolko urovnya 1.");
        assert_eq!(level.english(), "SMS football robots come in level 1 only.");
        assert_eq!(game().name(RU), "SMS-futbol");
        assert_eq!(game().name(Lang::En), "SMS football");
    }

    #[test]
    fn draw_text() {
        let before = State::from_board([".....", "..2..", "0.*.1", "..3..", "....."], "AADD")
            .unwrap()
            .with_moved(10, 9)
            .unwrap();
        let after = turn(before, [(2, "5"), (3, "5")], &mut rng(0));
        assert!(
            game()
                .render(&after, 0, RU)
                .ends_with(&format!("\n\nNichya.\n{HINT}"))
        );
        assert!(
            game()
                .render(&after, 2, Lang::En)
                .ends_with("\n\nDraw.\nPA - rematch. S nick text - message.")
        );
    }
}

mod refusals {
    use super::*;

    const CANNOT_MOVE: &str = "Vy ne mozhete peremestit svoego Igroka v dannom napravlenii";
    const TAKEN: &str = "Kletka na kotoruyu vy hoteli vstat zanyata";
    const NO_BALL: &str = "Vy ne mozhete peredvinut myach";

    #[test]
    fn the_three_original_errors_through_play() {
        let state = seed_opening();
        assert_eq!(refusal(&state, 0, "7").text(RU), CANNOT_MOVE);
        assert_eq!(refusal(&state, 1, "9").text(RU), CANNOT_MOVE);
        assert_eq!(refusal(&state, 0, "09").text(RU), NO_BALL);
        assert_eq!(refusal(&state, 0, "05").text(RU), NO_BALL);
        assert_eq!(refusal(&state, 0, "04").text(RU), NO_BALL); // (5,1) is two cells from the ball
        assert_eq!(refusal(&state, 0, "08").text(RU), NO_BALL); // off the field
        // Step onto the partner or an opponent, kick or push onto a player.
        let crowded =
            State::from_board(["..2..", "..*3.", "..01.", ".....", "....."], "AADD").unwrap();
        assert_eq!(refusal(&crowded, 0, "6").text(RU), TAKEN);
        assert_eq!(refusal(&crowded, 1, "2").text(RU), TAKEN);
        assert_eq!(refusal(&crowded, 0, "2").text(RU), TAKEN);
        assert_eq!(refusal(&crowded, 0, "06").text(RU), TAKEN);
        assert!(
            game().play(crowded, 1, &mv("1"), &mut rng(0)).is_ok(),
            "kick from (3,4) to (1,2) is free"
        );
        // A kick off the side of the field.
        let side =
            State::from_board([".....", "..2.3", "*0...", ".....", "...1."], "AADD").unwrap();
        assert_eq!(refusal(&side, 0, "4").text(RU), CANNOT_MOVE);
    }

    #[test]
    fn not_your_turn_and_not_in_match() {
        let state = seed_opening();
        assert_eq!(refusal(&state, 2, "5"), Refusal::NotYourTurn);
        assert_eq!(refusal(&state, 3, "8"), Refusal::NotYourTurn);
        assert_eq!(Refusal::NotYourTurn.text(RU), "Seichas xod protivnika.");
        assert_eq!(refusal(&state, 4, "5"), Refusal::NotInMatch);
        // After Attack's turn it is Attack that must wait.
        let state = turn(state, [(0, "5"), (1, "5")], &mut rng(0));
        assert_eq!(refusal(&state, 0, "5"), Refusal::NotYourTurn);
        assert!(game().play(state, 2, &Move::Stand, &mut rng(0)).is_ok());
    }

    #[test]
    fn finished_match_refuses_everything() {
        let over = resign(seed_opening(), 0);
        for seat in 0..4 {
            assert_eq!(refusal(&over, seat, "5"), Refusal::MatchOver);
        }
        assert_eq!(
            Refusal::MatchOver.text(Lang::En),
            "The match is already over."
        );
    }

    #[test]
    fn a_later_move_replaces_the_pending_one() {
        let mut rng = rng(3);
        let state = ok(seed_opening(), 0, "6", &mut rng).state;
        assert_eq!(state.pending(0), Some(mv("6")));
        let state = ok(state, 0, "3", &mut rng).state;
        assert_eq!(state.pending(0), Some(mv("3")));
        assert_eq!(game().status(&state), Status::Awaiting(vec![1]));
        // An illegal replacement is refused and the earlier move stays.
        assert_eq!(refusal(&state, 0, "7"), Refusal::CannotMove);
        let state = ok(state, 1, "2", &mut rng).state;
        assert_eq!(state.board().to_string(), "...23/...../...*./..01./.....");
    }

    #[test]
    fn moves_are_checked_against_the_start_of_turn_board() {
        // Seat 1 wants (4,3), the cell seat 0 is leaving: refused although
        // seat 0's step is already in.
        let state =
            State::from_board(["...23", ".....", "*....", "..0..", "...1."], "AADD").unwrap();
        let state = ok(state, 0, "2", &mut rng(0)).state;
        assert_eq!(refusal(&state, 1, "1"), Refusal::CellTaken);
    }
}

mod resolution {
    use super::*;

    #[test]
    fn fight_with_ricochet_one_and_zero() {
        let rows = [".....", "2...3", "..*1.", "..0..", "....."];
        for (ricochet, dist) in [(0.0, 1), (1.0, 2)] {
            for seed in 0..50 {
                let state = State::from_board(rows, "AADD")
                    .unwrap()
                    .with_settings(ricochet, 10)
                    .unwrap();
                let after = turn(state, [(0, "2"), (1, "02")], &mut rng(seed));
                assert_eq!(after.board().ball.distance(Cell::new(3, 3).unwrap()), dist);
                assert_eq!(after.board().players[0], Cell::new(3, 3).unwrap());
            }
        }
    }

    #[test]
    fn collision() {
        let state =
            State::from_board([".....", "2.*.3", ".....", ".0.1.", "....."], "AADD").unwrap();
        let after = turn(state, [(0, "3"), (1, "1")], &mut rng(4));
        let [a, b, ..] = after.board().players;
        assert_ne!(a, b);
        assert_eq!(after.board().to_string(), "...../21*.3/...../..0../.....");
    }

    #[test]
    fn player_meets_ball() {
        let state =
            State::from_board([".....", "2...3", "..*1.", "..0..", "....."], "AADD").unwrap();
        let after = turn(state, [(0, "2"), (1, "1")], &mut rng(2));
        assert_eq!(after.board().to_string(), "..*../2.1.3/..0../...../.....");
    }

    #[test]
    fn game_draws_only_when_the_rules_need_it() {
        use rand::RngCore;
        let mut a = rng(77);
        turn(seed_opening(), [(0, "3"), (1, "2")], &mut a);
        let mut fresh = rng(77);
        assert_eq!(a.next_u64(), fresh.next_u64(), "no draw for a plain turn");
    }
}

mod ending {
    use super::*;

    #[test]
    fn kick_onto_the_line_next_to_a_teammate_scores() {
        // Seat 0 kicks the ball from (2,3) onto (1,3), where seat 1 at (1,4) waits.
        let state =
            State::from_board(["...1.", "..*..", "2.0.3", ".....", "....."], "AADD").unwrap();
        let after = turn(state, [(0, "2"), (1, "5")], &mut rng(0));
        assert_eq!(after.result(), Some(Outcome::Won(ATTACK)));
        assert!(
            game()
                .render(&after, 1, RU)
                .ends_with(&format!("\n\nVi pobedili.\n{HINT}"))
        );
    }

    #[test]
    fn stepping_next_to_a_ball_on_the_line_scores() {
        let state =
            State::from_board(["*....", ".....", ".0..1", "....2", ".3..."], "AADD").unwrap();
        let state = turn(state, [(1, "4"), (0, "1")], &mut rng(0));
        assert_eq!(state.result(), Some(Outcome::Won(ATTACK)), "{state}");
    }

    #[test]
    fn a_team_can_score_on_the_other_teams_turn() {
        // Defense (seat 2) pushes the ball up onto row 1, next to attacker seat 0.
        let state = State::from_board(["0....", ".2*..", "....3", ".....", "...1."], "AADD")
            .unwrap()
            .with_moved(1, 0)
            .unwrap();
        let after = turn(state, [(2, "02"), (3, "5")], &mut rng(0));
        assert_eq!(after.board().ball, Cell::new(1, 2).unwrap());
        assert_eq!(after.result(), Some(Outcome::Won(ATTACK)));
    }

    #[test]
    fn ten_move_rule_all_three_outcomes() {
        let cases = [
            (
                ["..*..", "...2.", "0...1", "..3..", "....."],
                Outcome::Won(ATTACK),
            ),
            (
                [".....", "..*2.", "0...1", "..3..", "....."],
                Outcome::Won(ATTACK),
            ),
            ([".....", "...2.", "0.*.1", "..3..", "....."], Outcome::Draw),
            (
                [".....", "...2.", "0...1", "..3*.", "....."],
                Outcome::Won(DEFENSE),
            ),
            (
                [".....", "...2.", "0...1", "..3..", "....*"],
                Outcome::Won(DEFENSE),
            ),
        ];
        for (rows, want) in cases {
            let before = State::from_board(rows, "AADD")
                .unwrap()
                .with_moved(10, 9)
                .unwrap();
            assert_eq!(before.result(), None);
            let after = turn(before, [(2, "5"), (3, "5")], &mut rng(0));
            assert_eq!(after.result(), Some(want), "{rows:?}");
            assert_eq!(after.moved(), [10, 10]);
        }
    }

    #[test]
    fn the_clock_uses_the_matchs_own_max_rounds() {
        let before = State::from_board([".....", "..*2.", "0...1", "..3..", "....."], "AADD")
            .unwrap()
            .with_settings(0.25, 2)
            .unwrap()
            .with_moved(2, 1)
            .unwrap();
        let after = turn(before, [(2, "5"), (3, "5")], &mut rng(0));
        assert_eq!(after.result(), Some(Outcome::Won(ATTACK)));
    }

    #[test]
    fn resign_mid_turn() {
        let state = ok(seed_opening(), 0, "3", &mut rng(0)).state;
        let over = resign(state, 1);
        assert_eq!(over.result(), Some(Outcome::Won(DEFENSE)));
        assert_eq!(over.pending(0), None, "the pending move is dropped");
        assert_eq!(
            game().status(&over),
            Status::Finished(vec![
                Standing::place(2),
                Standing::place(2),
                Standing::place(1),
                Standing::place(1)
            ])
        );
        assert_eq!(over.to_string().parse::<State>().unwrap(), over);
        // Resigning again, or for the other side, changes nothing.
        assert_eq!(resign(over.clone(), 2), over);
        // Defense may resign on Attack's turn.
        assert_eq!(
            resign(seed_opening(), 3).result(),
            Some(Outcome::Won(ATTACK))
        );
        assert_eq!(resign(seed_opening(), 9), seed_opening());
    }
}

mod lifecycle {
    use super::*;

    #[test]
    fn start_draws_teams_and_places_them() {
        for seed in 0..100 {
            let state = game().start(&Options::Players, &mut rng(seed));
            assert_eq!(state.to_string().parse::<State>().unwrap(), state);
            assert_eq!(state.turn(), ATTACK);
            let attack = state.seats_of(ATTACK);
            assert_eq!(game().status(&state), Status::Awaiting(attack.to_vec()));
            for seat in 0..4 {
                let row = state.board().players[seat].row();
                assert_eq!(
                    row,
                    if Football::side_of(&state, seat) == ATTACK {
                        5
                    } else {
                        1
                    }
                );
            }
            assert_eq!(state.board().ball.row(), 4);
            assert_eq!((state.ricochet(), state.max_rounds()), (0.25, 10));
        }
        assert_eq!(
            game().start(&Options::Players, &mut rng(8)),
            game().start(&Options::Players, &mut rng(8))
        );
    }

    #[test]
    fn start_pins_the_draw_order() {
        assert_eq!(
            game().start(&Options::Players, &mut rng(1)).to_string(),
            START_SEED_1
        );
    }

    #[test]
    fn config_is_sanitised_and_copied_into_the_state() {
        let wild = Football {
            ricochet: 3.0,
            max_rounds: 0,
        };
        let state = wild.start(&Options::Players, &mut rng(1));
        assert_eq!((state.ricochet(), state.max_rounds()), (1.0, 1));
        let nan = Football {
            ricochet: f64::NAN,
            max_rounds: 4,
        };
        assert_eq!(nan.start(&Options::Players, &mut rng(1)).ricochet(), 0.25);
        assert_eq!(
            Football {
                ricochet: -1.0,
                max_rounds: 4
            }
            .start(&Options::Players, &mut rng(1))
            .ricochet(),
            0.0
        );
    }

    #[test]
    fn rematch_swaps_sides_and_keeps_settings() {
        let custom = Football {
            ricochet: 0.5,
            max_rounds: 6,
        };
        let first = custom.start(&Options::Players, &mut rng(12));
        let over = resign(first.clone(), 0);
        // A different config on the game object does not leak into the rematch.
        let again = game().rematch(&over, &Options::Players, &mut rng(13));
        assert_eq!((again.ricochet(), again.max_rounds()), (0.5, 6));
        for seat in 0..4 {
            assert_eq!(
                Football::side_of(&again, seat),
                1 - Football::side_of(&first, seat)
            );
        }
        assert_eq!(again.result(), None);
        assert_eq!(again.moved(), [0, 0]);
        assert_eq!(
            game().status(&again),
            Status::Awaiting(again.seats_of(ATTACK).to_vec())
        );
        assert_eq!(again.to_string().parse::<State>().unwrap(), again);
    }

    #[test]
    fn null_move_is_stand_and_always_legal() {
        let state = game().start(&Options::Players, &mut rng(5));
        for seat in state.seats_of(ATTACK) {
            assert_eq!(game().null_move(&state, seat), Some(Move::Stand));
        }
        let [a, b] = state.seats_of(ATTACK);
        let after = turn(state.clone(), [(a, "5"), (b, "5")], &mut rng(0));
        assert_eq!(after.board(), state.board());
        assert_eq!(after.turn(), DEFENSE);
    }

    use crate::GameOptions;

    #[test]
    fn trait_constants() {
        assert_eq!(Football::CODE, "FB");
        assert_eq!(Options::Players.lineup().seats(), 4);
        assert_eq!(
            Football::default(),
            Football {
                ricochet: 0.25,
                max_rounds: 10
            }
        );
        assert!(game().move_help(RU).contains("02 04 06 08"));
    }

    /// Pinned: `start`'s draw order is part of the replay format.
    const START_SEED_1: &str = "FB1 sides=DAAD board=3.0../...../...../.*.../.1.2. turn=A moved=0:0 pending=-,-,-,- result=- ricochet=0.25 rounds=10";
}
