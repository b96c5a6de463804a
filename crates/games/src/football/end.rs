//! End of the match: the goal and the ten-move rule.

use super::board::{Board, Cell, SIZE};
use super::{ATTACK, DEFENSE};
use crate::Side;

/// How a match ended, for the sides.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// This side won (by a goal, the ten-move rule, or the other side resigning).
    Won(Side),
    /// The ten-move rule with the ball on the middle row.
    Draw,
}

/// The row a side scores on: Attack on row 1 (Defense's line), Defense on row 5.
pub fn scoring_row(side: Side) -> u8 {
    if side == ATTACK { 1 } else { SIZE }
}

/// The side that has scored: the ball is on its scoring row and one of its
/// players stands next to the ball. Checked for both sides after every
/// resolution, so a team can score during the other team's turn (a ball
/// bounced onto the line next to a scorer counts).
pub fn goal(board: &Board, sides: &[Side; 4]) -> Option<Side> {
    [ATTACK, DEFENSE].into_iter().find(|&side| {
        board.ball.row() == scoring_row(side)
            && board
                .players
                .iter()
                .zip(sides)
                .any(|(&p, &s)| s == side && p.distance(board.ball) == 1)
    })
}

/// The ten-move rule: whoever took the ball out of its own half wins.
pub fn on_time(ball: Cell) -> Outcome {
    match ball.row() {
        1 | 2 => Outcome::Won(ATTACK),
        3 => Outcome::Draw,
        _ => Outcome::Won(DEFENSE),
    }
}

/// The result the rules give this position after a resolution, if any: a goal
/// first, then the ten-move rule once both teams have moved `max_rounds` times.
pub fn verdict(
    board: &Board,
    sides: &[Side; 4],
    moved: [u32; 2],
    max_rounds: u32,
) -> Option<Outcome> {
    goal(board, sides).map(Outcome::Won).or_else(|| {
        moved
            .iter()
            .all(|&m| m >= max_rounds)
            .then(|| on_time(board.ball))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const SIDES: [Side; 4] = [ATTACK, ATTACK, DEFENSE, DEFENSE];

    fn board(rows: [&str; 5]) -> Board {
        Board::from_rows(&rows).unwrap()
    }

    #[test]
    fn attack_scores_on_row_one_next_to_the_ball() {
        assert_eq!(
            goal(
                &board(["..*..", "...0.", "2...3", ".....", "1...."]),
                &SIDES
            ),
            Some(ATTACK)
        );
        assert_eq!(
            goal(
                &board(["..*0.", ".....", "2...3", ".....", "1...."]),
                &SIDES
            ),
            Some(ATTACK)
        );
        // Two cells away is not enough; a defender next to it does not score.
        assert_eq!(
            goal(
                &board(["..*..", "....0", "2...3", ".....", "1...."]),
                &SIDES
            ),
            None
        );
        assert_eq!(
            goal(
                &board(["..*2.", ".....", "0...3", ".....", "1...."]),
                &SIDES
            ),
            None
        );
    }

    #[test]
    fn defense_scores_on_row_five() {
        assert_eq!(
            goal(
                &board([".....", ".....", "0...1", ".2...", "*...3"]),
                &SIDES
            ),
            Some(DEFENSE)
        );
        assert_eq!(
            goal(
                &board([".....", ".....", "0...1", ".....", "*2..3"]),
                &SIDES
            ),
            Some(DEFENSE)
        );
        // Only an attacker next to a ball on row 5: no goal for anyone.
        assert_eq!(
            goal(
                &board([".....", ".....", "...1.", "...2.", "*0..3"]),
                &SIDES
            ),
            None
        );
    }

    #[test]
    fn ten_moves_split_by_row() {
        let cell = |row| Cell::new(row, 3).unwrap();
        assert_eq!(on_time(cell(1)), Outcome::Won(ATTACK));
        assert_eq!(on_time(cell(2)), Outcome::Won(ATTACK));
        assert_eq!(on_time(cell(3)), Outcome::Draw);
        assert_eq!(on_time(cell(4)), Outcome::Won(DEFENSE));
        assert_eq!(on_time(cell(5)), Outcome::Won(DEFENSE));
    }

    #[test]
    fn verdict_prefers_the_goal() {
        let b = board(["..*..", "...0.", "2...3", ".....", "1...."]);
        assert_eq!(verdict(&b, &SIDES, [3, 2], 10), Some(Outcome::Won(ATTACK)));
        let b = board([".....", "...0.", "2.*.3", ".....", "1...."]);
        assert_eq!(verdict(&b, &SIDES, [3, 2], 10), None);
        assert_eq!(verdict(&b, &SIDES, [10, 9], 10), None);
        assert_eq!(verdict(&b, &SIDES, [10, 10], 10), Some(Outcome::Draw));
    }
}
