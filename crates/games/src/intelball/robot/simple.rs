//! Level 1, after the original's IntelBot1: no passes and no look-ahead.
//! With the ball in reach it takes it and scores if a straight shot goes
//! in, else kicks it as far forward as it can where no opponent waits (or
//! steps forward with it);
//! without, the player nearest the ball runs at it.

use rand::Rng;

use super::combos::expand;
use crate::intelball::board::{BLUE, Field};
use crate::intelball::code::Code;
use crate::intelball::position::Position;
use crate::intelball::rules::Ending;
use crate::{MatchRng, Side};

fn forward(side: Side, field: &Field) -> i32 {
    let col = i32::from(field.ball.col());
    if side == BLUE { col } else { 13 - col }
}

/// Whether an opponent stands next to the ball.
fn opponent_near(field: &Field, side: Side) -> bool {
    field.team(1 - side).any(|(c, _)| c.near(field.ball))
}

pub fn choose(pos: &Position, rng: &mut MatchRng) -> Vec<Code> {
    let side = pos.turn;
    let tree = expand(&pos.field, side);
    let ball = pos.field.ball;
    let mut best: Vec<(i32, Vec<Code>)> = Vec::new();
    for fin in &tree.finals {
        let codes = tree.codes(fin);
        if codes.iter().any(|c| matches!(c, Code::Pass { .. })) {
            continue;
        }
        let value = match fin.ending {
            Ending::Goal => 1_000,
            // A kick lands forward but not at an opponent's feet.
            Ending::Shot if codes.len() <= 2 && !opponent_near(&fin.field, side) => {
                100 + forward(side, &fin.field) * 5
            }
            Ending::Dribble if codes.len() <= 2 => 90 + forward(side, &fin.field) * 5,
            Ending::Step if codes.len() == 1 => {
                // Run at the ball: the step that ends nearest it.
                let Code::Step { to, .. } = codes[0] else {
                    continue;
                };
                let to = to.cell().unwrap_or(ball);
                let d = to
                    .row()
                    .abs_diff(ball.row())
                    .max(to.col().abs_diff(ball.col()));
                50 - i32::from(d) * 5
            }
            _ => continue,
        };
        match best.first() {
            Some((v, _)) if *v > value => {}
            Some((v, _)) if *v == value => best.push((value, codes)),
            _ => best = vec![(value, codes)],
        }
    }
    if best.is_empty() {
        return vec![Code::End];
    }
    let pick = rng.gen_range(0..best.len());
    best.swap_remove(pick).1
}
