//! The writer's copies of what every move reads and seldom changes: the
//! seats of the matches it read lately, the players it met lately by their
//! phones, and each such player's newest match.
//!
//! Reading a match's seats was the writer's costliest statement per move
//! (about 30,000 instructions: four rows, each joined to its player, and
//! decoded), finding the player's match cost 10,000 more and finding the
//! sender by his phone 7,000 (`BENCHMARKS.md`, issue 30); yet a match's
//! seats change only when a seat or one of its players is saved, a player
//! only when he is saved, and a player's newest match only when a match is
//! made for him; a move's save of its match is copied as it is written. The
//! copies are right because this connection is the only writer of the file
//! (`SqliteStore::open`), and every statement that writes a seat, a player
//! or a match runs through [`SqliteTx`](super::tx::SqliteTx), which tells
//! the copies. A transaction undone, wholly or to a job's savepoint,
//! forgets everything: what it read may have held its own writes.
//!
//! Only matches in play are kept, their records and their seats: a finished
//! one is read once or twice more (its rematch window, `H`), and kept it
//! would hold its memory until pushed out, several megabytes on a busy
//! gateway. So what is kept grows with the matches being played. Of a
//! player whose newest match is over, only that is kept: most of his texts
//! until his next match ask only whether he plays one (his `P`, a move sent
//! too late), and that read cost 9,700 instructions.

use std::num::NonZeroUsize;

use chrono::{DateTime, Utc};
use lru::LruCache;

use crate::store::model::{MatchRow, Player, SeatRow};
use crate::store::rows::{from_millis, millis};

/// Matches in play whose records and seats are kept: those being played at
/// once on a busy gateway; a match not moved lately is read again when it is.
const MATCHES_KEPT: NonZeroUsize = NonZeroUsize::new(4096).unwrap();

/// Players kept: those of the matches kept, four to a match.
const PLAYERS_KEPT: NonZeroUsize = NonZeroUsize::new(4 * 4096).unwrap();

/// What the writer read lately, each as it last read (or wrote) it.
pub(super) struct Copies {
    seats: LruCache<i64, Vec<SeatRow>>,
    players: LruCache<String, Player>,
    /// What is known of a player's newest match.
    newest_match: LruCache<i64, Newest>,
    matches: LruCache<i64, KeptMatch>,
}

/// A match in play as last read or saved, and the players it was found as
/// the newest match of: told, when it ends, that they play none.
struct KeptMatch {
    record: MatchRow,
    players: Vec<i64>,
}

/// A player's newest match, as far as the copies know it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Newest {
    /// In play: its record is kept in `matches`, unless pushed out since.
    InPlay(i64),
    /// Over: he sits in no match in play.
    Over,
}

impl Copies {
    pub(super) fn new() -> Copies {
        Copies {
            seats: LruCache::new(MATCHES_KEPT),
            players: LruCache::new(PLAYERS_KEPT),
            newest_match: LruCache::new(PLAYERS_KEPT),
            matches: LruCache::new(MATCHES_KEPT),
        }
    }

    /// The newest match of `player_id` as last read or saved, unless forgotten.
    /// One he has none of is not kept: making one would have to forget that.
    pub(super) fn newest_match(&mut self, player_id: i64) -> Option<MatchRow> {
        match *self.newest_match.get(&player_id)? {
            Newest::InPlay(match_id) => self.matches.get(&match_id).map(|kept| kept.record.clone()),
            Newest::Over => None,
        }
    }

    /// Whether `player_id` is known to sit in no match in play.
    pub(super) fn plays_none(&mut self, player_id: i64) -> bool {
        self.newest_match.get(&player_id) == Some(&Newest::Over)
    }

    /// Keeps the newest match of `player_id`, just read: the match if it is
    /// in play, else only that it is over.
    pub(super) fn keep_newest_match(&mut self, player_id: i64, record: &MatchRow) {
        if record.finished {
            self.newest_match.put(player_id, Newest::Over);
            return;
        }
        self.newest_match.put(player_id, Newest::InPlay(record.id));
        match self.matches.get_mut(&record.id) {
            Some(kept) => {
                kept.record.clone_from(record);
                if !kept.players.contains(&player_id) {
                    kept.players.push(player_id);
                }
            }
            None => {
                let kept = KeptMatch {
                    record: record.clone(),
                    players: vec![player_id],
                };
                self.matches.put(record.id, kept);
            }
        }
    }

    /// A match is made for these players: it is now their newest, kept as
    /// `made` (as a read would give it), or read when asked for if there is
    /// none. (The match has a new id, which nothing kept can name: matches
    /// are never deleted, and an undo forgets everything.)
    pub(super) fn match_made(
        &mut self,
        players: impl Iterator<Item = i64>,
        made: Option<MatchRow>,
    ) {
        let players: Vec<i64> = players.collect();
        match made {
            Some(record) => {
                for &player_id in &players {
                    self.newest_match.put(player_id, Newest::InPlay(record.id));
                }
                self.matches.put(record.id, KeptMatch { record, players });
            }
            None => {
                for player_id in players {
                    self.newest_match.pop(&player_id);
                }
            }
        }
    }

    /// A match is saved: its copy takes what the save wrote (every field
    /// a save writes, times to the millisecond as stored), the rest as read.
    /// A match saved finished is forgotten, with its seats; the players who
    /// found it as their newest are known to play none.
    pub(super) fn match_saved(&mut self, saved: &MatchRow) {
        if saved.finished {
            self.seats.pop(&saved.id);
            let Some(ended) = self.matches.pop(&saved.id) else {
                return;
            };
            for player_id in ended.players {
                if self.newest_match.peek(&player_id) == Some(&Newest::InPlay(saved.id)) {
                    self.newest_match.put(player_id, Newest::Over);
                }
            }
            return;
        }
        let Some(KeptMatch { record: kept, .. }) = self.matches.get_mut(&saved.id) else {
            return;
        };
        let stored = |t: Option<DateTime<Utc>>| t.and_then(|t| from_millis(millis(t)));
        kept.state.clone_from(&saved.state);
        kept.rng_pos = saved.rng_pos;
        kept.turn = saved.turn;
        kept.finished = saved.finished;
        kept.deadline_at = stored(saved.deadline_at);
        kept.rematch_deadline_at = stored(saved.rematch_deadline_at);
        kept.finished_at = stored(saved.finished_at);
        kept.void_reason.clone_from(&saved.void_reason);
    }

    /// The seats of `match_id` as last read, unless forgotten since.
    pub(super) fn seats(&mut self, match_id: i64) -> Option<Vec<SeatRow>> {
        self.seats.get(&match_id).cloned()
    }

    /// Keeps the seats of `match_id` just read, if its record is kept (it is
    /// in play, and a player's text found it).
    pub(super) fn keep_seats(&mut self, match_id: i64, seats: &[SeatRow]) {
        if !self.matches.contains(&match_id) {
            return;
        }
        self.seats.put(match_id, seats.to_vec());
    }

    /// The player of `phone` as last read, unless forgotten since. One not
    /// found is not kept: creating him would have to forget that.
    pub(super) fn player(&mut self, phone: &str) -> Option<Player> {
        self.players.get(phone).cloned()
    }

    /// Keeps a player just read.
    pub(super) fn keep_player(&mut self, player: &Player) {
        self.players.put(player.phone.clone(), player.clone());
    }

    /// A seat of `match_id` is written: its seats are read again.
    pub(super) fn seat_saved(&mut self, match_id: i64) {
        self.seats.pop(&match_id);
    }

    /// A player is written: he and every match he sits in are read again.
    pub(super) fn forget_player(&mut self, player: &Player) {
        self.players.pop(player.phone.as_str());
        let stale: Vec<i64> = self
            .seats
            .iter()
            .filter(|(_, seats)| {
                seats
                    .iter()
                    .any(|s| s.player().is_some_and(|p| p.id == player.id))
            })
            .map(|(&match_id, _)| match_id)
            .collect();
        for match_id in stale {
            self.seats.pop(&match_id);
        }
    }

    /// A transaction (or a job's part of one) is undone.
    pub(super) fn forget_all(&mut self) {
        self.seats.clear();
        self.players.clear();
        self.newest_match.clear();
        self.matches.clear();
    }
}
