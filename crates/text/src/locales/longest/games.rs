//! The games' shared texts' and the test game's variables (`locales/*/games.ftl`) at their longest.

pub const GAMES: &[(&str, &str)] = &[
    // An option word as a player typed it: the options are read from one
    // SMS, so a word is at most what is left of it after `P XX `.
    (
        "word",
        "WWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWW",
    ),
];
