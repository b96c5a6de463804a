//! The field: sizes, point numbering, the 8 directions and the step tables a position uses.
//!
//! Points are numbered from the rules' coordinates `(x,y)`, `x = 0..=width`,
//! `y = -1..=length+1` (the goal rows included): `index = (y+1)*(width+1) + x`.
//! Every undirected segment has one bit: the segment from `p` in direction
//! 2..=5 (right, down-right, down, down-left) is bit `4p + (d-2)`; the other
//! four directions use the neighbour's bit. Steps that leave the field (other
//! than into a goal through its mouth) use a sentinel bit that is always set,
//! so "is this segment free" is one bit test for every point and direction.

use std::sync::OnceLock;

/// Widths the field supports (even).
pub const WIDTHS: std::ops::RangeInclusive<u8> = 4..=12;
/// Lengths the field supports (even).
pub const LENGTHS: std::ops::RangeInclusive<u8> = 4..=14;
/// The goal is 2 squares wide (3 goal points) on every field.
pub const GOAL_WIDTH: u8 = 2;
/// Points of the largest field, goal rows included: 13 x 17.
pub const MAX_POINTS: usize = 13 * 17;
/// Words of the segment bitset: 4 bits per point, plus the sentinel.
pub const EDGE_WORDS: usize = 14;
/// The always-drawn sentinel segment.
pub const SENTINEL: u16 = (EDGE_WORDS * 64 - 1) as u16;
/// No neighbour (the step leaves the field).
pub const NONE: u16 = u16::MAX;

/// A direction, numbered as the kurnik/PlayOK record: `0` up (towards the top
/// goal), then clockwise: 1 up-right, 2 right, 3 down-right, 4 down, 5
/// down-left, 6 left, 7 up-left.
pub type Dir = u8;
pub const DX: [i8; 8] = [0, 1, 1, 1, 0, -1, -1, -1];
pub const DY: [i8; 8] = [-1, -1, 0, 1, 1, 1, 0, -1];
/// Keypad digit of each direction (2 up, 3 up-right, 6 right, ...).
pub const KEYPAD: [u8; 8] = [b'2', b'3', b'6', b'9', b'8', b'7', b'4', b'1'];

/// The direction of a keypad digit (`1-4`, `6-9`).
pub fn dir_of_keypad(c: u8) -> Option<Dir> {
    KEYPAD.iter().position(|&k| k == c).map(|d| d as Dir)
}

/// What a point is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Outside everything (the corners of the goal rows).
    Off,
    Field,
    /// A point of the goal at `y = -1`, which side 0 attacks.
    TopGoal,
    /// A point of the goal at `y = length+1`, which side 1 attacks.
    BottomGoal,
}

/// A field size with its tables; one per size, built once per process.
#[derive(Debug)]
pub struct Field {
    pub width: u8,
    pub length: u8,
    pub cols: usize,
    pub rows: usize,
    /// Neighbour of each point in each direction, or [`NONE`].
    pub nbr: Vec<[u16; 8]>,
    /// Segment bit of each point and direction ([`SENTINEL`] when no neighbour).
    pub edge: Vec<[u16; 8]>,
    pub kind: Vec<Kind>,
    /// The border's segments (drawn from the start), with the sentinel.
    pub border: [u64; EDGE_WORDS],
    pub centre: u16,
    /// The goal's x range (posts included).
    pub goal_lo: u8,
    pub goal_hi: u8,
    pub zob_edge: Vec<u64>,
    pub zob_ball: Vec<u64>,
    pub zob_side: u64,
}

const SLOTS: usize = 5 * 6;
static FIELDS: [OnceLock<Field>; SLOTS] = [const { OnceLock::new() }; SLOTS];

/// Why a size is not supported.
pub fn check_size(width: u8, length: u8) -> Result<(), String> {
    if !WIDTHS.contains(&width) || !width.is_multiple_of(2) {
        return Err(format!("width {width}: even, 4-12"));
    }
    if !LENGTHS.contains(&length) || !length.is_multiple_of(2) {
        return Err(format!("length {length}: even, 4-14"));
    }
    Ok(())
}

fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

impl Field {
    /// The standard 8x10 field.
    pub fn standard() -> &'static Field {
        Field::get(8, 10).expect("8x10 is supported")
    }

    /// The field of this size (see [`check_size`]).
    pub fn get(width: u8, length: u8) -> Result<&'static Field, String> {
        check_size(width, length)?;
        let slot = (width as usize / 2 - 2) * 6 + (length as usize / 2 - 2);
        Ok(FIELDS[slot].get_or_init(|| Field::build(width, length)))
    }

    fn build(width: u8, length: u8) -> Field {
        let cols = width as usize + 1;
        let rows = length as usize + 3;
        let n = cols * rows;
        let lo = width / 2 - GOAL_WIDTH / 2;
        let hi = width / 2 + GOAL_WIDTH / 2;
        let (w, l) = (width as i32, length as i32);
        let mut kind = vec![Kind::Off; n];
        for y in -1..=l + 1 {
            for x in 0..=w {
                let k = if (0..=l).contains(&y) {
                    Kind::Field
                } else if (lo as i32..=hi as i32).contains(&x) {
                    if y < 0 {
                        Kind::TopGoal
                    } else {
                        Kind::BottomGoal
                    }
                } else {
                    Kind::Off
                };
                kind[((y + 1) as usize) * cols + x as usize] = k;
            }
        }
        let idx = |x: i32, y: i32| ((y + 1) as usize * cols + x as usize) as u16;
        let mut nbr = vec![[NONE; 8]; n];
        for y in 0..=l {
            for x in 0..=w {
                let p = idx(x, y);
                for d in 0..8 {
                    let (qx, qy) = (x + DX[d] as i32, y + DY[d] as i32);
                    let ok = if (0..=w).contains(&qx) && (0..=l).contains(&qy) {
                        true
                    } else {
                        (qy == -1 || qy == l + 1)
                            && (0..=w).contains(&qx)
                            && kind[idx(qx, qy) as usize] != Kind::Off
                            && (lo as i32..=hi as i32).contains(&x)
                    };
                    if ok {
                        nbr[p as usize][d] = idx(qx, qy);
                    }
                }
            }
        }
        let mut edge = vec![[SENTINEL; 8]; n];
        for p in 0..n {
            for d in 0..8 {
                let q = nbr[p][d];
                if q == NONE {
                    continue;
                }
                edge[p][d] = if (2..=5).contains(&d) {
                    (p * 4 + d - 2) as u16
                } else {
                    (q as usize * 4 + (d + 4) % 8 - 2) as u16
                };
            }
        }
        // Goal points keep their segments from the mouth (for the border bits
        // of the goal sides); they never move on, so fill their reverse edges.
        for p in 0..n {
            for d in 0..8 {
                let q = nbr[p][d];
                if q != NONE && kind[q as usize] != Kind::Field {
                    edge[q as usize][(d + 4) % 8] = edge[p][d];
                }
            }
        }
        let mut border = [0u64; EDGE_WORDS];
        let mut set = |e: u16| border[e as usize / 64] |= 1 << (e % 64);
        set(SENTINEL);
        for y in 0..l {
            set(edge[idx(0, y) as usize][4]);
            set(edge[idx(w, y) as usize][4]);
        }
        for (y, gy) in [(0, -1), (l, l + 1)] {
            for x in 0..w {
                if x < lo as i32 || x >= hi as i32 {
                    set(edge[idx(x, y) as usize][2]);
                }
            }
            let down = if gy < 0 { 0 } else { 4 };
            set(edge[idx(lo as i32, y) as usize][down]);
            set(edge[idx(hi as i32, y) as usize][down]);
            for x in lo as i32..hi as i32 {
                // Goal back: between goal points, set directly.
                set(idx(x, gy) * 4); // direction 2 from a goal point
            }
        }
        // Goal points have no neighbours of their own; record the goal back's
        // bits in their edge table so that rendering can read it.
        for x in lo as i32..hi as i32 {
            for gy in [-1, l + 1] {
                let g = (idx(x, gy) as usize * 4) as u16;
                edge[idx(x, gy) as usize][2] = g;
                edge[idx(x + 1, gy) as usize][6] = g;
            }
        }
        let mut seed = 0x5053_5A0B_u64 ^ ((width as u64) << 8 | length as u64);
        let zob_edge = (0..EDGE_WORDS * 64).map(|_| splitmix(&mut seed)).collect();
        let zob_ball = (0..n).map(|_| splitmix(&mut seed)).collect();
        let zob_side = splitmix(&mut seed);
        Field {
            width,
            length,
            cols,
            rows,
            nbr,
            edge,
            kind,
            border,
            centre: idx(w / 2, l / 2),
            goal_lo: lo,
            goal_hi: hi,
            zob_edge,
            zob_ball,
            zob_side,
        }
    }

    /// Number of points, goal rows included.
    pub fn points(&self) -> usize {
        self.cols * self.rows
    }

    /// The point `(x,y)`, if it is on the field or in a goal.
    pub fn point(&self, x: i32, y: i32) -> Option<u16> {
        if x < 0 || x > self.width as i32 || y < -1 || y > self.length as i32 + 1 {
            return None;
        }
        let p = (y + 1) as usize * self.cols + x as usize;
        (self.kind[p] != Kind::Off).then_some(p as u16)
    }

    /// Coordinates `(x,y)` of a point.
    pub fn xy(&self, p: u16) -> (i32, i32) {
        let p = p as usize;
        ((p % self.cols) as i32, (p / self.cols) as i32 - 1)
    }

    /// Whether the segment bit is one of the border's.
    pub fn is_border(&self, e: u16) -> bool {
        self.border[e as usize / 64] >> (e % 64) & 1 == 1
    }
}
