//! Rule tables: directions, border, goal posts, bounces, dead end, own goal, chains over two texts, refusals.

use super::position::Block;
use super::state::How;
use super::*;
use crate::{Effect, Game, Reason, Status};
use rand::SeedableRng;
use smsarena_text::encoding::fits_gsm7;

mod props;
mod robots;

fn st(tokens: &str) -> State {
    format!("8x10 0 {tokens} -").parse().unwrap()
}

fn play(state: &State, seat: Seat, keys: &str) -> Result<(State, Effect), Refusal> {
    play_text(state, seat, &keys.parse::<Move>().unwrap().0)
}

fn ball(state: &State) -> (i32, i32) {
    state.pos.ball_xy(state.field())
}

#[test]
fn every_direction_from_the_centre_stops_and_passes_the_turn() {
    for (key, dx, dy) in [
        ("2", 0, -1),
        ("3", 1, -1),
        ("6", 1, 0),
        ("9", 1, 1),
        ("8", 0, 1),
        ("7", -1, 1),
        ("4", -1, 0),
        ("1", -1, -1),
    ] {
        let (s, effect) = play(&State::new(8, 10, 0), 0, key).unwrap();
        assert_eq!(effect, Effect::Resolved, "{key}");
        assert_eq!(ball(&s), (4 + dx, 5 + dy), "{key}");
        assert_eq!(s.to_move(), 1);
    }
}

#[test]
fn the_side_line_bounces_and_cannot_be_followed_or_crossed() {
    let s = st("6,6,6");
    assert_eq!(ball(&s), (1, 5));
    assert_eq!(s.to_move(), 1);
    let (s, effect) = play(&s, 1, "4").unwrap();
    assert_eq!((effect, ball(&s)), (Effect::Continues, (0, 5)));
    assert!(s.in_chain());
    let refuse = |keys: &str| play(&s, 1, keys).unwrap_err();
    assert_eq!(
        refuse("2"),
        Refusal::Blocked {
            step: 1,
            dir: 0,
            why: Block::Border
        }
    );
    assert_eq!(
        refuse("8"),
        Refusal::Blocked {
            step: 1,
            dir: 4,
            why: Block::Border
        }
    );
    assert_eq!(
        refuse("4"),
        Refusal::Blocked {
            step: 1,
            dir: 6,
            why: Block::Outside
        }
    );
    assert_eq!(
        refuse("6"),
        Refusal::Blocked {
            step: 1,
            dir: 2,
            why: Block::Drawn
        }
    );
    let (t, effect) = play(&s, 1, "9").unwrap();
    assert_eq!(
        (effect, ball(&t), t.to_move()),
        (Effect::Resolved, (1, 6), 0)
    );
    // The whole text at once, and a text whose second step is refused.
    assert_eq!(play(&st("6,6,6"), 1, "49").unwrap().0, t);
    assert_eq!(
        play(&st("6,6,6"), 1, "42").unwrap_err(),
        Refusal::Blocked {
            step: 2,
            dir: 0,
            why: Block::Border
        }
    );
}

#[test]
fn goal_posts_only_let_the_diagonal_into_the_goal() {
    let s = st("0,0,0,0");
    assert_eq!((ball(&s), s.to_move()), ((4, 1), 0));
    let (post, effect) = play(&s, 0, "1").unwrap();
    assert_eq!((effect, ball(&post)), (Effect::Continues, (3, 0)));
    let why = |keys: &str| match play(&post, 0, keys) {
        Err(Refusal::Blocked { why, .. }) => Some(why),
        _ => None,
    };
    assert_eq!(
        why("2"),
        Some(Block::Outside),
        "the post's side of the goal"
    );
    assert_eq!(why("1"), Some(Block::Outside));
    assert_eq!(
        why("4"),
        Some(Block::Border),
        "the end line outside the mouth"
    );
    let (mouth, effect) = play(&post, 0, "6").unwrap();
    assert_eq!(
        (effect, ball(&mouth)),
        (Effect::Resolved, (4, 0)),
        "the mouth is playable"
    );
    let (goal, effect) = play(&post, 0, "3").unwrap();
    assert_eq!(effect, Effect::Resolved);
    assert_eq!(goal.end.map(|e| (e.winner, e.how)), Some((0, How::Goal)));
    assert_eq!(
        PaperSoccer.status(&goal),
        Status::Finished(vec![Standing::place(1), Standing::place(2)])
    );
    assert_eq!(play(&goal, 1, "2").unwrap_err(), Refusal::Finished);
    assert_eq!(play(&s, 0, "13").unwrap().0, goal);
}

#[test]
fn from_the_mouth_all_three_goal_points_and_an_own_goal() {
    let s = st("0,0,0,0,0");
    assert_eq!((ball(&s), s.to_move()), ((4, 0), 1));
    let keys: Vec<String> = PaperSoccer
        .legal_moves(&s, 1)
        .iter()
        .map(|m| m.to_string())
        .collect();
    assert_eq!(keys, ["2", "3", "6", "9", "7", "4", "1"]);
    assert!(PaperSoccer.legal_moves(&s, 0).is_empty());
    for key in ["1", "2", "3"] {
        let (t, _) = play(&s, 1, key).unwrap();
        assert_eq!(
            t.end.map(|e| (e.winner, e.how)),
            Some((0, How::OwnGoal)),
            "{key}"
        );
    }
}

#[test]
fn a_bounce_at_the_centre_spans_two_texts() {
    let s = st("0,3");
    assert_eq!((ball(&s), s.to_move()), ((5, 5), 0));
    let mut rng = MatchRng::seed_from_u64(1);
    let p = PaperSoccer
        .play(s.clone(), 0, &"4".parse().unwrap(), &mut rng)
        .unwrap();
    assert_eq!((p.effect, ball(&p.state)), (Effect::Continues, (4, 5)));
    assert_eq!(p.state.to_string(), "8x10 0 0,3,6 -");
    assert!(PaperSoccer.render(&p.state, 0, Lang::En).contains("Bounce"));
    let q = PaperSoccer
        .play(p.state, 0, &"8".parse().unwrap(), &mut rng)
        .unwrap();
    assert_eq!(
        (q.effect, ball(&q.state), q.state.to_move()),
        (Effect::Resolved, (4, 6), 1)
    );
    assert_eq!(q.state.to_string(), "8x10 0 0,3,64 -");
    assert_eq!(play(&s, 0, "4 8").unwrap().0, q.state);
    assert_eq!(
        play(&s, 0, "482").unwrap_err(),
        Refusal::TurnEnded { after: 2 }
    );
}

#[test]
fn steps_after_the_turn_ended_are_refused() {
    let s = State::new(8, 10, 0);
    assert_eq!(
        play(&s, 0, "22").unwrap_err(),
        Refusal::TurnEnded { after: 1 }
    );
    assert_eq!(play(&s, 1, "2").unwrap_err(), Refusal::NotYourTurn);
    let goal = st("0,0,0,0");
    assert_eq!(
        play(&goal, 0, "134").unwrap_err(),
        Refusal::TurnEnded { after: 2 }
    );
}

#[test]
fn a_drawn_segment_is_refused() {
    let s = st("0");
    assert_eq!(
        play(&s, 1, "8").unwrap_err(),
        Refusal::Blocked {
            step: 1,
            dir: 4,
            why: Block::Drawn
        }
    );
}

#[test]
fn the_corner_is_a_dead_end() {
    let s = st("7,7,7,0");
    assert_eq!((ball(&s), s.to_move()), ((1, 1), 0));
    let (t, effect) = play(&s, 0, "1").unwrap();
    assert_eq!(effect, Effect::Resolved);
    assert_eq!(t.end.map(|e| (e.winner, e.how)), Some((1, How::DeadEnd)));
    assert_eq!(t.to_string(), "8x10 0 7,7,7,0,7 -");
    assert!(
        PaperSoccer
            .render(&t, 0, Lang::En)
            .starts_with("You lost. Dead end.")
    );
}

#[test]
fn refusal_texts_name_the_step_and_the_reason() {
    let cases = [
        (
            Refusal::Blocked {
                step: 3,
                dir: 0,
                why: Block::Border,
            },
            "Step 3 (2)",
            "border",
            "Xod 3 (2)",
            "granice",
        ),
        (
            Refusal::Blocked {
                step: 1,
                dir: 4,
                why: Block::Drawn,
            },
            "Step 1 (8)",
            "already drawn",
            "Xod 1 (8)",
            "narisovana",
        ),
        (
            Refusal::Blocked {
                step: 2,
                dir: 7,
                why: Block::Outside,
            },
            "Step 2 (1)",
            "goal post",
            "Xod 2 (1)",
            "shtanga",
        ),
        (
            Refusal::TurnEnded { after: 1 },
            "after step 1",
            "ended",
            "posle shaga 1",
            "zakonchilsya",
        ),
    ];
    for (r, en1, en2, ru1, ru2) in cases {
        let (en, ru) = (r.text(Lang::En), r.text(Lang::Ru));
        assert!(en.contains(en1) && en.contains(en2), "{en}");
        assert!(ru.contains(ru1) && ru.contains(ru2), "{ru}");
        assert!(smsarena_text::encoding::septets(&ru).is_some());
    }
    assert_eq!(Refusal::NotYourTurn.text(Lang::Ru), "Xod protivnika.");
}

#[test]
fn start_rematch_withdraw() {
    let g = PaperSoccer;
    let mut rng = MatchRng::seed_from_u64(7);
    let robot: Options = "BOT 3".parse().unwrap();
    assert_eq!(g.start(&robot, &mut rng).top, 0);
    let tops: Vec<Seat> = (0..20)
        .map(|_| g.start(&Options::default(), &mut rng).top)
        .collect();
    assert!(tops.contains(&0) && tops.contains(&1));
    let s = g.start(&"6x8".parse().unwrap(), &mut rng);
    assert_eq!((s.width, s.length), (6, 8));
    let r = g.rematch(&s, &Options::default(), &mut rng);
    assert_eq!(r.top, 1 - s.top);
    let q = g.withdraw(st("0"), 1, Withdrawal::Resigned, &[false, false]);
    assert_eq!(q.end.map(|e| (e.winner, e.how)), Some((0, How::Resigned)));
    assert_eq!(q.to_string(), "8x10 0 0 Q1");
    assert_eq!(q.to_string().parse::<State>().unwrap(), q);
    assert!(g.null_move(&q, 0).is_none());
    assert!(g.options_help(Lang::En).len() <= 160 && g.options_help(Lang::Ru).len() <= 160);
    assert!(g.move_help(Lang::Ru).len() <= 110);
}

#[test]
fn history_while_running_and_the_record_after_the_end() {
    let g = PaperSoccer;
    let opening = State::new(8, 10, 0);
    let s = st("0,3,64");
    let e = [crate::HistoryEntry::<PaperSoccer> {
        name: "",
        seat: 0,
        what: crate::Recorded::Move("48".parse().unwrap()),
        after: &s,
    }];
    assert_eq!(g.history(&opening, &e, Lang::En), "1.2 2.9 3.48");
    let end = play(&st("0,0,0,0"), 0, "13").unwrap().0;
    let e = [crate::HistoryEntry::<PaperSoccer> {
        name: "",
        seat: 0,
        what: crate::Recorded::Move("13".parse().unwrap()),
        after: &end,
    }];
    let text = g.history(&opening, &e, Lang::En);
    assert!(
        text.contains("[Result \"1-0\"]") && text.ends_with("0 0 0 0 71 1-0"),
        "{text}"
    );
    let rec: Record = text.parse().unwrap();
    assert_eq!(rec.replay().unwrap(), end);
    let tags = [("Date", "2026.12.01"), ("White", "ann"), ("Black", "bob")];
    let rec = Record::of_turns(
        &opening,
        &[(0, "2".parse().unwrap()), (1, "2".parse().unwrap())],
        &tags,
    )
    .unwrap();
    assert_eq!(rec.to_string().parse::<Record>().unwrap(), rec);
    assert_eq!(rec.tag("White"), Some("ann"));
    assert!(Record::of_turns(&opening, &[(1, "2".parse().unwrap())], &[]).is_err());
}

#[test]
fn renders_fit_and_show_the_board() {
    let s = st("0,0,0,0,7");
    let text = PaperSoccer.render(&s, 0, Lang::En);
    assert!(fits_gsm7(&text, render::MAX_PARTS), "{text}");
    assert!(
        text.starts_with("Your move. Bounce: go on.\nAttack: top. Last: 1"),
        "{text}"
    );
    assert!(text.contains('@'));
    let other = PaperSoccer.render(&s, 1, Lang::Ru);
    assert!(
        other.starts_with("Xod protivnika. (otskok)\nAtaka: niz."),
        "{other}"
    );
    // Large fields too.
    let big = State::new(12, 14, 1);
    assert!(fits_gsm7(
        &PaperSoccer.render(&big, 0, Lang::Ru),
        render::MAX_PARTS
    ));
}

/// The seed's worked game, "Madam Intuition" (moves first, so she attacks
/// the top goal, "Mister Umning"'s) against Mister, seven turns. Its facts in
/// order: her first turn stops on an untouched neighbour of the centre; her
/// second (turn 3) occupies the centre and bounces on; a turn bounces off a
/// border point; her last turn scores in his goal. (On the 8x10 field her
/// turn 5 cannot reach the border yet, so the border bounce comes in turn 7,
/// off the goal post; the corner ending is `the_corner_is_a_dead_end`.)
#[test]
fn the_seed_example_game() {
    let (madam, mister) = (0, 1);
    let mut s = State::new(8, 10, madam);
    let turns = [
        (madam, "2", (4, 4)),  // stops: (4,4) was untouched
        (mister, "6", (5, 4)), // stops
        (madam, "7", (4, 5)),  // the centre: she bounces...
        (madam, "1", (3, 4)),  // ...and stops (the same turn, a second text)
        (mister, "2", (3, 3)),
        (madam, "3", (4, 2)),
        (mister, "2", (4, 1)),
        (madam, "1", (3, 0)), // the goal post: a border point, she bounces
    ];
    for (seat, keys, at) in turns {
        let (t, effect) = play(&s, seat, keys).unwrap_or_else(|r| panic!("{keys}: {r:?}"));
        assert_eq!(ball(&t), at, "{keys}");
        let bounced = matches!(at, (4, 5) | (3, 0));
        assert_eq!(
            effect,
            if bounced {
                Effect::Continues
            } else {
                Effect::Resolved
            },
            "{keys}"
        );
        s = t;
    }
    let (end, effect) = play(&s, madam, "3").unwrap();
    assert_eq!(effect, Effect::Resolved);
    assert_eq!(end.end.map(|e| (e.winner, e.how)), Some((madam, How::Goal)));
    assert_eq!(end.turns.len(), 7);
    assert_eq!(end.to_string(), "8x10 0 0,2,57,0,1,0,71 -");
    assert!(
        PaperSoccer
            .render(&end, madam, Lang::Ru)
            .starts_with("Vi pobedili. Gol.")
    );
    assert!(
        PaperSoccer
            .render(&end, mister, Lang::Ru)
            .starts_with("Vi proigrali. Gol.")
    );
    for (seat, lang, hint) in [
        (madam, Lang::Ru, "PA - revansh."),
        (mister, Lang::En, "PA - rematch."),
    ] {
        let text = PaperSoccer.render(&end, seat, lang);
        assert!(text.ends_with(&format!("\n{hint}")), "{text}");
        assert!(fits_gsm7(&text, render::MAX_PARTS), "{text}");
    }
    let running = PaperSoccer.render(&s, mister, Lang::En);
    assert!(!running.contains("PA - rematch."), "{running}");
}

/// Whole replies as the catalogs word them, in both languages: a finished
/// match's board text, a refused step, a move that cannot be read, a field
/// size that does not exist.
#[test]
fn whole_replies_come_from_the_catalogs_in_both_languages() {
    let s = State::new(4, 4, 0);
    let (s, _) = play(&s, 0, "6").unwrap();
    let (s, _) = play(&s, 1, "8").unwrap();
    let end = PaperSoccer.withdraw(s.clone(), 1, Withdrawal::Resigned, &[false, false]);
    let board = "  +-+-+\n  |   |\n+-+ . +-+\n\n+ . . . +\n\n+ . +-+ +\n      |\n+ . . @ +\n\n+-+ . +-+\n  |   |\n  +-+-+";
    assert_eq!(
        PaperSoccer.render(&end, 0, Lang::Ru),
        format!("Vi pobedili. Sdacha.\nAtaka: verx. Posl: 8\n{board}\nPA - revansh.")
    );
    assert_eq!(
        PaperSoccer.render(&end, 1, Lang::En),
        format!("You lost. Resigned.\nAttack: bottom. Last: 8\n{board}\nPA - rematch.")
    );
    let refused = play(&s, 0, "66").unwrap_err();
    assert_eq!(
        refused.text(Lang::Ru),
        "Xod 2 (6) nevozmozhen: shtanga ili za predely polya. Nichego ne izmeneno."
    );
    assert_eq!(
        refused.text(Lang::En),
        "Step 2 (6) is not possible: a goal post or out of the field. Nothing changed."
    );
    // The move reader's reasons a player reads, after the platform's
    // "Cannot read that move:".
    let unread = "2a".parse::<Move>().unwrap_err();
    assert_eq!(
        unread.for_player(Lang::Ru).as_deref(),
        Some("ne cifra napravleniya (1-4, 6-9): 'a'")
    );
    assert_eq!(
        unread.for_player(Lang::En).as_deref(),
        Some("not a keypad direction (1-4, 6-9): 'a'")
    );
    let empty = " ".parse::<Move>().unwrap_err();
    assert_eq!(
        empty.for_player(Lang::Ru).as_deref(),
        Some("net cifr napravleniya")
    );
    let size = "8x15".parse::<Options>().unwrap_err();
    assert_eq!(
        size.0.text(Lang::Ru),
        "Nevernyi razmer polya 8x15 (shirina 4-12, dlina 4-14, chetnye)."
    );
    assert_eq!(
        size.english(),
        "Bad field size 8x15 (length 15: even, 4-14)."
    );
    assert_eq!(PaperSoccer.name(Lang::Ru), "Futbol na bumage");
    assert_eq!(PaperSoccer.name(Lang::En), "Paper soccer");
}
