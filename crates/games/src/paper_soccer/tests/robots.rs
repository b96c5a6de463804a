//! The robot at every level: forced goals found, the one safe move chosen, determinism; engines playing each other.

use rand::SeedableRng;

use super::field::Field;
use super::movegen::{MoveGen, Outcome};
use super::position::Position;
use super::protocol::Engine;
use super::*;
use crate::{Budget, Game};

fn st(tokens: &str) -> State {
    format!("8x10 0 {tokens} -").parse().unwrap()
}

fn robot(s: &State, level: Level) -> Move {
    let mut rng = MatchRng::seed_from_u64(9);
    PaperSoccer.robot_move(s, s.to_move(), level, &Budget::nodes(20_000), &mut rng)
}

#[test]
fn every_level_scores_when_it_can() {
    // (4,1) side 0; (4,10) side 1; (5,1) side 0 needs a bounce off the post;
    // (3,0) mid-chain.
    for tokens in [
        "0,0,0,0",
        "4,4,4,4,4",
        "0,0,0,1",
        "0,0,0,0,7",
        "6,6,0,0,0,1",
    ] {
        let s = st(tokens);
        for level in 1..=3 {
            let m = robot(&s, level);
            let (t, _) = play_text(&s, s.to_move(), &m.0)
                .unwrap_or_else(|r| panic!("{tokens} L{level}: {r:?}"));
            let end = t
                .end
                .unwrap_or_else(|| panic!("{tokens} L{level}: {m} does not score"));
            assert_eq!(
                (end.winner, end.how),
                (s.to_move(), state::How::Goal),
                "{tokens} L{level}"
            );
        }
    }
}

/// A position from a level-1 game where the side to move (side 1) cannot
/// score now, but a four-step bounce chain leaves the ball where every reply
/// lets it score on its next turn.
const GOAL_IN_TWO: &str = "1,2,1,6,50,33,1716,364,6061,433635,6,4,127,436,7105";

#[test]
fn every_level_finds_a_goal_forced_two_turns_ahead() {
    let s = st(GOAL_IN_TWO);
    let f = s.field();
    let now = MoveGen::new().collect(f, &s.pos, 1_000_000).unwrap();
    assert!(now.iter().all(|m| m.1 != Outcome::Win), "no goal in one");
    let quiet = now.iter().filter(|m| m.1 == Outcome::Pass).count();
    for level in 1..=3 {
        let m = robot(&s, level);
        let (after, _) = play_text(&s, s.to_move(), &m.0).unwrap();
        assert!(after.end.is_none(), "level {level}: {m} is quiet");
        let replies = MoveGen::new().collect(f, &after.pos, 1_000_000).unwrap();
        let mut answered = 0;
        for (_, outcome, reply) in &replies {
            assert_ne!(
                *outcome,
                Outcome::Win,
                "level {level}: {m} lets the opponent score"
            );
            let (t, _) = play_text(&after, after.to_move(), reply).unwrap();
            if t.end.is_some() {
                continue; // the reply loses on the spot
            }
            let goal = robot(&t, level);
            let (end, _) = play_text(&t, t.to_move(), &goal.0).unwrap();
            let end = end.end.unwrap_or_else(|| {
                panic!("level {level}: after {m} and the reply {reply:?}, {goal} does not score")
            });
            assert_eq!((end.winner, end.how), (s.to_move(), state::How::Goal));
            answered += 1;
        }
        assert!(answered > 0, "level {level}: some reply is quiet");
        assert!(quiet > 1, "more than one quiet move to choose from");
    }
}

/// The evaluation's "scores this turn" is never wrong: wherever it says so,
/// the move generator finds a goal. Checked over every position of a few
/// level-1 games.
#[test]
fn scores_now_is_sound() {
    let mut said = 0;
    for seed in 0..12 {
        let mut s = State::new(8, 10, 0);
        let mut rng = MatchRng::seed_from_u64(seed);
        while s.end.is_none() {
            let f = s.field();
            if robot::eval::scores_now(f, &s.pos) {
                said += 1;
                let moves = MoveGen::new().collect(f, &s.pos, 1_000_000).unwrap();
                assert!(
                    moves.iter().any(|m| m.1 == Outcome::Win),
                    "seed {seed}: {s}"
                );
            }
            let path = robot::choose(f, &s.pos, 1, &Budget::nodes(1000), &mut rng);
            for d in path {
                s.step(d).unwrap();
            }
        }
    }
    assert!(said > 5, "the check said yes {said} times");
}

/// Ball on (1,1), side 0: into the corner, to (1,0) and to (0,1) are dead
/// ends, every other segment is drawn but the one to (2,2).
fn one_way_out() -> (Position, &'static Field) {
    let f = Field::standard();
    let mut pos = Position::start(f);
    let p = |x, y| f.point(x, y).unwrap();
    let mut draw = |a: u16, d: usize| {
        let e = f.edge[a as usize][d];
        pos.edges[e as usize / 64] |= 1 << (e % 64);
    };
    draw(p(1, 0), 5); // (1,0)-(0,1)
    draw(p(1, 0), 3); // (1,0)-(2,1)
    draw(p(0, 1), 3); // (0,1)-(1,2)
    for d in [1, 2, 4, 5] {
        draw(p(1, 1), d);
    }
    pos.ball = p(1, 1);
    pos.hash = pos.compute_hash(f);
    (pos, f)
}

#[test]
fn every_level_takes_the_only_move_that_does_not_lose() {
    let (pos, f) = one_way_out();
    assert_eq!(pos.free(f).count_ones(), 4);
    for level in 1..=3 {
        let mut rng = MatchRng::seed_from_u64(level as u64);
        let path = robot::choose(f, &pos, level, &Budget::nodes(5000), &mut rng);
        assert_eq!(path, vec![3], "level {level}");
    }
}

#[test]
fn every_level_avoids_an_own_goal_and_a_losing_bounce() {
    // Side 1 on the top mouth (4,0): three own goals, and safe moves.
    let s = st("0,0,0,0,0");
    for level in 1..=3 {
        let m = robot(&s, level);
        let (t, _) = play_text(&s, 1, &m.0).unwrap();
        assert!(t.end.is_none(), "level {level}: {m}");
    }
}

#[test]
fn level_3_is_deterministic_with_a_node_budget() {
    let s = st("0,3,64,2");
    let a = robot(&s, 3);
    let b = robot(&s, 3);
    assert_eq!(a, b);
    play_text(&s, s.to_move(), &a.0).unwrap();
}

/// A whole game of level 3 against itself, both seeded with `seed`, on a
/// node budget (a clock would make the depth, and so the game, vary): the
/// turns in order.
fn self_play(seed: u64) -> Vec<String> {
    let mut sides = [0, 1].map(|_| Engine::new(3, 1000, (8, 10)).with_seed(seed));
    let budget = Budget::nodes(4000);
    let mut line = "start".to_string();
    let mut turns = Vec::new();
    for mover in (0..2).cycle() {
        match sides[mover].respond(&line, &budget).unwrap() {
            Some(turn) => line = turn,
            None => break,
        }
        turns.push(line.clone());
        if sides[mover].state().end.is_some() || turns.len() >= 400 {
            break;
        }
    }
    turns
}

/// `--seed` makes N games of a match N different games: it decides among
/// equally good turns. The same seed plays the same game.
#[test]
fn seeds_vary_level_3_and_a_seed_repeats() {
    let one = self_play(1);
    assert_eq!(one, self_play(1), "the same seed, the same game");
    let games: Vec<Vec<String>> = (1..=4).map(self_play).collect();
    let whole: std::collections::HashSet<&[String]> = games.iter().map(|g| &g[..]).collect();
    assert_eq!(whole.len(), 4, "four seeds, four games");
    // Not only in the endgame: ties among equally good turns come early.
    let openings: std::collections::HashSet<&[String]> = games.iter().map(|g| &g[..6]).collect();
    assert!(openings.len() >= 2, "the first six turns: {openings:?}");
}

#[test]
fn two_engines_play_a_whole_game() {
    for (la, lb) in [(3, 2), (1, 3)] {
        let mut a = Engine::new(la, 1000, (8, 10));
        let mut b = Engine::new(lb, 1000, (8, 10));
        let budget = Budget::nodes(3000);
        let mut line = "start".to_string();
        let mut turns = 0;
        let mut mover = 0;
        loop {
            let e = if mover == 0 { &mut a } else { &mut b };
            match e.respond(&line, &budget).unwrap() {
                Some(turn) => line = turn,
                None => break,
            }
            if e.state().end.is_some() {
                // The other engine reads the last turn and answers nothing.
                let other = if mover == 0 { &mut b } else { &mut a };
                assert_eq!(other.respond(&line, &budget).unwrap(), None);
                break;
            }
            mover = 1 - mover;
            turns += 1;
            assert!(turns < 500);
        }
        assert_eq!(a.state(), b.state());
        assert!(a.state().end.is_some());
        assert!(b.respond("0", &budget).is_err());
    }
    let mut e = Engine::new(3, 100, (8, 10));
    assert!(e.respond("8", &Budget::nodes(10)).is_err());
    assert!(
        e.respond("00", &Budget::nodes(10)).is_err(),
        "the turn ended after one step"
    );
}

/// The evaluation's weights are the committed data file, compiled in: what
/// level 3 uses is that file's content, not the hand set, and no file is read.
#[test]
fn the_tuned_weights_load_from_the_binary() {
    use robot::eval::Weights;
    let tuned = Weights::tuned();
    assert_eq!(
        Weights::parse(include_str!("../robot/weights.txt")),
        Some(tuned)
    );
    assert_ne!(tuned, Weights::HAND);
    assert_eq!(Weights::parse(&tuned.to_string()), Some(tuned));
    let searcher = robot::Searcher::new(4, robot::Eval::tuned(), 2);
    assert_eq!(searcher.eval, robot::Eval::Full(tuned));
}

/// A weights file names every term once, with one whole number.
#[test]
fn a_broken_weights_file_is_refused() {
    use robot::eval::Weights;
    let good = Weights::HAND.to_string();
    assert_eq!(Weights::parse(&good), Some(Weights::HAND));
    let without_last = good
        .lines()
        .take(good.lines().count() - 1)
        .collect::<Vec<_>>()
        .join("\n");
    for bad in [
        without_last.clone(),
        format!("{good}steps 3\n"),
        format!("{without_last}\nwhatever 3\n"),
        good.replacen("12", "twelve", 1),
        good.replacen("12", "12 13", 1),
        good.replacen("12", "", 1),
    ] {
        assert_eq!(Weights::parse(&bad), None, "{bad}");
    }
    assert_eq!(
        Weights::parse(&format!("# note\n\n{good}")),
        Some(Weights::HAND)
    );
}

/// The stops to a goal count turns, not steps: never more than the steps,
/// and none to the goal attacked exactly when the side to move scores this
/// turn. Checked over every position of a few level-1 games.
#[test]
fn stops_agree_with_steps_and_with_scoring_now() {
    use robot::eval::{FAR, FAR_STOPS, reach, scores_now, stops};
    let mut zero = 0;
    for seed in 0..12 {
        let mut s = State::new(8, 10, 0);
        let mut rng = MatchRng::seed_from_u64(seed);
        while s.end.is_none() {
            let f = s.field();
            let (steps, turns) = (reach(f, &s.pos), stops(f, &s.pos));
            for (steps, turns) in [(steps.0, turns.0), (steps.1, turns.1)] {
                assert!(turns <= steps, "{s}");
                if steps >= FAR {
                    assert_eq!(turns, FAR_STOPS, "{s}");
                }
            }
            let attacked = if s.pos.side == 0 { turns.0 } else { turns.1 };
            assert_eq!(scores_now(f, &s.pos), attacked == 0, "{s}");
            zero += i32::from(attacked == 0);
            let path = robot::choose(f, &s.pos, 1, &Budget::nodes(1000), &mut rng);
            for d in path {
                s.step(d).unwrap();
            }
        }
    }
    assert!(zero > 5, "a goal this turn {zero} times");
}
