//! Property tests: random races of 2 to 8 players (legal moves, junk moves,
//! null moves, withdrawals) checked at every step; the move search against
//! the step-by-step driver; parsers that never panic; round trips.

use std::collections::HashSet;

use proptest::prelude::*;

use super::car::Run;
use super::kit::*;
use super::path::drive;
use super::reach::outcomes;
use super::result::{car_points, placing};
use super::*;
use crate::Withdrawal;

/// Two cars never share a cell of the track, nor a lane of the finish line.
fn assert_cells(state: &State) {
    let mut cells = HashSet::new();
    let mut line = HashSet::new();
    for c in state.cars() {
        if c.on_track() {
            assert!(cells.insert((state.track().sector(c.d), c.lane)), "{state}");
        }
        if matches!(c.run, Run::OnLine(_)) {
            assert!(line.insert(c.lane), "{state}");
        }
    }
}

fn assert_sound(state: &State) {
    state.check().unwrap_or_else(|e| panic!("{state}: {e}"));
    assert_cells(state);
    let text = state.to_string();
    assert_eq!(text.parse::<State>().as_ref(), Ok(state), "{text}");
    match game().status(state) {
        Status::Awaiting(seats) => {
            assert_eq!(seats.len(), 1);
            let car = state.to_move().expect("a car to move");
            assert_eq!(seats[0], state.owner(car));
        }
        Status::Finished(standings) => {
            assert!(state.over());
            assert_eq!(standings.len(), state.seats());
        }
    }
}

/// The search and the step-by-step driver agree on every found path, and a
/// random path is accepted exactly when the search found its outcome.
fn assert_search_agrees(state: &State, junk: &[u8]) {
    let Some(car) = state.to_move() else { return };
    let found = outcomes(state, car);
    let mut keys = HashSet::new();
    for o in &found {
        assert_eq!(
            drive(state, car, &o.steps).as_ref(),
            Ok(&o.drive),
            "{state}"
        );
        let mut knocked = o.drive.knocked.clone();
        knocked.sort_unstable();
        assert!(keys.insert((o.drive.d, o.drive.lane, o.drive.length, knocked)));
    }
    let steps: Vec<Step> = junk
        .iter()
        .map(|b| [Step::Forward, Step::Forward, Step::Inner, Step::Outer][usize::from(b % 4)])
        .collect();
    for end in 1..=steps.len() {
        if let Ok(d) = drive(state, car, &steps[..end]) {
            let mut knocked = d.knocked.clone();
            knocked.sort_unstable();
            assert!(keys.contains(&(d.d, d.lane, d.length, knocked)), "{state}");
        }
    }
}

/// Plays one event chosen by `c`; refusals must change nothing.
fn event(state: State, c: u32) -> State {
    let seats = state.seats();
    if c.is_multiple_of(97) {
        let why = if c.is_multiple_of(2) {
            Withdrawal::Resigned
        } else {
            Withdrawal::Absent
        };
        return game().withdraw(state, (c / 97) as usize % seats, why, &[false; 8]);
    }
    let on_turn = seat_on_turn(&state);
    let text = if c.is_multiple_of(7) {
        let letters = [
            "F", "I", "O", "N", "FF", "OF", "IF", "0", "5", "FIO", "FFFFFFF", "12",
        ];
        letters[(c / 7) as usize % letters.len()].to_string()
    } else if c.is_multiple_of(5) {
        game()
            .null_move(&state, on_turn)
            .expect("on turn")
            .to_string()
    } else {
        let legal = game().legal_moves(&state, on_turn);
        legal[c as usize % legal.len()].to_string()
    };
    let seat = if c.is_multiple_of(11) {
        (c / 11) as usize % seats
    } else {
        on_turn
    };
    let mut r = rng(u64::from(c));
    let before = r.clone();
    match game().play(state.clone(), seat, &mv(&text), &mut r) {
        Ok(played) => {
            assert_eq!(seat, on_turn, "only the seat on turn moves");
            played.state
        }
        Err(refused) => {
            assert_eq!(refused.state, state, "a refusal changes nothing");
            assert_eq!(r, before, "a refusal draws nothing");
            refused.state
        }
    }
}

/// A bound on a race's moves: every round some car moves forward, or the
/// braking rule takes a car out within three.
fn move_bound(state: &State) -> usize {
    let cars = state.cars().len();
    let forward = cars * (state.finish() as usize + cars);
    (forward + 3 * cars + 1) * cars
}

fn run_race(options: &Options, seed: u64, steering: &[u32]) {
    let mut state = game().start(options, &mut rng(seed));
    assert_sound(&state);
    let bound = move_bound(&state);
    let mut steering = steering.iter().copied();
    for step in 0.. {
        if state.over() {
            break;
        }
        assert!(step < bound, "the race does not end: {state}");
        let before = state.clone();
        let c = steering.next().unwrap_or(5);
        if step % 13 == 0 {
            assert_search_agrees(&state, &c.to_le_bytes());
        }
        state = event(state, c);
        for (old, new) in before.cars().iter().zip(state.cars()) {
            assert!(new.d >= old.d, "no car drives backwards");
            if !old.in_race() {
                assert_eq!(old, new, "a car that left stays out");
            }
        }
        assert_sound(&state);
    }
    let mut placed = placing(&state);
    let players = state.seats();
    let points: u32 = (1..=placed.len()).map(|p| car_points(players, p)).sum();
    placed.sort_unstable();
    assert_eq!(
        placed,
        (0..state.cars().len()).collect::<Vec<_>>(),
        "every car placed once"
    );
    let Status::Finished(standings) = game().status(&state) else {
        unreachable!()
    };
    let per_side: i64 = if state.team_variant() { 2 } else { 1 };
    let total: i64 = standings.iter().filter_map(|s| s.score).sum();
    assert_eq!(total, i64::from(points) * per_side, "points add up");
    assert!(standings.iter().all(|s| usize::from(s.place) <= players));
}

fn options_strategy() -> impl Strategy<Value = Options> {
    (
        2u8..=8,
        any::<bool>(),
        1u8..=2,
        0usize..4,
        proptest::option::of(1u8..=3),
    )
        .prop_map(|(players, team, laps, track, robots)| Options {
            players,
            robots,
            humans: 1,
            team: team && players % 2 == 0 && players >= 4,
            laps: Some(laps),
            track: ["RING", "ZIGZAG", "GORGE", "NOSUCH"]
                .get(track)
                .map(|t| t.to_string()),
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn random_races_keep_the_rules(
        options in options_strategy(),
        seed in any::<u64>(),
        steering in proptest::collection::vec(any::<u32>(), 0..600),
    ) {
        run_race(&options, seed, &steering);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn parsers_never_panic(text in "\\PC{0,80}") {
        let _ = text.parse::<Move>();
        let _ = text.parse::<Options>();
        let _ = text.parse::<State>();
        let _ = text.parse::<Track>();
        let _ = Track::from_compact(&text);
    }

    #[test]
    fn state_parser_survives_mutations(seed in any::<u64>(), at in any::<usize>(), c in any::<char>()) {
        let options: Options = "4".parse().unwrap();
        let text = game().start(&options, &mut rng(seed)).to_string();
        let mut chars: Vec<char> = text.chars().collect();
        let at = at % chars.len();
        let mut mutated = chars.clone();
        mutated[at] = c;
        let _ = mutated.iter().collect::<String>().parse::<State>();
        chars.remove(at);
        let _ = chars.iter().collect::<String>().parse::<State>();
    }

    #[test]
    fn moves_round_trip(steps in proptest::collection::vec(0u8..4, 1..64), n in 0u8..100) {
        let path = Move::Path(steps.iter().map(|&s| [Step::Forward, Step::Inner, Step::Outer, Step::Back][usize::from(s)]).collect());
        let number = if n == 0 { Move::Zero } else { Move::Straight(n) };
        for m in [path, number] {
            prop_assert_eq!(m.to_string().parse::<Move>(), Ok(m));
        }
    }

    #[test]
    fn options_round_trip(options in options_strategy(), text in "[ 0-9A-Za-z]{0,20}") {
        prop_assert_eq!(options.to_string().parse::<Options>(), Ok(options));
        if let Ok(parsed) = text.parse::<Options>() {
            prop_assert_eq!(parsed.to_string().parse::<Options>(), Ok(parsed));
        }
    }

    #[test]
    fn tracks_round_trip(segments in proptest::collection::vec((1u16..60, any::<bool>(), 1u8..7), 1..8)) {
        let segments: Vec<track::Segment> = segments
            .into_iter()
            .map(|(sectors, right, lanes)| track::Segment {
                sectors,
                inner: if right { track::Inner::Right } else { track::Inner::Left },
                lanes,
            })
            .collect();
        if let Ok(t) = Track::new("T1", segments) {
            prop_assert_eq!(t.to_string().parse::<Track>(), Ok(t.clone()));
            prop_assert_eq!(Track::from_compact(&t.compact()), Ok(t));
        }
    }
}
