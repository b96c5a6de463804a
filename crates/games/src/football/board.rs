//! The 5x5 field: cells, phone-keypad directions and where the pieces stand.

use std::fmt;

use crate::{NotationError, Seat};

/// Rows and columns per side of the field.
pub const SIZE: u8 = 5;

/// Number of cells on the field.
pub const CELLS: usize = (SIZE as usize) * (SIZE as usize);

/// A cell of the field. Row 1 is the top (Defense's line, where Attack scores),
/// row 5 the bottom; column 1 is the left. Always inside the field.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Cell {
    row: u8,
    col: u8,
}

impl Cell {
    /// The cell at 1-based `row` and `col`, if that is inside the field.
    pub fn new(row: u8, col: u8) -> Option<Cell> {
        ((1..=SIZE).contains(&row) && (1..=SIZE).contains(&col)).then_some(Cell { row, col })
    }

    pub fn row(self) -> u8 {
        self.row
    }

    pub fn col(self) -> u8 {
        self.col
    }

    /// Row-major position, `0..25`: the order every random pick lists cells in.
    pub fn index(self) -> usize {
        usize::from(self.row - 1) * usize::from(SIZE) + usize::from(self.col - 1)
    }

    /// All cells in row-major order (top row first, left to right).
    pub fn all() -> impl Iterator<Item = Cell> {
        (1..=SIZE).flat_map(|row| (1..=SIZE).map(move |col| Cell { row, col }))
    }

    /// The neighbouring cell in `dir`, or `None` off the field.
    pub fn step(self, dir: Dir) -> Option<Cell> {
        let (dr, dc) = dir.delta();
        let row = self.row.checked_add_signed(dr)?;
        let col = self.col.checked_add_signed(dc)?;
        Cell::new(row, col)
    }

    /// King's-move distance: 1 for the 8 neighbours, 2 for the ring around them.
    pub fn distance(self, other: Cell) -> u8 {
        self.row
            .abs_diff(other.row)
            .max(self.col.abs_diff(other.col))
    }
}

/// A direction on the phone keypad, seen from the player standing on `5`:
///
/// ```text
/// 1 2 3
/// 4 . 6
/// 7 8 9
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Dir {
    UpLeft,
    Up,
    UpRight,
    Left,
    Right,
    DownLeft,
    Down,
    DownRight,
}

impl Dir {
    /// The eight directions in keypad order.
    pub const ALL: [Dir; 8] = [
        Dir::UpLeft,
        Dir::Up,
        Dir::UpRight,
        Dir::Left,
        Dir::Right,
        Dir::DownLeft,
        Dir::Down,
        Dir::DownRight,
    ];

    /// The direction of keypad digit `key` (1-4, 6-9); `5` and others have none.
    pub fn from_key(key: u8) -> Option<Dir> {
        Dir::ALL.into_iter().find(|d| d.key() == key)
    }

    /// The keypad digit of this direction.
    pub fn key(self) -> u8 {
        match self {
            Dir::UpLeft => 1,
            Dir::Up => 2,
            Dir::UpRight => 3,
            Dir::Left => 4,
            Dir::Right => 6,
            Dir::DownLeft => 7,
            Dir::Down => 8,
            Dir::DownRight => 9,
        }
    }

    /// (row change, column change); up is towards row 1.
    pub fn delta(self) -> (i8, i8) {
        let k = self.key() as i8 - 1;
        (k / 3 - 1, k % 3 - 1)
    }

    /// Up, down, left or right: the only directions a push may take.
    pub fn is_orthogonal(self) -> bool {
        matches!(self, Dir::Up | Dir::Down | Dir::Left | Dir::Right)
    }
}

/// Where the four players (indexed by seat) and the ball stand.
///
/// A `Board` on its own may be inconsistent; [`crate::football::State`]
/// only ever holds one that passed [`Board::check`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Board {
    pub players: [Cell; 4],
    pub ball: Cell,
}

impl Board {
    /// Reads a picture of the field: 5 rows of 5 characters, top row first,
    /// `0`-`3` the seat standing there, `*` the ball, `.` empty. Each seat and
    /// the ball appear exactly once, so two pieces can never share a cell.
    pub fn from_rows<S: AsRef<str>>(rows: &[S]) -> Result<Board, NotationError> {
        if rows.len() != usize::from(SIZE) {
            return Err(NotationError::new(format!(
                "the board needs {SIZE} rows, got {}",
                rows.len()
            )));
        }
        let mut players: [Option<Cell>; 4] = [None; 4];
        let mut ball = None;
        for (row, text) in (1..=SIZE).zip(rows) {
            let text = text.as_ref();
            if text.len() != usize::from(SIZE) || !text.is_ascii() {
                return Err(NotationError::new(format!(
                    "board row {row} is not {SIZE} characters: {text:?}"
                )));
            }
            // ASCII: a byte is a character.
            for (col, &b) in (1..=SIZE).zip(text.as_bytes()) {
                let cell = Cell { row, col };
                let slot = match b {
                    b'.' => continue,
                    b'*' => &mut ball,
                    b'0'..=b'3' => &mut players[usize::from(b - b'0')],
                    _ => {
                        return Err(NotationError::new(format!(
                            "unknown board character {:?}",
                            char::from(b)
                        )));
                    }
                };
                if slot.replace(cell).is_some() {
                    return Err(NotationError::new(format!(
                        "{:?} appears twice on the board",
                        char::from(b)
                    )));
                }
            }
        }
        let mut cells = [Cell { row: 1, col: 1 }; 4];
        for (seat, found) in players.into_iter().enumerate() {
            cells[seat] = found
                .ok_or_else(|| NotationError::new(format!("seat {seat} is not on the board")))?;
        }
        let ball = ball.ok_or_else(|| NotationError::new("the ball is not on the board"))?;
        Ok(Board {
            players: cells,
            ball,
        })
    }

    /// The seat standing on `cell`, if any.
    pub fn player_at(&self, cell: Cell) -> Option<Seat> {
        self.players.iter().position(|&p| p == cell)
    }

    /// The cells that hold a player.
    pub fn player_cells(&self) -> CellSet {
        self.players.iter().copied().collect()
    }

    /// No two pieces on one cell (the ball counts as a piece).
    pub fn check(&self) -> Result<(), String> {
        let mut seen = CellSet::default();
        for (seat, &cell) in self.players.iter().enumerate() {
            if seen.contains(cell) {
                return Err(format!("seat {seat} shares a cell with another player"));
            }
            seen.insert(cell);
        }
        if seen.contains(self.ball) {
            return Err("the ball lies on a player".into());
        }
        Ok(())
    }
}

/// The picture of [`Board::from_rows`], rows joined by `/`.
/// Bytes in a picture of the field: its rows, one separator between each two.
pub const PICTURE: usize = (SIZE as usize + 1) * SIZE as usize - 1;

impl Board {
    /// The field's rows, top first, joined by `separator`: `ball` on the
    /// ball's cell, `seat(s)` on seat `s`'s, `.` elsewhere. Drawn in place,
    /// for it is drawn after every move (the state string, each seat's view).
    pub fn picture(&self, separator: u8, ball: u8, seat: impl Fn(Seat) -> u8) -> [u8; PICTURE] {
        const ROW: usize = SIZE as usize;
        let mut cells = [b'.'; ROW * ROW];
        cells[self.ball.index()] = ball;
        for (s, cell) in self.players.iter().enumerate() {
            cells[cell.index()] = seat(s);
        }
        let mut rows = [separator; PICTURE];
        for (row, picture) in rows.chunks_mut(ROW + 1).zip(cells.chunks(ROW)) {
            row[..ROW].copy_from_slice(picture);
        }
        rows
    }
}

impl fmt::Display for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let rows = self.picture(b'/', b'*', |s| b'0' + s as u8);
        f.write_str(std::str::from_utf8(&rows).map_err(|_| fmt::Error)?)
    }
}

/// A set of cells, as a bit mask (bit = row-major index).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CellSet(u32);

impl CellSet {
    pub fn insert(&mut self, cell: Cell) {
        self.0 |= 1 << cell.index();
    }

    pub fn contains(self, cell: Cell) -> bool {
        self.0 & (1 << cell.index()) != 0
    }

    pub fn len(self) -> usize {
        self.0.count_ones() as usize
    }

    pub fn is_empty(self) -> bool {
        self.0 == 0
    }
}

impl FromIterator<Cell> for CellSet {
    fn from_iter<I: IntoIterator<Item = Cell>>(iter: I) -> Self {
        let mut set = CellSet::default();
        for cell in iter {
            set.insert(cell);
        }
        set
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cell(row: u8, col: u8) -> Cell {
        Cell::new(row, col).unwrap()
    }

    #[test]
    fn cells_exist_only_inside_the_field() {
        assert!(Cell::new(0, 3).is_none());
        assert!(Cell::new(6, 3).is_none());
        assert!(Cell::new(3, 0).is_none());
        assert!(Cell::new(3, 6).is_none());
        assert_eq!(Cell::all().count(), CELLS);
        let indices: Vec<usize> = Cell::all().map(Cell::index).collect();
        assert_eq!(indices, (0..CELLS).collect::<Vec<_>>());
    }

    #[test]
    fn keypad_directions_match_the_phone() {
        let from = cell(3, 3);
        let expect = [
            (1, (2, 2)),
            (2, (2, 3)),
            (3, (2, 4)),
            (4, (3, 2)),
            (6, (3, 4)),
            (7, (4, 2)),
            (8, (4, 3)),
            (9, (4, 4)),
        ];
        for (key, (row, col)) in expect {
            let dir = Dir::from_key(key).unwrap();
            assert_eq!(dir.key(), key);
            assert_eq!(from.step(dir), Some(cell(row, col)), "key {key}");
        }
        assert_eq!(Dir::from_key(5), None);
        assert_eq!(Dir::from_key(0), None);
        let orthogonal: Vec<u8> = Dir::ALL
            .iter()
            .filter(|d| d.is_orthogonal())
            .map(|d| d.key())
            .collect();
        assert_eq!(orthogonal, [2, 4, 6, 8]);
    }

    #[test]
    fn steps_off_the_field_are_none() {
        assert_eq!(cell(1, 1).step(Dir::Up), None);
        assert_eq!(cell(1, 1).step(Dir::Left), None);
        assert_eq!(cell(5, 5).step(Dir::DownRight), None);
        assert_eq!(cell(1, 5).step(Dir::UpRight), None);
        assert_eq!(cell(5, 1).step(Dir::Right), Some(cell(5, 2)));
    }

    #[test]
    fn distance_is_kings_moves() {
        assert_eq!(cell(3, 3).distance(cell(3, 3)), 0);
        assert_eq!(cell(3, 3).distance(cell(2, 4)), 1);
        assert_eq!(cell(3, 3).distance(cell(1, 4)), 2);
        assert_eq!(cell(1, 1).distance(cell(5, 5)), 4);
    }

    #[test]
    fn pictures_round_trip_and_reject_nonsense() {
        let board = Board::from_rows(&["...23", ".....", ".....", "..*..", ".0.1."]).unwrap();
        assert_eq!(
            board.players,
            [cell(5, 2), cell(5, 4), cell(1, 4), cell(1, 5)]
        );
        assert_eq!(board.ball, cell(4, 3));
        assert_eq!(board.to_string(), "...23/...../...../..*../.0.1.");
        let bad: [&[&str]; 8] = [
            &["...23", ".....", ".....", "..*.."],
            &["...23", ".....", ".....", "..*..", ".0.1..."],
            &["...23", ".....", ".....", "..*..", ".0.0."],
            &["...23", ".....", ".....", "..**.", ".0.1."],
            &["...23", ".....", ".....", ".....", ".0.1."],
            &["...2.", ".....", ".....", "..*..", ".0.1."],
            &["...24", ".....", ".....", "..*..", ".0.1."],
            &["...23", ".....", ".....", "..*..", ".0.1\u{e9}"],
        ];
        for rows in bad {
            assert!(Board::from_rows(rows).is_err(), "{rows:?}");
        }
    }

    #[test]
    fn board_check_finds_overlaps() {
        let mut board = Board {
            players: [cell(5, 2), cell(5, 4), cell(1, 4), cell(1, 5)],
            ball: cell(4, 3),
        };
        assert_eq!(board.check(), Ok(()));
        assert_eq!(board.player_at(cell(1, 4)), Some(2));
        assert_eq!(board.player_cells().len(), 4);
        board.ball = cell(1, 5);
        assert!(board.check().is_err());
        board.ball = cell(4, 3);
        board.players[1] = cell(5, 2);
        assert!(board.check().is_err());
    }
}
