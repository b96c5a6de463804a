//! Level 3: playouts. The best level-2 moves are each driven on many times
//! to the end of the next round, every car (ours included) driven by a noisy
//! level 1 that looks at the farthest few moves; the move with the best mean
//! judgement wins. Playouts go round-robin over the candidates until the
//! budget is spent, so a short budget still compares them fairly.

use rand::Rng;

use super::super::car::CarId;
use super::super::reach::Outcome;
use super::super::state::State;
use super::{after, drive_on, eval, naive};
use crate::{Budget, MatchRng};

/// Candidates compared by playouts.
const CANDIDATES: usize = 6;
/// Moves a playout driver looks at: the farthest forward ones.
const PLAYOUT_WIDTH: usize = 6;
/// Chance that a playout driver takes a random move of those.
const NOISE: f64 = 0.25;
/// Playouts per candidate before the means are trusted over level 2.
const MIN_PLAYOUTS: u32 = 3;
/// Playouts in all, whatever the budget (a budget without limits stops here).
const MAX_PLAYOUTS: u32 = 2_000;

/// The playout driver's pick: usually the best judged of the farthest few.
fn playout_pick(state: &State, car: CarId, outs: &[Outcome], rng: &mut MatchRng) -> usize {
    let mut order: Vec<usize> = (0..outs.len()).collect();
    order.sort_by_key(|&i| {
        let o = &outs[i];
        (-o.drive.d, o.drive.length)
    });
    order.truncate(PLAYOUT_WIDTH);
    if rng.gen_bool(NOISE) {
        return order[rng.gen_range(0..order.len())];
    }
    let side = state.side(state.owner(car));
    let scores: Vec<f64> = order
        .iter()
        .map(|&i| eval::judge(&after(state, car, &outs[i]), side))
        .collect();
    let top = (0..order.len())
        .max_by(|&a, &b| scores[a].total_cmp(&scores[b]).then(b.cmp(&a)))
        .unwrap_or(0);
    order[top]
}

/// The index in `outs` of the move to play. `ranked` is level 2's ranking
/// (best first); it decides when the budget allows too few playouts.
pub fn best(
    state: &State,
    car: CarId,
    outs: &[Outcome],
    ranked: &[(usize, f64)],
    budget: &Budget<'_>,
    rng: &mut MatchRng,
) -> usize {
    let fallback = ranked.first().map_or_else(|| naive(state, outs), |r| r.0);
    let candidates: Vec<usize> = ranked.iter().take(CANDIDATES).map(|r| r.0).collect();
    if candidates.len() < 2 {
        return fallback;
    }
    let side = state.side(state.owner(car));
    let mut sums = vec![0.0; candidates.len()];
    let mut runs = vec![0u32; candidates.len()];
    let mut nodes = 0u64;
    'budget: for _ in 0..MAX_PLAYOUTS / candidates.len() as u32 {
        for (k, &i) in candidates.iter().enumerate() {
            if budget.exhausted(nodes) {
                break 'budget;
            }
            let mut playout = after(state, car, &outs[i]);
            // To the end of the next round: the rest of this one, and one more.
            let rounds = if playout.round() == state.round() {
                2
            } else {
                1
            };
            let pick = |s: &State, c: CarId, o: &[Outcome]| playout_pick(s, c, o, rng);
            nodes += drive_on(&mut playout, rounds, pick) as u64;
            sums[k] += eval::judge(&playout, side);
            runs[k] += 1;
            nodes += 1;
        }
    }
    if runs.iter().any(|&r| r < MIN_PLAYOUTS) {
        return fallback;
    }
    let mean = |k: usize| sums[k] / f64::from(runs[k]);
    let top = (0..candidates.len())
        .max_by(|&a, &b| mean(a).total_cmp(&mean(b)).then(b.cmp(&a)))
        .unwrap_or(0);
    candidates[top]
}
