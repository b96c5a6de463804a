//! The drawn board a seat sees: the SMS board's five rows, its `Y`, `1`, `2` and `0` on their cells.

use super::render::{LEGEND, board_rows};
use super::state::State;
use crate::Seat;
use crate::picture::{Picture, Tone};

/// `seat`'s board as SVG, symbol for symbol the SMS one.
pub fn picture(state: &State, seat: Seat) -> String {
    let rows = board_rows(state, seat, LEGEND);
    let rows: Vec<&str> = std::str::from_utf8(&rows)
        .unwrap_or_default()
        .split('\n')
        .collect();
    let mut picture = Picture::squares(5, 5);
    picture.mark_rows(&rows, |symbol| match symbol {
        'Y' => Some(Tone::Own),
        '1' => Some(Tone::First),
        '2' => Some(Tone::Second),
        '0' => Some(Tone::Ball),
        _ => None,
    });
    picture.svg()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::picture::tests::marks;

    #[test]
    fn the_pieces_stand_where_the_sms_board_has_them() {
        let state =
            State::from_board(["...23", ".....", ".....", "..*..", ".0.1."], "AADD").unwrap();
        let svg = picture(&state, 0);
        assert_eq!(
            marks(&svg),
            [
                (3, 0, "2".to_string(), "second".to_string()),
                (4, 0, "2".into(), "second".into()),
                (2, 3, "0".into(), "ball".into()),
                (1, 4, "Y".into(), "own".into()),
                (3, 4, "1".into(), "first".into()),
            ]
        );
        assert_eq!(
            marks(&picture(&state, 2))[2..],
            [
                (2, 3, "0".to_string(), "ball".to_string()),
                (1, 4, "1".into(), "first".into()),
                (3, 4, "1".into(), "first".into()),
            ]
        );
    }
}
