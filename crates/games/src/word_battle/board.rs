//! The 10x10 board: cells, directions, sides, and what a word does to the letters.
//!
//! Cells are numbered `(row - 1) * 10 + column` (`a1` = 0, `j1` = 9,
//! `j10` = 99), so a side's letters are a `u128` bit set and "connected to
//! the base through cell sides" is a flood fill of shifts.

use std::fmt;
use std::str::FromStr;

use super::alphabet::{Code, Letter};

/// Cells per row and column.
pub const SIZE: u8 = 10;
/// Cells on the board.
pub const CELLS: usize = 100;

/// A cell, `a1`..`j10`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Cell(u8);

impl Cell {
    /// Column `0..10` (`a`..`j`), row `1..=10`.
    pub fn new(col: u8, row: u8) -> Option<Cell> {
        (col < SIZE && (1..=SIZE).contains(&row)).then(|| Cell((row - 1) * SIZE + col))
    }

    pub fn from_index(i: usize) -> Option<Cell> {
        (i < CELLS).then_some(Cell(i as u8))
    }

    pub fn index(self) -> usize {
        usize::from(self.0)
    }

    pub fn col(self) -> u8 {
        self.0 % SIZE
    }

    pub fn row(self) -> u8 {
        self.0 / SIZE + 1
    }

    fn bit(self) -> u128 {
        1 << self.0
    }

    /// The cell `steps` cells away in `dir`, if it is on the board.
    pub fn step(self, dir: Dir, steps: u8) -> Option<Cell> {
        let (dc, dr) = dir.delta();
        let col = i16::from(self.col()) + i16::from(dc) * i16::from(steps);
        let row = i16::from(self.row()) + i16::from(dr) * i16::from(steps);
        let ok = |v: i16, lo: i16, hi: i16| (lo..=hi).contains(&v);
        (ok(col, 0, 9) && ok(row, 1, 10)).then(|| Cell((row as u8 - 1) * SIZE + col as u8))
    }

    /// How many cells from this one to the edge in `dir`, this one included.
    pub fn room(self, dir: Dir) -> u8 {
        match dir {
            Dir::Right => SIZE - self.col(),
            Dir::Left => self.col() + 1,
            Dir::Up => SIZE + 1 - self.row(),
            Dir::Down => self.row(),
        }
    }
}

impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", char::from(b'a' + self.col()), self.row())
    }
}

impl FromStr for Cell {
    type Err = ();

    /// `a1`..`j10`, lower case only (the move parser lowers case first).
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let b = s.as_bytes();
        let (&c, row) = b.split_first().ok_or(())?;
        let row = match row {
            [d @ b'1'..=b'9'] => d - b'0',
            b"10" => 10,
            _ => return Err(()),
        };
        Cell::new(c.wrapping_sub(b'a'), row).ok_or(())
    }
}

/// The direction a word is written in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Dir {
    Right,
    Up,
    Left,
    Down,
}

impl Dir {
    pub const ALL: [Dir; 4] = [Dir::Right, Dir::Up, Dir::Left, Dir::Down];

    /// Column and row change per letter.
    fn delta(self) -> (i8, i8) {
        match self {
            Dir::Right => (1, 0),
            Dir::Up => (0, 1),
            Dir::Left => (-1, 0),
            Dir::Down => (0, -1),
        }
    }

    /// The letter of the move notation.
    pub fn letter(self) -> char {
        match self {
            Dir::Right => 'r',
            Dir::Up => 'u',
            Dir::Left => 'l',
            Dir::Down => 'd',
        }
    }

    pub fn from_letter(c: char) -> Option<Dir> {
        Dir::ALL.into_iter().find(|d| d.letter() == c)
    }
}

/// A side: Red (moves first, base `a1`, writes right and up) or Blue.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Colour {
    Red,
    Blue,
}

impl Colour {
    pub const BOTH: [Colour; 2] = [Colour::Red, Colour::Blue];

    pub fn other(self) -> Colour {
        match self {
            Colour::Red => Colour::Blue,
            Colour::Blue => Colour::Red,
        }
    }

    pub fn index(self) -> usize {
        self as usize
    }

    /// The side's base cell.
    pub fn base(self) -> Cell {
        match self {
            Colour::Red => Cell(0),
            Colour::Blue => Cell(99),
        }
    }

    /// The two directions the side writes in.
    pub fn dirs(self) -> [Dir; 2] {
        match self {
            Colour::Red => [Dir::Right, Dir::Up],
            Colour::Blue => [Dir::Left, Dir::Down],
        }
    }

    /// The letter in the state string (`R`, `B`).
    pub fn tag(self) -> char {
        match self {
            Colour::Red => 'R',
            Colour::Blue => 'B',
        }
    }
}

/// A letter on the board: whose it is and what it says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Tile {
    pub owner: Colour,
    pub letter: Letter,
}

/// What a word did, counted for the robot and for the tests.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Capture {
    /// Letters written on empty cells.
    pub placed: u32,
    /// Enemy letters the word ran through.
    pub crossed: u32,
    /// Enemy letters taken because they were cut off from their base (or
    /// all of them, when the base fell).
    pub cut: u32,
    /// The word took the enemy base: the match is over.
    pub base: bool,
}

impl Capture {
    /// The change in (mover's letters - enemy's letters).
    pub fn gain(&self) -> i32 {
        (self.placed + 2 * (self.crossed + self.cut)) as i32
    }
}

const ALL: u128 = (1 << CELLS) - 1;
/// Cells not in column `a` / not in column `j`.
const NOT_A: u128 = ALL & !column(0);
const NOT_J: u128 = ALL & !column(9);

const fn column(col: u8) -> u128 {
    let mut m = 0;
    let mut row = 0;
    while row < SIZE {
        m |= 1 << (row * SIZE + col);
        row += 1;
    }
    m
}

/// The cells side-adjacent to `set`.
fn neighbours(set: u128) -> u128 {
    (((set << 1) & NOT_A) | ((set >> 1) & NOT_J) | (set << 10) | (set >> 10)) & ALL
}

/// The cells of `within` connected to `seed` through cell sides.
pub fn flood(seed: u128, within: u128) -> u128 {
    let mut reached = seed & within;
    loop {
        let next = (reached | neighbours(reached)) & within;
        if next == reached {
            return reached;
        }
        reached = next;
    }
}

/// The letters on the board. An empty base cell is a base whose side has
/// not written its first word yet (it shows the hint letter).
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Board {
    codes: [Code; CELLS],
    yo: u128,
    owned: [u128; 2],
}

impl Default for Board {
    fn default() -> Self {
        Board {
            codes: [0; CELLS],
            yo: 0,
            owned: [0; 2],
        }
    }
}

impl fmt::Debug for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for row in (1..=SIZE).rev() {
            let line: String = (0..SIZE)
                .filter_map(|c| Cell::new(c, row))
                .map(|cell| match self.tile(cell) {
                    None => '.',
                    Some(t) if t.owner == Colour::Red => (b'A' + t.letter.code % 26) as char,
                    Some(t) => (b'a' + t.letter.code % 26) as char,
                })
                .collect();
            writeln!(f, "{line}")?;
        }
        Ok(())
    }
}

impl Board {
    pub fn tile(&self, cell: Cell) -> Option<Tile> {
        let owner = Colour::BOTH
            .into_iter()
            .find(|c| self.owned[c.index()] & cell.bit() != 0)?;
        Some(Tile {
            owner,
            letter: Letter {
                code: self.codes[cell.index()],
                yo: self.yo & cell.bit() != 0,
            },
        })
    }

    /// The letter code on `cell` whoever owns it, without building a tile.
    pub fn code(&self, cell: Cell) -> Option<Code> {
        let taken = self.owned[0] | self.owned[1];
        (taken & cell.bit() != 0).then(|| self.codes[cell.index()])
    }

    pub fn owner(&self, cell: Cell) -> Option<Colour> {
        Colour::BOTH
            .into_iter()
            .find(|c| self.owned[c.index()] & cell.bit() != 0)
    }

    pub fn set(&mut self, cell: Cell, tile: Option<Tile>) {
        let bit = cell.bit();
        self.owned = self.owned.map(|o| o & !bit);
        self.yo &= !bit;
        if let Some(t) = tile {
            self.owned[t.owner.index()] |= bit;
            self.codes[cell.index()] = t.letter.code;
            if t.letter.yo {
                self.yo |= bit;
            }
        }
    }

    /// The side's letters as a bit set.
    pub fn letters_of(&self, side: Colour) -> u128 {
        self.owned[side.index()]
    }

    /// How many letters the side has.
    pub fn count(&self, side: Colour) -> u32 {
        self.owned[side.index()].count_ones()
    }

    /// The cells holding the side's letters, in index order.
    pub fn cells_of(&self, side: Colour) -> impl Iterator<Item = Cell> {
        let mut set = self.owned[side.index()];
        std::iter::from_fn(move || {
            if set == 0 {
                return None;
            }
            let i = set.trailing_zeros() as u8;
            set &= set - 1;
            Some(Cell(i))
        })
    }

    /// Whether the side has written its first word (its base holds a letter).
    pub fn started(&self, side: Colour) -> bool {
        self.code(side.base()).is_some()
    }

    /// The side's letters not connected to its base (all of them if it
    /// does not hold its base).
    pub fn cut_off(&self, side: Colour) -> u128 {
        let own = self.owned[side.index()];
        own & !flood(side.base().bit(), own)
    }

    /// What a word of `len` letters for `mover` from `start` in `dir` would
    /// do, without doing it: the cells it fills, the enemy letters it
    /// crosses, those then cut off from their base (all of them if the base
    /// falls). The caller has checked that the word fits.
    pub fn plan(&self, mover: Colour, start: Cell, dir: Dir, len: usize) -> Plan {
        let enemy = mover.other();
        let (mine, theirs) = (self.owned[mover.index()], self.owned[enemy.index()]);
        let (mut placed, mut crossed) = (0u128, 0u128);
        for i in 0..len {
            let Some(cell) = start.step(dir, i as u8) else {
                break;
            };
            let bit = cell.bit();
            if theirs & bit != 0 {
                crossed |= bit;
            } else if mine & bit == 0 {
                placed |= bit;
            }
        }
        // An enemy base without its first word is an empty cell: writing on
        // it takes it all the same.
        let base = (crossed | placed) & enemy.base().bit() != 0;
        let left = theirs & !crossed;
        // Only a letter taken off the enemy can cut his others off: his
        // letters were all connected to his base before this word.
        let lost = if base {
            left
        } else if crossed != 0 {
            left & !flood(enemy.base().bit(), left)
        } else {
            0
        };
        Plan {
            placed,
            taken: crossed | lost,
            capture: Capture {
                placed: placed.count_ones(),
                crossed: crossed.count_ones(),
                cut: lost.count_ones(),
                base,
            },
        }
    }

    /// Writes `letters` for `mover` from `start` in `dir` and takes what
    /// [`Board::plan`] says. The caller has checked that the word fits:
    /// every cell is on the board and empty or holding the same letter.
    pub fn write(&mut self, mover: Colour, start: Cell, dir: Dir, letters: &[Letter]) -> Capture {
        let plan = self.plan(mover, start, dir, letters.len());
        for (i, &letter) in letters.iter().enumerate() {
            let Some(cell) = start.step(dir, i as u8) else {
                break;
            };
            if plan.placed & cell.bit() != 0 {
                self.codes[cell.index()] = letter.code;
                if letter.yo {
                    self.yo |= cell.bit();
                }
            }
        }
        self.owned[mover.other().index()] &= !plan.taken;
        self.owned[mover.index()] |= plan.placed | plan.taken;
        plan.capture
    }
}

/// What a word would do: see [`Board::plan`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Plan {
    /// Empty cells it fills.
    pub placed: u128,
    /// Enemy letters that become the mover's.
    pub taken: u128,
    pub capture: Capture,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_parse_and_print() {
        for i in 0..CELLS {
            let cell = Cell::from_index(i).unwrap();
            assert_eq!(cell.to_string().parse::<Cell>(), Ok(cell));
        }
        assert_eq!("a1".parse::<Cell>().unwrap().index(), 0);
        assert_eq!("j10".parse::<Cell>().unwrap().index(), 99);
        assert_eq!("e5".parse::<Cell>().unwrap().to_string(), "e5");
        for bad in ["", "a", "a0", "a11", "k1", "a01", "A1", "1a", "a1r", "ж1"] {
            assert!(bad.parse::<Cell>().is_err(), "{bad}");
        }
    }

    #[test]
    fn steps_and_room_stop_at_the_edges() {
        let a1 = Cell::new(0, 1).unwrap();
        assert_eq!(
            a1.step(Dir::Right, 9).map(|c| c.to_string()),
            Some("j1".into())
        );
        assert_eq!(a1.step(Dir::Right, 10), None);
        assert_eq!(a1.step(Dir::Left, 1), None);
        assert_eq!(
            a1.step(Dir::Up, 9).map(|c| c.to_string()),
            Some("a10".into())
        );
        assert_eq!(a1.room(Dir::Right), 10);
        assert_eq!(a1.room(Dir::Down), 1);
        let e5: Cell = "e5".parse().unwrap();
        assert_eq!(e5.room(Dir::Right), 6);
        assert_eq!(e5.room(Dir::Left), 5);
        assert_eq!(e5.room(Dir::Up), 6);
        assert_eq!(e5.room(Dir::Down), 5);
    }

    #[test]
    fn flood_does_not_wrap_around_rows() {
        // j1 and a2 are consecutive indices but not neighbours.
        let j1 = Cell::new(9, 1).unwrap().bit();
        let a2 = Cell::new(0, 2).unwrap().bit();
        assert_eq!(flood(j1, j1 | a2), j1);
        assert_eq!(neighbours(j1).count_ones(), 2);
        assert_eq!(neighbours(Cell(55).bit()).count_ones(), 4);
        assert_eq!(flood(1, ALL), ALL);
    }
}
