//! Captures in several shapes: a tail cut off, a corner that does not connect, a loop that
//! holds, two branches falling to one word, the base taken.
//!
//! Boards are drawn with English letters so that the pictures stay readable.

use super::Dir::{Right, Up};
use super::alphabet::Variant;
use super::board::{Board, Capture, Cell, Colour, Dir, Tile};

/// A board from rows 10 (top) to 1: `.` empty, upper case Red, lower case Blue.
fn board(rows: [&str; 10]) -> Board {
    let mut b = Board::default();
    for (r, line) in rows.iter().enumerate() {
        for (col, c) in line.chars().enumerate() {
            if c == '.' {
                continue;
            }
            let owner = if c.is_ascii_uppercase() {
                Colour::Red
            } else {
                Colour::Blue
            };
            let letter = Variant::En.letter(c).unwrap();
            let cell = Cell::new(col as u8, 10 - r as u8).unwrap();
            b.set(cell, Some(Tile { owner, letter }));
        }
    }
    b
}

fn picture(b: &Board) -> Vec<String> {
    (1..=10)
        .rev()
        .map(|row| {
            (0..10)
                .map(|col| match b.tile(Cell::new(col, row).unwrap()) {
                    None => '.',
                    Some(t) => Variant::En.char(t.letter, t.owner == Colour::Red),
                })
                .collect()
        })
        .collect()
}

fn cap(placed: u32, crossed: u32, cut: u32, base: bool) -> Capture {
    Capture {
        placed,
        crossed,
        cut,
        base,
    }
}

/// Writes `word` for `mover` from `at` in `dir`; checks what it took and the board after.
fn write(before: &Board, mover: Colour, at: &str, dir: Dir, word: &str, want: Capture) -> Board {
    let mut b = *before;
    let start: Cell = at.parse().unwrap();
    let planned = b.plan(mover, start, dir, word.len()).capture;
    let got = b.write(mover, start, dir, &Variant::En.spell(word).unwrap());
    assert_eq!(got, want, "{word}");
    assert_eq!(planned, got, "{word}: plan and write agree");
    assert_eq!(
        b.cut_off(mover.other()),
        0,
        "{word}: nothing cut off is left"
    );
    b
}

#[test]
fn a_crossing_cuts_off_the_tail_beyond_it() {
    let before = board([
        ".........b",
        "XYZ....xyb",
        "X......x..",
        "X......y..",
        "X......z..",
        "X.........",
        "X.........",
        "X.........",
        "X.........",
        "X.........",
    ]);
    let after = write(
        &before,
        Colour::Red,
        "c9",
        Right,
        "zooooxy",
        cap(4, 2, 3, false),
    );
    assert_eq!(
        picture(&after)[..5],
        [
            ".........b",
            "XYZOOOOXYb",
            "X......X..",
            "X......Y..",
            "X......Z.."
        ]
    );
}

#[test]
fn a_corner_is_no_connection() {
    // g8 hangs from g9; h9 touches it only at a corner.
    let before = board([
        ".........b",
        "XYZ...aaab",
        "X.....c...",
        "X.........",
        "X.........",
        "X.........",
        "X.........",
        "X.........",
        "X.........",
        "X.........",
    ]);
    let after = write(
        &before,
        Colour::Red,
        "c9",
        Right,
        "zoooa",
        cap(3, 1, 1, false),
    );
    assert_eq!(picture(&after)[1..3], ["XYZOOOAaab", "X.....C..."]);
}

#[test]
fn a_loop_holds_when_one_side_is_cut() {
    // Blue's ring g7-j10 reaches the base both ways round; a stem hangs below.
    let before = board([
        "......aaab",
        "......a..a",
        "X.....a..a",
        "X.....aaaa",
        "X.....a...",
        "X.....a...",
        "X.....a...",
        "X.........",
        "X.........",
        "X.........",
    ]);
    let ring_cut = write(
        &before,
        Colour::Red,
        "a8",
        Right,
        "xoooooa",
        cap(5, 1, 0, false),
    );
    assert_eq!(picture(&ring_cut)[2], "XOOOOOA..a");
    // The stem below the crossing at g6 has no other way: g5, g4 fall.
    let stem_cut = write(
        &ring_cut,
        Colour::Red,
        "a6",
        Right,
        "xoooooa",
        cap(5, 1, 2, false),
    );
    assert_eq!(
        picture(&stem_cut)[3..7],
        ["X.....aaaa", "XOOOOOA...", "X.....A...", "X.....A..."]
    );
}

#[test]
fn two_branches_fall_to_one_word() {
    // h5 joins the way up to the base with a branch down and one right.
    let before = board([
        ".......aab",
        ".......a..",
        ".......a..",
        ".......a..",
        ".......a..",
        "XYZ....aaa",
        "X......a..",
        "X......a..",
        "X.........",
        "X.........",
    ]);
    let after = write(
        &before,
        Colour::Red,
        "c5",
        Right,
        "zooooa",
        cap(4, 1, 4, false),
    );
    assert_eq!(
        picture(&after)[4..8],
        [".......a..", "XYZOOOOAAA", "X......A..", "X......A.."]
    );
}

#[test]
fn taking_the_base_takes_everything() {
    let before = board([
        "XYZOOOO.ob",
        "X........a",
        "X.....aaaa",
        "X.....a...",
        "X.........",
        "X.........",
        "X.........",
        "X.........",
        "X.........",
        "X.........",
    ]);
    let after = write(
        &before,
        Colour::Red,
        "g10",
        Right,
        "oxob",
        cap(1, 2, 6, true),
    );
    assert_eq!(after.count(Colour::Blue), 0);
    assert_eq!(
        picture(&after)[..4],
        ["XYZOOOOXOB", "X........A", "X.....AAAA", "X.....A..."]
    );
    // A base before its side's first word is an empty cell, taken all the same.
    let fresh = board([
        "XYZOOOOOO.",
        "X.........",
        "X.........",
        "X.........",
        "X.........",
        "X.........",
        "X.........",
        "X.........",
        "X.........",
        "X.........",
    ]);
    let after = write(&fresh, Colour::Red, "i10", Right, "ox", cap(1, 0, 0, true));
    assert_eq!(picture(&after)[0], "XYZOOOOOOX");
    // And upwards: Red's column j reaches j10.
    let up = board([
        "..........",
        ".........X",
        ".........X",
        ".........X",
        ".........X",
        ".........X",
        ".........X",
        ".........X",
        ".........X",
        "XXXXXXXXXX",
    ]);
    let after = write(&up, Colour::Red, "j9", Up, "xy", cap(1, 0, 0, true));
    assert_eq!(picture(&after)[0], ".........Y");
}
