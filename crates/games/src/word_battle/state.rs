//! The match state: settings, board, turn, passes, the words played, and how it ended.
//!
//! Its state string is in [`super::notation`]; the rules that change it in
//! [`super::rules`].

use super::alphabet::{Variant, fold};
use super::board::{Board, Cell, Colour, Dir, flood};
use crate::{Seat, Standing};

/// Word lengths a match may allow at most.
pub const MAX_LENS: [u8; 3] = [5, 6, 7];
/// The default longest word.
pub const DEFAULT_MAX_LEN: u8 = 6;

/// A word that was played, with where it went.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Played {
    pub start: Cell,
    pub dir: Dir,
    /// In lower case, as the player wrote it (`ё` kept).
    pub word: String,
}

/// How the match stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum End {
    Playing,
    /// Two passes in a row.
    Passes,
    /// A base was taken (the taker holds every letter).
    Base,
    /// This seat resigned or went away: it loses.
    Left(Seat),
}

/// How a finished match ended for the sides.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    Won(Colour),
    Draw,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct State {
    pub(super) variant: Variant,
    pub(super) max_len: u8,
    /// The seat playing Red (0 or 1); the other plays Blue.
    pub(super) red_seat: Seat,
    pub(super) board: Board,
    pub(super) turn: Colour,
    /// Passes in a row just before now (2 ends the match).
    pub(super) passes: u8,
    pub(super) end: End,
    pub(super) words: Vec<Played>,
}

impl State {
    /// A new match: empty board, Red to move.
    pub fn new(variant: Variant, max_len: u8, red_seat: Seat) -> State {
        State {
            variant,
            max_len,
            red_seat,
            board: Board::default(),
            turn: Colour::Red,
            passes: 0,
            end: End::Playing,
            words: Vec::new(),
        }
    }

    pub fn variant(&self) -> Variant {
        self.variant
    }

    pub fn max_len(&self) -> u8 {
        self.max_len
    }

    pub fn board(&self) -> &Board {
        &self.board
    }

    pub fn turn(&self) -> Colour {
        self.turn
    }

    pub fn passes(&self) -> u8 {
        self.passes
    }

    pub fn end(&self) -> End {
        self.end
    }

    pub fn words(&self) -> &[Played] {
        &self.words
    }

    pub fn red_seat(&self) -> Seat {
        self.red_seat
    }

    /// The side `seat` plays, if it is a seat of this match.
    pub fn colour_of(&self, seat: Seat) -> Option<Colour> {
        match seat {
            s if s == self.red_seat => Some(Colour::Red),
            s if s == 1 - self.red_seat => Some(Colour::Blue),
            _ => None,
        }
    }

    pub fn seat_of(&self, colour: Colour) -> Seat {
        match colour {
            Colour::Red => self.red_seat,
            Colour::Blue => 1 - self.red_seat,
        }
    }

    pub fn is_over(&self) -> bool {
        self.end != End::Playing
    }

    /// Letters per side.
    pub fn score(&self, colour: Colour) -> u32 {
        self.board.count(colour)
    }

    /// Whether `word` (any case, `ё` as `е`) has been played in this match.
    pub fn was_played(&self, word: &str) -> bool {
        let folded = fold(word);
        self.words.iter().any(|p| fold(&p.word) == folded)
    }

    /// The result, once over: a seat that left loses; otherwise more letters wins.
    pub fn outcome(&self) -> Option<Outcome> {
        match self.end {
            End::Playing => None,
            End::Left(seat) => Some(Outcome::Won(self.colour_of(seat)?.other())),
            End::Passes | End::Base => {
                let (red, blue) = (self.score(Colour::Red), self.score(Colour::Blue));
                Some(match red.cmp(&blue) {
                    std::cmp::Ordering::Greater => Outcome::Won(Colour::Red),
                    std::cmp::Ordering::Less => Outcome::Won(Colour::Blue),
                    std::cmp::Ordering::Equal => Outcome::Draw,
                })
            }
        }
    }

    /// One standing per seat, with its letters as the score, once over.
    pub fn standings(&self) -> Option<Vec<Standing>> {
        let outcome = self.outcome()?;
        let standing = |seat: Seat| {
            let colour = self.colour_of(seat)?;
            let place = match outcome {
                Outcome::Won(c) if c != colour => 2,
                _ => 1,
            };
            Some(Standing {
                place,
                score: Some(i64::from(self.score(colour))),
            })
        };
        (0..2).map(standing).collect()
    }

    /// The rules' invariants, for states read from text: every letter is
    /// connected to its side's base while the match runs; a taken base left
    /// the loser nothing; the counters agree with the end.
    pub fn check(&self) -> Result<(), String> {
        if !MAX_LENS.contains(&self.max_len) {
            return Err(format!("len={} is not 5, 6 or 7", self.max_len));
        }
        if self.red_seat > 1 {
            return Err(format!("red={} is not seat 0 or 1", self.red_seat));
        }
        if self.passes > 2 {
            return Err("passes must be 0, 1 or 2".into());
        }
        if (self.passes == 2) != (self.end == End::Passes) {
            return Err("two passes in a row end the match, and only they do".into());
        }
        if let End::Left(seat) = self.end
            && seat > 1
        {
            return Err(format!("seat {seat} cannot leave a match of two"));
        }
        for (i, p) in self.words.iter().enumerate() {
            if self.words[..i]
                .iter()
                .any(|q| fold(&q.word) == fold(&p.word))
            {
                return Err(format!("{} is played twice", p.word));
            }
        }
        if self.end == End::Base {
            return self.check_base_taken();
        }
        for side in Colour::BOTH {
            let own = self.board.letters_of(side);
            if self.board.owner(side.base()) == Some(side.other()) {
                return Err(format!(
                    "{} is in enemy hands but the match goes on",
                    side.base()
                ));
            }
            if own == 0 {
                continue;
            }
            if own & !flood(1 << side.base().index(), own) != 0 {
                return Err(format!(
                    "a {side:?} letter is cut off from {} but was not taken",
                    side.base()
                ));
            }
        }
        Ok(())
    }

    fn check_base_taken(&self) -> Result<(), String> {
        let taken = Colour::BOTH.into_iter().find(|&side| {
            self.board.owner(side.base()) == Some(side.other()) && self.score(side) == 0
        });
        match taken {
            Some(_) => Ok(()),
            None => Err("end=base, but no side's base is in enemy hands with nothing left".into()),
        }
    }
}
