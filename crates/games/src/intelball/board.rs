//! The 7x12 field: cells and zones, straight lines, and what stands where.

use crate::Side;

/// Blue (`L`, left): defends the goal left of column 1 and moves first.
pub const BLUE: Side = 0;
/// Red (`R`, right): defends the goal right of column 12.
pub const RED: Side = 1;

pub const ROWS: u8 = 7;
pub const COLS: u8 = 12;
/// Cells on the field.
pub const CELLS: usize = (ROWS as usize) * (COLS as usize);

/// The other side.
pub fn other(side: Side) -> Side {
    1 - side
}

/// A cell on the field, row 1..=7 and column 1..=12, stored as its row-major index.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Cell(u8);

impl Cell {
    pub fn new(row: u8, col: u8) -> Option<Cell> {
        ((1..=ROWS).contains(&row) && (1..=COLS).contains(&col))
            .then(|| Cell((row - 1) * COLS + col - 1))
    }

    /// The cell of a row-major index below [`CELLS`].
    pub fn at(index: usize) -> Cell {
        debug_assert!(index < CELLS);
        Cell(index as u8)
    }

    pub fn index(self) -> usize {
        usize::from(self.0)
    }

    pub fn row(self) -> u8 {
        self.0 / COLS + 1
    }

    pub fn col(self) -> u8 {
        self.0 % COLS + 1
    }

    /// The zone, 0..=3, of the zone lines 3|4, 6|7 and 9|10: zone 0 is Blue's
    /// goalkeeper zone, zone 3 Red's.
    pub fn zone(self) -> u8 {
        (self.col() - 1) / 3
    }

    pub fn spot(self) -> Spot {
        Spot {
            row: self.row(),
            col: self.col(),
        }
    }

    /// Whether `other` is one of the eight cells around this one.
    pub fn near(self, other: Cell) -> bool {
        self != other
            && self.row().abs_diff(other.row()) <= 1
            && self.col().abs_diff(other.col()) <= 1
    }

    /// The cells around this one, in row-major order.
    pub fn neighbours(self) -> impl Iterator<Item = Cell> {
        let (r, c) = (self.row() as i8, self.col() as i8);
        (-1..=1i8)
            .flat_map(move |dr| (-1..=1i8).map(move |dc| (dr, dc)))
            .filter(|&d| d != (0, 0))
            .filter_map(move |(dr, dc)| Spot::signed(r + dr, c + dc).and_then(Spot::cell))
    }

    /// Every cell, row by row.
    pub fn all() -> impl Iterator<Item = Cell> {
        (0..CELLS).map(Cell::at)
    }
}

/// A spot as a code writes it, `(row,col)`: any two numbers, so that a
/// refusal can name a cell off the field. Goals are the spots of column 0
/// (Blue's) and 13 (Red's) in rows 1-7.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Spot {
    pub row: u8,
    pub col: u8,
}

impl Spot {
    pub fn new(row: u8, col: u8) -> Spot {
        Spot { row, col }
    }

    fn signed(row: i8, col: i8) -> Option<Spot> {
        Some(Spot {
            row: u8::try_from(row).ok()?,
            col: u8::try_from(col).ok()?,
        })
    }

    pub fn cell(self) -> Option<Cell> {
        Cell::new(self.row, self.col)
    }

    /// The side whose goal this spot is, if it is a goal spot.
    pub fn goal_of(self) -> Option<Side> {
        if !(1..=ROWS).contains(&self.row) {
            return None;
        }
        match self.col {
            0 => Some(BLUE),
            c if c == COLS + 1 => Some(RED),
            _ => None,
        }
    }

    /// The spots strictly between `self` and `to` on a straight or diagonal
    /// line, or `None` when they are not on one (or are the same spot).
    pub fn between(self, to: Spot) -> Option<Vec<Cell>> {
        let (dr, dc) = (
            i16::from(to.row) - i16::from(self.row),
            i16::from(to.col) - i16::from(self.col),
        );
        let n = dr.abs().max(dc.abs());
        if n == 0 || (dr != 0 && dc != 0 && dr.abs() != dc.abs()) {
            return None;
        }
        let (sr, sc) = (dr.signum(), dc.signum());
        (1..n)
            .map(|k| {
                let row = i16::from(self.row) + k * sr;
                let col = i16::from(self.col) + k * sc;
                Cell::new(u8::try_from(row).ok()?, u8::try_from(col).ok()?)
            })
            .collect()
    }
}

impl std::fmt::Display for Spot {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "({},{})", self.row, self.col)
    }
}

/// A player: his side, whether he is the goalkeeper, whether he is blocked.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    pub side: Side,
    pub keeper: bool,
    pub blocked: bool,
}

impl Piece {
    const PRESENT: u8 = 8;

    fn encode(self) -> u8 {
        Self::PRESENT | self.side as u8 | u8::from(self.keeper) << 1 | u8::from(self.blocked) << 2
    }

    fn decode(square: u8) -> Option<Piece> {
        (square & Self::PRESENT != 0).then_some(Piece {
            side: Side::from(square & 1),
            keeper: square & 2 != 0,
            blocked: square & 4 != 0,
        })
    }
}

/// Who stands where and where the ball is. A square holds at most one
/// player; the ball lies on a free cell or is held by the player on its cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Field {
    squares: [u8; CELLS],
    pub ball: Cell,
}

/// The starting formation of each side: goalkeeper first.
const FORMATION: [[(u8, u8); 6]; 2] = [
    [(4, 1), (3, 3), (5, 3), (2, 5), (4, 5), (6, 5)],
    [(4, 12), (3, 10), (5, 10), (2, 8), (4, 8), (6, 8)],
];

impl Field {
    /// No player at all, the ball at `ball` (for building positions piece by piece).
    pub fn empty(ball: Cell) -> Field {
        Field {
            squares: [0; CELLS],
            ball,
        }
    }

    /// The starting formation with the ball at the centre on `kicker`'s side:
    /// (4,6) for Blue, (4,7) for Red.
    pub fn kick_off(kicker: Side) -> Field {
        let ball = if kicker == BLUE { (4, 6) } else { (4, 7) };
        let mut field = Field::empty(Cell::new(ball.0, ball.1).unwrap_or(Cell(0)));
        for (side, cells) in FORMATION.iter().enumerate() {
            for (i, &(r, c)) in cells.iter().enumerate() {
                if let Some(cell) = Cell::new(r, c) {
                    field.put(
                        cell,
                        Some(Piece {
                            side,
                            keeper: i == 0,
                            blocked: false,
                        }),
                    );
                }
            }
        }
        field
    }

    pub fn piece(&self, cell: Cell) -> Option<Piece> {
        Piece::decode(self.squares[cell.index()])
    }

    pub fn put(&mut self, cell: Cell, piece: Option<Piece>) {
        self.squares[cell.index()] = piece.map_or(0, Piece::encode);
    }

    /// The player on the ball's cell, if any.
    pub fn holder(&self) -> Option<Piece> {
        self.piece(self.ball)
    }

    /// `side`'s players with their cells, in row-major order.
    pub fn team(&self, side: Side) -> impl Iterator<Item = (Cell, Piece)> + '_ {
        Cell::all()
            .filter_map(|c| self.piece(c).map(|p| (c, p)))
            .filter(move |(_, p)| p.side == side)
    }

    /// Every player with his cell, in row-major order.
    pub fn pieces(&self) -> impl Iterator<Item = (Cell, Piece)> + '_ {
        Cell::all().filter_map(|c| self.piece(c).map(|p| (c, p)))
    }

    /// The cell of `side`'s goalkeeper (the first, should a built field hold two).
    pub fn keeper(&self, side: Side) -> Option<Cell> {
        self.team(side).find(|(_, p)| p.keeper).map(|(c, _)| c)
    }

    /// Moves the player on `from` to `to` (which must be free).
    pub fn shift(&mut self, from: Cell, to: Cell) {
        let piece = self.piece(from);
        self.put(from, None);
        self.put(to, piece);
    }

    pub fn set_blocked(&mut self, cell: Cell, blocked: bool) {
        if let Some(mut p) = self.piece(cell) {
            p.blocked = blocked;
            self.put(cell, Some(p));
        }
    }

    /// Lifts every block of `side` (its turn begins).
    pub fn unblock(&mut self, side: Side) {
        for i in 0..CELLS {
            if let Some(mut p) =
                Piece::decode(self.squares[i]).filter(|p| p.side == side && p.blocked)
            {
                p.blocked = false;
                self.squares[i] = p.encode();
            }
        }
    }

    /// The raw squares, for hashing and compact keys.
    pub fn squares(&self) -> &[u8; CELLS] {
        &self.squares
    }
}
