//! The move codes of the seed (`L(4,7)>F(5,8)`, `B~L(4,5)>L(6,5)`, ...) and
//! combinations of them written without separators.
//!
//! Parsing accepts lower case and spaces between tokens; `Display` writes the
//! seed's canonical form. Cells are read as written (any one- or two-digit
//! numbers), so that the rules, not the parser, say "off the field".

use std::fmt;

use super::board::{BLUE, RED, Spot};
use crate::{NotationError, Side};

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
        return Err(NotationError::said("net koda xoda", "no move code"));
    }
    while !cur.done() {
        let start = cur.at;
        let code = cur.code().map_err(|e| {
            let n = codes.len() + 1;
            NotationError::said(format!("kod {n}: {}", e.ru), format!("code {n}: {}", e.en))
        })?;
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

/// Why a code does not read, in both languages.
struct Misread {
    ru: String,
    en: String,
}

impl Misread {
    fn new(ru: impl Into<String>, en: impl Into<String>) -> Misread {
        Misread {
            ru: ru.into(),
            en: en.into(),
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

    /// What stands where something else was expected: `(ru, en)`.
    fn found(&mut self) -> (String, String) {
        match self.peek() {
            Some(c) => (format!("'{c}'"), format!("{c:?}")),
            None => ("konec".to_string(), "the end".to_string()),
        }
    }

    fn expected(&mut self, ru: &str, en: &str) -> Misread {
        let (found_ru, found_en) = self.found();
        Misread::new(
            format!("nuzhno {ru}, a stoit {found_ru}"),
            format!("expected {en}, found {found_en}"),
        )
    }

    fn expect(&mut self, want: char) -> Result<(), Misread> {
        if self.peek() == Some(want) {
            self.at += 1;
            Ok(())
        } else {
            let want = format!("'{want}'");
            Err(self.expected(&want, &want))
        }
    }

    /// One of `choices`, returned upper-cased; `what` names them `(ru, en)`.
    fn one_of(&mut self, choices: &str, what: (&str, &str)) -> Result<char, Misread> {
        match self.peek() {
            Some(c) if choices.contains(c) => {
                self.at += 1;
                Ok(c)
            }
            _ => Err(self.expected(what.0, what.1)),
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
            0 => Err(self.expected("chislo", "a number")),
            3 => Err(Misread::new(
                "v nomere ryada ili stolbca ne bolshe dvux cifr",
                "a row or column has at most two digits",
            )),
            n => {
                self.at += n;
                digits
                    .parse()
                    .map_err(|_| Misread::new("plohoe chislo", "bad number"))
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
        let c = self.one_of("LR", ("L ili R", "L or R"))?;
        Ok(if c == 'L' { BLUE } else { RED })
    }

    fn code(&mut self) -> Result<Code, Misread> {
        match self.one_of("LRB-", ("kod (L, R, B ili -)", "a code (L, R, B or -)"))? {
            '-' => Ok(Code::End),
            'B' => self.ball_code(),
            c => {
                let side = if c == 'L' { BLUE } else { RED };
                let from = self.spot()?;
                self.expect('>')?;
                let kind = self.one_of(
                    "FB",
                    (
                        "F (svobodnaya kletka) ili B (myach)",
                        "F (free cell) or B (ball)",
                    ),
                )?;
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
        match self.one_of(
            "(~&",
            ("'(', '~' ili '&' posle B", "'(', '~' or '&' after B"),
        )? {
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
                let target = self.one_of("LRF", ("L, R ili F", "L, R or F"))?;
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
