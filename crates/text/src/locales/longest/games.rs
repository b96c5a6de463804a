//! The games' shared texts' and the test game's variables (`locales/*/games.ftl`) at their longest.
//!
//! The test game's `$count` (0-23) is measured by the platform's `count`.

pub const GAMES: &[(&str, &str)] = &[
    // An option word as a player typed it: the options are read from one
    // SMS, so a word is at most what is left of it after `P XX `.
    (
        "word",
        "WWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWW",
    ),
    // The test game: the count that wins; a text that is no move, quoted
    // (Rust's `{:?}`) up to the 100 characters of a reason the platform
    // passes on (`texts::bad_move`), in Russian letters (UCS-2).
    ("target", "21"),
    (
        "sent",
        "\"ЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖЖ\"",
    ),
];
