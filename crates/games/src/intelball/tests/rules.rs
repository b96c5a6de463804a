//! Every move of the table, legal and illegal; offside; the goalkeeper's
//! leap at each reach; goals and kick-off; time and the end.

use super::board::Spot;
use super::why::Why;
use super::*;
use crate::{Standing, Status};

fn s(row: u8, col: u8) -> Spot {
    Spot::new(row, col)
}

/// Blue holds the ball on (4,5), a team-mate beside him on (4,6).
fn holding() -> Position {
    picture(
        [
            "............",
            "....L..R....",
            "..L...R..R..",
            "G...@L.R...H",
            "..L......R..",
            "............",
            "............",
        ],
        BLUE,
    )
}

/// Red holds the ball on (4,7), Blue to move.
fn red_holds() -> Position {
    picture(
        [
            "............",
            "....L..R....",
            "..L......R..",
            "G...LL$R...H",
            "..L......R..",
            "............",
            "............",
        ],
        BLUE,
    )
}

/// Plays `text` on `pos` (Blue or Red on turn, one phone) and returns the
/// effect or the reason of the first bad code.
fn try_play(pos: &Position, text: &str) -> Result<(Effect, State), Why> {
    let state = match_on(pos.clone(), Mode::Hot);
    match game().play(state.clone(), 0, &mv(text), &mut rng()) {
        Ok(p) => Ok((p.effect, p.state)),
        Err(r) => {
            assert_eq!(r.state, state);
            match r.reason {
                Refusal::Code { why, .. } => Err(why),
                other => panic!("{text}: {other:?}"),
            }
        }
    }
}

/// A table of (position, text, expected effect or reason).
fn table(cases: &[(&Position, &str, Result<Effect, Why>)]) {
    for (pos, text, want) in cases {
        let got = try_play(pos, text).map(|(e, _)| e);
        assert_eq!(&got, want, "{text}");
    }
}

const GO: Result<Effect, Why> = Ok(Effect::Continues);
const END: Result<Effect, Why> = Ok(Effect::Resolved);

#[test]
fn steps() {
    let (o, h) = (Position::opening(), holding());
    table(&[
        (&o, "L(4,5)>F(3,6)", END),
        (&o, "L(4,5)>F(5,4)", END),
        (&h, "L(4,6)>F(5,7)", END),
        (&o, "L(4,5)>F(4,7)", Err(Why::NotNear(s(4, 5), s(4, 7)))),
        (&o, "L(4,5)>F(4,6)", Err(Why::BallThere(s(4, 6)))),
        (&h, "L(4,6)>F(3,7)", Err(Why::Taken(s(3, 7)))),
        (&h, "L(4,5)>F(5,5)", Err(Why::HoldsBall(s(4, 5)))),
        (&o, "L(4,2)>F(4,3)", Err(Why::NoPlayer(BLUE, s(4, 2)))),
        (&o, "L(8,1)>F(7,1)", Err(Why::OffField(s(8, 1)))),
        (&o, "L(7,5)>F(8,5)", Err(Why::NoPlayer(BLUE, s(7, 5)))),
        (&o, "L(6,5)>F(7,13)", Err(Why::OffField(s(7, 13)))),
        (&o, "R(4,8)>F(4,9)", Err(Why::WrongSide(BLUE))),
    ]);
}

#[test]
fn steps_onto_the_ball_and_pulls() {
    let (o, h) = (Position::opening(), holding());
    table(&[
        (&o, "L(4,5)>B(4,6)", GO),
        (&o, "B(4,6)>L(4,5)", GO),
        (&o, "L(2,5)>B(4,6)", Err(Why::NotNear(s(2, 5), s(4, 6)))),
        (&o, "B(4,6)>L(2,5)", Err(Why::NotNear(s(2, 5), s(4, 6)))),
        (&o, "B(4,7)>L(4,5)", Err(Why::NoBall(s(4, 7)))),
        (&o, "L(4,5)>B(5,5)", Err(Why::NoBall(s(5, 5)))),
        (&h, "B(4,5)>L(4,6)", Err(Why::BallHeld(s(4, 5)))),
        (&h, "L(4,6)>B(4,5)", Err(Why::BallHeld(s(4, 5)))),
    ]);
    let (_, after) = try_play(&o, "L(4,5)>B(4,6)").unwrap();
    let field = after.position().field;
    assert!(field.piece(Cell::new(4, 5).unwrap()).is_none());
    assert_eq!(field.holder().map(|p| p.side), Some(BLUE));
    assert_eq!(field.ball, Cell::new(4, 6).unwrap());
}

#[test]
fn takes_from_the_opponent() {
    let r = red_holds();
    table(&[
        (&r, "B~R(4,7)>L(4,6)", GO),
        (&r, "B~R(4,7)>L(4,5)", Err(Why::NotNear(s(4, 5), s(4, 7)))),
        (&r, "B~R(4,8)>L(4,6)", Err(Why::NoBallHere(s(4, 8)))),
        (&r, "B~R(4,6)>L(4,5)", Err(Why::NoPlayer(RED, s(4, 6)))),
        (&r, "B(4,7)>L(4,6)", Err(Why::BallHeld(s(4, 7)))),
        (&r, "B~L(4,6)>R(4,7)", Err(Why::WrongSide(BLUE))),
    ]);
}

#[test]
fn dribbles() {
    let h = holding();
    table(&[
        (&h, "B&L(4,5)>F(5,5)", END),
        (&h, "B&L(4,5)>F(3,6)", END),
        (&h, "B&L(4,5)>F(4,6)", Err(Why::Taken(s(4, 6)))),
        (&h, "B&L(4,5)>F(4,7)", Err(Why::NotNear(s(4, 5), s(4, 7)))),
        (&h, "B&L(4,6)>F(5,6)", Err(Why::NoBallHere(s(4, 6)))),
    ]);
    let (_, after) = try_play(&h, "B&L(4,5)>F(5,5)").unwrap();
    assert_eq!(after.position().field.ball, Cell::new(5, 5).unwrap());
    assert_eq!(after.position().turn, RED);
}

#[test]
fn shots() {
    let h = holding();
    table(&[
        (&h, "B~L(4,5)>F(6,5)", END),
        (&h, "B~L(4,5)>F(1,2)", END),
        (&h, "B~L(4,5)>F(2,7)", END),
        (&h, "B~L(4,5)>F(4,9)", Err(Why::Through(s(4, 6)))),
        (&h, "B~L(4,5)>F(3,8)", Err(Why::NotInLine(s(4, 5), s(3, 8)))),
        (&h, "B~L(4,5)>F(2,5)", Err(Why::Taken(s(2, 5)))),
        (&h, "B~L(4,5)>F(4,0)", Err(Why::OwnGoal(s(4, 0)))),
        (&h, "B~L(4,5)>F(4,5)", Err(Why::Taken(s(4, 5)))),
        (&h, "B~L(4,6)>F(5,6)", Err(Why::NoBallHere(s(4, 6)))),
        (&h, "B~L(4,5)>F(9,5)", Err(Why::OffField(s(9, 5)))),
    ]);
    let (_, after) = try_play(&h, "B~L(4,5)>F(1,2)").unwrap();
    assert_eq!(after.position().field.ball, Cell::new(1, 2).unwrap());
    assert!(after.position().field.holder().is_none());
}

#[test]
fn passes_block_the_passer() {
    let (h, r) = (holding(), red_holds());
    table(&[
        (&h, "B~L(4,5)>L(2,5)", GO),
        (&h, "B~L(4,5)>L(4,1)", GO),
        (&h, "B~L(4,5)>L(4,6)", GO),
        (&h, "B~L(4,5)>L(3,3)", Err(Why::NotInLine(s(4, 5), s(3, 3)))),
        (&h, "B~L(4,5)>L(4,8)", Err(Why::NoPlayer(BLUE, s(4, 8)))),
        (
            &r,
            "B~R(4,7)>L(4,6)B~L(4,6)>L(4,1)",
            Err(Why::Through(s(4, 5))),
        ),
        (
            &r,
            "B~R(4,7)>L(4,6)B~L(4,6)>L(4,5)B~L(4,5)>L(4,6)",
            Err(Why::MateBlocked(s(4, 6))),
        ),
        (
            &r,
            "B~R(4,7)>L(4,6)B~L(4,6)>L(4,5)L(4,6)>F(5,6)",
            Err(Why::Blocked(s(4, 6))),
        ),
        (&r, "B~R(4,7)>L(4,6)B~L(4,6)>L(4,5)B&L(4,5)>F(5,5)", END),
    ]);
    let (_, after) = try_play(&h, "B~L(4,5)>L(2,5)").unwrap();
    let field = after.position().field;
    assert!(field.piece(Cell::new(4, 5).unwrap()).unwrap().blocked);
    assert_eq!(field.ball, Cell::new(2, 5).unwrap());
    // The block lasts through Red's turn and is lifted when Blue's begins.
    let (_, red) = try_play(after.position(), "B&L(2,5)>F(1,5)").unwrap();
    assert!(
        red.position()
            .field
            .piece(Cell::new(4, 5).unwrap())
            .unwrap()
            .blocked
    );
    let (_, blue) = try_play(red.position(), "R(2,8)>F(2,9)").unwrap();
    assert!(
        !blue
            .position()
            .field
            .piece(Cell::new(4, 5).unwrap())
            .unwrap()
            .blocked
    );
}

#[test]
fn offside_gives_the_ball_to_the_keeper() {
    let rows = |two: &'static str| {
        [
            "............",
            two,
            "..........R.",
            "G.......R..H",
            "..L...R..R..",
            "....L...R...",
            "............",
        ]
    };
    let offside = picture(rows("..L....@..L."), BLUE);
    let (effect, after) = try_play(&offside, "B~L(2,8)>L(2,11)").unwrap();
    assert_eq!(effect, Effect::Resolved);
    let p = after.position();
    assert_eq!(p.turn, RED);
    assert_eq!(p.field.ball, Cell::new(4, 12).unwrap());
    assert!(p.to_string().contains("-2,8_"), "{p}");
    assert!(p.to_string().ends_with("_B(4,12)_H(R)_T(10)_C(0:0)"), "{p}");
    // Both in Red's goalkeeper zone: no offside.
    let same_zone = picture(rows("..L.......@L"), BLUE);
    assert_eq!(
        try_play(&same_zone, "B~L(2,11)>L(2,12)").unwrap().0,
        Effect::Continues
    );
    // Codes after an offside pass are refused: the turn has passed.
    assert_eq!(
        try_play(&offside, "B~L(2,8)>L(2,11)B~L(2,11)>F(2,13)").unwrap_err(),
        Why::AfterEnd(1)
    );
}

/// Blue's holder on `shooter`, Red's goalkeeper on (`keeper_row`,12), rows 1-3
/// otherwise empty.
fn leap_case(shooter: (u8, u8), keeper_row: u8) -> Position {
    let mut rows = vec![vec!['.'; 12]; 7];
    for (r, c) in [(6, 2), (6, 3), (7, 2), (7, 3)] {
        rows[r - 1][c - 1] = 'L';
    }
    rows[4 - 1][0] = 'G';
    for (r, c) in [(7, 7), (7, 8), (7, 9), (6, 7), (6, 8)] {
        rows[r - 1][c - 1] = 'R';
    }
    rows[keeper_row as usize - 1][11] = 'H';
    rows[shooter.0 as usize - 1][shooter.1 as usize - 1] = '@';
    let rows: Vec<String> = rows.into_iter().map(|r| r.into_iter().collect()).collect();
    picture(std::array::from_fn(|i| rows[i].as_str()), BLUE)
}

#[test]
fn goalkeeper_leaps_by_zone_lines() {
    // (shooter, keeper row, target, caught on)
    type At = (u8, u8);
    let cases: [(At, u8, At, Option<At>); 9] = [
        ((3, 10), 4, (3, 13), None),         // reach 0, one row away
        ((3, 8), 4, (3, 13), Some((3, 12))), // reach 1, one row away
        ((2, 8), 4, (2, 13), None),          // reach 1, two rows away
        ((2, 8), 4, (7, 13), None),          // reach 1, diagonal crossing row 6
        ((2, 5), 4, (2, 13), Some((2, 12))), // reach 2, two rows away
        ((1, 5), 4, (1, 13), None),          // reach 2, three rows away
        ((1, 2), 4, (1, 13), Some((1, 12))), // reach 3, three rows away
        ((1, 2), 5, (1, 13), None),          // reach 3, four rows away
        ((3, 5), 1, (3, 13), Some((3, 12))), // reach 2, keeper below the line
    ];
    for (shooter, keeper, target, caught) in cases {
        let pos = leap_case(shooter, keeper);
        let text = format!(
            "B~L({},{})>F({},{})",
            shooter.0, shooter.1, target.0, target.1
        );
        let (effect, after) = try_play(&pos, &text).unwrap_or_else(|w| panic!("{text}: {w:?}"));
        assert_eq!(effect, Effect::Resolved);
        let p = after.position();
        assert_eq!(p.turn, RED, "{text}");
        match caught {
            Some((r, c)) => {
                let at = Cell::new(r, c).unwrap();
                assert_eq!(p.field.ball, at, "{text}");
                assert!(
                    p.field.piece(at).is_some_and(|k| k.keeper && k.side == RED),
                    "{text}"
                );
                assert_eq!(p.score, [0, 0]);
            }
            None => {
                assert_eq!(p.score, [1, 0], "{text}");
                assert_eq!(p.field, Field::kick_off(RED), "{text}");
            }
        }
    }
    // A goalkeeper on the line is a player in the way (reach 0 catches nothing).
    assert_eq!(
        try_play(&leap_case((4, 10), 4), "B~L(4,10)>F(4,13)").unwrap_err(),
        Why::Through(s(4, 12))
    );
}

#[test]
fn red_shots_meet_blues_keeper() {
    let pos = picture(
        [
            "..L.........",
            "............",
            "...$........",
            "G.......R..H",
            "..L...R..R..",
            "....L...R.L.",
            "L...........",
        ],
        RED,
    );
    // Red in zone 1: reach 1 for Blue's keeper on (4,1).
    let (_, caught) = try_play(&pos, "B~R(3,4)>F(3,0)").unwrap();
    assert_eq!(caught.position().field.ball, Cell::new(3, 1).unwrap());
    assert_eq!(caught.position().turn, BLUE);
    assert_eq!(
        caught.position().time,
        11,
        "Red's turn ended: one more round"
    );
    // Diagonally it crosses column 1 on row 6, two rows from him: a goal.
    let (_, goal) = try_play(&pos, "B~R(3,4)>F(7,0)").unwrap();
    let p = goal.position();
    assert_eq!((p.score, p.turn, p.time), ([0, 1], BLUE, 11));
    assert_eq!(p.field, Field::kick_off(BLUE));
    assert_eq!(
        try_play(&pos, "B~R(3,4)>F(1,2)B~R(1,2)>F(1,0)").unwrap_err(),
        Why::AfterEnd(1)
    );
}

#[test]
fn goal_then_kick_off_by_the_conceding_side() {
    let (_, blue) = try_play(&leap_case((3, 10), 4), "B~L(3,10)>F(3,13)").unwrap();
    let p = blue.position();
    assert_eq!((p.score, p.turn, p.time), ([1, 0], RED, 10));
    assert_eq!(p.field.ball, Cell::new(4, 7).unwrap());
    assert!(
        p.to_string()
            .starts_with("_S(41)_X(B~L(3,10)>F(3,13))_L(2,5_3,3_g4,1_4,5_5,3_6,5_)")
    );
    assert!(p.to_string().ends_with("_B(4,7)_H(R)_T(10)_C(1:0)"));
    // Red kicks off: the ball is next to its (4,8).
    let (_, red) = try_play(p, "B(4,7)>R(4,8)B~R(4,8)>F(1,5)").unwrap();
    assert_eq!(red.position().time, 11);
    assert_eq!(red.position().field.ball, Cell::new(1, 5).unwrap());
}

#[test]
fn time_runs_out_and_more_goals_win() {
    let g = game();
    let short = Intelball { limit: 2 };
    let mut state = short.start(
        &Options {
            kind: Kind::Hot,
            start: None,
        },
        &mut rng(),
    );
    for turn in 0..4 {
        assert!(
            matches!(g.status(&state), Status::Awaiting(_)),
            "turn {turn}"
        );
        state = ok(state, turn % 2, "-").state;
    }
    assert_eq!(state.position().time, 2);
    assert_eq!(
        g.status(&state),
        Status::Finished(vec![
            Standing {
                place: 1,
                score: Some(0)
            };
            2
        ])
    );
    assert_eq!(refusal(&state, 0, "-"), Refusal::MatchOver);
    // A goal up at the end wins.
    let mut state = short.start(
        &Options {
            kind: Kind::Bot(1),
            start: Some(leap_case((3, 10), 4)),
        },
        &mut rng(),
    );
    assert_eq!(state.limit(), 11, "a position at T=10 gets one more round");
    state = ok(state, 0, "B~L(3,10)>F(3,13)").state;
    state = ok(state, 1, "-").state;
    assert_eq!(
        g.status(&state),
        Status::Finished(vec![
            Standing {
                place: 1,
                score: Some(1)
            },
            Standing {
                place: 2,
                score: Some(0)
            }
        ])
    );
}
