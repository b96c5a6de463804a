//! Every word a side may play, found by walking the dictionary's trie along each line.
//!
//! For each cell holding one of the side's letters (or its base before the
//! first word) and each of its two directions, the cells ahead form a
//! pattern: fixed letters where the board has one, free where it is empty,
//! cut at the edge and at the match's longest word. One depth-first walk of
//! the trie follows the pattern, taking only the fixed letter's branch or
//! every branch on a free cell; nodes whose subtree holds no word of the
//! wanted rank are skipped. The cost is the trie nodes that fit the
//! pattern, never a scan of the word list per cell.

use super::alphabet::{Code, Letter};
use super::board::{Board, Cell, Colour, Dir};
use super::dictionary::{Dictionary, MAX_WORD, MIN_WORD, NodeId, ROOT};
use super::state::State;

/// A word that can be played: where, which way, and which dictionary word.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Candidate {
    pub start: Cell,
    pub dir: Dir,
    pub len: u8,
    /// The word's node in the dictionary (identifies the word).
    pub node: NodeId,
    pub codes: [Code; MAX_WORD],
}

impl Candidate {
    pub fn codes(&self) -> &[Code] {
        &self.codes[..usize::from(self.len)]
    }

    /// The letters, without `ё` marks (enough to play it out on a board).
    pub fn letters(&self) -> Vec<Letter> {
        self.codes()
            .iter()
            .map(|&code| Letter { code, yo: false })
            .collect()
    }
}

/// What to look for: the side, the longest word, the lowest rank, and the
/// words already played (their nodes, sorted).
#[derive(Clone, Copy, Debug)]
pub struct Search<'a> {
    pub dict: &'a Dictionary,
    pub side: Colour,
    pub max_len: u8,
    pub min_rank: u8,
    pub played: &'a [NodeId],
}

/// The dictionary nodes of the words played so far, sorted, for [`Search::played`].
pub fn played_nodes(state: &State, dict: &Dictionary) -> Vec<NodeId> {
    let mut nodes: Vec<NodeId> = state
        .words()
        .iter()
        .filter_map(|p| dict.find(&p.word))
        .collect();
    nodes.sort_unstable();
    nodes
}

/// The cells a side may start a word on: its letters, or its empty base
/// before its first word.
pub fn starts(board: &Board, side: Colour) -> Vec<Cell> {
    if board.started(side) {
        board.cells_of(side).collect()
    } else {
        vec![side.base()]
    }
}

/// Calls `emit` for every word `search` allows on `board`.
pub fn for_each(board: &Board, search: &Search<'_>, mut emit: impl FnMut(Candidate)) {
    let max_len = usize::from(search.max_len).min(MAX_WORD);
    for start in starts(board, search.side) {
        for dir in search.side.dirs() {
            let room = usize::from(start.room(dir)).min(max_len);
            if room < MIN_WORD {
                continue;
            }
            let mut pattern = [None; MAX_WORD];
            for (i, slot) in pattern.iter_mut().enumerate().take(room) {
                *slot = start.step(dir, i as u8).and_then(|c| board.code(c));
            }
            let mut walk = Walk {
                search,
                pattern: &pattern[..room],
                codes: [0; MAX_WORD],
                start,
                dir,
                emit: &mut emit,
            };
            walk.from(ROOT, 0);
        }
    }
}

/// Every word `search` allows on `board`.
pub fn generate(board: &Board, search: &Search<'_>) -> Vec<Candidate> {
    let mut out = Vec::new();
    for_each(board, search, |c| out.push(c));
    out
}

struct Walk<'s, 'a, F: FnMut(Candidate)> {
    search: &'s Search<'a>,
    pattern: &'s [Option<Code>],
    codes: [Code; MAX_WORD],
    start: Cell,
    dir: Dir,
    emit: &'s mut F,
}

impl<F: FnMut(Candidate)> Walk<'_, '_, F> {
    /// `node` is the prefix of `depth` letters that fits the pattern so far.
    fn from(&mut self, node: NodeId, depth: usize) {
        let dict = self.search.dict;
        if depth >= MIN_WORD
            && dict.rank(node).is_some_and(|r| r >= self.search.min_rank)
            && self.search.played.binary_search(&node).is_err()
        {
            (self.emit)(Candidate {
                start: self.start,
                dir: self.dir,
                len: depth as u8,
                node,
                codes: self.codes,
            });
        }
        let Some(&slot) = self.pattern.get(depth) else {
            return;
        };
        let min_rank = self.search.min_rank;
        match slot {
            Some(code) => {
                if let Some(child) = dict.child(node, code)
                    && dict.reaches(child, min_rank)
                {
                    self.codes[depth] = code;
                    self.from(child, depth + 1);
                }
            }
            None => {
                for (code, child) in dict.children(node) {
                    if dict.reaches(child, min_rank) {
                        self.codes[depth] = code;
                        self.from(child, depth + 1);
                    }
                }
            }
        }
    }
}
