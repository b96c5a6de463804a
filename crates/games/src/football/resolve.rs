//! Resolving a turn: the two intents of the team on turn, applied to the
//! start-of-turn board, give the next board.
//!
//! Steps, in the order of the rules, and the random draws each makes (a
//! "pick" is one draw of [`dice::free_cell_near`]):
//!
//! 1. **Fight for the ball** (both players kick or push): kickers run into the
//!    ball's old cell, pushers stay; draw `gen_bool(ricochet)`, then pick the
//!    ball's cell near its old cell: from distance 1, or from distance 2 on a
//!    ricochet (widening outwards if that ring is full). Cells with a player,
//!    as the players stand after their moves, are not free.
//! 2. **Collision** (both players target the same cell X): the lower seat
//!    picks a free cell near X first, then the higher seat; the ball (where
//!    step 1 or the single kick/push put it) and the first player's new cell
//!    are not free.
//! 3. **Player meets ball** (a player stands where the ball was sent): the
//!    ball bounces: one pick near that cell among the cells without players.
//!
//! A turn with none of these draws nothing.
//!
//! Decisions where the rules are silent:
//!
//! - The draws follow the rules' order (fight, collision, bounce), lower seat
//!   first; the ring is listed in row-major order (see [`dice`]).
//! - Both kick: the kickers collide on the ball's old cell. The ball is placed
//!   first (step 1), then the kickers scatter around that cell (step 2).
//! - A kick or push whose ball lands on the cell the teammate steps into is
//!   step 3: the teammate takes the cell and the ball bounces off him. (Sending
//!   the ball onto the cell the teammate is *leaving* is refused at submission:
//!   the start-of-turn board has a player there.)
//! - A ricochet lands at distance exactly 2, widening to 3 and 4 if that ring
//!   is full. "Free" means no player where the players stand after the moves;
//!   a bouncing ball may land back on its own old cell.
//! - No free cell at all cannot happen (at most 5 of the 25 cells are taken);
//!   should it, the piece stays on the centre cell instead of panicking.
//! - In legal play widening is never needed: the movers always leave a
//!   neighbouring cell free and a ricochet always finds room at distance 2
//!   (checked on every legal move pair of many positions by
//!   `props::widening_is_never_needed_in_play`), so it is a safeguard.

use rand::Rng;

use super::board::{Board, Cell, CellSet};
use super::dice;
use super::validate::Intent;
use crate::{MatchRng, Seat};

/// The board after the team's two moves. `moves` are the two movers with
/// their validated intents; their order does not matter (seats decide the
/// draw order). `ricochet` is a probability in `[0, 1]`.
pub fn resolve(
    board: &Board,
    moves: [(Seat, Intent); 2],
    ricochet: f64,
    rng: &mut MatchRng,
) -> Board {
    let mut moves = moves;
    moves.sort_by_key(|&(seat, _)| seat);
    let mut next = *board;
    for (seat, intent) in moves {
        next.players[seat] = intent.player_to;
    }
    next.ball = match moves.map(|(_, i)| i.ball_to) {
        [Some(_), Some(_)] => fight(&next, board.ball, ricochet, rng),
        [Some(to), None] | [None, Some(to)] => to,
        [None, None] => board.ball,
    };
    let [(first, a), (second, b)] = moves;
    if a.player_to == b.player_to {
        scatter(&mut next, a.player_to, [first, second], rng);
    }
    if next.player_at(next.ball).is_some() {
        next.ball = bounce(&next, rng);
    }
    next
}

/// Nobody controls the ball: it lands near its old cell, or further on a ricochet.
fn fight(next: &Board, old_ball: Cell, ricochet: f64, rng: &mut MatchRng) -> Cell {
    let min_dist = if rng.gen_bool(ricochet) { 2 } else { 1 };
    place(rng, old_ball, min_dist, next.player_cells())
}

/// Two teammates ran into `cell`: each lands on a different free cell near it.
fn scatter(next: &mut Board, cell: Cell, seats: [Seat; 2], rng: &mut MatchRng) {
    let mut taken: CellSet = (0..next.players.len())
        .filter(|s| !seats.contains(s))
        .map(|s| next.players[s])
        .collect();
    taken.insert(next.ball);
    for seat in seats {
        let to = place(rng, cell, 1, taken);
        next.players[seat] = to;
        taken.insert(to);
    }
}

/// The ball was sent onto a player's cell: it bounces to a free cell near him.
fn bounce(next: &Board, rng: &mut MatchRng) -> Cell {
    place(rng, next.ball, 1, next.player_cells())
}

/// A free cell near `center`. At most 5 of the 25 cells are ever taken, so
/// some cell at distance 1..=4 is always free; should that ever fail, the
/// piece stays on `center` rather than panic.
fn place(rng: &mut MatchRng, center: Cell, min_dist: u8, taken: CellSet) -> Cell {
    dice::free_cell_near(rng, center, min_dist, taken).unwrap_or(center)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::football::validate::intent;
    use rand::SeedableRng;

    fn cell(row: u8, col: u8) -> Cell {
        Cell::new(row, col).unwrap()
    }

    /// Resolves seat 0 and seat 1's moves on `rows` (seat digits, `*` ball).
    fn run(rows: [&str; 5], m0: &str, m1: &str, ricochet: f64, seed: u64) -> Board {
        let board = Board::from_rows(&rows).unwrap();
        let i0 = intent(&board, 0, m0.parse().unwrap()).unwrap();
        let i1 = intent(&board, 1, m1.parse().unwrap()).unwrap();
        let mut rng = MatchRng::seed_from_u64(seed);
        let next = resolve(&board, [(0, i0), (1, i1)], ricochet, &mut rng);
        next.check().unwrap();
        next
    }

    #[test]
    fn plain_moves_draw_nothing() {
        // The seed's example: kick with 3, step with 2.
        let next = run(
            ["...23", ".....", ".....", "..*..", ".0.1."],
            "3",
            "2",
            0.25,
            1,
        );
        assert_eq!(next.to_string(), "...23/...../...*./..01./.....");
        // Identical for every seed: no draw was needed.
        for seed in 0..20 {
            assert_eq!(
                run(
                    ["...23", ".....", ".....", "..*..", ".0.1."],
                    "3",
                    "2",
                    0.25,
                    seed
                ),
                next
            );
        }
        let next = run(
            ["...23", ".....", "..*..", "..0..", "...1."],
            "04",
            "5",
            0.25,
            3,
        );
        assert_eq!(next.to_string(), "...23/...../...../.*0../...1.");
    }

    #[test]
    fn fight_kick_and_push_without_ricochet() {
        // Seat 0 kicks up from (4,3); seat 1 at (3,4) pushes the ball up to (2,4).
        let rows = [".....", "2...3", "..*1.", "..0..", "....."];
        for seed in 0..100 {
            let next = run(rows, "2", "02", 0.0, seed);
            assert_eq!(
                next.players[0],
                cell(3, 3),
                "the kicker runs into the ball's cell"
            );
            assert_eq!(next.players[1], cell(3, 4), "the pusher stays");
            assert_eq!(next.ball.distance(cell(3, 3)), 1);
        }
        assert_eq!(
            run(rows, "2", "02", 0.0, 5).to_string(),
            FIGHT_NO_RICOCHET_SEED_5
        );
    }

    #[test]
    fn fight_with_certain_ricochet() {
        let rows = [".....", "2...3", "..*1.", "..0..", "....."];
        for seed in 0..100 {
            let next = run(rows, "2", "02", 1.0, seed);
            assert_eq!(next.ball.distance(cell(3, 3)), 2, "seed {seed}");
            assert_eq!(next.players[0], cell(3, 3));
        }
        assert_eq!(
            run(rows, "2", "02", 1.0, 5).to_string(),
            FIGHT_RICOCHET_SEED_5
        );
    }

    #[test]
    fn fight_ricochet_is_a_probability() {
        let rows = [".....", "2...3", "..*1.", "..0..", "....."];
        let far = (0..1000)
            .filter(|&seed| run(rows, "2", "02", 0.25, seed).ball.distance(cell(3, 3)) == 2)
            .count();
        assert!((180..=320).contains(&far), "{far} ricochets in 1000");
    }

    #[test]
    fn fight_both_push() {
        // Both next to the ball at (3,3), pushing it up to (3,2) and (3,4).
        let rows = [".....", "2...3", "..*..", ".0.1.", "....."];
        for seed in 0..100 {
            let next = run(rows, "02", "02", 0.0, seed);
            assert_eq!(next.players[0], cell(4, 2));
            assert_eq!(next.players[1], cell(4, 4));
            assert_eq!(next.ball.distance(cell(3, 3)), 1);
        }
    }

    #[test]
    fn fight_both_kick_scatters_the_kickers() {
        // Both kick the ball at (3,3): 0 with 3 from (4,2), 1 with 1 from (4,4).
        let rows = [".....", "2...3", "..*..", ".0.1.", "....."];
        let mut ricochets = 0;
        for seed in 0..200 {
            let next = run(rows, "3", "1", 0.25, seed);
            let [a, b, ..] = next.players;
            assert_ne!(a, b);
            assert_eq!(a.distance(cell(3, 3)), 1);
            assert_eq!(b.distance(cell(3, 3)), 1);
            let d = next.ball.distance(cell(3, 3));
            assert!(d == 1 || d == 2);
            ricochets += usize::from(d == 2);
        }
        assert!(ricochets > 0 && ricochets < 200);
        assert_eq!(run(rows, "3", "1", 0.0, 9).to_string(), BOTH_KICK_SEED_9);
    }

    #[test]
    fn collision_scatters_to_different_free_cells() {
        // Both step into (3,3); the ball at (2,3) is not free.
        let rows = [".....", "2.*.3", ".....", ".0.1.", "....."];
        let mut seen = CellSet::default();
        for seed in 0..200 {
            let next = run(rows, "3", "1", 0.25, seed);
            let [a, b, ..] = next.players;
            assert_ne!(a, b);
            for p in [a, b] {
                assert_eq!(p.distance(cell(3, 3)), 1);
                assert_ne!(p, cell(2, 3));
                seen.insert(p);
            }
            assert_eq!(next.ball, cell(2, 3), "a collision does not move the ball");
        }
        // (2,3) holds the ball; the other seven neighbours all occur.
        assert_eq!(seen.len(), 7);
        assert_eq!(run(rows, "3", "1", 0.25, 4).to_string(), COLLISION_SEED_4);
    }

    #[test]
    fn kick_into_the_stepping_teammate_bounces() {
        // 0 kicks up from (4,3): ball (3,3) -> (2,3); 1 steps 1 from (3,4) to (2,3).
        let rows = [".....", "2...3", "..*1.", "..0..", "....."];
        for seed in 0..100 {
            let next = run(rows, "2", "1", 0.25, seed);
            assert_eq!(next.players[0], cell(3, 3));
            assert_eq!(next.players[1], cell(2, 3), "the teammate takes the cell");
            assert_eq!(
                next.ball.distance(cell(2, 3)),
                1,
                "the ball bounces off him"
            );
        }
        assert_eq!(run(rows, "2", "1", 0.25, 2).to_string(), KICK_MEETS_SEED_2);
    }

    #[test]
    fn push_into_the_stepping_teammate_bounces() {
        // 0 at (4,3) pushes the ball from (3,3) to (4,4), where 1 steps from (5,5).
        let rows = [".....", "2...3", "..*..", "..0..", "....1"];
        for seed in 0..100 {
            let next = run(rows, "06", "1", 0.25, seed);
            assert_eq!(next.players[0], cell(4, 3));
            assert_eq!(next.players[1], cell(4, 4));
            assert_eq!(next.ball.distance(cell(4, 4)), 1);
        }
    }

    #[test]
    fn no_free_cell_anywhere_leaves_the_piece_on_the_centre() {
        let centre = cell(3, 3);
        let taken: CellSet = Cell::all().filter(|&c| c != centre).collect();
        assert_eq!(
            place(&mut MatchRng::seed_from_u64(0), centre, 1, taken),
            centre
        );
    }

    #[test]
    fn argument_order_does_not_matter() {
        let board = Board::from_rows(&["...23", ".....", ".0.1.", ".....", "..*.."]).unwrap();
        let i0 = intent(&board, 0, "6".parse().unwrap()).unwrap();
        let i1 = intent(&board, 1, "4".parse().unwrap()).unwrap();
        let a = resolve(
            &board,
            [(0, i0), (1, i1)],
            0.25,
            &mut MatchRng::seed_from_u64(11),
        );
        let b = resolve(
            &board,
            [(1, i1), (0, i0)],
            0.25,
            &mut MatchRng::seed_from_u64(11),
        );
        assert_eq!(a, b);
    }

    // Pinned boards: the order of draws is part of the replay format, so a
    // change that moves any of these breaks stored matches.
    const FIGHT_NO_RICOCHET_SEED_5: &str = "...../2...3/..01./..*../.....";
    const FIGHT_RICOCHET_SEED_5: &str = "..*../2...3/..01./...../.....";
    const BOTH_KICK_SEED_9: &str = "...../2..13/...../..*0./.....";
    const COLLISION_SEED_4: &str = "...../21*.3/...../..0../.....";
    const KICK_MEETS_SEED_2: &str = "..*../2.1.3/..0../...../.....";
}
