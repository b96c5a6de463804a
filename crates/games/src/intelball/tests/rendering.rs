//! The board text: the opening exactly, every symbol, and at most 3 GSM-7
//! SMS parts on crowded positions with the longest lines.

use super::*;
use smsarena_text::encoding::{Encoding, analyse};

const OPENING_RU: &str = "              111
  123 456 789 012
1 ... ... ... ...
2 ... .L. .R. ...
3 ..L ... ... R..
4 G.. .L* .R. ..H
5 ..L ... ... R..
6 ... .L. .R. ...
7 ... ... ... ...
L R igroki, G H vratari, l r g h blok, @ $ s myachom
Myach: (4,6)
Schet 0:0 (L:R), vremya 0/90.
Vash xod. Vy - sinie (L).";

#[test]
fn opening_board() {
    let state = match_on(Position::opening(), Mode::Bot);
    assert_eq!(game().render(&state, 0, Lang::Ru), OPENING_RU);
    let en = game().render(&state, 0, Lang::En);
    assert!(
        en.ends_with("Ball: (4,6)\nScore 0:0 (L:R), time 0/90.\nYour move. You are Blue (L)."),
        "{en}"
    );
    let red = match_on(Position::opening(), Mode::Duel { seat0: BLUE });
    assert!(
        game()
            .render(&red, 1, Lang::Ru)
            .ends_with("Xod protivnika. Vy - krasnye (R).")
    );
    let hot = match_on(Position::opening(), Mode::Hot);
    assert!(game().render(&hot, 1, Lang::Ru).ends_with("Xod sinix (L)."));
}

#[test]
fn holders_blocks_and_the_last_combination() {
    let after = ok(
        match_on(Position::opening(), Mode::Hot),
        0,
        "B(4,6)>L(4,5)B~L(4,5)>L(6,5)",
    )
    .state;
    let text = game().render(&after, 0, Lang::En);
    assert!(text.contains("\n4 G.. .l. .R. ..H\n"), "{text}");
    assert!(text.contains("\n6 ... .@. .R. ...\n"), "{text}");
    assert!(
        text.contains("Ball: L(6,5)\nSo far: B(4,6)>L(4,5)B~L(4,5)>L(6,5)\n"),
        "{text}"
    );
    assert!(text.ends_with("Blue (L) to move. U to undo."), "{text}");
    let red = ok(after, 0, "B~L(6,5)>F(1,10)").state;
    let red = ok(red, 1, "R(2,8)>F(2,9)").state;
    let blue = ok(red, 0, "L(2,5)>F(2,6)").state;
    let red = ok(blue, 1, "B(1,10)>R(2,9)").state;
    let text = game().render(&red, 1, Lang::Ru);
    assert!(text.contains("\n2 ... ..L ..$ ...\n"), "{text}");
    // Past the first round the legend is the guide's.
    assert!(red.pos.time > 0 && !text.contains("vratari"), "{text}");
    assert!(
        text.contains("Myach: R(2,9)\nNachato: B(1,10)>R(2,9)\n"),
        "{text}"
    );
    // A goalkeeper with the ball.
    let caught = ok(
        match_on(super::rules_positions::caught(), Mode::Hot),
        0,
        "B~L(3,8)>F(3,13)",
    )
    .state;
    let text = game().render(&caught, 0, Lang::Ru);
    assert!(text.contains("\n3 ... ... .L. ..$\n"), "{text}");
    assert!(
        text.contains("Myach: R(3,12), vratar\nPosl.: B~L(3,8)>F(3,13)\n"),
        "{text}"
    );
}

/// Only GSM-7 characters; the part count within 3.
fn fits(text: &str) {
    let a = analyse(text);
    assert_eq!(a.encoding, Encoding::Gsm7, "{text}");
    assert!(
        a.parts <= 3,
        "{} parts, {} septets:\n{text}",
        a.parts,
        a.units
    );
}

#[test]
fn crowded_boards_fit_three_parts() {
    // Six codes of two-digit columns with `~` (two septets each), a takeback
    // notice, both languages, every seat.
    let long = picture(
        [
            ".........L.R",
            "...........R",
            "..L.....R...",
            "G........L.H",
            "..L.......@R",
            "...........R",
            "............",
        ],
        BLUE,
    );
    let duel = match_on(long, Mode::Duel { seat0: BLUE });
    let played = ok(
        duel,
        0,
        "B~L(5,11)>L(4,10)B~L(4,10)>L(1,10)B~L(1,10)>F(1,11)",
    )
    .state;
    let asked = ok(played.clone(), 0, "U").state;
    for state in [&played, &asked] {
        for seat in 0..2 {
            for lang in [Lang::Ru, Lang::En] {
                fits(&game().render(state, seat, lang));
            }
        }
    }
    // The longest combinations there can be, with the longest cells: a
    // finished one (a take, five passes, a shot) and one in progress (a
    // take, five passes), each with a takeback notice.
    let code = "B~L(7,10)>L(7,11)";
    // The longest ball line too: a keeper holding it on a two-digit column.
    let keeper_holds = picture(
        [
            "...L....R...",
            "...L....R...",
            "..L.....R...",
            "G..L.....R.%",
            "..L.....R...",
            "............",
            "............",
        ],
        BLUE,
    );
    for (codes, turn) in [(7, RED), (6, BLUE)] {
        let mut state = match_on(keeper_holds.clone(), Mode::Duel { seat0: BLUE });
        state.pos.last = super::code::parse_codes(&code.repeat(codes)).unwrap();
        state.pos.turn = turn;
        state.pos.time = 89;
        state.pos.score = [10, 10];
        for asked in [Some(0), Some(1)] {
            state.asked = asked;
            for seat in 0..2 {
                for lang in [Lang::Ru, Lang::En] {
                    fits(&game().render(&state, seat, lang));
                }
            }
        }
    }
    let timed_out = super::turn::withdraw(played.clone(), 1, crate::Withdrawal::Absent);
    let text = game().render(&timed_out, 0, Lang::Ru);
    assert!(
        text.ends_with("Vi pobedili. Sopernik ne xodil i vybyl po vremeni.\nPA - revansh."),
        "a timeout is no resignation: {text}"
    );
    let again: State = timed_out.to_string().parse().unwrap();
    assert_eq!(again, timed_out, "_Q(Rt) reads back");
    // One phone's Q stops the match: neither side won.
    let hot = match_on(Position::opening(), Mode::Hot);
    let stopped = super::turn::withdraw(hot, 0, crate::Withdrawal::Resigned);
    let text = game().render(&stopped, 0, Lang::Ru);
    assert!(text.ends_with("Match ostanovlen.\nPA - revansh."), "{text}");
    assert_eq!(stopped.to_string().parse::<State>().unwrap(), stopped);
    let Status::Finished(standings) = game().status(&stopped) else {
        panic!("stopped is over")
    };
    assert!(
        standings.iter().all(|s| s.place == 1),
        "no winner: {standings:?}"
    );
    let finished = super::turn::withdraw(played, 1, crate::Withdrawal::Resigned);
    for (lang, won, lost) in [
        (
            Lang::Ru,
            "Vi pobedili. Sopernik sdalsya.\nPA - revansh.",
            "Vi proigrali.",
        ),
        (
            Lang::En,
            "You won. The opponent resigned.\nPA - rematch.",
            "You lost.",
        ),
    ] {
        let text = game().render(&finished, 0, lang);
        fits(&text);
        assert!(text.ends_with(won), "{text}");
        assert!(game().render(&finished, 1, lang).contains(lost));
    }
}

/// The move help names every kind of code (the platform's test holds it,
/// with the match commands, to one SMS).
#[test]
fn help_names_every_code_and_fits_one_sms() {
    for lang in [Lang::Ru, Lang::En] {
        let text = game().move_help(lang);
        for code in [
            ">F(", "L>B", "B>L", "B~R>L", "B&L>F", "B~L>L", "B~L>F", " - ", "U ",
        ] {
            assert!(text.contains(code), "{code} missing: {text}");
        }
        let a = analyse(&text);
        assert_eq!(
            (a.encoding, a.parts),
            (Encoding::Gsm7, 1),
            "{} septets: {text}",
            a.units
        );
        assert!(analyse(&game().options_help(lang)).parts == 1);
    }
}

/// Whole replies, worded by the catalogs (`locales/*/intelball.ftl`): a
/// finished board and a move that does not read, in each language.
#[test]
fn whole_replies_come_from_the_catalog_in_both_languages() {
    let mut state = match_on(Position::opening(), Mode::Bot);
    state.pos.score = [12, 3];
    state.pos.time = 40;
    let won = super::turn::withdraw(state, 1, crate::Withdrawal::Absent);
    let field = &OPENING_RU[..OPENING_RU.find("L R igroki").unwrap()];
    assert_eq!(
        game().render(&won, 0, Lang::Ru),
        format!(
            "{field}Myach: (4,6)\nSchet 12:3 (L:R), vremya 40/90.\n\
             Vi pobedili. Sopernik ne xodil i vybyl po vremeni.\nPA - revansh."
        )
    );
    assert_eq!(
        game().render(&won, 0, Lang::En),
        format!(
            "{field}Ball: (4,6)\nScore 12:3 (L:R), time 40/90.\n\
             You won. The opponent ran out of time.\nPA - rematch."
        )
    );
    // English quotes what it found as Rust does, Russian as typed.
    let e = "L(4,5)>F(4,4)'".parse::<Move>().unwrap_err();
    assert_eq!(
        e.for_player(Lang::Ru).as_deref(),
        Some("kod 2: nuzhno kod (L, R, B ili -), a stoit '''")
    );
    assert_eq!(
        e.for_player(Lang::En).as_deref(),
        Some(r"code 2: expected a code (L, R, B or -), found '\''")
    );
    let e = "B~L(1,1)>".parse::<Move>().unwrap_err();
    assert_eq!(
        e.for_player(Lang::Ru).as_deref(),
        Some("kod 1: nuzhno L, R ili F, a stoit konec")
    );
    assert_eq!(e.to_string(), "code 1: expected L, R or F, found the end");
}
