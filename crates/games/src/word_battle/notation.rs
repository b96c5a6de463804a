//! The state string: one line, a version tag and eight `key=value` fields.
//!
//! ```text
//! WB1 v=ru len=6 red=0 turn=B passes=0 end=- board=........../../БАМБУК.... words=a1r:бамбук
//! ```
//!
//! | field | meaning |
//! |---|---|
//! | `WB1` | format version |
//! | `v` | `ru` or `en`: the alphabet and dictionary |
//! | `len` | the longest word, 5-7 |
//! | `red` | the seat playing Red, 0 or 1 |
//! | `turn` | `R` or `B`, the side to move |
//! | `passes` | passes in a row just played, 0-2 |
//! | `end` | `-` playing, `passes`, `base` (a base was taken), `left0`/`left1` (that seat resigned or went away) |
//! | `board` | rows 10 (top) to 1, joined by `/`, 10 cells each: `.` empty, upper case Red, lower case Blue (`ё` as played) |
//! | `words` | `-`, or the words played, oldest first, as `<cell><dir>:<word>` joined by `,` |
//!
//! The dictionary is not consulted (a state string may outlive a word list);
//! everything else the rules promise is checked by [`State::check`].

use std::fmt;
use std::str::FromStr;

use super::alphabet::{self, Variant};
use super::board::{Board, Cell, Colour, Dir, SIZE, Tile};
use super::state::{End, Played, State};
use crate::NotationError;

const TAG: &str = "WB1";
const KEYS: [&str; 8] = ["v", "len", "red", "turn", "passes", "end", "board", "words"];

impl fmt::Display for State {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let end = match self.end {
            End::Playing => "-".to_string(),
            End::Passes => "passes".into(),
            End::Base => "base".into(),
            End::Left(seat) => format!("left{seat}"),
        };
        let words = if self.words.is_empty() {
            "-".to_string()
        } else {
            let list: Vec<String> = self
                .words
                .iter()
                .map(|p| format!("{}{}:{}", p.start, p.dir.letter(), p.word))
                .collect();
            list.join(",")
        };
        write!(
            f,
            "{TAG} v={} len={} red={} turn={} passes={} end={end} board={} words={words}",
            self.variant,
            self.max_len,
            self.red_seat,
            self.turn.tag(),
            self.passes,
            board_text(&self.board, self.variant),
        )
    }
}

/// The board's rows, top first, without labels and with `.` for a base not yet played.
fn board_text(board: &Board, variant: Variant) -> String {
    let rows: Vec<String> = (1..=SIZE)
        .rev()
        .map(|row| {
            (0..SIZE)
                .filter_map(|col| Cell::new(col, row))
                .map(|cell| match board.tile(cell) {
                    None => '.',
                    Some(t) => variant.char(t.letter, t.owner == Colour::Red),
                })
                .collect()
        })
        .collect();
    rows.join("/")
}

fn err(msg: impl Into<String>) -> NotationError {
    NotationError::new(msg)
}

impl FromStr for State {
    type Err = NotationError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let mut tokens = s.split(' ');
        if tokens.next() != Some(TAG) {
            return Err(err(format!("a word battle state starts with {TAG}")));
        }
        let mut values = [""; 8];
        for (key, value) in KEYS.iter().zip(values.iter_mut()) {
            let token = tokens
                .next()
                .ok_or_else(|| err(format!("the state has no {key}= field")))?;
            *value = token
                .strip_prefix(key)
                .and_then(|rest| rest.strip_prefix('='))
                .ok_or_else(|| err(format!("expected {key}=..., found {token:?}")))?;
        }
        if tokens.next().is_some() {
            return Err(err("the state has text after words="));
        }
        let [v, len, red, turn, passes, end, board, words] = values;
        let variant = Variant::from_tag(v).ok_or_else(|| err(format!("v={v} is not ru or en")))?;
        let state = State {
            variant,
            max_len: digit(len, "len")?,
            red_seat: usize::from(digit(red, "red")?),
            turn: match turn {
                "R" => Colour::Red,
                "B" => Colour::Blue,
                _ => return Err(err(format!("turn={turn} is not R or B"))),
            },
            passes: digit(passes, "passes")?,
            end: parse_end(end)?,
            board: parse_board(board, variant)?,
            words: parse_words(words, variant)?,
        };
        state.check().map_err(err)?;
        Ok(state)
    }
}

/// One decimal digit, exactly as `Display` writes it.
fn digit(text: &str, key: &str) -> Result<u8, NotationError> {
    match text.as_bytes() {
        &[d @ b'0'..=b'9'] => Ok(d - b'0'),
        _ => Err(err(format!("{key}={text} is not one digit"))),
    }
}

fn parse_end(text: &str) -> Result<End, NotationError> {
    match text {
        "-" => Ok(End::Playing),
        "passes" => Ok(End::Passes),
        "base" => Ok(End::Base),
        "left0" => Ok(End::Left(0)),
        "left1" => Ok(End::Left(1)),
        _ => Err(err(format!(
            "end={text} is not -, passes, base, left0 or left1"
        ))),
    }
}

fn parse_board(text: &str, variant: Variant) -> Result<Board, NotationError> {
    let rows: Vec<&str> = text.split('/').collect();
    if rows.len() != usize::from(SIZE) {
        return Err(err(format!("the board has {} rows, not 10", rows.len())));
    }
    let mut board = Board::default();
    for (r, line) in rows.iter().enumerate() {
        let row = SIZE - r as u8;
        let chars: Vec<char> = line.chars().collect();
        if chars.len() != usize::from(SIZE) {
            return Err(err(format!("board row {row} is not 10 cells: {line:?}")));
        }
        for (col, &c) in chars.iter().enumerate() {
            if c == '.' {
                continue;
            }
            let letter = variant
                .letter(c)
                .ok_or_else(|| err(format!("board row {row} has {c:?}, no {variant} letter")))?;
            let owner = if alphabet::lower(c) == c {
                Colour::Blue
            } else {
                Colour::Red
            };
            let cell = Cell::new(col as u8, row).ok_or_else(|| err("no such cell"))?;
            board.set(cell, Some(Tile { owner, letter }));
        }
    }
    Ok(board)
}

fn parse_words(text: &str, variant: Variant) -> Result<Vec<Played>, NotationError> {
    if text == "-" {
        return Ok(Vec::new());
    }
    text.split(',')
        .map(|entry| {
            let bad = || err(format!("{entry:?} is not <cell><dir>:<word>"));
            let (place, word) = entry.split_once(':').ok_or_else(bad)?;
            let dir = place
                .chars()
                .last()
                .and_then(Dir::from_letter)
                .ok_or_else(bad)?;
            let start: Cell = place[..place.len() - 1].parse().map_err(|()| bad())?;
            let letters = variant.spell(word).ok_or_else(bad)?;
            if !(3..=7).contains(&letters.len()) || alphabet::fold(word) != word.replace('ё', "е")
            {
                return Err(bad());
            }
            Ok(Played {
                start,
                dir,
                word: word.to_string(),
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    const OPENING: &str = "WB1 v=ru len=6 red=0 turn=R passes=0 end=- board=........../........../........../........../........../........../........../........../........../.......... words=-";

    #[test]
    fn the_opening_round_trips() {
        let state: State = OPENING.parse().unwrap();
        assert_eq!(state, State::new(Variant::Ru, 6, 0));
        assert_eq!(state.to_string(), OPENING);
    }

    #[test]
    fn a_played_state_round_trips() {
        // Red holds column a and row 1; Blue ёлка... on row 10 to its base.
        let text = "WB1 v=ru len=7 red=1 turn=B passes=1 end=- board=\
            ......ёлка/........../........../........../........../\
            ........../........../Р........./О........./БАМБУК.... \
            words=a1r:бамбук,j10l:аклё,a1u:бор";
        let state: State = text.parse().unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(state.to_string(), text);
        assert_eq!(state.score(Colour::Red), 8);
        assert_eq!(state.score(Colour::Blue), 4);
        assert_eq!(state.seat_of(Colour::Red), 1);
        let cut = text.replace("......ёлка", ".....ёлка.");
        assert!(
            cut.parse::<State>().is_err(),
            "Blue's letters must reach j10"
        );
    }

    #[test]
    fn malformed_and_impossible_states_are_refused() {
        let cases = [
            (String::new(), "empty"),
            (OPENING.replace("WB1", "WB2"), "tag"),
            (format!("{OPENING} "), "trailing space"),
            (OPENING.replace(" v=", "  v="), "double space"),
            (OPENING.replace("v=ru", "v=de"), "variant"),
            (OPENING.replace("len=6", "len=8"), "length"),
            (OPENING.replace("len=6", "len=06"), "two digits"),
            (OPENING.replace("red=0", "red=2"), "red seat"),
            (OPENING.replace("turn=R", "turn=X"), "turn"),
            (OPENING.replace("passes=0", "passes=3"), "passes"),
            (
                OPENING.replace("passes=0", "passes=2"),
                "two passes, still playing",
            ),
            (
                OPENING.replace("end=-", "end=passes"),
                "ended without passes",
            ),
            (OPENING.replace("end=-", "end=left2"), "third seat"),
            (OPENING.replace("end=-", "end=base"), "no base taken"),
            (
                OPENING.replace("board=..........", "board=........."),
                "short row",
            ),
            (OPENING.replace("board=........../", "board="), "nine rows"),
            (
                OPENING.replace("board=..........", "board=.........x"),
                "latin letter",
            ),
            (
                OPENING.replace("board=..........", "board=........б."),
                "cut off",
            ),
            (OPENING.replace("words=-", "words=a1r:кот,a1u:КОТ"), "twice"),
            (OPENING.replace("words=-", "words=a1x:кот"), "direction"),
            (OPENING.replace("words=-", "words=a1r:ко"), "short word"),
            (OPENING.replace("words=-", "words=a1rкот"), "no colon"),
            (OPENING.replace("words=-", "words="), "empty list"),
        ];
        for (text, why) in cases {
            assert!(text.parse::<State>().is_err(), "{why}: {text}");
        }
    }
}
