//! The kinds of write a PostgreSQL transaction defers (see `pending.rs`):
//! each declared once, with its rows' type, its parameters and its tables.
//! A new kind is a row type, a `Part` and its line in [`KINDS`].

use super::pending::{Kind, Param, Part};
use crate::store::model::{MatchRow, MoveKind, NewMove, NewText, Player, SeatRow};
use crate::store::rows::{millis, rng_pos_text};

/// A player's row as saved.
pub(super) struct SavedPlayer {
    pub player: Player,
    /// The lower-cased nick, unique: nicks are compared case-insensitively.
    pub nick_key: Option<String>,
    pub at: i64,
}

impl SavedPlayer {
    pub fn new(player: &Player, at: i64) -> SavedPlayer {
        SavedPlayer {
            nick_key: player.nick.as_ref().map(|n| n.to_lowercase()),
            player: player.clone(),
            at,
        }
    }
}

pub(super) static SAVED_PLAYERS: Part<SavedPlayer> = Part {
    name: "saved_players",
    writes: "players",
    reads: &["players"],
    params: &[
        Param::Int("id", |r| r.player.id),
        Param::OptText("nick", |r| r.player.nick.as_deref()),
        Param::OptText("nick_key", |r| r.nick_key.as_deref()),
        Param::Text("lang", |r| r.player.lang.code()),
        Param::Flag("opted_out", |r| r.player.opted_out),
        Param::Flag("away", |r| r.player.away),
        Param::Int("at", |r| r.at),
    ],
    sql: "UPDATE players p SET nick = v.nick, nick_key = v.nick_key, lang = v.lang,
            opted_out = v.opted_out, away = v.away, updated_at = v.at
          FROM {rows} WHERE p.id = v.id",
    key: Some(|r| (r.player.id, 0)),
};

/// A text to insert into the outbox.
pub(super) struct QueuedText {
    pub text: NewText,
    pub at: i64,
}

pub(super) static QUEUED_TEXTS: Part<QueuedText> = Part {
    name: "queued_texts",
    writes: "outbox",
    reads: &["outbox"],
    params: &[
        Param::Text("from_number", |r| &r.text.from),
        Param::Text("to_phone", |r| &r.text.to),
        Param::Text("body", |r| &r.text.body),
        Param::Text("encoding", |r| r.text.encoding),
        Param::Int4("parts", |r| r.text.parts as i32),
        Param::Int("at", |r| r.at),
    ],
    // In the order queued: a phone's texts go out by id.
    sql: "INSERT INTO outbox (from_number, to_phone, body, encoding, parts, next_attempt_at, created_at, updated_at)
          SELECT v.from_number, v.to_phone, v.body, v.encoding, v.parts, v.at, v.at, v.at
          FROM {rows} ORDER BY v.ord",
    key: None,
};

/// A match's mutable fields as saved.
pub(super) struct SavedMatch {
    pub record: MatchRow,
    pub rng_pos: String,
}

impl SavedMatch {
    pub fn new(record: &MatchRow) -> SavedMatch {
        SavedMatch {
            rng_pos: rng_pos_text(record.rng_pos),
            record: record.clone(),
        }
    }
}

pub(super) static SAVED_MATCHES: Part<SavedMatch> = Part {
    name: "saved_matches",
    writes: "matches",
    reads: &["matches"],
    params: &[
        Param::Int("id", |r| r.record.id),
        Param::Text("state", |r| &r.record.state),
        Param::Text("rng_pos", |r| &r.rng_pos),
        Param::Flag("finished", |r| r.record.finished),
        Param::OptInt("deadline_at", |r| r.record.deadline_at.map(millis)),
        Param::OptInt("rematch_deadline_at", |r| {
            r.record.rematch_deadline_at.map(millis)
        }),
        Param::OptInt("finished_at", |r| r.record.finished_at.map(millis)),
        Param::Int("turn", |r| i64::from(r.record.turn)),
        Param::OptText("void_reason", |r| r.record.void_reason.as_deref()),
    ],
    sql: "UPDATE matches m SET state = v.state, rng_pos = v.rng_pos, finished = v.finished,
            deadline_at = v.deadline_at, rematch_deadline_at = v.rematch_deadline_at,
            finished_at = v.finished_at, turn = v.turn, void_reason = v.void_reason
          FROM {rows} WHERE m.id = v.id",
    key: Some(|r| (r.record.id, 0)),
};

/// A seat's mutable fields as saved.
pub(super) struct SavedSeat {
    pub match_id: i64,
    pub seat: SeatRow,
}

pub(super) static SAVED_SEATS: Part<SavedSeat> = Part {
    name: "saved_seats",
    writes: "match_seats",
    reads: &["match_seats"],
    params: &[
        Param::Int("match_id", |r| r.match_id),
        Param::Int4("seat", |r| r.seat.seat as i32),
        Param::Int4("missed", |r| r.seat.missed as i32),
        Param::OptInt("rematch_at", |r| r.seat.rematch_at.map(millis)),
        Param::Flag("message_sent", |r| r.seat.message_sent),
        Param::OptInt("place", |r| r.seat.place.map(i64::from)),
        Param::OptInt("score", |r| r.seat.score),
    ],
    sql: "UPDATE match_seats s SET missed = v.missed, rematch_at = v.rematch_at,
            message_sent = v.message_sent, place = v.place, score = v.score
          FROM {rows} WHERE s.match_id = v.match_id AND s.seat = v.seat",
    key: Some(|r| (r.match_id, r.seat.seat as i64)),
};

/// A move to append to a match's record.
pub(super) struct RecordedMove {
    pub match_id: i64,
    pub seat: i32,
    pub kind: MoveKind,
    pub notation: String,
    pub automatic: bool,
    pub at: i64,
    pub state_after: String,
    pub rng_pos: String,
}

impl RecordedMove {
    pub fn new(match_id: i64, mv: &NewMove<'_>, at: i64) -> RecordedMove {
        RecordedMove {
            match_id,
            seat: mv.seat as i32,
            kind: mv.kind,
            notation: mv.notation.to_string(),
            automatic: mv.automatic,
            at,
            state_after: mv.state_after.to_string(),
            rng_pos: rng_pos_text(mv.rng_pos),
        }
    }
}

pub(super) static RECORDED_MOVES: Part<RecordedMove> = Part {
    name: "recorded_moves",
    writes: "match_moves",
    reads: &["match_moves"],
    params: &[
        Param::Int("match_id", |r| r.match_id),
        Param::Int4("seat", |r| r.seat),
        Param::Text("kind", |r| r.kind.as_str()),
        Param::Text("move", |r| &r.notation),
        Param::Flag("automatic", |r| r.automatic),
        Param::Int("at", |r| r.at),
        Param::Text("state_after", |r| &r.state_after),
        Param::Text("rng_pos", |r| &r.rng_pos),
    ],
    // Plies follow the match's last stored one, in the order recorded.
    sql: "INSERT INTO match_moves (match_id, ply, seat, kind, move, automatic, at, state_after, rng_pos)
          SELECT v.match_id,
              COALESCE((SELECT MAX(mm.ply) FROM match_moves mm WHERE mm.match_id = v.match_id), 0)
                  + ROW_NUMBER() OVER (PARTITION BY v.match_id ORDER BY v.ord),
              v.seat, v.kind, v.move, v.automatic, v.at, v.state_after, v.rng_pos
          FROM {rows}",
    key: None,
};

pub(super) static LEFT_LOBBY: Part<i64> = Part {
    name: "left_lobby",
    writes: "lobby",
    reads: &["lobby"],
    params: &[Param::Int("player_id", |id| *id)],
    sql: "DELETE FROM lobby l USING {rows} WHERE l.player_id = v.player_id",
    key: Some(|id| (*id, 0)),
};

pub(super) const KIND_COUNT: usize = 6;

/// Every kind, in the order a statement holds them.
pub(super) static KINDS: [&dyn Kind; KIND_COUNT] = [
    &SAVED_PLAYERS,
    &QUEUED_TEXTS,
    &SAVED_MATCHES,
    &SAVED_SEATS,
    &RECORDED_MOVES,
    &LEFT_LOBBY,
];
