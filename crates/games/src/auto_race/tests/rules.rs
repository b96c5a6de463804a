//! One table per rule of the original, 2 to 8: the start, the order, the
//! directions, the allowances, sideways steps, the zero move. Each builds a
//! small race and checks what the rule says. Rules 9-17 are in `rules_race.rs`.
//! Cars are written `letter=d.lane` (sectors from the line, lane; the ring's
//! lane 1 is the inner one).

use super::car::{Run, Why};
use super::kit::*;
use super::*;

/// Rule 2: all on lane 4 in one file, one car of each player in lot order,
/// then the second cars in the same order; the lot is random.
#[test]
fn rule_2_start_grid_by_lot() {
    let mut lots = std::collections::HashSet::new();
    for (players, seeds) in [(2, 0..20), (3, 0..200), (8, 0..20)] {
        for seed in seeds {
            let options: Options = players.to_string().parse().unwrap();
            let state = game().start(&options, &mut rng(seed));
            let mut cars: Vec<CarId> = (0..state.cars().len()).collect();
            cars.sort_by_key(|&c| -state.cars()[c].d);
            let file: String = cars.iter().map(|&c| car::letter(c, 2)).collect();
            let lot: String = state.grid.iter().map(|&s| car::seat_letter(s)).collect();
            assert_eq!(file, format!("{lot}{}", lot.to_lowercase()), "seed {seed}");
            for (i, &c) in cars.iter().enumerate() {
                assert_eq!(state.cars()[c].d, -(i as i32));
                assert_eq!(state.logical_lane(c), 4);
            }
            assert_eq!(
                order_text(&state).1,
                file.chars().next(),
                "the front car leads"
            );
            if players == 3 {
                lots.insert(lot);
            }
        }
    }
    assert_eq!(lots.len(), 6, "every lot of three players comes up");
    let team = game().start(&"4 TEAM".parse().unwrap(), &mut rng(1));
    assert_eq!(team.cars().len(), 4);
    assert!(team.cars().iter().all(|c| c.lane == 4 && c.d <= 0));
}

/// Rule 3.1: leader first; of two level cars the inner one is ahead; the
/// order is fixed at the start of the round.
#[test]
fn rule_3_1_race_order() {
    for (cars, order) in [
        ("A=10.2 a=3.4 B=12.4 b=10.1", "BbAa"),
        ("A=5.4 a=5.3 B=5.2 b=5.1", "bBaA"),
        ("A=0.4 a=-2.4 B=-1.4 b=-3.4", "ABab"),
        ("A=20.1 a=19.1 B=18.1 b=17.1", "AaBb"),
    ] {
        assert_eq!(order_text(&race(2, 2, cars)).0, order, "{cars}");
    }
    // A overtakes the leader B during the round; the order stays until the round ends.
    let state = race(2, 2, "A=10.1 a=0.4 B=11.2 b=1.4");
    assert_eq!(order_text(&state), ("BAba".into(), Some('B')));
    let state = ok(state, "F");
    let state = ok(state, "FFF");
    assert!(state.cars()[car_of(&state, 'A')].d > state.cars()[car_of(&state, 'B')].d);
    assert_eq!(order_text(&state), ("BAba".into(), Some('b')));
    let state = ok(ok(state, "F"), "F");
    assert_eq!(order_text(&state), ("ABba".into(), Some('A')));
    assert_eq!(state.round(), 2);
}

/// Rule 3.2: forward and sideways onto free cells only; no diagonal, no
/// backwards, no taken cell, no cell twice.
#[test]
fn rule_3_2_directions() {
    let state = race(2, 2, "A=10.2 a=3.4 B=9.2 b=11.2");
    let state = turn_of(state, 'A', 6);
    for (path, reason) in [
        ("N", "Step 1: cars may not drive backwards."),
        (
            "FFN",
            "Step 1 (F): the cell on lane 2, 1 ahead, is taken by car b.",
        ),
        ("IFN", "Step 3: cars may not drive backwards."),
        (
            "IO",
            "Step 2 (O): the path was on that cell already; no cell twice in a move.",
        ),
        (
            "OI",
            "Step 2 (I): the path was on that cell already; no cell twice in a move.",
        ),
        (
            "III",
            "Step 2 (I): the car is on lane 1 already, no lane is further in.",
        ),
        (
            "OOF",
            "Step 3 (F): the move would be 7 long; allowed 1 to 6, bonus 0.",
        ),
        (
            "OOO",
            "Step 3 (O): the car is on lane 4 already, no lane is further out.",
        ),
        (
            "F",
            "Step 1 (F): the cell on lane 2, 1 ahead, is taken by car b.",
        ),
        (
            "0",
            "0 is only for a car that cannot move. You can, e.g. IF.",
        ),
    ] {
        assert_eq!(refused(&state, path), reason, "{path}");
    }
    // A diagonal is two steps, and its middle cell must be free: FI goes
    // through b's cell, IF round it.
    assert!(refused(&state, "FI").contains("taken by car b"));
    let after = ok(state.clone(), "IF");
    let a = after.cars()[car_of(&after, 'A')];
    assert_eq!((a.d, a.lane), (11, 1));
    let off = turn_of(race(2, 2, "A=10.4 a=3.4 B=9.2 b=11.2"), 'A', 6);
    assert_eq!(
        refused(&off, "O"),
        "Step 1 (O): the car is on lane 4 already, no lane is further out."
    );
}

/// Rule 4: the leader moves 1 to 4.
#[test]
fn rule_4_leader_one_to_four() {
    let state = race(2, 2, "A=10.2 a=3.4 B=9.2 b=1.4");
    for path in ["F", "2", "3", "4", "FFFF", "IFFF", "OF", "FIFF"] {
        ok(state.clone(), path);
    }
    for (path, step) in [("5", 5), ("FFFFF", 5), ("OFF", 3), ("IFFFF", 5)] {
        assert_eq!(
            refused(&state, path),
            format!("Step {step} (F): the move would be 5 long; allowed 1 to 4, bonus 0."),
            "{path}"
        );
    }
}

/// Rule 5: the second car moves 1 to the leader's length + 2.
#[test]
fn rule_5_second_car_leader_plus_two() {
    let start = race(2, 2, "A=20.2 a=3.4 B=10.2 b=1.4");
    for (leader, longest) in [
        ("F", 3),
        ("2", 4),
        ("FFF", 5),
        ("4", 6),
        ("OF", 6),
        ("IF", 4),
    ] {
        let state = ok(start.clone(), leader);
        assert_eq!(state.allowance(), longest, "after {leader}");
        ok(state.clone(), &longest.to_string());
        let too_far = (longest + 1).to_string();
        assert!(refused(&state, &too_far).contains(&format!("allowed 1 to {longest}")));
    }
}

/// Rule 6: every later car moves 1 to the previous car's length + 1.
#[test]
fn rule_6_later_cars_previous_plus_one() {
    let state = race(3, 2, "A=30.2 a=20.2 B=25.2 b=8.2 C=10.2 c=5.2");
    assert_eq!(order_text(&state).0, "ABaCbc");
    let mut state = state;
    for (path, next_allow) in [("2", 4), ("F", 2), ("2", 3), ("3", 4), ("OF", 5)] {
        state = ok(state, path);
        assert_eq!(state.allowance(), next_allow, "after {path}");
    }
    assert!(refused(&state, "6").contains("allowed 1 to 5"));
    let state = ok(state, "5");
    assert_eq!(state.round(), 2);
    assert_eq!(
        state.allowance(),
        4,
        "a new round starts with the leader's 4"
    );
}

/// Rule 7: a step outwards counts 3, a step inwards 1.
#[test]
fn rule_7_sideways_lengths() {
    let state = turn_of(race(2, 2, "A=10.2 a=3.4 B=12.4 b=1.4"), 'A', 6);
    for (path, length) in [
        ("I", 1),
        ("O", 3),
        ("IF", 2),
        ("OF", 4),
        ("FOF", 5),
        ("OFIF", 6),
        ("OI", 0),
    ] {
        if length == 0 {
            assert!(refused(&state, path).contains("cell twice"), "{path}");
            continue;
        }
        let after = ok(state.clone(), path);
        assert_eq!(after.allowance(), length + 1, "{path} is {length} long");
    }
    assert!(refused(&state, "OOF").contains("the move would be 7 long"));
    assert!(refused(&state, "IFOFF").contains("Step 5 (F): the move would be 7 long"));
}

/// Rule 8: a car that cannot move even one step makes the zero move, stays
/// until the round ends, then leaves.
#[test]
fn rule_8_zero_move() {
    // A is on lane 1 with B ahead and b beside it: nowhere to go.
    let boxed = turn_of(race(2, 2, "A=10.1 a=0.4 B=11.1 b=10.2"), 'A', 6);
    let seat = seat_on_turn(&boxed);
    assert_eq!(game().legal_moves(&boxed, seat), vec![Move::Zero]);
    assert_eq!(game().null_move(&boxed, seat), Some(Move::Zero));
    assert!(refused(&boxed, "F").contains("taken by car B"));
    assert!(refused(&boxed, "O").contains("taken by car b"));
    let state = ok(boxed, "0");
    let a = car_of(&state, 'A');
    assert_eq!(state.cars()[a].run, Run::Zero);
    assert_eq!(
        state.occupant(10, 1),
        Some(a),
        "it stays on its cell for the round"
    );
    assert_eq!(state.allowance(), 1, "the next car may move 0 + 1");
    let state = ok(ok(state, "F"), "F");
    assert_eq!(state.cars()[a].run, Run::Out(1, Why::Zero));
    assert_eq!(state.occupant(10, 1), None);
    // Too short an allowance boxes in too: the way out, O, is 3 long.
    for (allow, legal) in [(2, false), (3, true)] {
        let state = turn_of(race(2, 2, "A=10.1 a=0.4 B=11.1 b=5.2"), 'A', allow);
        let moves = game().legal_moves(&state, seat_on_turn(&state));
        assert_eq!(moves != vec![Move::Zero], legal, "allowance {allow}");
    }
    // A car that can move may not declare zero; the deadline drives it forward.
    let free = race(2, 2, "A=10.1 a=0.4 B=5.1 b=5.2");
    assert!(refused(&free, "0").contains("You can, e.g. F."));
    assert_eq!(game().null_move(&free, 0), Some(mv("F")));
    assert_eq!(game().null_move(&free, 1), None, "not B's turn");
}
