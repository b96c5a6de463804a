//! Game-level tests through the `Game` trait: the seed's example game, captures, the end.

use rand::SeedableRng;

use super::*;
use crate::{Reason, SeatResult, Standing, Status};
use smsarena_text::encoding::analyse;

mod captures;
mod generation;
mod props;
mod refusals;
mod robots;

/// The seed's words (and a few more used below), for a game that does not
/// depend on the built-in list.
pub(super) const SEED_WORDS: &str = "бамбук 50\nбудуар 50\nбордо 50\nбостон 50\nокурок 50\n\
    рококо 50\nрок 50\nкурок 50\nурок 50\nкраска 50\nнамёк 50\nуголок 50\nаканье 50\nраут 50\n\
    кол 50\nкок 50\nбар 5\nрот 5\nкадило 50\nкот 50\nток 40\nкит 10\nлимад 5\n";

/// A dictionary that lives as long as the tests (leaked once per call: tests only).
pub(super) fn leak(variant: Variant, words: &str) -> &'static Dictionary {
    Box::leak(Box::new(Dictionary::parse(variant, words).unwrap()))
}

pub(super) fn seed_game() -> WordBattle {
    WordBattle::new().with_dictionary(leak(Variant::Ru, SEED_WORDS))
}

pub(super) fn rng() -> MatchRng {
    MatchRng::seed_from_u64(7)
}

pub(super) fn cell(name: &str) -> Cell {
    name.parse().unwrap()
}

/// Plays `text` for whoever is on turn; it must be accepted.
pub(super) fn play(game: &WordBattle, state: State, text: &str) -> State {
    let seat = state.seat_of(state.turn());
    let mv: Move = text.parse().unwrap();
    match game.play(state, seat, &mv, &mut rng()) {
        Ok(p) => p.state,
        Err(r) => panic!("{text} refused: {}", r.reason.text(Lang::En)),
    }
}

fn owner(state: &State, name: &str) -> Option<Colour> {
    state.board().owner(cell(name))
}

fn counts(state: &State) -> (u32, u32) {
    (state.score(Colour::Red), state.score(Colour::Blue))
}

/// The seed's game with max length 6, Red on seat 0, checked after every
/// word against the counts the seed's diagrams give.
pub(super) fn seed_line(game: &WordBattle) -> State {
    let mut state = State::new(Variant::Ru, 6, 0);
    // The last crosses Red's О at e5 and cuts off К at f5: two letters taken.
    let counts_after = [(6, 0), (6, 6), (10, 6), (10, 11), (15, 11), (13, 17)];
    for (text, want) in EXAMPLE_OPENING.iter().zip(counts_after) {
        state = play(game, state, text);
        assert_eq!(counts(&state), want, "after {text}");
    }
    state
}

const AFTER_ROKOKO: &str = "\
....раудуб10
....о....о9
....к....с8
....о....т7
....к....о6
ОКУРок...н5
Д.........4
Р.........3
О.........2
БАМБУК....1
abcdefghij
Krasnye(vy) 13 : Sinie 17
e10d рококо
Vash xod.";

#[test]
fn the_seed_game_plays_out_exactly() {
    for game in [seed_game(), WordBattle::new()] {
        let state = seed_line(&game);
        assert_eq!(owner(&state, "e5"), Some(Colour::Blue), "taken by crossing");
        assert_eq!(owner(&state, "f5"), Some(Colour::Blue), "taken as cut off");
        assert_eq!(owner(&state, "d5"), Some(Colour::Red));
        assert_eq!(game.render(&state, 0, Lang::Ru), AFTER_ROKOKO);
        // Red answers РОК inside ОКУРОК and takes both back.
        let state = play(&game, state, "d5r рок");
        assert_eq!(counts(&state), (15, 15));
        assert_eq!(owner(&state, "e5"), Some(Colour::Red));
        assert_eq!(owner(&state, "f5"), Some(Colour::Red));
    }
}

#[test]
fn the_seed_game_goes_on_as_its_text_tells() {
    // The seed gives no cells after РОКОКО; these are the only placements
    // its words and the captures it describes allow.
    let game = WordBattle::new();
    let state = seed_line(&game);
    // "Blue cannot go left from its О: ОРУ, ОРУК, ОРУКО are no words."
    for w in ["ору", "орук", "оруко"] {
        assert!(game.dictionary(Variant::Ru).find(w).is_none(), "{w}");
    }
    let blue = state.seat_of(Colour::Blue);
    let mut blue_view = state.clone();
    blue_view.turn = Colour::Blue;
    assert!(
        game.legal_moves(&blue_view, blue)
            .iter()
            .all(|m| !m.to_string().starts_with("e5l ")),
        "no Blue word leftwards from e5"
    );
    // КРАСКА up from f1 retakes f5 (crossing) and threatens РОКОКО.
    let state = play(&game, state, "f1u краска");
    assert_eq!(counts(&state), (18, 16));
    // НАМЁК takes "the dangerous К and А": f5 crossed, f6 cut off.
    let state = play(&game, state, "j5l намёк");
    assert_eq!(owner(&state, "f5"), Some(Colour::Blue));
    assert_eq!(owner(&state, "f6"), Some(Colour::Blue));
    assert_eq!(counts(&state), (16, 21));
    // УГОЛОК up from e1; it threatens КОК up (takes О and К) and КАДИЛО
    // right (takes the letters of НАМЁК by cutting them off).
    let state = play(&game, state, "e1u уголок");
    assert_eq!(counts(&state), (21, 19));
    let mut red_again = state.clone();
    red_again.turn = Colour::Red;
    let kok = play(&game, red_again.clone(), "e6u кок");
    assert_eq!(counts(&kok), (23, 17));
    let kadilo = play(&game, red_again, "e6r кадило");
    for c in ["f5", "g5", "h5", "i5", "j5", "j6"] {
        assert_eq!(owner(&kadilo, c), Some(Colour::Red), "{c}");
    }
    // АКАНЬЕ left from f6, then РАУТ, then КОЛ down from e6: Blue threatens
    // a 5-letter word left from Л ending on Д that takes everything above.
    let state = play(&game, state, "f6l аканье");
    assert_eq!(counts(&state), (20, 24));
    // РАУТ takes d6 and cuts off Н, Ь, Е on row 6.
    let state = play(&game, state, "d5u раут");
    assert_eq!(counts(&state), (26, 20));
    let state = play(&game, state, "e6d кол");
    assert_eq!(counts(&state), (24, 22));
    assert_eq!(owner(&state, "e4"), Some(Colour::Blue));
    assert!(
        state
            .board()
            .tile(cell("a4"))
            .is_some_and(|t| t.owner == Colour::Red)
    );
}

#[test]
fn a_cut_through_column_a_takes_everything_above() {
    // КОЛ's threat made real with a made-up word ЛИМАД (test dictionary).
    let game = seed_game();
    let state = seed_line(&game);
    let steps = [
        "f1u краска",
        "j5l намёк",
        "e1u уголок",
        "f6l аканье",
        "d5u раут",
        "e6d кол",
    ];
    let state = steps.iter().fold(state, |s, t| play(&game, s, t));
    let red_before = state.score(Colour::Red);
    let above: Vec<Cell> = state
        .board()
        .cells_of(Colour::Red)
        .filter(|c| c.row() >= 5)
        .collect();
    assert!(above.len() >= 6);
    let state = play(&game, state, "-");
    let state = play(&game, state, "e4l лимад");
    for c in &above {
        assert_eq!(state.board().owner(*c), Some(Colour::Blue), "{c}");
    }
    assert!(state.score(Colour::Red) < red_before - above.len() as u32 + 1);
    assert_eq!(
        owner(&state, "a3"),
        Some(Colour::Red),
        "below the cut stays Red"
    );
}

#[test]
fn taking_the_base_ends_the_match() {
    let game = WordBattle::new().with_dictionary(leak(Variant::Ru, "коток 5\nток 5"));
    // Red holds column a and row 10 up to f10; Blue holds j10 and j9.
    let text = "WB1 v=ru len=6 red=0 turn=R passes=0 end=- board=\
        КОТОКК...к/Т........о/О........./К........./К........./О........./Т........./О........./К........./К......... words=-";
    let state: State = text.parse().unwrap();
    let state = play(&game, state, "f10r коток");
    assert_eq!(state.end(), state::End::Base);
    assert_eq!(counts(&state), (20, 0), "j9 goes with the base");
    let Status::Finished(standings) = game.status(&state) else {
        panic!("over")
    };
    assert_eq!(Standing::result(&standings, 0), SeatResult::Won);
    assert_eq!(standings[1].score, Some(0));
    assert_eq!(state.to_string().parse::<State>(), Ok(state.clone()));
    assert!(game.legal_moves(&state, 1).is_empty());
}

#[test]
fn writing_on_a_base_before_its_first_word_takes_it() {
    let game = WordBattle::new().with_dictionary(leak(Variant::Ru, "коток 5\nток 5"));
    // Blue has passed from the start; Red reaches j10 while it shows the hint.
    let text = "WB1 v=ru len=6 red=0 turn=R passes=1 end=- board=\
        КОТОКК..../Т........./О........./К........./К........./О........./Т........./О........./К........./К......... words=-";
    let state: State = text.parse().unwrap();
    let state = play(&game, state, "f10r коток");
    assert_eq!(state.end(), state::End::Base);
    assert_eq!(
        game.render(&state, 1, Lang::En).lines().last(),
        Some("A base was taken. You lost. PA - rematch.")
    );
}

#[test]
fn two_passes_end_it_and_the_letters_decide() {
    let game = seed_game();
    let state = seed_line(&game);
    let state = play(&game, state, "-");
    assert!(matches!(game.status(&state), Status::Awaiting(ref s) if s == &[1]));
    let state = play(&game, state, "-");
    assert_eq!(state.end(), state::End::Passes);
    let Status::Finished(standings) = game.status(&state) else {
        panic!("over")
    };
    assert_eq!(
        Standing::result(&standings, 1),
        SeatResult::Won,
        "Blue 17 : Red 13"
    );
    assert_eq!(standings[0].score, Some(13));
    // A pass between words does not count towards two in a row.
    let state = play(&game, seed_line(&game), "-");
    let state = play(&game, state, "j7l ток");
    let state = play(&game, state, "-");
    assert!(!state.is_over());
}

#[test]
fn equal_letters_draw_and_resigning_loses() {
    let game = seed_game();
    let state = play(&game, seed_line(&game), "d5r рок");
    let state = play(&game, play(&game, state, "-"), "-");
    let Status::Finished(standings) = game.status(&state) else {
        panic!("over")
    };
    assert_eq!(
        standings,
        vec![
            Standing {
                place: 1,
                score: Some(15)
            };
            2
        ]
    );
    let resigned = game.withdraw(seed_line(&game), 1, Withdrawal::Resigned, &[false, false]);
    let Status::Finished(standings) = game.status(&resigned) else {
        panic!("over")
    };
    assert_eq!(
        Standing::result(&standings, 0),
        SeatResult::Won,
        "Red wins though behind"
    );
    assert_eq!(resigned.to_string().parse::<State>(), Ok(resigned));
}

#[test]
fn sides_are_drawn_and_swapped() {
    let game = seed_game();
    let two: Options = "".parse().unwrap();
    let reds: std::collections::HashSet<Seat> = (0..20)
        .map(|s| game.start(&two, &mut MatchRng::seed_from_u64(s)).red_seat())
        .collect();
    assert_eq!(reds.len(), 2);
    let first = game.start(&two, &mut rng());
    let finished = game.withdraw(first.clone(), 0, Withdrawal::Resigned, &[false, false]);
    let again = game.rematch(&finished, &two, &mut rng());
    assert_eq!(again.red_seat(), 1 - first.red_seat());
    let bot: Options = "BOT 3 7 EN".parse().unwrap();
    let state = game.start(&bot, &mut rng());
    assert_eq!(
        (state.red_seat(), state.max_len(), state.variant()),
        (0, 7, Variant::En)
    );
    assert_eq!(game.rematch(&state, &bot, &mut rng()).red_seat(), 0);
}

#[test]
fn full_boards_fit_three_parts() {
    let game = WordBattle::new();
    let full_ru = "WB1 v=ru len=7 red=1 turn=B passes=0 end=- board=\
        ЁЁЁЁЁЁЁЁЁё/ЁЁЁЁЁЁЁЁЁё/ЁЁЁЁЁЁЁЁЁё/ЁЁЁЁЁЁЁЁЁё/ЁЁЁЁЁЁЁЁЁё/ЁЁЁЁЁЁЁЁЁё/ЁЁЁЁЁЁЁЁЁё/ЁЁЁЁЁЁЁЁЁё/ЁЁЁЁЁЁЁЁЁё/Ёёёёёёёёёё \
        words=j10d:ёёёёёёё";
    let state: State = full_ru.parse().unwrap();
    let over = game.withdraw(state.clone(), 0, Withdrawal::Absent, &[true, false]);
    let passed = play(&game, state.clone(), "-");
    for s in [&state, &over, &passed, &State::new(Variant::Ru, 6, 0)] {
        for seat in 0..3 {
            for lang in [Lang::Ru, Lang::En] {
                let text = game.render(s, seat, lang);
                let a = analyse(&text);
                assert!(
                    a.parts <= 3,
                    "{} units, {} parts:\n{text}",
                    a.units,
                    a.parts
                );
            }
        }
    }
    let en = State::new(Variant::En, 6, 0);
    assert_eq!(
        analyse(&game.render(&en, 0, Lang::En)).parts,
        2,
        "English boards are GSM-7"
    );
}

#[test]
fn help_texts_fit_one_sms_with_the_platform_commands() {
    let game = WordBattle::new();
    for lang in [Lang::Ru, Lang::En] {
        let help = format!(
            "{} B - pole, Q - sdatsya, T - taim-aut.",
            game.move_help(lang)
        );
        let a = analyse(&help);
        assert!(a.parts == 1 && a.encoding.as_str() == "gsm7", "{help}");
        assert_eq!(analyse(&game.options_help(lang)).parts, 1);
        assert_eq!(analyse(game.name(lang)).encoding.as_str(), "gsm7");
    }
}

#[test]
fn the_english_variant_plays_english_words() {
    let game = WordBattle::new();
    let options: Options = "EN".parse().unwrap();
    let state = game.start(&options, &mut rng());
    let state = play(&game, state, "a1r bamboo");
    let state = play(&game, state, "j10d bottle");
    assert_eq!(counts(&state), (6, 6));
    let red = state.seat_of(Colour::Red);
    let refused = game
        .play(
            state.clone(),
            red,
            &"a1u бамбук".parse().unwrap(),
            &mut rng(),
        )
        .unwrap_err();
    assert_eq!(
        refused.reason,
        Refusal::WrongAlphabet {
            variant: Variant::En
        }
    );
    let refused = game
        .play(state.clone(), red, &"a1u bxq".parse().unwrap(), &mut rng())
        .unwrap_err();
    assert_eq!(
        refused.reason,
        Refusal::NotInDictionary { word: "bxq".into() }
    );
    assert!(game.legal_moves(&state, red).len() > 100);
    let text = game.render(&state, red, Lang::En);
    assert!(
        text.contains("BAMBOO....1") && text.contains(".........b10"),
        "{text}"
    );
    // Russian boards refuse Latin words the same way.
    let ru = State::new(Variant::Ru, 6, 0);
    let refused = game
        .play(ru, 0, &"a1r cat".parse().unwrap(), &mut rng())
        .unwrap_err();
    assert_eq!(
        refused.reason,
        Refusal::WrongAlphabet {
            variant: Variant::Ru
        }
    );
}

#[test]
fn history_lists_the_moves_with_commas() {
    use crate::{HistoryEntry, Recorded};
    let game = seed_game();
    let opening = State::new(Variant::Ru, 6, 0);
    let first = play(&game, opening.clone(), "a1r бамбук");
    let second = play(&game, first.clone(), "-");
    let entries = [
        HistoryEntry {
            name: "",
            seat: 0,
            what: Recorded::Move("a1r бамбук".parse().unwrap()),
            after: &first,
        },
        HistoryEntry {
            name: "",
            seat: 1,
            what: Recorded::Null(Move::Pass),
            after: &second,
        },
        HistoryEntry {
            name: "",
            seat: 1,
            what: Recorded::Withdrawal(Withdrawal::Resigned),
            after: &second,
        },
    ];
    assert_eq!(game.history(&opening, &entries, Lang::Ru), "a1r бамбук, -");
}

/// The opening says how to write a move from the reader's base; a pass says
/// who passed (a missed deadline passes too); the end says why it ended.
#[test]
fn the_texts_say_how_to_move_who_passed_and_why_it_ended() {
    let game = WordBattle::new();
    let state = State::new(Variant::Ru, 6, 0);
    let red = game.render(&state, 0, Lang::Ru);
    assert!(red.ends_with("Xod: a1r slovo. HELP.\nVash xod."), "{red}");
    let blue = game.render(&state, 1, Lang::En);
    assert!(blue.contains("Move: j10l word. HELP."), "{blue}");
    let passed = play(&game, state, "-");
    assert!(
        game.render(&passed, 0, Lang::Ru)
            .contains("\nVy spasovali.\n")
    );
    let seen = game.render(&passed, 1, Lang::Ru);
    assert!(
        seen.contains("\nPas krasnyx.\n") && !seen.contains("HELP"),
        "{seen}"
    );
    let over = play(&game, passed.clone(), "-");
    let text = game.render(&over, 0, Lang::Ru);
    assert!(text.ends_with("Dva pasa. Nichya. PA - revansh."), "{text}");
    let left = game.withdraw(passed, 1, Withdrawal::Absent, &[false, true]);
    let text = game.render(&left, 0, Lang::En);
    assert!(
        text.ends_with("The opponent left. You won. PA - rematch."),
        "{text}"
    );
    for t in [&red, &blue, &seen] {
        assert!(smsarena_text::encoding::analyse(t).parts <= 3, "{t}");
    }
}

/// The texts come from the catalogs whole: a board's lines below the
/// letters, the end, a refusal and an unreadable move, word for word in
/// both languages.
#[test]
fn the_catalogs_word_a_reply_the_end_a_refusal_and_an_unreadable_move() {
    let game = WordBattle::new();
    let state = State::new(Variant::Ru, 6, 0);
    let words = |text: String| -> Vec<String> {
        let board = text.lines().position(|l| l == "abcdefghij").unwrap();
        text.lines().skip(board + 1).map(str::to_string).collect()
    };
    assert_eq!(
        words(game.render(&state, 1, Lang::En)),
        [
            "Red 0 : Blue(you) 0",
            "Move: j10l word. HELP.",
            "Opponent's move."
        ]
    );
    assert_eq!(
        words(game.render(&state, 1, Lang::Ru)),
        [
            "Krasnye 0 : Sinie(vy) 0",
            "Xod: j10l slovo. HELP.",
            "Xod protivnika."
        ]
    );
    let passed = play(&game, state, "-");
    let over = play(&game, passed, "-");
    assert_eq!(
        words(game.render(&over, 0, Lang::En)),
        [
            "Red(you) 0 : Blue 0",
            "Blue passed.",
            "Two passes. Draw. PA - rematch."
        ]
    );
    assert_eq!(
        words(game.render(&over, 0, Lang::Ru)),
        [
            "Krasnye(vy) 0 : Sinie 0",
            "Pas sinix.",
            "Dva pasa. Nichya. PA - revansh."
        ]
    );
    let wrong = Refusal::WrongDirection {
        side: Colour::Blue,
        dir: Dir::Right,
    };
    assert_eq!(
        wrong.text(Lang::En),
        "r (right) is not your direction: Blue writes l (left) or d (down)."
    );
    assert_eq!(
        wrong.text(Lang::Ru),
        "Napravlenie r (vpravo) ne vashe: sinie pishut l (vlevo) ili d (vniz)."
    );
    let both = Refusal::BothFit {
        cell: cell("a1"),
        dirs: [Dir::Right, Dir::Up],
    };
    assert_eq!(
        both.text(Lang::En),
        "The word fits from a1 both right and up: send a1r or a1u."
    );
    assert_eq!(
        both.text(Lang::Ru),
        "Slovo vstaet ot a1 i vpravo, i vverx: napishite a1r ili a1u."
    );
    let unreadable = "z9r кот".parse::<Move>().unwrap_err();
    assert_eq!(
        unreadable.for_player(Lang::En).as_deref(),
        Some("\"z9\" is no cell: a column a-j and a row 1-10, like a1 or j10")
    );
    assert_eq!(
        unreadable.for_player(Lang::Ru).as_deref(),
        Some("\"z9\" - ne kletka: stolbec a-j i ryad 1-10, kak a1 ili j10")
    );
}
