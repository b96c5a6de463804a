//! Paper soccer's variables (`locales/*/paper-soccer.ftl`) at their longest.
//!
//! `$step` (a refused step's place in the text, from 1) is measured by the
//! platform's `step`, "9999": a text of that many steps is longer than any
//! SMS a player sends or a robot's turn on the largest field.

pub const PAPER_SOCCER: &[(&str, &str)] = &[
    // The keypad digit of a refused step: one of 1-4, 6-9.
    ("key", "9"),
    // The step after which the turn ended: one before a refused step, so
    // within the platform's `step`.
    ("after", "9999"),
    // A field size as a player typed it in `P PS WxL`: each side at most
    // two digits, read as a number.
    ("width", "99"),
    ("length", "99"),
    // The last turn's keypad digits. A turn may be longer (a bounce chain),
    // but the status lines are cut to 100 characters when they pass 120
    // septets, so no more than 100 of its digits are ever read.
    (
        "last",
        "2222222222222222222222222222222222222222222222222222222222222222222222222222222222222222222222222222",
    ),
    // A character of a move that is no keypad direction, as Rust's `{:?}`
    // quotes it: an escape such as '\u{10ffff}' at its longest (a printable
    // non-GSM letter is shorter, three characters of UCS-2).
    ("typed", "'\\u{10ffff}'"),
];
