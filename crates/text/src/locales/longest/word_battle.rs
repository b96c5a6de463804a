//! Word battle's variables (`locales/*/word-battle.ftl`) at their longest.
//!
//! Also read, from the platform's table: `$max` (5-7, the longest word of
//! a match) from its `max`. `$me`, `$who`, `$side`, `$end`, `$result` and
//! `$rematch` only choose a wording and are not shown. The check takes a
//! variable's value from the first table that lists it, so the names here
//! are none another game gives another meaning (`cell` is Intelball's,
//! `word` the option word of `games.rs`).

pub const WORD_BATTLE: &[(&str, &str)] = &[
    // A player's text as the move reader quotes it (Rust's `{:?}`): up to
    // the 100 characters of a reason the platform passes on
    // (`texts::bad_move`), in Russian letters (UCS-2).
    (
        "quoted",
        "\"ЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖ\"",
    ),
    // How a first move is written from a base: `a1r`, `j10l`.
    ("opening", "j10l"),
    // Letters a side holds: at most the 100 cells.
    ("red_letters", "100"),
    ("blue_letters", "100"),
    // A word's letters as played: at most 30, the longest the move reader
    // takes (the rules' limit is checked after it).
    ("letters", "30"),
    ("square", "j10"),
    // A word in capitals: 3-7 letters by then, Russian at worst; one
    // letter on the board or in the word.
    ("capitals", "ЖЖЖЖЖЖЖ"),
    ("on_board", "Ж"),
    ("in_word", "Ж"),
    // A direction's letter (r, u, l, d), also choosing its name.
    ("dir", "r"),
    ("first", "r"),
    ("second", "u"),
];
