//! Game-level tests: track files, the state string, turns and effects,
//! withdrawals, texts and their length, history.

use super::car::{Run, Why};
use super::*;
use crate::{Effect, Reason, Standing, Withdrawal};
use kit::*;

pub(super) mod kit;
mod props;
mod rendering;
mod robots;
mod rules;
mod rules_race;

mod tracks {
    use super::*;

    #[test]
    fn shipped_files_parse() {
        let tracks = builtin::tracks();
        let names: Vec<&str> = tracks.iter().map(Track::name).collect();
        assert_eq!(names, ["RING", "ZIGZAG", "GORGE"]);
        assert_eq!(tracks[0], Track::ring(30));
        assert!(!tracks[0].turns_both_ways());
        assert_eq!(tracks[1].sectors(), 36);
        assert_eq!(tracks[1].segments().len(), 4);
        assert!(
            tracks[1].turns_both_ways(),
            "rule 17: turns in both directions"
        );
        assert!(!tracks[1].changes_width());
        let gorge = &tracks[2];
        assert!(gorge.changes_width(), "rule 17: a width that changes");
        assert_eq!((gorge.sectors(), gorge.frame()), (40, 4));
        let widths: Vec<u8> = [0, 12, 17, 20, 25].map(|d| gorge.width(d)).into();
        assert_eq!(widths, [4, 3, 2, 3, 4]);
    }

    #[test]
    fn a_narrower_segment_loses_its_outer_lanes() {
        let gorge = &builtin::tracks()[2];
        // Turning left, lane 1 is the left lane and the right ones end.
        let road = |d: i32| -> Vec<u8> {
            (1..=4)
                .filter(|&lane| gorge.exists(d, lane))
                .map(|lane| gorge.logical(d, lane))
                .collect()
        };
        assert_eq!(road(12), [1, 2, 3], "physical lanes 1-3");
        assert_eq!(road(17), [1, 2]);
        assert!(!gorge.exists(17, 3) && gorge.exists(17, 2));
        // Turning right, lane 1 is the right lane and the left ones end.
        assert!(!gorge.exists(20, 1) && gorge.exists(20, 2) && gorge.exists(20, 4));
        assert_eq!(gorge.logical(20, 4), 1);
        assert_eq!(gorge.logical(20, 2), 3);
        assert_eq!(road(20), [3, 2, 1]);
    }

    #[test]
    fn display_and_compact_round_trip() {
        for track in builtin::tracks() {
            let text = track.to_string();
            assert_eq!(text.parse::<Track>().as_ref(), Ok(track), "{text}");
            assert_eq!(Track::from_compact(&track.compact()).as_ref(), Ok(track));
        }
        assert_eq!(builtin::tracks()[1].compact(), "ZIGZAG:9L,9R,9L,9R");
        assert_eq!(builtin::tracks()[2].compact(), "GORGE:12L,5L3,3L2,5R3,15R");
        let relaxed = "TRACK oval # a comment\n\n  Segment 20 L\nsegment 12 RIGHT # more\n";
        let oval: Track = relaxed.parse().unwrap();
        assert_eq!(oval.name(), "OVAL");
        assert_eq!(oval.compact(), "OVAL:20L,12R");
        for bad in [
            "RING",
            "RING:",
            "ring:30L",
            "RING:30X",
            "RING:030L",
            "RING:10L",
            "RING:30L,",
            "RING:30L4",
            "RING:30L1",
            "RING:30L6",
            "RING:30L03",
            "RING:30LR",
        ] {
            assert!(Track::from_compact(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn broken_files_name_the_line() {
        let cases = [
            ("", "no 'track NAME' line"),
            ("# only a comment\n", "no 'track NAME' line"),
            ("track RING\n", "line 1: the track has no segments"),
            (
                "track RING\nsegment 30 lfet\n",
                "line 2: inner side \"lfet\" is neither left nor right",
            ),
            (
                "# ring\ntrack RING\n\nsegmnet 30 left\n",
                "line 4: unknown word \"segmnet\" (expected 'track' or 'segment')",
            ),
            (
                "track RING\nsegment 0 left\n",
                "line 2: length \"0\" is not a number of sectors (1-200)",
            ),
            (
                "track RING\nsegment 300 left\n",
                "line 2: length \"300\" is not a number of sectors (1-200)",
            ),
            (
                "track RING\nsegment 30 left 6\n",
                "line 2: width \"6\" is not a number of lanes (2-5)",
            ),
            (
                "track RING\nsegment 30 left 4 wide\n",
                "line 2: expected 'segment LENGTH left|right [LANES]'",
            ),
            (
                "track RING\nsegment 10 left\nsegment 5 right\n",
                "line 3: the segments make a lap of 15 sectors; a lap has 30 to 200",
            ),
            (
                "segment 30 left\ntrack RING\n",
                "line 1: a 'segment' before the 'track NAME' line",
            ),
            (
                "track R\nsegment 30 left\n",
                "line 1: track name \"R\" must be 2 to 12 Latin letters or digits",
            ),
            (
                "track RING\ntrack OVAL\nsegment 30 left\n",
                "line 2: a second 'track' line; a file holds one track",
            ),
            (
                "track RING\nsegment 30\n",
                "line 2: expected 'segment LENGTH left|right [LANES]'",
            ),
            (
                "track RING\nsegment 30 left now\n",
                "line 2: width \"now\" is not a number of lanes (2-5)",
            ),
            ("track\n", "line 1: expected 'track NAME'"),
        ];
        for (text, message) in cases {
            let err = text.parse::<Track>().unwrap_err();
            assert_eq!(err.to_string(), message, "{text:?}");
        }
    }

    #[test]
    fn the_platform_hands_its_tracks_to_the_game() {
        let oval: Track = "track OVAL\nsegment 40 left\n".parse().unwrap();
        let game = AutoRace::new(vec![oval.clone()]);
        let state = game.start(&"3 OVAL".parse().unwrap(), &mut rng(1));
        assert_eq!(state.track(), &oval);
        // An unknown name races on the default track, which the state records.
        let state = game.start(&"3 NOSUCH".parse().unwrap(), &mut rng(1));
        assert_eq!(state.track().name(), "OVAL");
        assert_eq!(
            AutoRace::new(Vec::new())
                .start(&Options::default(), &mut rng(1))
                .track(),
            &ring()
        );
        assert!(game.options_help(Lang::En).ends_with("[OVAL]"));
    }
}

mod state_string {
    use super::*;

    /// The example of `notation.rs`'s documentation.
    const EXAMPLE: &str = "AR1 track=RING:30L laps=2 robots=.2 teams=- grid=BA race=1 prior=0,0 round=1 order=BAba turn=0 allow=4 moved=0 still=0 fwd=0 awarded=0 cars=-1.4,-3.4,0.4,-2.4 last=-";

    #[test]
    fn the_documented_example_round_trips() {
        let state: State = EXAMPLE.parse().unwrap();
        assert_eq!(state.to_string(), EXAMPLE);
        let options: Options = "BOT".parse().unwrap();
        let started = (0..50)
            .map(|seed| game().start(&options, &mut rng(seed)))
            .find(|s| s.grid == [1, 0])
            .unwrap();
        assert_eq!(started, state);
    }

    #[test]
    fn started_races_round_trip() {
        for options in [
            "2",
            "3 BOT 3",
            "8",
            "4 TEAM",
            "8 TEAM ZIGZAG",
            "5 L9",
            "6 BOT 1 KOM",
        ] {
            let state = game().start(&options.parse().unwrap(), &mut rng(11));
            let text = state.to_string();
            assert!(text.is_ascii() && !text.contains('\n'));
            assert_eq!(text.parse::<State>().as_ref(), Ok(&state), "{options}");
        }
    }

    #[test]
    fn malformed_and_impossible_states_are_refused() {
        let swap = |from: &str, to: &str| {
            assert!(EXAMPLE.contains(from), "{from}");
            EXAMPLE.replacen(from, to, 1)
        };
        let cases = [
            ("".to_string(), "empty"),
            (swap("AR1", "AR2"), "tag"),
            (format!("{EXAMPLE} "), "trailing space"),
            (swap(" last=-", ""), "missing field"),
            (swap("laps=2", "laps=02"), "non-canonical number"),
            (swap("laps=2", "laps=0"), "no laps"),
            (swap("robots=.2", "robots=.4"), "robot level"),
            (swap("robots=.2", "robots=."), "one seat"),
            (swap("teams=-", "teams=01"), "teams of one"),
            (swap("grid=BA", "grid=BB"), "grid repeats"),
            (swap("grid=BA", "grid=BC"), "grid names no seat"),
            (swap("prior=0,0", "prior=0"), "prior per seat"),
            (swap("round=1", "round=0"), "round 0"),
            (swap("order=BAba", "order=BAbb"), "order repeats"),
            (swap("order=BAba", "order=BAb"), "order misses a racing car"),
            (swap("turn=0", "turn=4"), "turn past the order"),
            (swap("allow=4", "allow=5"), "leader's allowance"),
            (swap("still=0", "still=3"), "braking count"),
            (swap("fwd=0", "fwd=1"), "forward before any move"),
            (swap("awarded=0", "awarded=2"), "lap awards"),
            (swap("cars=-1.4", "cars=-1.5"), "lane 5"),
            (swap("cars=-1.4", "cars=-2.4"), "two cars on a cell"),
            (swap("cars=-1.4", "cars=-1.4+3@1"), "a bonus on the grid"),
            (swap("cars=-1.4", "cars=-1.4f1"), "finished off the line"),
            (swap("cars=-1.4", "cars=-1.4x2z"), "retirements start at 1"),
            (swap("cars=-1.4", "cars=-1.4c1"), "classified while racing"),
            (swap("cars=-1.4", "cars=-1.4q"), "unknown status"),
            (swap("cars=-1.4", "cars=-1.4,3.3"), "a car too many"),
            (swap("last=-", "last=Z:F"), "last names no car"),
            (swap("last=-", "last=A:04"), "last not canonical"),
            (swap("track=RING:30L", "track=RING:20L"), "track too short"),
        ];
        for (text, why) in cases {
            assert!(text.parse::<State>().is_err(), "{why}: {text}");
        }
        let zero_not_before: String = swap("cars=-1.4", "cars=-1.4z");
        assert!(
            zero_not_before.parse::<State>().is_err(),
            "zero move after the turn"
        );
    }
}

mod turns {
    use super::*;

    #[test]
    fn only_the_seat_of_the_next_car_may_move() {
        let state = race(3, 2, "A=10.2 a=3.4 B=12.2 b=1.4 C=9.1 c=2.2");
        assert_eq!(game().status(&state), Status::Awaiting(vec![1]));
        assert_eq!(
            refused_for(&state, 0, "F"),
            "It is not your turn: car B moves now."
        );
        assert_eq!(refused_for(&state, 9, "F"), "You are not in this race.");
        assert!(game().legal_moves(&state, 0).is_empty());
        assert!(!game().legal_moves(&state, 1).is_empty());
        let ru = game()
            .play(state.clone(), 2, &mv("F"), &mut rng(1))
            .unwrap_err()
            .reason
            .text(Lang::Ru);
        assert_eq!(ru, "Seichas ne vash xod: edet mashina B.");
    }

    #[test]
    fn a_seat_moving_twice_in_a_row_continues() {
        // Order B b A a: after B, b is B's too.
        let state = race(2, 2, "A=10.2 a=3.4 B=12.2 b=11.1");
        let (state, effect) = ok_effect(state, "F");
        assert_eq!(effect, Effect::Continues);
        let (state, effect) = ok_effect(state, "F");
        assert_eq!(effect, Effect::Resolved);
        assert_eq!(game().status(&state), Status::Awaiting(vec![0]));
        assert_eq!(state.last(), Some(&(car_of(&state, 'b'), mv("F"))));
        assert!(game().render(&state, 0, Lang::En).contains("Last: b F."));
    }

    #[test]
    fn a_finished_race_refuses_moves() {
        let over = race(2, 1, "A=30.1f1 a=30.2f2 B=30.3f3 b=30.4f4");
        assert_eq!(refused_for(&over, 0, "F"), "The race is over.");
        assert!(game().legal_moves(&over, 0).is_empty());
        assert_eq!(game().null_move(&over, 0), None);
        assert_eq!(
            game().status(&over),
            Status::Finished(vec![
                Standing {
                    place: 1,
                    score: Some(15)
                },
                Standing {
                    place: 2,
                    score: Some(7)
                },
            ])
        );
    }
}

mod withdrawals {
    use super::*;

    fn leave(state: State, seat: usize) -> State {
        game().withdraw(state, seat, Withdrawal::Resigned, &[false; 8])
    }

    #[test]
    fn the_race_goes_on_without_the_seat() {
        let state = race(3, 2, "A=10.2 a=3.4 B=12.2 b=1.4 C=9.1 c=2.2");
        assert_eq!(order_text(&state).1, Some('B'));
        let state = leave(state, 1);
        let (b, small_b) = (car_of(&state, 'B'), car_of(&state, 'b'));
        assert!(matches!(state.cars()[b].run, Run::Out(_, Why::Withdrawn)));
        assert!(matches!(
            state.cars()[small_b].run,
            Run::Out(_, Why::Withdrawn)
        ));
        assert_eq!(order_text(&state).1, Some('A'), "the turn passes on");
        assert_eq!(state.allowance(), 4, "nobody moved: A leads the round");
        let state = ok(state, "F");
        assert_eq!(game().status(&state), Status::Awaiting(vec![2]));
        let again = leave(state.clone(), 1);
        assert_eq!(again, state, "a seat out of the race withdraws once");
    }

    #[test]
    fn with_one_side_left_the_race_stops() {
        let state = race(2, 2, "A=10.2 a=3.4 B=12.2 b=1.4");
        let state = game().withdraw(state, 1, Withdrawal::Absent, &[false, true]);
        assert!(state.over());
        assert_eq!(state.cars()[car_of(&state, 'A')].run, Run::Classified(1));
        assert_eq!(state.cars()[car_of(&state, 'a')].run, Run::Classified(2));
        let Status::Finished(standings) = game().status(&state) else {
            panic!("over")
        };
        assert_eq!(standings[0].place, 1);
        assert_eq!(standings[1].place, 2);
        assert_eq!(leave(state.clone(), 0), state, "nothing follows the end");
    }

    #[test]
    fn finishers_keep_their_places() {
        let state = turn_of(
            race(3, 1, "A=30.1L1 a=3.4 B=12.2 b=1.4 C=9.1 c=2.2"),
            'B',
            3,
        );
        let state = leave(state, 0);
        assert_eq!(state.cars()[car_of(&state, 'A')].run, Run::OnLine(1));
        assert!(matches!(
            state.cars()[car_of(&state, 'a')].run,
            Run::Out(1, Why::Withdrawn)
        ));
    }

    #[test]
    fn robots_race_on_to_the_end_when_no_phone_does() {
        let options: Options = "3 BOT".parse().unwrap();
        let state = game().start(&options, &mut rng(2));
        let mut state = leave(state, 0);
        assert!(!state.over(), "two robots still race: the race goes on");
        let mut generator = rng(3);
        for _ in 0..2_000 {
            let Some(car) = state.to_move() else { break };
            let seat = state.owner(car);
            let mv = game().robot_move(&state, seat, 1, &Budget::nodes(200), &mut generator);
            state = game()
                .play(state, seat, &mv, &mut generator)
                .unwrap_or_else(|r| panic!("{:?}", r.reason))
                .state;
        }
        assert!(state.over(), "the robots finished the race");
        assert!(
            state
                .cars()
                .iter()
                .any(|c| matches!(c.run, Run::Finished(_))),
            "run to its end, not classified mid-round"
        );
        let Status::Finished(standings) = game().status(&state) else {
            panic!("over")
        };
        assert_eq!(standings[0].place, 3, "the player who left is last");
        // Rule 16: one race is won by the player whose car came first,
        // whatever the points say.
        let first = super::super::result::placing(&state)[0];
        assert_eq!(standings[state.owner(first)].place, 1, "{standings:?}");
    }
}

mod history {
    use super::*;
    use crate::{HistoryEntry, Recorded};

    #[test]
    fn each_move_names_its_car() {
        let opening = race(2, 2, "A=10.2 a=3.4 B=12.2 b=11.1");
        let first = ok(opening.clone(), "F");
        let second = ok(first.clone(), "2");
        let left = game().withdraw(second.clone(), 0, Withdrawal::Resigned, &[false; 2]);
        let entries = [
            HistoryEntry {
                name: "",
                seat: 1,
                what: Recorded::Move(mv("F")),
                after: &first,
            },
            HistoryEntry {
                name: "",
                seat: 1,
                what: Recorded::Null(mv("2")),
                after: &second,
            },
            HistoryEntry {
                name: "",
                seat: 0,
                what: Recorded::Withdrawal(Withdrawal::Resigned),
                after: &left,
            },
        ];
        let round = opening.round();
        assert_eq!(
            game().history(&opening, &entries, Lang::En),
            format!("R{round} B:F b:2* A:Q")
        );
    }
}
