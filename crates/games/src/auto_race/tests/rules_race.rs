//! One table per rule of the original, 9 to 17: braking, the finish, the
//! distance, the lap bonus, lapped cars, back-markers, retired cars' places,
//! points and series, and tracks that turn both ways.

use super::car::{Run, Why};
use super::kit::*;
use super::result::{car_points, placing, race_points, standings};
use super::*;
use crate::{Game, Standing};

/// Three players with one car each left (the others retired at the start).
const THREE_LEFT: &str = "A=10.2 a=0.4x1z B=9.2 b=0.3x2z C=8.2 c=0.2x3z";

/// Rule 9: three rounds in a row without a step forward take the leader out.
#[test]
fn rule_9_braking() {
    for (still, moves, leader_out) in [
        (2, ["I", "I", "I"], true),
        (1, ["I", "I", "I"], false),
        (2, ["I", "F", "I"], false),
        (0, ["I", "I", "I"], false),
    ] {
        let mut state = race(3, 2, THREE_LEFT);
        state.still = still;
        for m in moves {
            state = ok(state, m);
        }
        let a = state.cars()[car_of(&state, 'A')].run;
        assert_eq!(
            a == Run::Out(4, Why::Braking),
            leader_out,
            "{still} {moves:?}"
        );
        let expect = if leader_out || moves[1] == "F" {
            0
        } else {
            still + 1
        };
        assert_eq!(state.still, expect);
    }
    let mut state = race(3, 2, THREE_LEFT);
    state.still = 2;
    let state = ok(ok(ok(state, "I"), "I"), "I");
    assert_eq!(
        order_text(&state),
        ("BC".into(), Some('B')),
        "the race goes on"
    );
}

/// Rule 10: a car reaching the line after the last lap stops on it (the rest
/// of its path is not driven), holds its lane of the line until the round
/// ends, then leaves; finishers place in finishing order.
#[test]
fn rule_10_finish() {
    let state = race(2, 1, "A=28.1 B=27.2 a=10.3 b=9.3");
    let (a, b) = (car_of(&state, 'A'), car_of(&state, 'B'));
    for path in ["FF", "4", "FFIF"] {
        let after = ok(state.clone(), path);
        assert_eq!(after.cars()[a].run, Run::OnLine(1), "{path}");
        assert_eq!((after.cars()[a].d, after.cars()[a].lane), (30, 1));
        assert_eq!(
            after.allowance(),
            4,
            "its length counts up to the line: 2 + 2"
        );
    }
    let state = ok(state, "4");
    let blocked = {
        let mut s = state.clone();
        s.cars[b].lane = 1;
        s
    };
    assert_eq!(
        refused(&blocked, "FFF"),
        "Step 3 (F): the finish line on lane 1 is taken by car A."
    );
    let state = ok(state, "FFF");
    assert_eq!(state.cars()[b].run, Run::OnLine(2));
    let state = ok(ok(state, "F"), "F");
    assert_eq!(state.cars()[a].run, Run::Finished(1));
    assert_eq!(state.cars()[b].run, Run::Finished(2));
    assert_eq!(
        order_text(&state),
        ("ab".into(), Some('a')),
        "the first remaining car leads"
    );
    assert_eq!(state.on_line(1), None, "the line is clear again");
}

/// Rule 11: 2 laps with two players, 6 with more; a setting and an option.
#[test]
fn rule_11_distance() {
    let g = game();
    for (options, laps) in [
        ("2", 2),
        ("3", 6),
        ("8", 6),
        ("4 L3", 3),
        ("2 L1", 1),
        ("BOT", 2),
    ] {
        let state = g.start(&options.parse().unwrap(), &mut rng(1));
        assert_eq!(state.laps(), laps, "{options}");
        assert_eq!(state.finish(), i32::from(laps) * 30);
    }
    let short = AutoRace {
        laps_two: 1,
        laps_more: 4,
        ..game()
    };
    assert_eq!(short.start(&"2".parse().unwrap(), &mut rng(1)).laps(), 1);
    assert_eq!(short.start(&"5".parse().unwrap(), &mut rng(1)).laps(), 4);
    assert_eq!(short.start(&"5 L2".parse().unwrap(), &mut rng(1)).laps(), 2);
}

/// Rule 12: the first car to complete a lap (not the last) gets 3 extra steps
/// for its own moves during the next lap, usable in parts.
#[test]
fn rule_12_lap_bonus() {
    let state = race(2, 2, "A=28.1 B=27.2 a=10.3 b=9.3");
    let (a, b) = (car_of(&state, 'A'), car_of(&state, 'B'));
    let state = ok(state, "FF");
    assert_eq!((state.cars()[a].bonus, state.cars()[a].bonus_lap), (3, 1));
    let state = ok(state, "FFFF");
    assert_eq!(state.cars()[b].bonus, 0, "only the lap's first car gets it");
    // The leader with a bonus: 4 + 3, in parts; the next car counts the whole length.
    let leader = race(2, 2, "A=31.1+3@1 B=30.2 a=10.3 b=9.3");
    assert!(
        game()
            .render(&leader, 0, Lang::En)
            .contains("length 1-4, bonus 3.")
    );
    let all = ok(leader.clone(), "7");
    assert_eq!(all.cars()[a].bonus, 0);
    assert_eq!(all.allowance(), 9);
    let part = ok(leader.clone(), "5");
    assert_eq!(part.cars()[a].bonus, 2);
    assert_eq!(
        refused(&leader, "8"),
        "Step 8 (F): the move would be 8 long; allowed 1 to 4, bonus 3."
    );
    // It lapses when the car starts a lap after the next one; none on the last lap.
    let mut late = turn_of(race(2, 3, "A=59.1+1@1 B=62.2 a=10.3 b=9.3"), 'A', 3);
    late.awarded = 2;
    let lapsed = ok(late.clone(), "4");
    assert_eq!((lapsed.cars()[a].bonus, lapsed.cars()[a].bonus_lap), (0, 0));
    assert!(refused(&late, "5").contains("allowed 1 to 3, bonus 1"));
    let mut last = race(2, 2, "A=58.1 B=40.2 a=10.3 b=9.3");
    last.awarded = 1;
    let finished = ok(last, "FF");
    assert_eq!(finished.cars()[a].bonus, 0);
    assert_eq!(finished.cars()[a].run, Run::OnLine(1));
}

/// Rule 13: after a round, a car a whole lap behind leaves.
#[test]
fn rule_13_lapped() {
    let state = race(2, 2, "A=43.2 a=20.2 B=14.3 b=13.4");
    assert_eq!(order_text(&state).0, "AaBb");
    let state = ok(ok(ok(ok(state, "F"), "F"), "F"), "F");
    let (b_big, b) = (car_of(&state, 'B'), car_of(&state, 'b'));
    assert_eq!(
        state.cars()[b_big].run,
        Run::Racing,
        "29 sectors behind stays"
    );
    assert_eq!(
        state.cars()[b].run,
        Run::Out(1, Why::Lapped),
        "30 behind leaves"
    );
    // A finisher laps too.
    let state = race(2, 1, "A=29.1 a=28.1 B=20.2 b=-1.4");
    let state = ok(ok(ok(ok(state, "F"), "F"), "F"), "F");
    assert_eq!(
        state.cars()[car_of(&state, 'b')].run,
        Run::Out(1, Why::Lapped)
    );
}

/// Rule 14: a car on lane 1 in the leader's path leaves when the leader
/// drives through its cell; anywhere else, or for any other car, it blocks.
#[test]
fn rule_14_back_marker() {
    let state = race(2, 2, "A=40.2 a=30.3 B=12.1 b=11.3");
    let big_b = car_of(&state, 'B');
    for path in ["IFF", "IFFF"] {
        let after = ok(state.clone(), path);
        assert_eq!(
            after.cars()[big_b].run,
            Run::Out(1, Why::BackMarker),
            "{path}"
        );
        assert!(after.occupant(12, 1) != Some(big_b));
    }
    let on_lane_2 = race(2, 2, "A=40.2 a=30.3 B=12.2 b=11.3");
    assert_eq!(
        refused(&on_lane_2, "FF"),
        "Step 2 (F): the cell on lane 2, 2 ahead, is taken by car B."
    );
    let not_leader = turn_of(race(2, 2, "A=45.3 a=40.1 B=12.1 b=11.3"), 'a', 4);
    assert!(refused(&not_leader, "FF").contains("taken by car B"));
}

/// Rule 15: retired cars place by the distance they covered, after the finishers.
#[test]
fn rule_15_retired_by_distance() {
    for (cars, expect) in [
        ("A=30.1f1 a=20.2x2z B=30.2f2 b=25.3x1l", "ABba"),
        ("A=30.1f2 a=20.2x2z B=30.2f1 b=20.3x1l", "BAab"),
        ("A=12.1x1q a=20.2x2z B=30.2f1 b=29.3c2", "BbaA"),
    ] {
        let state = race(2, 1, cars);
        let text: String = placing(&state).iter().map(|&c| car::letter(c, 2)).collect();
        assert_eq!(text, expect, "{cars}");
    }
}

/// Rule 16: points per car, a player's two cars summed, ties decided by the
/// better car; a series rotates the lot and adds up; the team variant.
#[test]
fn rule_16_points_and_series() {
    let small: Vec<u32> = (1..=7).map(|p| car_points(3, p)).collect();
    assert_eq!(small, [9, 6, 4, 3, 2, 1, 0]);
    let large: Vec<u32> = (1..=6).map(|p| car_points(4, p)).collect();
    assert_eq!(large, [5, 4, 3, 2, 1, 0]);
    let two = race(2, 1, "A=30.1f1 a=30.2f4 B=30.3f2 b=30.4f3");
    assert_eq!(race_points(&two), [9 + 3, 6 + 4]);
    // Four players: A 1st and 6th (5), B 2nd and 5th (5): A's best car decides.
    let four = race(
        4,
        1,
        "A=30.1f1 a=20.1x2z B=30.2f2 b=30.3f5 C=30.4f3 c=20.2x1z D=29.1c6 d=30.1f4",
    );
    let places: Vec<u8> = standings(&four).iter().map(|s| s.place).collect();
    assert_eq!(race_points(&four), [5, 5, 3, 2]);
    assert_eq!(places, [1, 2, 3, 4]);
    assert_eq!(
        standings(&four)[1],
        Standing {
            place: 2,
            score: Some(5)
        }
    );
    // The series: the lot rotates, points carry, a new series after a full rotation.
    let g = game();
    let options: Options = "3".parse().unwrap();
    let first = g.start(&options, &mut rng(4));
    let mut finished = first.clone();
    for c in 0..finished.cars.len() {
        finished.cars[c].run = Run::Out(c as u8 + 1, Why::Withdrawn);
    }
    finished.order.clear();
    finished.check().unwrap();
    assert_eq!(
        race_points(&finished).iter().sum::<u32>(),
        9 + 6 + 4 + 3 + 2 + 1
    );
    let second = g.rematch(&finished, &options, &mut rng(9));
    let mut lot = first.grid.clone();
    lot.rotate_left(1);
    assert_eq!(second.grid, lot, "the first starter goes to the back");
    assert_eq!(second.race(), 2);
    assert_eq!(second.prior(), race_points(&finished).as_slice());
    let mut third = second.clone();
    third.race = 3;
    assert_eq!(
        g.rematch(&third, &options, &mut rng(9)).race(),
        1,
        "3 races make a series"
    );
    // Team variant: partners share their team's place and points.
    let team = race_on(&ring(), 4, 1, true, "A=30.1f1 B=30.2f4 C=30.3f2 D=30.4f3");
    assert_eq!(race_points(&team), [7, 7, 7, 7]);
    let team = race_on(&ring(), 4, 1, true, "A=30.1f1 B=30.2f2 C=30.3f3 D=30.4f4");
    let s = standings(&team);
    assert_eq!(
        s[0],
        Standing {
            place: 1,
            score: Some(9)
        }
    );
    assert_eq!(s[1], s[0]);
    assert_eq!(
        s[2],
        Standing {
            place: 2,
            score: Some(5)
        }
    );
    assert_eq!(s[3], s[2]);
}

/// Rule 17: on a track turning both ways the inner lane changes sides, and
/// with it what `I` and `O` mean and who is ahead in a tie.
#[test]
fn rule_17_turns_both_ways() {
    let z = zigzag();
    assert!(z.turns_both_ways());
    // Sectors 0-8 turn left (lane 1 is physical 1), 9-17 right (physical 4).
    assert_eq!(
        (z.logical(5, 1), z.logical(12, 1), z.logical(12, 4)),
        (1, 4, 1)
    );
    let state = race_on(&z, 2, 2, false, "A=12.3 a=12.4 B=5.2 b=5.1");
    assert_eq!(
        order_text(&state).0,
        "aAbB",
        "physical 4 is inner at sector 12"
    );
    // a is on the inner lane there: I would leave the track; O is physical 3, A's cell.
    assert!(refused(&state, "I").contains("lane 1 already"));
    assert!(refused(&state, "O").contains("taken by car A"));
    let after = ok(state, "FF");
    let a = car_of(&after, 'a');
    assert_eq!(after.logical_lane(a), 1);
    // Driving straight across a change of direction: physical lane kept, lane number flips.
    let cross = race_on(&z, 2, 2, false, "A=7.1 a=0.4 B=3.2 b=2.2");
    let crossed = ok(cross, "FF");
    let a = car_of(&crossed, 'A');
    assert_eq!((crossed.cars()[a].lane, crossed.logical_lane(a)), (1, 4));
    let turned = race_on(&z, 2, 2, false, "A=10.1 a=0.4 B=3.2 b=2.2");
    let inward = ok(turned, "I");
    assert_eq!(
        inward.cars()[car_of(&inward, 'A')].lane,
        2,
        "inwards is to the right here"
    );
    // The grid stands on lane 4 wherever it is: physical 1 where the track turns right.
    let options: Options = "8 ZIGZAG".parse().unwrap();
    let grid = game().start(&options, &mut rng(3));
    assert_eq!(grid.track().name(), "ZIGZAG");
    for c in 0..grid.cars().len() {
        assert_eq!(grid.logical_lane(c), 4);
        let physical = if z.inner_right(grid.cars()[c].d) {
            1
        } else {
            4
        };
        assert_eq!(grid.cars()[c].lane, physical);
    }
}

/// Rule 17: a track whose width changes. A narrower stretch loses its outer
/// lanes; a car drives straight on along its lane, so on a lane that ends it
/// must change lanes first, and the sideways limits follow the width.
#[test]
fn rule_17_the_width_changes() {
    let g = gorge();
    // A (physical 4) drives at the stretch where lane 4 ends.
    let state = race_on(&g, 2, 2, false, "A=11.4 a=5.1 B=9.1 b=4.1");
    assert!(
        refused(&state, "F").contains("Step 1 (F): lane 4 ends here"),
        "{}",
        refused(&state, "F")
    );
    let inside = ok(state.clone(), "IF");
    let a = car_of(&inside, 'A');
    assert_eq!((inside.cars()[a].d, inside.cars()[a].lane), (12, 3));
    // At three lanes, lane 3 is the outermost.
    let narrow = race_on(&g, 2, 2, false, "A=12.3 a=5.1 B=9.1 b=4.1");
    assert!(refused(&narrow, "O").contains("lane 3 already, no lane is further out"));
    assert!(refused(&narrow, "FFFFF").contains("Step 5 (F): lane 3 ends here"));
    // Every legal move keeps to the road: the gorge has two lanes.
    let gorge_in = race_on(&g, 2, 2, false, "A=15.2 a=5.1 B=9.1 b=4.1");
    for m in game().legal_moves(&gorge_in, 0) {
        let after = ok(gorge_in.clone(), &m.to_string());
        let c = after.cars()[car_of(&after, 'A')];
        assert!(g.exists(c.d, c.lane), "{m} leaves the road");
    }
    // Out of the gorge, turning right: physical 4 is lane 1, physical 1 no road.
    let out = race_on(&g, 2, 2, false, "A=19.2 a=5.1 B=9.1 b=4.1");
    let right = ok(out, "FF");
    let a = car_of(&right, 'A');
    assert_eq!((right.cars()[a].lane, right.logical_lane(a)), (2, 3));
    // A state with a car off the road is refused.
    let text = race_on(&g, 2, 2, false, "A=11.4 a=5.1 B=9.1 b=4.1")
        .to_string()
        .replace("cars=11.4,", "cars=17.4,");
    assert!(text.parse::<State>().is_err(), "{text}");
    // The grid stands on each sector's outer lane.
    let options: Options = "8 GORGE".parse().unwrap();
    let grid = game().start(&options, &mut rng(5));
    for c in 0..grid.cars().len() {
        let car = grid.cars()[c];
        assert_eq!(grid.logical_lane(c), g.width(car.d), "car {c} at {}", car.d);
    }
}
