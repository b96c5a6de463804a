//! Checking one move against the start-of-turn board, and the refusal texts.

use super::board::{Board, Cell, Dir};
use super::moves::{Key, Move};
use crate::{Lang, Reason, Seat, tr};

/// Why a move was refused. The first three are the original service's errors.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Refusal {
    /// Off the field, or a kick that would send the ball off the field.
    CannotMove,
    /// The target cell has a player, or a kick/push would put the ball on one.
    CellTaken,
    /// A push that cannot be played for any other reason.
    CannotMoveBall,
    /// The sender's team is not on turn.
    NotYourTurn,
    /// The match has ended.
    MatchOver,
    /// The seat is not one of the match's four.
    NotInMatch,
}

impl Reason for Refusal {
    fn text(&self, lang: Lang) -> String {
        match self {
            Refusal::CannotMove => tr!(lang, "fb-cannot-move"),
            Refusal::CellTaken => tr!(lang, "fb-cell-taken"),
            Refusal::CannotMoveBall => tr!(lang, "fb-cannot-move-ball"),
            Refusal::NotYourTurn => tr!(lang, "fb-not-your-turn"),
            Refusal::MatchOver => tr!(lang, "fb-match-over"),
            Refusal::NotInMatch => tr!(lang, "fb-not-in-match"),
        }
    }
}

/// What a legal move means on the start-of-turn board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Intent {
    /// Where the player wants to end up (his own cell for a stand or push).
    pub player_to: Cell,
    /// Where the player sends the ball, for a kick or a push.
    pub ball_to: Option<Cell>,
}

/// Checks `seat`'s move against `board` (the board as the turn started: a
/// teammate's pending move does not free or take any cell) and says what it
/// intends.
pub fn intent(board: &Board, seat: Seat, mv: Move) -> Result<Intent, Refusal> {
    let from = *board.players.get(seat).ok_or(Refusal::NotInMatch)?;
    match mv {
        Move::Stand => Ok(Intent {
            player_to: from,
            ball_to: None,
        }),
        Move::Step(dir) => step(board, from, dir),
        Move::Push(key) => push(board, from, key),
    }
}

/// A step, or a kick when the target is the ball's cell.
fn step(board: &Board, from: Cell, dir: Dir) -> Result<Intent, Refusal> {
    let to = from.step(dir).ok_or(Refusal::CannotMove)?;
    if board.player_at(to).is_some() {
        return Err(Refusal::CellTaken);
    }
    if to != board.ball {
        return Ok(Intent {
            player_to: to,
            ball_to: None,
        });
    }
    let ball_to = to.step(dir).ok_or(Refusal::CannotMove)?;
    if board.player_at(ball_to).is_some() {
        return Err(Refusal::CellTaken);
    }
    Ok(Intent {
        player_to: to,
        ball_to: Some(ball_to),
    })
}

/// A push: every reason that is not "a player is there" is `CannotMoveBall`,
/// so those are checked first.
fn push(board: &Board, from: Cell, key: Key) -> Result<Intent, Refusal> {
    let dir = key
        .dir()
        .filter(|d| d.is_orthogonal())
        .ok_or(Refusal::CannotMoveBall)?;
    if from.distance(board.ball) != 1 {
        return Err(Refusal::CannotMoveBall);
    }
    let to = from.step(dir).ok_or(Refusal::CannotMoveBall)?;
    // Distance 0 is the ball's own cell, 2 would move the ball two cells.
    if to.distance(board.ball) != 1 {
        return Err(Refusal::CannotMoveBall);
    }
    if board.player_at(to).is_some() {
        return Err(Refusal::CellTaken);
    }
    Ok(Intent {
        player_to: from,
        ball_to: Some(to),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const CANNOT_MOVE: &str = "Vy ne mozhete peremestit svoego Igroka v dannom napravlenii";
    const TAKEN: &str = "Kletka na kotoruyu vy hoteli vstat zanyata";
    const NO_BALL: &str = "Vy ne mozhete peredvinut myach";

    fn board(rows: [&str; 5]) -> Board {
        Board::from_rows(&rows).unwrap()
    }

    fn cell(row: u8, col: u8) -> Cell {
        Cell::new(row, col).unwrap()
    }

    fn check(b: &Board, seat: Seat, mv: &str) -> Result<Intent, Refusal> {
        intent(b, seat, mv.parse().unwrap())
    }

    #[test]
    fn every_move_kind() {
        // Seat 0 at (3,3), ball at (2,3) right above it.
        let b = board([".....", "..*..", "..0..", ".....", "1.2.3"]);
        let cases: [(&str, Cell, Option<Cell>); 6] = [
            ("5", cell(3, 3), None),
            ("4", cell(3, 2), None),
            ("9", cell(4, 4), None),
            ("2", cell(2, 3), Some(cell(1, 3))),  // kick
            ("04", cell(3, 3), Some(cell(3, 2))), // push left: ball (2,3) -> (3,2)
            ("06", cell(3, 3), Some(cell(3, 4))),
        ];
        for (mv, player_to, ball_to) in cases {
            assert_eq!(check(&b, 0, mv), Ok(Intent { player_to, ball_to }), "{mv}");
        }
        // Diagonal kick.
        let b = board([".....", ".....", "...*.", "..0..", "1.2.3"]);
        assert_eq!(
            check(&b, 0, "3"),
            Ok(Intent {
                player_to: cell(3, 4),
                ball_to: Some(cell(2, 5))
            })
        );
    }

    #[test]
    fn error_table() {
        use Refusal::*;
        let cases: [([&str; 5], Seat, &str, Refusal); 17] = [
            // Off the field.
            (
                ["0....", ".....", "..*..", ".....", "1.2.3"],
                0,
                "1",
                CannotMove,
            ),
            (
                ["0....", ".....", "..*..", ".....", "1.2.3"],
                0,
                "4",
                CannotMove,
            ),
            (
                ["....0", ".....", "..*..", ".....", "1.2.3"],
                0,
                "3",
                CannotMove,
            ),
            (
                [".....", ".....", "..*..", ".....", "1.203"],
                0,
                "8",
                CannotMove,
            ),
            // A kick that sends the ball off the field.
            (
                ["..*..", "..0..", ".....", ".....", "1.2.3"],
                0,
                "2",
                CannotMove,
            ),
            (
                ["*....", ".0...", ".....", ".....", "1.2.3"],
                0,
                "1",
                CannotMove,
            ),
            // Target has a player: teammate, opponent.
            (
                [".....", "..*..", "..01.", ".....", "..2.3"],
                0,
                "6",
                CellTaken,
            ),
            (
                [".....", "..*..", "..02.", ".....", "1...3"],
                0,
                "6",
                CellTaken,
            ),
            // A kick onto a player (even a teammate who is moving away this turn).
            (
                [".....", "..2..", "..*..", "..0..", "1...3"],
                0,
                "2",
                CellTaken,
            ),
            (
                [".....", "...1.", "..*..", ".0...", "..2.3"],
                0,
                "3",
                CellTaken,
            ),
            // A push onto a player.
            (
                [".....", "..*..", ".20..", ".....", "1...3"],
                0,
                "04",
                CellTaken,
            ),
            // Pushes that cannot move the ball.
            (
                [".....", "..*..", ".....", "..0..", "1.2.3"],
                0,
                "02",
                CannotMoveBall,
            ), // ball not next to you
            (
                [".....", "..*..", "..0..", ".....", "1.2.3"],
                0,
                "03",
                CannotMoveBall,
            ), // diagonal
            (
                [".....", "..*..", "..0..", ".....", "1.2.3"],
                0,
                "05",
                CannotMoveBall,
            ), // 5
            (
                [".....", "..*..", "..0..", ".....", "1.2.3"],
                0,
                "02",
                CannotMoveBall,
            ), // onto the ball's cell
            (
                [".....", "..*..", "..0..", ".....", "1.2.3"],
                0,
                "08",
                CannotMoveBall,
            ), // two cells from the ball
            (
                ["*0...", ".....", ".....", ".....", "1.2.3"],
                0,
                "02",
                CannotMoveBall,
            ), // off the field
        ];
        for (rows, seat, mv, want) in cases {
            assert_eq!(
                check(&board(rows), seat, mv),
                Err(want),
                "{rows:?} seat {seat} move {mv}"
            );
        }
    }

    #[test]
    fn diagonal_push_onto_a_player_is_cannot_move_ball() {
        // The rules list "d not 2/4/6/8" under the push error, whatever is there.
        let b = board([".....", "..*2.", "..0..", ".....", "1...3"]);
        assert_eq!(check(&b, 0, "03"), Err(Refusal::CannotMoveBall));
    }

    #[test]
    fn texts_are_the_originals() {
        assert_eq!(Refusal::CannotMove.text(Lang::Ru), CANNOT_MOVE);
        assert_eq!(Refusal::CellTaken.text(Lang::Ru), TAKEN);
        assert_eq!(Refusal::CannotMoveBall.text(Lang::Ru), NO_BALL);
        assert_eq!(
            Refusal::NotYourTurn.text(Lang::Ru),
            "Seichas xod protivnika."
        );
        assert_eq!(
            Refusal::CannotMoveBall.text(Lang::En),
            "You cannot move the ball."
        );
        for r in [
            Refusal::CannotMove,
            Refusal::CellTaken,
            Refusal::CannotMoveBall,
            Refusal::NotYourTurn,
            Refusal::MatchOver,
            Refusal::NotInMatch,
        ] {
            for lang in [Lang::Ru, Lang::En] {
                let text = r.text(lang);
                assert!(
                    text.is_ascii() && !text.is_empty() && text.len() <= 160,
                    "{text}"
                );
            }
        }
    }

    #[test]
    fn unknown_seat_is_not_in_match() {
        let b = board([".....", "..*..", "..0..", ".....", "1.2.3"]);
        assert_eq!(check(&b, 4, "5"), Err(Refusal::NotInMatch));
    }
}
