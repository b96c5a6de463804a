//! Whether a move may be played, and what it does: placing the word, captures, passes, the end.
//!
//! Checks run in a fixed order so that a refusal names the first thing
//! wrong: the turn, the direction for the side, the alphabet, the length,
//! the start cell, the dictionary, a repeat, then per direction the edge of
//! the board and the letters already standing on the word's cells.

use super::alphabet::Letter;
use super::board::{Capture, Cell, Colour, Dir};
use super::dictionary::Dictionary;
use super::moves::{Move, Word};
use super::refusal::Refusal;
use super::state::{End, Played, State};
use crate::Seat;

/// A word that fits: where it goes and its letters as the player wrote them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Placement {
    pub start: Cell,
    pub dir: Dir,
    pub letters: Vec<Letter>,
    pub word: String,
}

/// What an accepted move does.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Action {
    Pass,
    Place(Placement),
}

/// Checks `mv` by `seat` against the state and the match's dictionary.
pub fn check(state: &State, dict: &Dictionary, seat: Seat, mv: &Move) -> Result<Action, Refusal> {
    if state.is_over() {
        return Err(Refusal::Finished);
    }
    let side = state.colour_of(seat).ok_or(Refusal::NotYourTurn)?;
    if side != state.turn() {
        return Err(Refusal::NotYourTurn);
    }
    match mv {
        Move::Pass => Ok(Action::Pass),
        Move::Word(w) => placement(state, dict, side, w).map(Action::Place),
    }
}

fn placement(
    state: &State,
    dict: &Dictionary,
    side: Colour,
    w: &Word,
) -> Result<Placement, Refusal> {
    if let Some(dir) = w.dir
        && !side.dirs().contains(&dir)
    {
        return Err(Refusal::WrongDirection { side, dir });
    }
    let letters = state
        .variant()
        .spell(&w.word)
        .ok_or(Refusal::WrongAlphabet {
            variant: state.variant(),
        })?;
    let len = letters.len();
    if len < 3 {
        return Err(Refusal::TooShort { len });
    }
    let max = usize::from(state.max_len());
    if len > max {
        return Err(Refusal::TooLong { len, max });
    }
    let board = state.board();
    let own_start = board.owner(w.start) == Some(side);
    let fresh_base = w.start == side.base() && !board.started(side);
    if !own_start && !fresh_base {
        return Err(Refusal::NotYourLetter {
            cell: w.start,
            enemy: board.owner(w.start).is_some(),
        });
    }
    if dict.find(&w.word).is_none() {
        return Err(Refusal::NotInDictionary {
            word: w.word.clone(),
        });
    }
    if state.was_played(&w.word) {
        return Err(Refusal::AlreadyPlayed {
            word: w.word.clone(),
        });
    }
    let place = |dir| Placement {
        start: w.start,
        dir,
        letters: letters.clone(),
        word: w.word.clone(),
    };
    match w.dir {
        Some(dir) => fits(state, w.start, dir, &letters).map(|()| place(dir)),
        None => {
            let [a, b] = side.dirs();
            match (
                fits(state, w.start, a, &letters),
                fits(state, w.start, b, &letters),
            ) {
                (Ok(()), Ok(())) => Err(Refusal::BothFit {
                    cell: w.start,
                    dirs: [a, b],
                }),
                (Ok(()), Err(_)) => Ok(place(a)),
                (Err(_), Ok(())) => Ok(place(b)),
                (Err(ra), Err(rb)) => Err(Refusal::NeitherFits(Box::new([(a, ra), (b, rb)]))),
            }
        }
    }
}

/// Whether `letters` fit from `start` in `dir`: on the board, and every
/// letter already standing on the way equal to the word's (`ё` as `е`).
fn fits(state: &State, start: Cell, dir: Dir, letters: &[Letter]) -> Result<(), Refusal> {
    let len = letters.len();
    if usize::from(start.room(dir)) < len {
        return Err(Refusal::OffBoard {
            cell: start,
            dir,
            len,
        });
    }
    let variant = state.variant();
    for (i, &letter) in letters.iter().enumerate() {
        let cell = start.step(dir, i as u8).ok_or(Refusal::OffBoard {
            cell: start,
            dir,
            len,
        })?;
        if let Some(tile) = state.board().tile(cell)
            && tile.letter.code != letter.code
        {
            return Err(Refusal::Clash {
                cell,
                board: variant.char(tile.letter, true),
                word: variant.char(letter, true),
            });
        }
    }
    Ok(())
}

/// Plays a checked action for the side on turn; returns what a word took.
pub fn apply(state: &mut State, action: Action) -> Option<Capture> {
    let side = state.turn;
    state.turn = side.other();
    match action {
        Action::Pass => {
            state.passes += 1;
            if state.passes >= 2 {
                state.end = End::Passes;
            }
            None
        }
        Action::Place(p) => {
            let capture = state.board.write(side, p.start, p.dir, &p.letters);
            state.words.push(Played {
                start: p.start,
                dir: p.dir,
                word: p.word,
            });
            state.passes = 0;
            if capture.base {
                state.end = End::Base;
            }
            Some(capture)
        }
    }
}

/// `seat` resigns or is gone: it loses, whatever the letters say.
pub fn withdraw(state: &mut State, seat: Seat) {
    if !state.is_over() && state.colour_of(seat).is_some() {
        state.end = End::Left(seat);
    }
}
