//! The drawn track: one lap unrolled in bands of sectors, the start line first, each lane a row, the cars by the SMS letters.

use super::car::letter;
use super::state::State;
use crate::Seat;
use crate::picture::{Picture, Tone};

/// Columns a band holds: a track is longer than a screen is wide.
const BAND: u32 = 20;

/// A column of the unrolled lap.
#[derive(Clone, Copy)]
enum Column {
    /// The start and finish line, where finished cars stand.
    Line,
    Sector(i32),
}

/// The track as `seat` sees it: its own cars marked as its own.
pub fn picture(state: &State, seat: Seat) -> String {
    let track = state.track();
    let lanes = u32::from(track.frame());
    let columns: Vec<Column> = std::iter::once(Column::Line)
        .chain((0..track.sectors()).map(Column::Sector))
        .collect();
    let count = columns.len() as u32;
    let bands = count.div_ceil(BAND);
    // A band's lanes, then an empty row between bands.
    let per_band = lanes + 1;
    let mut picture = Picture::squares(BAND.min(count), bands * per_band - 1);
    let tone = |car| {
        let owner = state.owner(car);
        if owner == seat {
            Tone::Own
        } else if state.side(owner) == state.side(seat) {
            Tone::First
        } else {
            Tone::Second
        }
    };
    for band in 0..bands {
        let spacer = band * per_band + lanes;
        if band + 1 < bands {
            picture.holes.extend((0..BAND).map(|c| (c, spacer)));
        }
        for lane in 1..=track.frame() {
            picture.row_labels.push(lane.to_string());
            let row = band * per_band + u32::from(lane) - 1;
            for col in 0..BAND {
                let Some(&column) = columns.get((band * BAND + col) as usize) else {
                    picture.holes.push((col, row));
                    continue;
                };
                match column {
                    Column::Line => match state.on_line(lane) {
                        Some(car) => picture.mark(col, row, letter(car, state.per()), tone(car)),
                        None => picture.mark(col, row, ':', Tone::Neutral),
                    },
                    Column::Sector(d) if !track.exists(d, lane) => {
                        picture.mark(col, row, '#', Tone::Void)
                    }
                    Column::Sector(d) => {
                        if let Some(car) = state.occupant(d, lane) {
                            picture.mark(col, row, letter(car, state.per()), tone(car));
                        }
                    }
                }
            }
        }
        if band + 1 < bands {
            picture.row_labels.push(String::new());
        }
    }
    picture.svg()
}

#[cfg(test)]
mod tests {
    use super::super::tests::kit::race;
    use super::*;
    use crate::picture::tests::marks;

    #[test]
    fn cars_stand_on_their_sector_and_lane() {
        // Sector `d` is column `d + 1` (the line is first); lane `l` is row `l - 1`.
        let state = race(2, 3, "A=10.1 a=8.3 B=25.2 b=9.4");
        let cars: Vec<(u32, u32, String, String)> = marks(&picture(&state, 1))
            .into_iter()
            .filter(|m| m.2 != ":")
            .collect();
        let at = |col: u32, row: u32, car: &str, tone: &str| {
            (col, row, car.to_string(), tone.to_string())
        };
        assert_eq!(
            cars,
            [
                at(11, 0, "A", "second"),
                at(9, 2, "a", "second"),
                at(10, 3, "b", "own"),
                // 31 columns in bands of 20: sector 25 is the second band's
                // sixth column, below the first band's four lanes and a gap.
                at(6, 6, "B", "own"),
            ]
        );
    }
}
