//! Intelball's variables (`locales/*/intelball.ftl`) at their longest.

pub const INTELBALL: &[(&str, &str)] = &[
    // A cell as the move reader takes it: one or two digits each side, so
    // a refused code may name one off the field.
    ("cell", "(99,99)"),
    ("other", "(99,99)"),
    // Where the ball is: the holder's letter and a cell of the field.
    ("at", "R(7,12)"),
    // A code's place in the text, and the code that ended the turn: a text
    // is one SMS, a code at least one character.
    ("index", "999"),
    ("ended", "999"),
    // One code as typed: the longest code on two-digit cells, with the
    // spaces a phone puts after commas.
    ("typed", "B~L(99, 99)>L(99, 99)"),
    // Goals, rounds played and the round limit: stored as u32.
    ("blue", "4294967295"),
    ("red", "4294967295"),
    ("time", "4294967295"),
    ("limit", "4294967295"),
    // What the move reader wanted (its longest case's key; a wanted
    // character is one) and found: a character as Rust quotes it, at most
    // `'\u{10ffff}'`, or `end`.
    ("want", "step-target"),
    ("found", "'\\u{10ffff}'"),
    ("seen", "W"),
    // Keys a select picks a wording by.
    ("side", "blue"),
    ("undo", "yes"),
    ("left", "timed-out"),
    ("why", "mate-blocked"),
];
