//! The robot: level 1, legal and sensible. It heads for the ball and sends it
//! towards the line its team scores on, and steps next to a ball lying on
//! that line (a goal). Ties are broken by the generator the platform hands it.

use rand::Rng;

use super::end::scoring_row;
use super::moves::Move;
use super::state::State;
use super::turn;
use super::validate::intent;
use crate::{MatchRng, Seat};

/// The robot's move for `seat`; the stand when nothing else is legal (or it
/// is not the seat's turn, which the platform never asks).
pub fn choose(state: &State, seat: Seat, rng: &mut MatchRng) -> Move {
    let side = state.sides()[seat];
    let line = scoring_row(side);
    let board = state.board();
    let mut best: Vec<(i32, Move)> = Vec::new();
    for mv in Move::all().filter(|&m| turn::admit(state, seat, m).is_ok()) {
        let Ok(intent) = intent(board, seat, mv) else {
            continue;
        };
        let ball = intent.ball_to.unwrap_or(board.ball);
        let from_line = i32::from(ball.row().abs_diff(line));
        let to_ball = i32::from(intent.player_to.distance(ball));
        let mut score = -10 * from_line - to_ball;
        if from_line == 0 && to_ball <= 1 {
            score += 100;
        }
        match best.first() {
            Some(&(top, _)) if score < top => {}
            Some(&(top, _)) if score == top => best.push((score, mv)),
            _ => best = vec![(score, mv)],
        }
    }
    match best.len() {
        0 => Move::Stand,
        n => best[rng.gen_range(0..n)].1,
    }
}
