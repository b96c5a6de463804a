//! The writer's copy of the seats of the matches it read lately, so that a
//! move does not read its match's seats and their players again.
//!
//! Reading a match's seats was the writer's costliest statement per move
//! (about 30,000 instructions: four rows, each joined to its player, and
//! decoded), and a match's seats change only when a seat or one of its
//! players is saved (`BENCHMARKS.md`, issue 30). The copy is right because
//! this connection is the only writer of the file (`SqliteStore::open`), and
//! every statement that writes a seat or a player runs through
//! [`SqliteTx`](super::tx::SqliteTx), which forgets what such a write makes
//! stale. A transaction undone, wholly or to a job's savepoint, forgets
//! everything: what it read may have held its own writes.

use std::num::NonZeroUsize;

use lru::LruCache;

use crate::store::records::SeatRecord;

/// Matches whose seats are kept: those being played at once on a busy
/// gateway; a match not moved lately is read again when it is.
const MATCHES_KEPT: NonZeroUsize = NonZeroUsize::new(4096).unwrap();

/// The seats of the matches read lately, each as the writer last read them.
pub(super) struct SeatCopies {
    by_match: LruCache<i64, Vec<SeatRecord>>,
}

impl SeatCopies {
    pub(super) fn new() -> SeatCopies {
        SeatCopies {
            by_match: LruCache::new(MATCHES_KEPT),
        }
    }

    /// The seats of `match_id` as last read, unless forgotten since.
    pub(super) fn get(&mut self, match_id: i64) -> Option<Vec<SeatRecord>> {
        self.by_match.get(&match_id).cloned()
    }

    /// Keeps the seats of `match_id` just read.
    pub(super) fn keep(&mut self, match_id: i64, seats: &[SeatRecord]) {
        self.by_match.put(match_id, seats.to_vec());
    }

    /// A seat of `match_id` is written.
    pub(super) fn forget_match(&mut self, match_id: i64) {
        self.by_match.pop(&match_id);
    }

    /// A player is written: every match he sits in is read again.
    pub(super) fn forget_player(&mut self, player_id: i64) {
        let stale: Vec<i64> = self
            .by_match
            .iter()
            .filter(|(_, seats)| {
                seats
                    .iter()
                    .any(|s| s.player().is_some_and(|p| p.id == player_id))
            })
            .map(|(&match_id, _)| match_id)
            .collect();
        for match_id in stale {
            self.by_match.pop(&match_id);
        }
    }

    /// A transaction (or a job's part of one) is undone.
    pub(super) fn forget_all(&mut self) {
        self.by_match.clear();
    }
}
