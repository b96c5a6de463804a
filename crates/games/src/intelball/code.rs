//! The move codes of the seed (`L(4,7)>F(5,8)`, `B~L(4,5)>L(6,5)`, ...) and
//! combinations of them written without separators.
//!
//! Parsing accepts lower case and spaces between tokens; `Display` writes the
//! seed's canonical form. Cells are read as written (any one- or two-digit
//! numbers), so that the rules, not the parser, say "off the field".

use std::fmt;

use super::board::{BLUE, RED, Spot};
use crate::{NotationError, Said, Side, said};

/// One move of a combination.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Code {
    /// `L(a)>F(b)`: a player steps to a free neighbouring cell; the turn ends.
    Step { side: Side, from: Spot, to: Spot },
    /// `L(a)>B(b)`: a player steps onto the free ball next to him.
    ToBall { side: Side, from: Spot, to: Spot },
    /// `B(a)>L(b)`: a player pulls the free ball on `a` to himself on `b`.
    Pull { side: Side, ball: Spot, to: Spot },
    /// `B~R(a)>L(b)`: a Blue player on `b` takes the ball from the Red one on `a`.
    Take { side: Side, from: Spot, to: Spot },
    /// `B&L(a)>F(b)`: the holder steps with the ball; the turn ends.
    Dribble { side: Side, from: Spot, to: Spot },
    /// `B~L(a)>F(b)`: a shot to a free cell or into a goal; the turn ends.
    Shot { side: Side, from: Spot, to: Spot },
    /// `B~L(a)>L(b)`: a pass to a team-mate; the passer is blocked.
    Pass { side: Side, from: Spot, to: Spot },
    /// `-`: the turn passes here (a missed deadline, or by choice).
    End,
}

impl Code {
    /// The side that plays this code (`None` for `-`).
    pub fn side(&self) -> Option<Side> {
        match *self {
            Code::Step { side, .. }
            | Code::ToBall { side, .. }
            | Code::Pull { side, .. }
            | Code::Take { side, .. }
            | Code::Dribble { side, .. }
            | Code::Shot { side, .. }
            | Code::Pass { side, .. } => Some(side),
            Code::End => None,
        }
    }

    /// Whether this code always ends the turn (an offside pass ends it too,
    /// but only the position can tell).
    pub fn ends_turn(&self) -> bool {
        matches!(
            self,
            Code::Step { .. } | Code::Dribble { .. } | Code::Shot { .. } | Code::End
        )
    }
}

/// The side of a combination: that of its first code with a side.
pub fn combo_side(codes: &[Code]) -> Option<Side> {
    codes.iter().find_map(Code::side)
}

fn letter(side: Side) -> char {
    if side == BLUE { 'L' } else { 'R' }
}

impl fmt::Display for Code {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Code::Step { side, from, to } => write!(f, "{}{from}>F{to}", letter(side)),
            Code::ToBall { side, from, to } => write!(f, "{}{from}>B{to}", letter(side)),
            Code::Pull { side, ball, to } => write!(f, "B{ball}>{}{to}", letter(side)),
            Code::Take { side, from, to } => {
                write!(f, "B~{}{from}>{}{to}", letter(1 - side), letter(side))
            }
            Code::Dribble { side, from, to } => write!(f, "B&{}{from}>F{to}", letter(side)),
            Code::Shot { side, from, to } => write!(f, "B~{}{from}>F{to}", letter(side)),
            Code::Pass { side, from, to } => {
                write!(f, "B~{}{from}>{}{to}", letter(side), letter(side))
            }
            Code::End => f.write_str("-"),
        }
    }
}

/// Writes codes one after another, as the seed writes a combination.
pub fn write_combo(codes: &[Code]) -> String {
    codes.iter().map(Code::to_string).collect()
}

/// A code as it was typed: the code, and its text (trimmed) for refusals.
#[derive(Clone, Debug)]
pub struct Typed {
    pub code: Code,
    pub text: String,
}

/// Parses a combination: one or more codes, no separator needed, spaces
/// and lower case tolerated. An empty text is refused.
pub fn parse_combo(text: &str) -> Result<Vec<Typed>, NotationError> {
    let mut cur = Cursor { text, at: 0 };
    let mut codes = Vec::new();
    cur.skip_spaces();
    if cur.done() {
        return Err(NotationError::told(said!("ib-no-code")));
    }
    while !cur.done() {
        let start = cur.at;
        let code = cur
            .code()
            .map_err(|e| NotationError::told(e.said(codes.len() + 1)))?;
        codes.push(Typed {
            code,
            text: text[start..cur.at].trim().to_string(),
        });
        cur.skip_spaces();
    }
    Ok(codes)
}

/// Parses a combination and keeps the codes only.
pub fn parse_codes(text: &str) -> Result<Vec<Code>, NotationError> {
    Ok(parse_combo(text)?.into_iter().map(|t| t.code).collect())
}

/// Why a code does not read.
enum Misread {
    /// Something else stands where the reader wanted `want`: a character,
    /// or the text's end (`None`).
    Expected {
        want: Want,
        found: Option<char>,
    },
    /// A row or column of three digits or more.
    Digits,
    BadNumber,
}

/// What the reader wanted: one character, or one of a few (`ib-code-expected`
/// names them).
#[derive(Clone, Copy)]
enum Want {
    Char(char),
    Code,
    StepTarget,
    AfterBall,
    Side,
    KickTarget,
    Number,
}

impl Misread {
    /// The reason a player reads, for the code at `index` (from 1).
    fn said(self, index: usize) -> Said {
        match self {
            Misread::Expected { want, found } => {
                let want = match want {
                    Want::Char(c) => c.to_string(),
                    Want::Code => "code".into(),
                    Want::StepTarget => "step-target".into(),
                    Want::AfterBall => "after-ball".into(),
                    Want::Side => "side".into(),
                    Want::KickTarget => "kick-target".into(),
                    Want::Number => "number".into(),
                };
                // English quotes the character as Rust does ('\''), Russian
                // as typed.
                let (found, seen) = match found {
                    Some(c) => (format!("{c:?}"), c.to_string()),
                    None => ("end".to_string(), String::new()),
                };
                said!(
                    "ib-code-expected",
                    index = index,
                    want = want,
                    found = found,
                    seen = seen,
                )
            }
            Misread::Digits => said!("ib-code-digits", index = index),
            Misread::BadNumber => said!("ib-code-number", index = index),
        }
    }
}

/// A byte cursor over ASCII tokens; any other character is an error.
struct Cursor<'a> {
    text: &'a str,
    at: usize,
}

impl Cursor<'_> {
    fn done(&self) -> bool {
        self.at >= self.text.len()
    }

    fn skip_spaces(&mut self) {
        while let Some(b) = self.text.as_bytes().get(self.at) {
            if !b.is_ascii_whitespace() {
                break;
            }
            self.at += 1;
        }
    }

    /// The next token character, upper-cased, after spaces.
    fn peek(&mut self) -> Option<char> {
        self.skip_spaces();
        self.text[self.at..]
            .chars()
            .next()
            .map(|c| c.to_ascii_uppercase())
    }

    /// `want` was expected; what stands here instead.
    fn expected(&mut self, want: Want) -> Misread {
        Misread::Expected {
            want,
            found: self.peek(),
        }
    }

    fn expect(&mut self, want: char) -> Result<(), Misread> {
        if self.peek() == Some(want) {
            self.at += 1;
            Ok(())
        } else {
            Err(self.expected(Want::Char(want)))
        }
    }

    /// One of `choices`, returned upper-cased; `what` names them.
    fn one_of(&mut self, choices: &str, what: Want) -> Result<char, Misread> {
        match self.peek() {
            Some(c) if choices.contains(c) => {
                self.at += 1;
                Ok(c)
            }
            _ => Err(self.expected(what)),
        }
    }

    fn number(&mut self) -> Result<u8, Misread> {
        self.skip_spaces();
        let digits: String = self.text[self.at..]
            .chars()
            .take_while(char::is_ascii_digit)
            .take(3)
            .collect();
        match digits.len() {
            0 => Err(self.expected(Want::Number)),
            3 => Err(Misread::Digits),
            n => {
                self.at += n;
                digits.parse().map_err(|_| Misread::BadNumber)
            }
        }
    }

    fn spot(&mut self) -> Result<Spot, Misread> {
        self.expect('(')?;
        let row = self.number()?;
        self.expect(',')?;
        let col = self.number()?;
        self.expect(')')?;
        Ok(Spot::new(row, col))
    }

    fn side(&mut self) -> Result<Side, Misread> {
        let c = self.one_of("LR", Want::Side)?;
        Ok(if c == 'L' { BLUE } else { RED })
    }

    fn code(&mut self) -> Result<Code, Misread> {
        match self.one_of("LRB-", Want::Code)? {
            '-' => Ok(Code::End),
            'B' => self.ball_code(),
            c => {
                let side = if c == 'L' { BLUE } else { RED };
                let from = self.spot()?;
                self.expect('>')?;
                let kind = self.one_of("FB", Want::StepTarget)?;
                let to = self.spot()?;
                Ok(if kind == 'F' {
                    Code::Step { side, from, to }
                } else {
                    Code::ToBall { side, from, to }
                })
            }
        }
    }

    /// After `B`: a pull `B(a)>L(b)`, a kick `B~L(a)>..` or a dribble `B&L(a)>F(b)`.
    fn ball_code(&mut self) -> Result<Code, Misread> {
        match self.one_of("(~&", Want::AfterBall)? {
            '(' => {
                self.at -= 1;
                let ball = self.spot()?;
                self.expect('>')?;
                let side = self.side()?;
                let to = self.spot()?;
                Ok(Code::Pull { side, ball, to })
            }
            '&' => {
                let side = self.side()?;
                let from = self.spot()?;
                self.expect('>')?;
                self.expect('F')?;
                let to = self.spot()?;
                Ok(Code::Dribble { side, from, to })
            }
            _ => {
                let owner = self.side()?;
                let from = self.spot()?;
                self.expect('>')?;
                let target = self.one_of("LRF", Want::KickTarget)?;
                let to = self.spot()?;
                Ok(match target {
                    'F' => Code::Shot {
                        side: owner,
                        from,
                        to,
                    },
                    'L' if owner == BLUE => Code::Pass {
                        side: owner,
                        from,
                        to,
                    },
                    'R' if owner == RED => Code::Pass {
                        side: owner,
                        from,
                        to,
                    },
                    _ => Code::Take {
                        side: 1 - owner,
                        from,
                        to,
                    },
                })
            }
        }
    }
}
