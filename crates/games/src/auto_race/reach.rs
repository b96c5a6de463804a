//! Every distinct move of the car to move: one path per outcome (end cell,
//! length, back-markers passed), found by a depth-first search that agrees
//! step for step with [`super::path::drive`].
//!
//! Within one move a car never returns to an earlier sector, so the cells a
//! path has used that still matter are those of its current sector: the
//! lanes between where it entered the sector and where it is. A sideways
//! step back would revisit one, so a search state is the cell, the length so
//! far, the direction of this sector's sideways steps, and the back-markers
//! passed; two paths reaching the same search state have the same futures,
//! and only the first (trying `F`, then `I`, then `O`) is kept.

use std::collections::HashSet;

use super::car::{CarId, MAX_CARS};
use super::moves::{Move, Step};
use super::path::{Drive, lane_goes_on, sideways};
use super::state::State;

/// A distinct move and where it leads.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    pub steps: Vec<Step>,
    pub drive: Drive,
}

impl Outcome {
    pub fn to_move(&self) -> Move {
        Move::Path(self.steps.clone())
    }
}

/// What the search needs to know about the track and the other cars.
struct Ctx<'a> {
    state: &'a State,
    car: CarId,
    start: i32,
    max: u32,
    finish: i32,
    leader: bool,
    /// Lanes across the track's frame.
    lanes: usize,
    /// Per physical cell (`sector * lanes + lane - 1`): the car on it.
    cells: Vec<Option<u8>>,
    /// Search states and outcomes met, as bits: see [`Ctx::key`]. Paths
    /// through back-markers (rare) go to the sets instead.
    seen_bits: Vec<u64>,
    found_bits: Vec<u64>,
    seen: HashSet<(i32, u8, u32, u8, u16)>,
    found: HashSet<(i32, u8, u32, u16)>,
    out: Vec<Outcome>,
}

impl Ctx<'_> {
    fn cell(&self, d: i32, lane: u8) -> usize {
        self.state.track().sector(d) * self.lanes + usize::from(lane - 1)
    }

    /// A dense index for a cell and length reached (no back-markers passed):
    /// the cell is at most `max` sectors ahead, the length at most `max`.
    fn key(&self, d: i32, lane: u8, length: u32) -> usize {
        let ahead = (d - self.start) as usize;
        let span = self.max as usize + 1;
        (ahead * self.lanes + usize::from(lane - 1)) * span + length as usize
    }

    /// Whether the search state is new (and marks it seen).
    fn first_visit(&mut self, d: i32, lane: u8, length: u32, side: Side, mask: u16) -> bool {
        if mask != 0 {
            return self.seen.insert((d, lane, length, side as u8, mask));
        }
        let bit = self.key(d, lane, length) * 3 + side as usize;
        mark(&mut self.seen_bits, bit)
    }

    fn record(&mut self, steps: &[Step], drive: Drive, mask: u16) {
        let new = if mask == 0 {
            let bit = self.key(drive.d, drive.lane, drive.length);
            mark(&mut self.found_bits, bit)
        } else {
            self.found.insert((drive.d, drive.lane, drive.length, mask))
        };
        if new {
            self.out.push(Outcome {
                steps: steps.to_vec(),
                drive,
            });
        }
    }
}

/// Sets `bit`; whether it was clear.
fn mark(bits: &mut [u64], bit: usize) -> bool {
    let (word, mask) = (bit / 64, 1u64 << (bit % 64));
    let clear = bits[word] & mask == 0;
    bits[word] |= mask;
    clear
}

/// Direction of the sideways steps made in the current sector.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Side {
    None,
    Inner,
    Outer,
}

/// Every distinct legal path of `car`, which must be the car to move; empty
/// when it cannot move (then only the zero move is legal).
pub fn outcomes(state: &State, car: CarId) -> Vec<Outcome> {
    let (allow, bonus) = super::path::limit(state, car);
    let sectors = state.track().sectors() as usize;
    let lanes = usize::from(state.track().frame());
    let mut cells = vec![None; sectors * lanes];
    for (i, c) in state.cars().iter().enumerate() {
        if c.on_track() && i != car {
            cells[state.track().sector(c.d) * lanes + usize::from(c.lane - 1)] = Some(i as u8);
        }
    }
    let start = state.cars()[car];
    let max = u32::from(allow) + u32::from(bonus);
    // Cells up to `max + 1` ahead (the finish line is one past), lengths 0..=max.
    let keys = (max as usize + 2) * lanes * (max as usize + 1);
    let mut ctx = Ctx {
        state,
        car,
        start: start.d,
        max,
        finish: state.finish(),
        leader: state.leader_to_move(),
        lanes,
        cells,
        seen_bits: vec![0; (keys * 3).div_ceil(64)],
        found_bits: vec![0; keys.div_ceil(64)],
        seen: HashSet::new(),
        found: HashSet::new(),
        out: Vec::new(),
    };
    let mut steps = Vec::with_capacity(32);
    let here = Drive {
        d: start.d,
        lane: start.lane,
        length: 0,
        forward: false,
        finished: false,
        knocked: Vec::new(),
    };
    search(&mut ctx, &here, Side::None, 0, &mut steps);
    ctx.out
}

fn search(ctx: &mut Ctx<'_>, at: &Drive, side: Side, mask: u16, steps: &mut Vec<Step>) {
    for step in [Step::Forward, Step::Inner, Step::Outer] {
        let length = at.length + step.length();
        if length > ctx.max {
            continue;
        }
        let (d, lane, next_side) = match step {
            Step::Forward if !lane_goes_on(ctx.state, at.d, at.lane) => continue,
            Step::Forward => (at.d + 1, at.lane, Side::None),
            _ => {
                let (inner, this, back) = if step == Step::Inner {
                    (true, Side::Inner, Side::Outer)
                } else {
                    (false, Side::Outer, Side::Inner)
                };
                if side == back {
                    continue;
                }
                let Some(lane) = sideways(ctx.state, at.d, at.lane, inner) else {
                    continue;
                };
                (at.d, lane, this)
            }
        };
        let mut next = Drive {
            d,
            lane,
            length,
            forward: at.forward || step == Step::Forward,
            finished: false,
            knocked: at.knocked.clone(),
        };
        if d == ctx.finish {
            if ctx.state.on_line(lane).is_none() {
                next.finished = true;
                steps.push(step);
                ctx.record(steps, next, mask);
                steps.pop();
            }
            continue;
        }
        if d - ctx.start >= ctx.state.track().sectors() {
            continue;
        }
        let mut next_mask = mask;
        if let Some(by) = ctx.cells[ctx.cell(d, lane)].map(usize::from)
            && mask & (1 << by) == 0
        {
            let back_marker = ctx.leader
                && ctx.state.track().logical(d, lane) == 1
                && ctx.state.cars()[by].racing()
                && by != ctx.car
                && by < MAX_CARS;
            if !back_marker {
                continue;
            }
            next_mask |= 1 << by;
            next.knocked.push(by);
        }
        if !ctx.first_visit(d, lane, length, next_side, next_mask) {
            continue;
        }
        steps.push(step);
        ctx.record(steps, next.clone(), next_mask);
        search(ctx, &next, next_side, next_mask, steps);
        steps.pop();
    }
}

/// The legal moves of the car to move, as texts: one path per outcome, or
/// the zero move alone when there is none.
pub fn legal(state: &State, car: CarId) -> Vec<Move> {
    let paths: Vec<Move> = outcomes(state, car).iter().map(Outcome::to_move).collect();
    if paths.is_empty() {
        vec![Move::Zero]
    } else {
        paths
    }
}

/// The deadline's move: the shortest move that gains a sector (the least
/// length, then the fewest steps, then the earliest found), else the
/// shortest sideways move, else the zero move.
pub fn null(state: &State, car: CarId) -> Move {
    let all = outcomes(state, car);
    let best = |forward: bool| {
        all.iter()
            .filter(|o| o.drive.forward == forward)
            .min_by_key(|o| (o.drive.length, o.steps.len()))
            .map(Outcome::to_move)
    };
    best(true).or_else(|| best(false)).unwrap_or(Move::Zero)
}
