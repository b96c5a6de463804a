//! Positions shared by several test files.

use super::*;

/// Blue's holder on (3,8), Red's goalkeeper on (4,12): a shot along row 3
/// is caught on (3,12) (reach 1).
pub fn caught() -> Position {
    picture(
        [
            "............",
            "............",
            ".......@....",
            "G..........H",
            "............",
            ".L.L..RR....",
            ".L.L..RRR...",
        ],
        BLUE,
    )
}
