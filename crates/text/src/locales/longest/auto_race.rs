//! Auto race's variables (`locales/*/auto-race.ftl`) at their longest.
//!
//! Also read, from tables listed before this one: `$step` (a step's number,
//! at most 64) and `$max` (64, the longest path) from the platform's
//! `step` and `max`, `$place` (1-8) from its `place`, and `$word` (an option
//! word as the player wrote it) from the games' shared `word`. The check
//! takes a variable's value from the first table that lists it, so the
//! names here are none another game gives another meaning (`length` and
//! `typed` are paper soccer's).

pub const AUTO_RACE: &[(&str, &str)] = &[
    // The tracks the game has, as options after the syntax (` [RING|ZIGZAG]`)
    // and as a list (`RING, ZIGZAG`): the operator's folder sets how many,
    // so six of the longest names (12 letters) stand for them, what one SMS
    // holds beside the syntax (`[`, `|` and `]` cost two GSM-7 units each).
    // A track name as typed: 12 letters.
    (
        "tracks",
        " [WWWWWWWWWWWW|WWWWWWWWWWWW|WWWWWWWWWWWW|WWWWWWWWWWWW|WWWWWWWWWWWW|WWWWWWWWWWWW]",
    ),
    (
        "track_list",
        "WWWWWWWWWWWW, WWWWWWWWWWWW, WWWWWWWWWWWW, WWWWWWWWWWWW, WWWWWWWWWWWW, WWWWWWWWWWWW",
    ),
    ("track", "WWWWWWWWWWWW"),
    // A number move too big to be one: its digits as sent, up to the 100
    // characters of a reason the platform passes on (`texts::bad_move`).
    (
        "digits",
        "9999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999999",
    ),
    // A character that is no step, as sent (any character: one that
    // takes two UCS-2 units at worst), and where it stands in a path of
    // at most 64 (the reader stops at the first).
    ("character", "\u{1F600}"),
    ("position", "64"),
    // A car's letter (A-H, a-h), a step's letter (F, I, O, N).
    ("car", "H"),
    ("step_letter", "O"),
    // A lane's number (tracks are 2-5 lanes wide), how far a car may drive
    // (the allowance chain's cap, 99; a move's length at a refused step,
    // up to 64 steps of 3), its lap bonus (3), sectors ahead of its start.
    ("lane", "5"),
    ("allow", "99"),
    ("move_length", "192"),
    ("bonus", "3"),
    ("ahead", "192"),
    // A path as its move notation: at most 64 steps, the longest the move
    // reader takes (the last move shown, an example of a possible move).
    (
        "path",
        "FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF",
    ),
    (
        "example",
        "FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF",
    ),
    // Laps (1-9), the round (a race of 9 laps on a long track: hundreds).
    ("lap", "9"),
    ("laps", "9"),
    ("round", "999"),
    // A team's seats (`A+C`); a seat's cars (`A, a`).
    ("team", "A+B"),
    ("yours", "A, a"),
    // Cars in order, the one to move marked: sixteen cars.
    ("cars", "A* a B b C c D d E e F f G g H h"),
    // The cars out of the race grouped by why (`ar-out-group`, joined by
    // `; `): fourteen cars, every reason, in its longest wording (Russian).
    (
        "out",
        "B b C c D d E e F f (otstal na krug); G (zamykayushchii); g (tormozhenie); H (vyshel); h (nol)",
    ),
    // Sides at the end (2-8), a race's points for a side (9 + 6 at most),
    // the points per side, races in a series (as many as players).
    ("sides", "8"),
    ("points", "15"),
    (
        "table",
        "A 9999, B 9999, C 9999, D 9999, E 9999, F 9999, G 9999, H 9999",
    ),
    (
        "totals",
        "A 9999, B 9999, C 9999, D 9999, E 9999, F 9999, G 9999, H 9999",
    ),
    ("race", "8"),
    ("races", "8"),
];
