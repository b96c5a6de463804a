//! Setting up a match: drawing the teams and the opening positions.
//!
//! Draw order, fixed because replays depend on it:
//!
//! 1. [`draw_sides`] (a new match only): one pick among the six pairs of
//!    seats `(0,1) (0,2) (0,3) (1,2) (1,3) (2,3)`; that pair is Attack.
//! 2. [`place`]: Defense's seats in ascending order, each one pick among the
//!    still free cells of row 1 (left to right); then Attack's seats likewise
//!    on row 5; then one pick among the five cells of row 4 for the ball.
//!
//! A rematch skips step 1 and swaps the sides instead.

use super::board::{Board, Cell, SIZE};
use super::dice::pick;
use super::state::State;
use super::{ATTACK, DEFENSE};
use crate::{MatchRng, Side};

/// The row each side starts on: Defense on row 1, Attack on row 5.
fn home_row(side: Side) -> u8 {
    if side == DEFENSE { 1 } else { SIZE }
}

/// The row the ball starts on: in front of Attack (where the original example has it).
const BALL_ROW: u8 = SIZE - 1;

/// Draws which two seats play Attack; the others play Defense.
pub fn draw_sides(rng: &mut MatchRng) -> [Side; 4] {
    const PAIRS: [[usize; 2]; 6] = [[0, 1], [0, 2], [0, 3], [1, 2], [1, 3], [2, 3]];
    let attack = pick(rng, &PAIRS).unwrap_or(PAIRS[0]);
    std::array::from_fn(|seat| {
        if attack.contains(&seat) {
            ATTACK
        } else {
            DEFENSE
        }
    })
}

/// A new match (nothing moved, Attack on turn) with `sides` and fresh random
/// positions.
pub fn place(sides: [Side; 4], ricochet: f64, max_rounds: u32, rng: &mut MatchRng) -> State {
    let mut players = [Cell::new(1, 1).expect("(1,1) is on the field"); 4];
    for side in [DEFENSE, ATTACK] {
        let row = home_row(side);
        let mut free: Vec<Cell> = (1..=SIZE).filter_map(|col| Cell::new(row, col)).collect();
        for seat in (0..4).filter(|&s| sides[s] == side) {
            let cell = pick(rng, &free).unwrap_or(free[0]);
            free.retain(|&c| c != cell);
            players[seat] = cell;
        }
    }
    let ball_cells: Vec<Cell> = (1..=SIZE)
        .filter_map(|col| Cell::new(BALL_ROW, col))
        .collect();
    let ball = pick(rng, &ball_cells).unwrap_or(ball_cells[0]);
    State {
        sides,
        board: Board { players, ball },
        moved: [0, 0],
        pending: [None; 4],
        result: None,
        ricochet,
        max_rounds,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    #[test]
    fn every_pairing_and_placement_is_legal() {
        let mut pairings = std::collections::HashSet::new();
        for seed in 0..300 {
            let mut rng = MatchRng::seed_from_u64(seed);
            let sides = draw_sides(&mut rng);
            pairings.insert(sides);
            let state = place(sides, 0.25, 10, &mut rng);
            state.check().unwrap();
            for (cell, side) in state.board.players.iter().zip(sides) {
                assert_eq!(cell.row(), home_row(side));
            }
            assert_eq!(state.board.ball.row(), 4);
        }
        assert_eq!(pairings.len(), 6);
    }

    #[test]
    fn same_seed_same_match() {
        let a = place(
            draw_sides(&mut MatchRng::seed_from_u64(3)),
            0.25,
            10,
            &mut MatchRng::seed_from_u64(4),
        );
        let b = place(
            draw_sides(&mut MatchRng::seed_from_u64(3)),
            0.25,
            10,
            &mut MatchRng::seed_from_u64(4),
        );
        assert_eq!(a, b);
    }
}
