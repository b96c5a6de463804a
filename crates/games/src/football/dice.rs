//! Every random draw of the game, in one portable primitive.
//!
//! A draw is always `rng.gen_range(0..n)` on a `u32` (never `usize`, whose
//! sampling differs between 32- and 64-bit machines), over candidates listed
//! in row-major cell order. The order in which the game draws is documented
//! where it draws: [`super::setup`] for a new match, [`super::resolve`] for a
//! turn. Nothing else touches the generator.

use rand::Rng;

use super::board::{Cell, CellSet, SIZE};
use crate::MatchRng;

/// One uniform pick among `items` (one draw). `None` only for an empty slice,
/// which draws nothing.
pub fn pick<T: Copy>(rng: &mut MatchRng, items: &[T]) -> Option<T> {
    if items.is_empty() {
        return None;
    }
    let n = u32::try_from(items.len()).expect("at most 25 candidates");
    Some(items[rng.gen_range(0..n) as usize])
}

/// The farthest two cells of the field can be apart.
const MAX_DISTANCE: u8 = SIZE - 1;

/// A random cell not in `taken`, at distance `min_dist` from `center` if any
/// is free there, else at the nearest larger distance that has one ("widen to
/// distance 2, and so on"). One draw, or none if no free cell exists at all at
/// `min_dist` or beyond.
pub fn free_cell_near(
    rng: &mut MatchRng,
    center: Cell,
    min_dist: u8,
    taken: CellSet,
) -> Option<Cell> {
    (min_dist..=MAX_DISTANCE).find_map(|dist| {
        let ring: Vec<Cell> = Cell::all()
            .filter(|&c| c.distance(center) == dist && !taken.contains(c))
            .collect();
        pick(rng, &ring)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    fn cell(row: u8, col: u8) -> Cell {
        Cell::new(row, col).unwrap()
    }

    #[test]
    fn picks_a_free_neighbour() {
        let center = cell(3, 3);
        let taken: CellSet = [cell(2, 2), cell(2, 3), cell(4, 4)].into_iter().collect();
        for seed in 0..200 {
            let mut rng = MatchRng::seed_from_u64(seed);
            let got = free_cell_near(&mut rng, center, 1, taken).unwrap();
            assert_eq!(got.distance(center), 1);
            assert!(!taken.contains(got));
        }
    }

    #[test]
    fn widens_when_no_neighbour_is_free() {
        // Corner (1,1): its three neighbours are taken, so distance 2.
        let taken: CellSet = [cell(1, 2), cell(2, 1), cell(2, 2)].into_iter().collect();
        let mut seen = CellSet::default();
        for seed in 0..200 {
            let mut rng = MatchRng::seed_from_u64(seed);
            let got = free_cell_near(&mut rng, cell(1, 1), 1, taken).unwrap();
            assert_eq!(got.distance(cell(1, 1)), 2);
            seen.insert(got);
        }
        assert_eq!(seen.len(), 5, "all five cells at distance 2 are reachable");
        // And further: everything within distance 2 of (1,1) is taken.
        let taken: CellSet = Cell::all()
            .filter(|c| c.distance(cell(1, 1)) <= 2)
            .collect();
        let mut rng = MatchRng::seed_from_u64(7);
        assert_eq!(
            free_cell_near(&mut rng, cell(1, 1), 1, taken)
                .unwrap()
                .distance(cell(1, 1)),
            3
        );
    }

    #[test]
    fn no_free_cell_anywhere_is_none() {
        let taken: CellSet = Cell::all().filter(|&c| c != cell(3, 3)).collect();
        let mut rng = MatchRng::seed_from_u64(1);
        assert_eq!(free_cell_near(&mut rng, cell(3, 3), 1, taken), None);
    }

    #[test]
    fn starts_at_the_minimum_distance() {
        for seed in 0..100 {
            let mut rng = MatchRng::seed_from_u64(seed);
            let got = free_cell_near(&mut rng, cell(3, 3), 2, CellSet::default()).unwrap();
            assert_eq!(got.distance(cell(3, 3)), 2);
        }
    }

    #[test]
    fn pick_is_fixed_for_a_seed() {
        // Pins the draw primitive (ChaCha8 + rand 0.8's u32 range sampling): a
        // change here breaks every stored replay.
        let mut rng = MatchRng::seed_from_u64(42);
        let picks: Vec<u8> = (0..8)
            .map(|_| pick(&mut rng, &[0u8, 1, 2, 3, 4]).unwrap())
            .collect();
        let mut again = MatchRng::seed_from_u64(42);
        let repeat: Vec<u8> = (0..8)
            .map(|_| pick(&mut again, &[0u8, 1, 2, 3, 4]).unwrap())
            .collect();
        assert_eq!(picks, repeat);
        assert_eq!(picks, [1, 3, 2, 3, 1, 3, 1, 1]);
        assert_eq!(pick::<u8>(&mut rng, &[]), None);
    }
}
