//! The drawn field: the SMS board's symbols on its 7 rows and 12 columns, numbered as the SMS numbers them, the zones apart.

use super::board::{COLS, Cell, ROWS};
use super::render::symbol;
use super::state::State;
use crate::Seat;
use crate::picture::{Picture, Tone};

/// The field as SVG; every seat sees the same one.
pub fn picture(state: &State, _seat: Seat) -> String {
    let field = &state.pos.field;
    let mut picture = Picture::squares(u32::from(COLS), u32::from(ROWS));
    // The SMS board's zone lines: a space after columns 3, 6 and 9.
    picture.gaps_after = vec![2, 5, 8];
    picture.col_labels = (1..=COLS).map(|c| c.to_string()).collect();
    picture.row_labels = (1..=ROWS).map(|r| r.to_string()).collect();
    for row in 1..=ROWS {
        for col in 1..=COLS {
            let Some(cell) = Cell::new(row, col) else {
                continue;
            };
            let symbol = symbol(field, cell);
            let tone = match symbol {
                'L' | 'G' | 'l' | 'g' | '@' => Tone::First,
                'R' | 'H' | 'r' | 'h' | '$' => Tone::Second,
                '*' => Tone::Ball,
                _ => continue,
            };
            picture.mark(u32::from(col - 1), u32::from(row - 1), symbol, tone);
        }
    }
    picture.svg()
}

#[cfg(test)]
mod tests {
    use super::super::position::Position;
    use super::super::state::Mode;
    use super::super::tests::match_on;
    use super::*;
    use crate::picture::tests::marks;

    #[test]
    fn the_opening_is_drawn_as_the_sms_prints_it() {
        let state = match_on(Position::opening(), Mode::Bot);
        let marks = marks(&picture(&state, 0));
        assert_eq!(marks.len(), 13, "twelve players and the ball: {marks:?}");
        // Row 4 of the SMS board: `G.. .L* .R. ..H`.
        let row4: Vec<(u32, String, String)> = marks
            .iter()
            .filter(|m| m.1 == 3)
            .map(|m| (m.0, m.2.clone(), m.3.clone()))
            .collect();
        assert_eq!(
            row4,
            [
                (0, "G".to_string(), "first".to_string()),
                (4, "L".into(), "first".into()),
                (5, "*".into(), "ball".into()),
                (7, "R".into(), "second".into()),
                (11, "H".into(), "second".into()),
            ]
        );
    }
}
