//! The position the robot searches: a segment bitset, the ball, the side to move, a Zobrist hash.

use super::field::{Dir, EDGE_WORDS, Field, Kind, NONE, SENTINEL};

/// Side 0 attacks the top goal and moves first; side 1 attacks the bottom goal.
pub type Side = u8;

/// A position: cheap to copy (120 bytes) and to hash. The side to move may
/// be in the middle of its bounce chain; the position does not say (it does
/// not matter for what follows).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    pub edges: [u64; EDGE_WORDS],
    pub ball: u16,
    pub side: Side,
    /// Zobrist hash of edges, ball and side.
    pub hash: u64,
}

/// What one legal step did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// The ball stopped on an untouched point: the other side moves.
    Pass,
    /// The ball bounced: the same side moves again.
    Bounce,
    /// The ball reached a goal point: `winner` is the side attacking that goal.
    Goal { winner: Side },
    /// The side now to move (the mover, after a bounce) has no free segment: it loses.
    Stuck,
}

/// Why a step is not possible.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Block {
    /// The segment was drawn in play.
    Drawn,
    /// Along a side line or an end line.
    Border,
    /// Into a goal post (a goal side) or out of the field.
    Outside,
}

impl Position {
    /// The opening: the border drawn, the ball on the centre, side 0 to move.
    pub fn start(f: &Field) -> Position {
        let mut pos = Position {
            edges: f.border,
            ball: f.centre,
            side: 0,
            hash: 0,
        };
        pos.hash = pos.compute_hash(f);
        pos
    }

    /// The hash from scratch.
    pub fn compute_hash(&self, f: &Field) -> u64 {
        let mut h = f.zob_ball[self.ball as usize];
        if self.side == 1 {
            h ^= f.zob_side;
        }
        for (w, &word) in self.edges.iter().enumerate() {
            let mut bits = word & !f.border[w];
            while bits != 0 {
                let b = bits.trailing_zeros() as usize;
                h ^= f.zob_edge[w * 64 + b];
                bits &= bits - 1;
            }
        }
        h
    }

    #[inline]
    pub fn drawn(&self, e: u16) -> bool {
        self.edges[e as usize >> 6] >> (e & 63) & 1 == 1
    }

    /// Free directions from point `p`, one bit per direction.
    #[inline]
    pub fn free_at(&self, f: &Field, p: u16) -> u8 {
        let es = &f.edge[p as usize];
        let mut m = 0u8;
        for (d, &e) in es.iter().enumerate() {
            m |= ((!self.drawn(e)) as u8) << d;
        }
        m
    }

    /// Free directions from the ball.
    #[inline]
    pub fn free(&self, f: &Field) -> u8 {
        if f.kind[self.ball as usize] != Kind::Field {
            return 0;
        }
        self.free_at(f, self.ball)
    }

    /// Whether a ball arriving at `p` bounces: the centre, a border point, or
    /// a point some drawn segment touches.
    #[inline]
    pub fn touched(&self, f: &Field, p: u16) -> bool {
        p == f.centre || f.edge[p as usize].iter().any(|&e| self.drawn(e))
    }

    /// Why step `d` is not possible, or `None` when it is.
    pub fn blocked(&self, f: &Field, d: Dir) -> Option<Block> {
        let q = f.nbr[self.ball as usize][d as usize];
        if q == NONE || f.kind[self.ball as usize] != Kind::Field {
            return Some(Block::Outside);
        }
        let e = f.edge[self.ball as usize][d as usize];
        if !self.drawn(e) {
            None
        } else if f.is_border(e) {
            // A goal side (the post's segment into the goal) reads as a post.
            if f.kind[q as usize] == Kind::Field {
                Some(Block::Border)
            } else {
                Some(Block::Outside)
            }
        } else {
            Some(Block::Drawn)
        }
    }

    /// Plays a step known to be free (see [`Position::free`]).
    #[inline]
    pub fn step(&mut self, f: &Field, d: Dir) -> Step {
        let p = self.ball;
        let q = f.nbr[p as usize][d as usize];
        let e = f.edge[p as usize][d as usize];
        debug_assert!(q != NONE && e != SENTINEL && !self.drawn(e));
        let bounce = self.touched(f, q);
        self.edges[e as usize >> 6] |= 1 << (e & 63);
        self.hash ^= f.zob_edge[e as usize] ^ f.zob_ball[p as usize] ^ f.zob_ball[q as usize];
        self.ball = q;
        match f.kind[q as usize] {
            Kind::TopGoal => return Step::Goal { winner: 0 },
            Kind::BottomGoal => return Step::Goal { winner: 1 },
            _ => {}
        }
        if !bounce {
            self.side ^= 1;
            self.hash ^= f.zob_side;
        }
        if self.free_at(f, q) == 0 {
            Step::Stuck
        } else if bounce {
            Step::Bounce
        } else {
            Step::Pass
        }
    }

    /// The ball's coordinates.
    pub fn ball_xy(&self, f: &Field) -> (i32, i32) {
        f.xy(self.ball)
    }
}
