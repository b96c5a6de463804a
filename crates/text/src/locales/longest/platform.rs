//! The platform's variables (`locales/*/platform.ftl`) at their longest.

pub const PLATFORM: &[(&str, &str)] = &[
    // A nick: 2-16 Latin letters, digits or _.
    ("nick", "Wwwwwwwwwwwwwwww"),
    ("old", "Wwwwwwwwwwwwwwww"),
    // The service's numbers as an operator configures them: E.164 at its longest.
    ("play_number", "+700000000000000"),
    ("game_number", "+700000000000000"),
    // A command word; a game's code and name; a game code as a stranger
    // typed it, cut to eight characters.
    ("cmd", "LANG"),
    ("game_code", "FB"),
    ("game_name", "Wwwwwwwwwwwwwwww"),
    ("code", "WWWWWWWW..."),
    // A move as echoed back: the longest notation of any game.
    ("move", "1234567890123456"),
    // Pages of a record, steps, counts, places, points and ratings.
    ("page", "999"),
    ("pages", "999"),
    ("next", "999"),
    ("step", "9999"),
    ("missed", "99"),
    ("max", "99"),
    ("room", "999"),
    ("count", "99"),
    ("place", "9999"),
    ("of", "99"),
    ("rating", "-9999?"),
    // Rated games a rating rests on; those it needs to be established.
    ("rated", "9"),
    ("needed", "10"),
    // Finishes by place: the most places a race has (16 cars), each count
    // of up to four digits.
    ("last", "16"),
    (
        "counts",
        "9999-9999-9999-9999-9999-9999-9999-9999-9999-9999-9999-9999-9999-9999-9999-9999",
    ),
];
