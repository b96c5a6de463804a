//! What a benchmark phone reads in a text, and the legal move it answers a board with.
//!
//! Pure: no I/O, so the board reader is tested against the real rules
//! (`tests` below plays whole matches with the moves it picks).

/// The field is 5 x 5.
const SIZE: usize = 5;

/// Keypad directions: (key, row delta, column delta); row 1 is the top.
const DIRS: [(&str, i8, i8); 8] = [
    ("1", -1, -1),
    ("2", -1, 0),
    ("3", -1, 1),
    ("4", 0, -1),
    ("6", 0, 1),
    ("7", 1, -1),
    ("8", 1, 0),
    ("9", 1, 1),
];

/// The status line under a board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Turn {
    /// `Vash xod.` / `Your move.`: this phone's side moves now.
    Mine,
    /// `Xod protivnika.` / `Opponents' move.`
    Theirs,
    /// The match is over (`PA - revansh. ...`).
    Over,
}

/// A board text as the phone sees it: 5 rows of `.`, `Y`, `1`, `2`, `0`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Board {
    pub cells: [[u8; SIZE]; SIZE],
    pub turn: Turn,
}

/// What kind of text arrived.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Text {
    Board(Board),
    /// `Xod 5 prinyat.`: a move that waits for the partner's.
    MoveAccepted,
    /// The lobby's answer to `P` while fewer than four wait.
    Waiting,
    /// The answer to `R nick`.
    Registered,
    /// Anything else (an error, a refused move): the benchmark counts it as unexpected.
    Other,
}

/// Sorts an incoming text (RU or EN wording).
pub fn classify(text: &str) -> Text {
    if let Some(board) = read_board(text) {
        return Text::Board(board);
    }
    let t = text.trim();
    if (t.starts_with("Xod ") && t.ends_with(" prinyat."))
        || (t.starts_with("Move ") && t.ends_with(" accepted."))
    {
        Text::MoveAccepted
    } else if t.starts_with("Nedostatochno igrokov")
        || t.starts_with("Not enough players")
        || t.starts_with("Vasha zayavka uzhe prinyata")
        || t.starts_with("You are already in the queue")
    {
        Text::Waiting
    } else if t.starts_with("Vy zaregistrirovany kak")
        || t.starts_with("You are registered as")
        || t.starts_with("Vy uzhe zaregistrirovany")
        || t.starts_with("You are already registered")
    {
        Text::Registered
    } else {
        Text::Other
    }
}

/// Reads a board text: five rows, a blank line, the status line(s).
pub fn read_board(text: &str) -> Option<Board> {
    let mut lines = text.lines();
    let mut cells = [[0u8; SIZE]; SIZE];
    for row in cells.iter_mut() {
        let line = lines.next()?.as_bytes();
        if line.len() != SIZE || !line.iter().all(|c| b".Y120".contains(c)) {
            return None;
        }
        row.copy_from_slice(line);
    }
    if !lines.next()?.is_empty() {
        return None;
    }
    let status = lines.next()?;
    let turn = match status {
        "Vash xod." | "Your move." => Turn::Mine,
        "Xod protivnika." | "Opponents' move." => Turn::Theirs,
        _ if text.contains("PA - revansh.") || text.contains("PA - rematch.") => Turn::Over,
        _ => return None,
    };
    Some(Board { cells, turn })
}

impl Board {
    fn at(&self, row: i8, col: i8) -> Option<u8> {
        if (0..SIZE as i8).contains(&row) && (0..SIZE as i8).contains(&col) {
            Some(self.cells[row as usize][col as usize])
        } else {
            None
        }
    }

    /// Where `Y` stands (row, column), 0-based.
    pub fn me(&self) -> Option<(i8, i8)> {
        for (r, row) in self.cells.iter().enumerate() {
            if let Some(c) = row.iter().position(|&x| x == b'Y') {
                return Some((r as i8, c as i8));
            }
        }
        None
    }

    /// Every move that is legal whatever the partner plays: `5`, a step to a
    /// free cell, and a kick (a step onto the ball) whose ball lands inside
    /// the field on a cell with no player. Pushes (`0d`) are left out.
    pub fn legal_moves(&self) -> Vec<&'static str> {
        let mut moves = vec!["5"];
        let Some((r, c)) = self.me() else {
            return moves;
        };
        for (key, dr, dc) in DIRS {
            match self.at(r + dr, c + dc) {
                Some(b'.') => moves.push(key),
                Some(b'0') => {
                    if matches!(self.at(r + 2 * dr, c + 2 * dc), Some(b'.')) {
                        moves.push(key);
                    }
                }
                _ => {}
            }
        }
        moves
    }

    /// One legal move, drawn with `dice` (any number): mostly real steps and
    /// kicks so that matches differ, now and then `5`.
    pub fn choose(&self, dice: u64) -> &'static str {
        let moves = self.legal_moves();
        if moves.len() == 1 || dice.is_multiple_of(8) {
            return "5";
        }
        moves[1 + (dice / 8) as usize % (moves.len() - 1)]
    }
}

/// A small, fast generator for the phones' choices (xorshift64*).
#[derive(Clone, Debug)]
pub struct Dice(u64);

impl Dice {
    pub fn new(seed: u64) -> Dice {
        Dice(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    pub fn roll(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use smsarena::games::football::Football;
    use smsarena::games::{Effect, Game, Lang, MatchRng, Status};

    #[test]
    fn reads_the_rules_example_board() {
        let text = "...22\n.....\n...0.\n..Y1.\n.....\n\nVash xod.";
        let board = read_board(text).expect("a board");
        assert_eq!(board.turn, Turn::Mine);
        assert_eq!(board.me(), Some((3, 2)));
        let mut moves = board.legal_moves();
        moves.sort();
        // 3 kicks the ball from (2,3) to (1,4): free. 6 is the partner.
        assert_eq!(moves, ["1", "2", "3", "4", "5", "7", "8", "9"]);
        assert_eq!(classify(text), Text::Board(board));
    }

    #[test]
    fn a_kick_onto_a_player_or_off_the_field_is_not_offered() {
        let board = read_board("..2..\n..0..\n..Y..\n.....\n1.2..\n\nVash xod.").unwrap();
        assert!(!board.legal_moves().contains(&"2"));
        let board = read_board("0....\n.Y...\n.....\n..1..\n.22..\n\nVash xod.").unwrap();
        assert!(!board.legal_moves().contains(&"1"));
    }

    #[test]
    fn sorts_the_platform_texts() {
        assert_eq!(classify("Xod 5 prinyat."), Text::MoveAccepted);
        assert_eq!(
            classify("Nedostatochno igrokov dlya nachala igry. Zhdite."),
            Text::Waiting
        );
        assert_eq!(
            classify("Vy zaregistrirovany kak ann. Dlya nachala igry otpravte P na 002227."),
            Text::Registered
        );
        assert_eq!(
            classify("Kletka na kotoruyu vy hoteli vstat zanyata"),
            Text::Other
        );
        let over = "....Y\n.....\n.....\n.0...\n1.2.2\n\nVi pobedili.\nPA - revansh. S nick tekst - soobshchenie.";
        assert!(matches!(
            classify(over),
            Text::Board(Board {
                turn: Turn::Over,
                ..
            })
        ));
    }

    /// Whole matches through the real rules: every move the phones pick from
    /// their rendered boards is accepted, and the matches end.
    #[test]
    fn the_moves_it_picks_are_legal_in_real_matches() {
        let game = Football::default();
        let mut dice = Dice::new(7);
        let mut finished = 0;
        for seed in 0..300u64 {
            let mut rng = MatchRng::seed_from_u64(seed);
            let mut state = game.start(&smsarena::games::football::Options::Players, &mut rng);
            for _ in 0..200 {
                let Status::Awaiting(seats) = game.status(&state) else {
                    finished += 1;
                    break;
                };
                for seat in seats {
                    let text = game.render(&state, seat, Lang::Ru);
                    let Text::Board(board) = classify(&text) else {
                        panic!("not a board: {text}");
                    };
                    assert_eq!(board.turn, Turn::Mine, "{text}");
                    let mv = board.choose(dice.roll());
                    let parsed = mv.parse().unwrap();
                    match game.play(state.clone(), seat, &parsed, &mut rng) {
                        Ok(played) => {
                            state = played.state;
                            if played.effect == Effect::Resolved {
                                break;
                            }
                        }
                        Err(refused) => panic!("{mv} refused on\n{text}\n{:?}", refused.reason),
                    }
                }
            }
        }
        assert_eq!(finished, 300, "every match ends within its ten rounds");
    }
}
