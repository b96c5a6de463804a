//! The robots: a goal in one is found, an open shot at their own goal is
//! closed, moves are legal and the same for the same inputs.

use super::robot::eval::can_score;
use super::*;
use crate::{Budget, Status};

/// Blue to move: the only goal is a pass to (2,9) and a shot along row 2.
fn goal_by_pass() -> Position {
    picture(
        [
            "............",
            "...@....L...",
            "..........R.",
            "G.......R..H",
            "..L...R..R..",
            "....L...R...",
            "..L.........",
        ],
        BLUE,
    )
}

/// Red to move; Blue's holder on (2,9) has an open shot along row 2.
fn threatened() -> Position {
    picture(
        [
            "............",
            "...L....@...",
            "..........R.",
            "G.......R..H",
            "..L...R..R..",
            "....L...R...",
            "..L.........",
        ],
        RED,
    )
}

fn robot(state: &State, level: u8, nodes: u64, seed: u64) -> Move {
    let seat = state.seat_of(state.position().turn);
    game().robot_move(
        state,
        seat,
        level,
        &Budget::nodes(nodes),
        &mut MatchRng::seed_from_u64(seed),
    )
}

#[test]
fn finds_the_goal_in_one_combination() {
    assert!(can_score(&goal_by_pass().field, BLUE));
    for level in [2, 3] {
        let state = match_on(goal_by_pass(), Mode::Hot);
        let mv = robot(&state, level, 1_000_000, 1);
        let after = ok(state, 0, &mv.to_string()).state;
        assert_eq!(after.position().score, [1, 0], "level {level} played {mv}");
    }
    // Even when the budget is spent at once.
    let state = match_on(goal_by_pass(), Mode::Hot);
    let after = ok(state.clone(), 0, &robot(&state, 3, 1, 1).to_string()).state;
    assert_eq!(after.position().score, [1, 0]);
}

#[test]
fn closes_an_open_shot_at_its_goal() {
    let pos = threatened();
    let mut blue_view = pos.field;
    blue_view.unblock(BLUE);
    assert!(
        can_score(&blue_view, BLUE),
        "the test position must threaten"
    );
    for level in [2, 3] {
        for seed in 0..4 {
            let state = match_on(pos.clone(), Mode::Bot);
            let mv = robot(&state, level, 1_000_000, seed);
            let after = ok(state, 1, &mv.to_string()).state;
            assert_eq!(after.position().turn, BLUE);
            assert!(
                !can_score(&after.position().field, BLUE),
                "level {level} left the shot open with {mv}"
            );
        }
    }
}

#[test]
fn robots_are_deterministic_and_legal() {
    let mut state = match_on(Position::opening(), Mode::Hot);
    let mut r = MatchRng::seed_from_u64(3);
    for ply in 0..30u64 {
        let Status::Awaiting(seats) = game().status(&state) else {
            break;
        };
        let level = 1 + (ply % 3) as u8;
        for nodes in [1, 200, 5_000] {
            let a = robot(&state, level, nodes, ply);
            assert_eq!(
                a,
                robot(&state, level, nodes, ply),
                "level {level} nodes {nodes}"
            );
            assert!(
                game().play(state.clone(), seats[0], &a, &mut r).is_ok(),
                "{a}"
            );
        }
        let mv = robot(&state, level, 5_000, ply);
        state = ok(state, seats[0], &mv.to_string()).state;
    }
}

#[test]
fn levels_differ() {
    // Level 1 never passes: from the pass-only goal it cannot score.
    let state = match_on(goal_by_pass(), Mode::Hot);
    let mv = robot(&state, 1, 1_000_000, 0);
    let Move::Codes(combo) = &mv else {
        panic!("{mv}")
    };
    assert!(
        !combo
            .codes()
            .iter()
            .any(|c| matches!(c, super::code::Code::Pass { .. })),
        "{mv}"
    );
    assert_eq!(ok(state, 0, &mv.to_string()).state.position().score, [0, 0]);
}

/// Every combination by brute force: all code sequences, no sharing of
/// intermediate positions; the distinct fields they leave.
fn brute(field: &Field, side: usize, out: &mut std::collections::HashSet<u64>, depth: usize) {
    use super::robot::combos::{key, legal_codes};
    use crate::intelball::rules::{Stepped, play};
    assert!(depth < 10, "a combination cannot be this long");
    for code in legal_codes(field, side) {
        let mut f = *field;
        match play(&mut f, side, &code) {
            Ok(Stepped::Continues) => brute(&f, side, out, depth + 1),
            Ok(Stepped::Ends(_)) => {
                out.insert(key(&f, false));
            }
            Err(why) => panic!("legal code {code} refused: {why:?}"),
        }
    }
}

/// Perft-style: the combinations of a position, counted twice independently.
#[test]
fn combination_counts() {
    use super::robot::combos::{expand, legal_codes};
    let cases = [
        (Position::opening(), 47, 358),
        (goal_by_pass(), 64, 152),
        (threatened(), 40, 40),
    ];
    for (pos, codes, combos) in cases {
        let mut all = std::collections::HashSet::new();
        brute(&pos.field, pos.turn, &mut all, 0);
        let tree = expand(&pos.field, pos.turn);
        assert_eq!(tree.finals.len(), all.len(), "{pos}");
        assert_eq!(
            (legal_codes(&pos.field, pos.turn).len(), tree.finals.len()),
            (codes, combos),
            "{pos}"
        );
        // Every combination replays through the rules to its field.
        for fin in &tree.finals {
            let mut p = pos.clone();
            for code in tree.codes(fin) {
                p.play(&code).unwrap();
            }
            assert_eq!(
                super::robot::combos::key(&p.field, false),
                super::robot::combos::key(&fin.field, false)
            );
        }
    }
}
