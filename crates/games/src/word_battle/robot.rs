//! The robot's three levels, as in the original: the computer plays common words only.
//!
//! - Level 1: a random short common word that gains something (the
//!   beginner's opponent: it fills the board but sets no traps).
//! - Level 2: the common word with the best immediate gain (letters written
//!   plus twice the letters taken).
//! - Level 3: a search ([`super::search`]) that also weighs the best reply
//!   the move allows and the cut-offs it threatens next.
//!
//! No level plays a word that gains nothing (all its cells already its
//! own): such a word only stalls, so the robot passes instead.

use rand::Rng;

use super::alphabet::Variant;
use super::board::{Board, Capture, Colour};
use super::dictionary::Dictionary;
use super::movegen::{self, Candidate, Search};
use super::moves::Move;
use super::search;
use super::state::State;
use crate::{Budget, Level, MatchRng, Seat};

/// The robot's word lists, as rank cuts (rank = Zipf frequency x10).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Vocabulary {
    /// Levels 2 and 3 play words of this rank or more.
    pub common: u8,
    /// Level 1 plays words of this rank or more, preferring 3-4 letters.
    pub easy: u8,
}

/// The cuts per alphabet: about 8,700 Russian and 6,200 English words for
/// levels 2-3 (Zipf 2 and 3), about 4,100 and 2,600 for level 1 (Zipf 3 and 4).
pub fn vocabulary(variant: Variant) -> Vocabulary {
    match variant {
        Variant::Ru => Vocabulary {
            common: 20,
            easy: 30,
        },
        Variant::En => Vocabulary {
            common: 30,
            easy: 40,
        },
    }
}

/// Level 1's idea of a short word.
const SHORT: u8 = 4;

/// The move for `candidate`, spelled as the dictionary spells it.
pub fn to_move(dict: &Dictionary, c: &Candidate) -> Move {
    Move::word(c.start, c.dir, &dict.spelling(c.node, c.codes()))
}

/// What `candidate` would take for `side` on `board`.
pub fn capture(board: &Board, side: Colour, c: &Candidate) -> Capture {
    board.plan(side, c.start, c.dir, usize::from(c.len)).capture
}

/// The board after `candidate`, and what it took.
pub fn after(board: &Board, side: Colour, c: &Candidate) -> (Board, Capture) {
    let mut after = *board;
    let capture = after.write(side, c.start, c.dir, &c.letters());
    (after, capture)
}

/// The robot's move for `seat`; a pass when it is not its turn or nothing gains.
pub fn choose(
    dict: &Dictionary,
    state: &State,
    seat: Seat,
    level: Level,
    budget: &Budget<'_>,
    rng: &mut MatchRng,
) -> Move {
    let Some(side) = state.colour_of(seat) else {
        return Move::Pass;
    };
    if state.is_over() || side != state.turn() {
        return Move::Pass;
    }
    let vocab = vocabulary(state.variant());
    let played = movegen::played_nodes(state, dict);
    let search = |min_rank| Search {
        dict,
        side,
        max_len: state.max_len(),
        min_rank,
        played: &played,
    };
    let chosen = match level {
        ..=1 => easy(state.board(), &search(vocab.easy), rng),
        2 => greedy(state.board(), &search(vocab.common), rng),
        _ => search::best(state, &search(vocab.common), budget, rng),
    };
    chosen.map_or(Move::Pass, |c| to_move(dict, &c))
}

/// Level 1: a random gaining word, short if there is one.
fn easy(board: &Board, search: &Search<'_>, rng: &mut MatchRng) -> Option<Candidate> {
    let gaining: Vec<Candidate> = movegen::generate(board, search)
        .into_iter()
        .filter(|c| capture(board, search.side, c).gain() > 0)
        .collect();
    let short: Vec<Candidate> = gaining.iter().copied().filter(|c| c.len <= SHORT).collect();
    let pool = if short.is_empty() { gaining } else { short };
    (!pool.is_empty()).then(|| pool[rng.gen_range(0..pool.len())])
}

/// Level 2: the best immediate gain, ties drawn at random.
fn greedy(board: &Board, search: &Search<'_>, rng: &mut MatchRng) -> Option<Candidate> {
    let mut best = Vec::new();
    let mut top = 0;
    for c in movegen::generate(board, search) {
        let gain = capture(board, search.side, &c).gain();
        if gain > top {
            top = gain;
            best.clear();
        }
        if gain == top && gain > 0 {
            best.push(c);
        }
    }
    (!best.is_empty()).then(|| best[rng.gen_range(0..best.len())])
}
