//! The drawn board: the SMS board's letters on their cells, Red's and Blue's in their colours, columns `a`-`j` and rows `10`-`1` as the moves name them.

use super::board::{Cell, Colour, SIZE};
use super::render::symbol;
use super::state::State;
use crate::Seat;
use crate::picture::{Picture, Tone};

/// The board as SVG; both seats see the same one.
pub fn picture(state: &State, _seat: Seat) -> String {
    let size = u32::from(SIZE);
    let mut picture = Picture::squares(size, size);
    picture.col_labels = ('a'..='j').map(String::from).collect();
    picture.row_labels = (1..=SIZE).rev().map(|r| r.to_string()).collect();
    for row in (1..=SIZE).rev() {
        for col in 0..SIZE {
            let Some(cell) = Cell::new(col, row) else {
                continue;
            };
            let tone = match state.board().owner(cell) {
                Some(Colour::Red) => Tone::Second,
                Some(Colour::Blue) => Tone::First,
                None if Colour::BOTH.iter().any(|c| c.base() == cell) => Tone::Neutral,
                None => continue,
            };
            picture.mark(
                u32::from(col),
                u32::from(SIZE - row),
                symbol(state, cell),
                tone,
            );
        }
    }
    picture.svg()
}

#[cfg(test)]
mod tests {
    use super::super::WordBattle;
    use super::super::tests::seed_line;
    use super::*;
    use crate::picture::tests::marks;

    #[test]
    fn letters_stand_on_their_cells_in_their_owners_colours() {
        let state = seed_line(&WordBattle::new());
        let marks = marks(&picture(&state, 1));
        // Row 5 of the SMS board: `ОКУРок...н5`.
        let row5: Vec<(u32, String, String)> = marks
            .iter()
            .filter(|m| m.1 == 5)
            .map(|m| (m.0, m.2.clone(), m.3.clone()))
            .collect();
        let red = |c: u32, l: &str| (c, l.to_string(), "second".to_string());
        let blue = |c: u32, l: &str| (c, l.to_string(), "first".to_string());
        assert_eq!(
            row5,
            [
                red(0, "О"),
                red(1, "К"),
                red(2, "У"),
                red(3, "Р"),
                blue(4, "о"),
                blue(5, "к"),
                blue(9, "н")
            ]
        );
        let letters: usize = marks.len();
        assert_eq!(letters, 13 + 17, "every letter of both sides, no more");
    }
}
