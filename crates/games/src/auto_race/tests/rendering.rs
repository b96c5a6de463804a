//! The texts: what they say, GSM-7 only, within 2 SMS parts.

use super::car::{Run, Why};
use super::kit::*;
use super::*;
use smsarena_text::encoding::{Encoding, analyse};

/// A text's SMS parts, asserting it is GSM-7.
pub fn parts(text: &str) -> u32 {
    let a = analyse(text);
    assert_eq!(a.encoding, Encoding::Gsm7, "not GSM-7: {text}");
    a.parts
}

/// The example the player's guide shows.
fn guide_race() -> State {
    let mut state = turn_of(race(3, 6, "A=10.1 a=8.3 B=12.2 b=9.1 C=11.4 c=6.2"), 'A', 3);
    state.last = Some((car_of(&state, 'C'), mv("F")));
    state
}

#[test]
fn the_car_to_move_sees_the_window() {
    let state = guide_race();
    assert_eq!(
        game().render(&state, 0, Lang::En),
        "Your move: A. Lap 1/6, length 1-3.\n\
         1 .bA........\n\
         2 ....B......\n\
         3 a..........\n\
         4 ...C.......\n\
         Order: B C A* b a c. Last: C F."
    );
    assert_eq!(
        game().render(&state, 0, Lang::Ru),
        "Vash xod: A. Krug 1/6, xod 1-3.\n\
         1 .bA........\n\
         2 ....B......\n\
         3 a..........\n\
         4 ...C.......\n\
         Poryadok: B C A* b a c. Bil: C F."
    );
}

#[test]
fn the_others_see_the_standings_and_whose_turn_it_is() {
    let mut state = guide_race();
    let c = car_of(&state, 'c');
    state.cars[c].run = Run::Out(1, Why::Zero);
    assert_eq!(
        game().render(&state, 1, Lang::Ru),
        "Xod protivnika: edet A. Vashi: B, b.\n\
         Lider na kruge 1/6, raund 1.\n\
         Mesta: B C A b a.\n\
         Soshli: c (nol). Bil: C F."
    );
    assert_eq!(
        game().render(&state, 2, Lang::En),
        "Opponents' move: car A. Yours: C, c.\n\
         Leader on lap 1/6, round 1.\n\
         Places: B C A b a.\n\
         Out: c (zero move). Last: C F."
    );
}

#[test]
fn the_finish_line_and_turns_show_in_the_window() {
    // a and b are a lap behind, physically ahead past the line.
    let near = race(2, 2, "A=27.2 a=3.4 B=28.1 b=1.4");
    assert_eq!(
        game().render(&near, 1, Lang::En),
        "Your move: B. Lap 1/2, length 1-4.\n\
         1 ..B.:.......\n\
         2 .A..:.......\n\
         3 ....:.......\n\
         4 ....:.b.a...\n\
         Order: B* A a b."
    );
    let zig = race_on(&zigzag(), 2, 2, false, "A=5.1 a=3.4 B=6.2 b=1.4");
    assert_eq!(
        game().render(&zig, 1, Lang::En),
        "Your move: B. Lap 1/2, length 1-4.\n\
         1 .A...|...... 4\n\
         2 ..B..|...... 3\n\
         3 .....|...... 2\n\
         4 .....|...... 1\n\
         Order: B* A a b."
    );
    // At a right turn the inner lane is still the top line.
    let right = race_on(&zigzag(), 2, 2, false, "A=12.3 a=12.4 B=5.2 b=5.1");
    assert_eq!(
        game().render(&right, 0, Lang::En),
        "Your move: a. Lap 1/2, length 1-4.\n\
         1 ..a.....|... 4\n\
         2 ..A.....|... 3\n\
         3 ........|... 2\n\
         4 ........|... 1\n\
         Order: a* A b B."
    );
}

#[test]
fn a_narrowing_shows_where_lanes_end() {
    let narrows = race_on(&gorge(), 2, 2, false, "A=10.4 a=9.3 B=5.2 b=5.1");
    assert_eq!(
        game().render(&narrows, 0, Lang::En),
        "Your move: A. Lap 1/2, length 1-4.\n\
         1 ........... 1\n\
         2 ........... 2\n\
         3 .a.......## #\n\
         4 ..A.####### #\n\
         Order: A* a b B."
    );
    // Out of the gorge the track turns right: its left lane, the gorge's
    // lane 1, is the outer lane there and ends; the right ones open.
    let opens = race_on(&gorge(), 2, 2, false, "A=18.2 a=17.1 B=5.2 b=5.1");
    assert_eq!(
        game().render(&opens, 0, Lang::En),
        "Your move: A. Lap 1/2, length 1-4.\n\
         1 .a..|#####.. 4\n\
         2 ..A.|....... 3\n\
         # .###|....... 2\n\
         # ####|....... 1\n\
         Order: A* a b B."
    );
}

#[test]
fn the_end_gives_places_points_and_the_series() {
    let over = race(2, 1, "A=30.1f1 a=30.2f4 B=30.3f2 b=30.4f3");
    assert_eq!(
        game().render(&over, 0, Lang::Ru),
        "Vi pobedili. Gonka okonchena: 1 mesto, 12 och.\n\
         Itog: A B b a.\n\
         Ochki: A 12, B 10.\n\
         Seriya: gonka 1 iz 2.\n\
         PA - revansh. S nick tekst - soobshchenie."
    );
    let mut second = over.clone();
    second.race = 2;
    second.prior = vec![7, 15];
    assert_eq!(
        game().render(&second, 1, Lang::En),
        "You lost. Race over: place 2, 10 points.\n\
         Places: A B b a.\n\
         Points: A 12, B 10.\n\
         Series over: B 25, A 19.\n\
         PA - rematch. S nick text - message."
    );
    let team = race_on(&ring(), 4, 1, true, "A=30.1f1 B=30.2f2 C=30.3f3 D=30.4f4");
    assert!(
        game()
            .render(&team, 3, Lang::En)
            .contains("Points: A+B 9, C+D 5.")
    );
}

#[test]
fn help_texts_fit_one_sms() {
    for lang in [Lang::Ru, Lang::En] {
        let help = game().move_help(lang);
        assert!(help.len() <= 105, "{} chars: {help}", help.len());
        let with_platform = format!("{help} B - pole, Q - sdatsya, T - taim-aut.");
        assert_eq!(parts(&with_platform), 1, "{with_platform}");
        assert_eq!(parts(&game().options_help(lang)), 1);
        assert!(game().name(lang).is_ascii());
    }
}

/// The longest texts an 8-player race can make: a long allowance with a
/// bonus, a long last path, every kind of car, big series points.
#[test]
fn the_longest_texts_fit_two_parts() {
    let cars = "A=40.1 a=39.1+3@1 B=38.1 b=37.1 C=36.1 c=35.1 D=34.1 d=33.1 \
                E=40.2 e=39.2 F=38.2 f=37.2 G=36.2 g=35.2 H=34.2 h=33.2";
    let mut state = turn_of(race(8, 6, cars), 'a', 20);
    state.awarded = 1;
    state.last = Some((car_of(&state, 'E'), mv(&"FIFOF".repeat(4))));
    state.race = 7;
    state.prior = vec![99; 8];
    let tail = "A=180.1f1 a=180.2f2 B=180.3f3 b=180.4f4 C=100.1x1z c=99.1x2b \
                D=98.1x3l d=97.1x4m E=96.1x5q e=95.1x6z F=94.1x7z f=93.1x8z \
                G=92.1x9z g=91.1x10z H=90.1x11z h=89.1x12z";
    let mut over = race(8, 6, tail);
    over.race = 7;
    over.prior = vec![999; 8];
    let team = race_on(
        &zigzag(),
        8,
        6,
        true,
        "A=40.1 B=39.2 C=38.3 D=37.4 E=36.1 F=35.2 G=34.3 H=33.4",
    );
    // Two cars racing, the other fourteen out for the longest reason.
    let thinned = race(
        8,
        6,
        "A=40.1 a=39.1 B=38.1x1l b=37.1x2l C=36.1x3l c=35.1x4l D=34.1x5l d=33.1x6l \
         E=32.1x7l e=31.1x8l F=30.1x9l f=29.1x10l G=28.1x11l g=27.1x12l H=26.1x13l h=25.1x14l",
    );
    // A team race names the partner while it runs.
    let waiting = game().render(&team, 1, Lang::Ru);
    assert!(
        waiting.lines().next().unwrap().ends_with(" Komanda: A+B."),
        "{waiting}"
    );
    // The widest window: five lanes, turns both ways, a width that changes.
    let wide = Track::from_compact("WIDE:9L5,7R3,9L5,7R2").unwrap();
    let mut winding = turn_of(race_on(&wide, 8, 6, false, cars), 'a', 20);
    winding.awarded = 1;
    winding.last = state.last.clone();
    let window = game().render(&winding, 0, Lang::Ru);
    assert!(window.contains('|') && window.contains('#'), "{window}");
    for s in [&state, &over, &team, &thinned, &winding] {
        for seat in 0..8 {
            for lang in [Lang::Ru, Lang::En] {
                let text = game().render(s, seat, lang);
                assert!(parts(&text) <= 2, "{} chars:\n{text}", text.len());
            }
        }
    }
}

/// Every phone is told why each car left, cars that left for one reason
/// together (it said only `Soshli: c b.`).
#[test]
fn cars_that_left_are_named_with_why() {
    let mut state = guide_race();
    for (car, why) in [('c', Why::Zero), ('b', Why::Braking), ('a', Why::Zero)] {
        let id = car_of(&state, car);
        state.cars[id].run = Run::Out(1, why);
    }
    let text = game().render(&state, 1, Lang::Ru);
    assert!(
        text.contains("Soshli: b (tormozhenie); a c (nol)."),
        "{text}"
    );
    let text = game().render(&state, 2, Lang::En);
    assert!(
        text.contains("Out: b (braking); a c (zero move)."),
        "{text}"
    );
}

/// A race of more than two sides ends in places, not in a win and losses:
/// second of three is told as second (a rating that rose beside "you lost"
/// read as a contradiction); first is a win, in both languages.
#[test]
fn a_race_of_three_ends_in_places() {
    let over = race(
        3,
        1,
        "A=30.1f2 a=30.2f4 B=30.3f1 b=30.4f5 C=30.1f3 c=30.2f6",
    );
    let en: Vec<String> = (0..3).map(|s| game().render(&over, s, Lang::En)).collect();
    assert!(
        en[1].starts_with("You won. Race over: place 1 of 3,"),
        "{}",
        en[1]
    );
    assert!(en[0].starts_with("Race over: place 2 of 3,"), "{}", en[0]);
    assert!(en[2].starts_with("Race over: place 3 of 3,"), "{}", en[2]);
    let ru = game().render(&over, 0, Lang::Ru);
    assert!(ru.starts_with("Gonka okonchena: 2 mesto iz 3,"), "{ru}");
    for text in en.iter().chain([&ru]) {
        assert!(
            !text.contains("You lost") && !text.contains("Vi proigrali"),
            "{text}"
        );
    }
}

/// The texts come from the catalogs whole: the end of a race of three in
/// places, a refusal, an unreadable move and a lap bonus, word for word in
/// both languages.
#[test]
fn the_catalogs_word_the_end_a_refusal_and_an_unreadable_move() {
    let over = race(
        3,
        1,
        "A=30.1f2 a=30.2f4 B=30.3f1 b=30.4f5 C=30.1f3 c=30.2f6",
    );
    assert_eq!(
        game().render(&over, 0, Lang::En),
        "Race over: place 2 of 3, 9 points.\n\
         Places: B A C a b c.\n\
         Points: B 11, A 9, C 5.\n\
         Series: race 1 of 3.\n\
         PA - rematch. S nick text - message."
    );
    assert_eq!(
        game().render(&over, 0, Lang::Ru),
        "Gonka okonchena: 2 mesto iz 3, 9 och.\n\
         Itog: B A C a b c.\n\
         Ochki: B 11, A 9, C 5.\n\
         Seriya: gonka 1 iz 3.\n\
         PA - revansh. S nick tekst - soobshchenie."
    );
    let taken = Refusal::Occupied {
        step: 2,
        mv: Step::Inner,
        by: 'b',
        lane: 3,
        ahead: 1,
        line: false,
    };
    assert_eq!(
        taken.text(Lang::En),
        "Step 2 (I): the cell on lane 3, 1 ahead, is taken by car b."
    );
    assert_eq!(
        taken.text(Lang::Ru),
        "Shag 2 (I): Kletka na kotoruyu vy hoteli vstat zanyata: polosa 3, 1 vperedi, mashina b."
    );
    let unreadable = "FX".parse::<Move>().unwrap_err();
    assert_eq!(
        unreadable.for_player(Lang::En).as_deref(),
        Some("'X' (character 2) is not a step: use F, I, O, or a number")
    );
    assert_eq!(
        unreadable.for_player(Lang::Ru).as_deref(),
        Some("'X' (simvol 2) - ne shag: nuzhny F, I, O ili chislo")
    );
    let long = "9".repeat(3).parse::<Move>().unwrap_err();
    assert_eq!(
        long.for_player(Lang::Ru).as_deref(),
        Some("xod chislom - ot 1 do 99, a ne 999")
    );
    let mut bonus = turn_of(race(2, 6, "A=40.1 a=39.1+3@1 B=38.1 b=37.1"), 'a', 5);
    bonus.awarded = 1;
    let head = |lang| {
        let text = game().render(&bonus, 0, lang);
        text.lines().next().unwrap().to_string()
    };
    assert_eq!(
        head(Lang::En),
        "Your move: a. Lap 2/6, length 1-5, bonus 3."
    );
    assert_eq!(head(Lang::Ru), "Vash xod: a. Krug 2/6, xod 1-5, bonus 3.");
}
