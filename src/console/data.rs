//! What the console shows, read off the writer (`Store::read`: SQLite's reader connection, PostgreSQL's pool), so a busy console never slows the game; each view also as JSON.

use chrono::{DateTime, Duration, DurationRound, Utc};
use serde::Serialize;

use crate::platform::Platform;
pub use crate::platform::counts::{Counts, counts};
use crate::store::{
    AuditEntry, Holder, InboundText, MatchRow, MoveRow, OutboxText, Player, Read, SeatRow,
    StoreResult,
};

/// Texts of a phone shown at most, in and out each.
pub const RECENT_TEXTS: usize = 20;

/// The overview: the counts, and texts in a minute over the last hour.
#[derive(Clone, Debug, Serialize)]
pub struct Summary {
    #[serde(flatten)]
    pub counts: Counts,
    /// Inbound texts a minute over the last hour, oldest first (60 values).
    pub inbound_per_minute: Vec<i64>,
}

/// The overview: the counts, and the last hour's texts in by the minute.
pub fn summary(platform: &Platform, tx: &mut dyn Read, now: DateTime<Utc>) -> StoreResult<Summary> {
    let counts = counts(platform, tx, now)?;
    let minute = now.duration_trunc(Duration::minutes(1)).unwrap_or(now);
    let since = minute - Duration::minutes(59);
    let mut per_minute = vec![0; 60];
    for (at, n) in tx.console().inbound_per_minute(since)? {
        let slot = (at - since).num_minutes();
        if (0..60).contains(&slot) {
            per_minute[slot as usize] += n;
        }
    }
    Ok(Summary {
        counts,
        inbound_per_minute: per_minute,
    })
}

/// A player as the console shows him.
#[derive(Clone, Debug, Serialize)]
pub struct PlayerView {
    pub id: i64,
    pub nick: Option<String>,
    pub phone: String,
    pub lang: &'static str,
    pub status: &'static str,
    pub current_match: Option<i64>,
    pub last_match: Option<i64>,
}

impl PlayerView {
    fn of(player: &Player, last: Option<&MatchRow>, phone: String) -> PlayerView {
        let current = last.filter(|m| !m.finished).map(|m| m.id);
        let status = if player.opted_out {
            "opted out"
        } else if player.nick.is_none() {
            "unregistered"
        } else if current.is_some() {
            "in a match"
        } else if player.away {
            "away"
        } else {
            "idle or seeking"
        };
        PlayerView {
            id: player.id,
            nick: player.nick.clone(),
            phone,
            lang: player.lang.code(),
            status,
            current_match: current,
            last_match: last.map(|m| m.id),
        }
    }
}

/// How a phone number is shown: masked unless the operator asked.
pub fn shown(phone: &str, whole: bool) -> String {
    if whole {
        phone.to_string()
    } else {
        crate::phone::mask(phone)
    }
}

/// Players whose nick starts with `nick`, or whose number is `number`
/// (canonical) whole.
pub fn find_players(
    tx: &mut dyn Read,
    nick: &str,
    number: Option<&str>,
) -> StoreResult<Vec<PlayerView>> {
    let mut views = Vec::new();
    for player in tx.console().find_players(nick, number, 20)? {
        let last = tx.last_match_of(player.id)?;
        let phone = shown(&player.phone, false);
        views.push(PlayerView::of(&player, last.as_ref(), phone));
    }
    Ok(views)
}

/// One player with his recent texts.
#[derive(Clone, Debug, Serialize)]
pub struct PlayerDetail {
    pub player: PlayerView,
    pub texts_in: Vec<TextIn>,
    pub texts_out: Vec<TextOut>,
}

#[derive(Clone, Debug, Serialize)]
pub struct TextIn {
    pub at: DateTime<Utc>,
    pub to: String,
    pub text: String,
}

#[derive(Clone, Debug, Serialize)]
pub struct TextOut {
    pub id: i64,
    pub from: String,
    pub body: String,
    pub status: &'static str,
    pub parts: u32,
    pub encoding: String,
}

pub fn player_detail(
    tx: &mut dyn Read,
    id: i64,
    whole_numbers: bool,
) -> StoreResult<Option<PlayerDetail>> {
    let Some(player) = tx.console().player_by_id(id)? else {
        return Ok(None);
    };
    let last = tx.last_match_of(player.id)?;
    let texts_in = tx
        .console()
        .texts_from(&player.phone, RECENT_TEXTS)?
        .into_iter()
        .map(|t: InboundText| TextIn {
            at: t.received_at,
            to: t.to,
            text: t.text,
        })
        .collect();
    let mut out = tx.texts_to(&player.phone)?;
    let keep = out.len().saturating_sub(RECENT_TEXTS);
    let texts_out = out
        .drain(keep..)
        .rev()
        .map(|t: OutboxText| TextOut {
            id: t.id,
            from: t.from,
            body: t.body,
            status: t.status.as_str(),
            parts: t.parts,
            encoding: t.encoding,
        })
        .collect();
    let phone = shown(&player.phone, whole_numbers);
    Ok(Some(PlayerDetail {
        player: PlayerView::of(&player, last.as_ref(), phone),
        texts_in,
        texts_out,
    }))
}

/// A match's rows, as stored.
pub struct MatchRows {
    pub record: MatchRow,
    pub seats: Vec<SeatRow>,
    pub moves: Vec<MoveRow>,
}

pub fn match_rows(tx: &mut dyn Read, id: i64) -> StoreResult<Option<MatchRows>> {
    let Some(record) = tx.match_by_id(id)? else {
        return Ok(None);
    };
    Ok(Some(MatchRows {
        seats: tx.seats(id)?,
        moves: tx.moves(id)?,
        record,
    }))
}

/// A seat as the match view shows it.
#[derive(Clone, Debug, Serialize)]
pub struct SeatView {
    pub seat: usize,
    pub who: String,
    pub player_id: Option<i64>,
    pub place: Option<u8>,
    pub score: Option<i64>,
}

pub fn seat_views(seats: &[SeatRow]) -> Vec<SeatView> {
    seats
        .iter()
        .map(|s| match &s.holder {
            Holder::Player(p) => SeatView {
                seat: s.seat,
                who: p.nick.clone().unwrap_or_else(|| "(no nick)".into()),
                player_id: Some(p.id),
                place: s.place,
                score: s.score,
            },
            Holder::Robot(level) => SeatView {
                seat: s.seat,
                who: format!("robot, level {level}"),
                player_id: None,
                place: s.place,
                score: s.score,
            },
        })
        .collect()
}

/// One step of a replay: the board after `step` moves (0: the opening),
/// as `seat` sees it.
#[derive(Clone, Debug, Serialize)]
pub struct ReplayStep {
    pub step: usize,
    pub steps: usize,
    pub seat: usize,
    /// The move that led here, in the game's notation.
    pub played: Option<String>,
    pub board: String,
}

pub fn replay_step(platform: &Platform, rows: &MatchRows, step: usize, seat: usize) -> ReplayStep {
    let steps = rows.moves.len();
    let step = step.min(steps);
    let seat = seat.min(rows.seats.len().saturating_sub(1));
    let state = match step {
        0 => rows.record.initial_state.as_str(),
        n => rows.moves[n - 1].state_after.as_str(),
    };
    let lang = rows
        .seats
        .get(seat)
        .and_then(|s| match &s.holder {
            Holder::Player(p) => Some(p.lang),
            Holder::Robot(_) => None,
        })
        .unwrap_or_default();
    let board = match platform.catalog().get(&rows.record.game) {
        None => format!("(no game {} is hosted here)", rows.record.game),
        Some(game) => match std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            game.load(state).map(|m| m.render(seat, lang))
        })) {
            Ok(Ok(board)) => board,
            Ok(Err(e)) => format!("(this state does not read: {e})"),
            Err(_) => "(the game's code panicked on this state)".into(),
        },
    };
    ReplayStep {
        step,
        steps,
        seat,
        played: step.checked_sub(1).map(|i| rows.moves[i].notation.clone()),
        board,
    }
}

/// A parked text, as the console lists it.
#[derive(Clone, Debug, Serialize)]
pub struct ParkedView {
    pub id: i64,
    pub to: String,
    pub body: String,
    pub attempts: u32,
    pub last_error: Option<String>,
}

pub fn parked(tx: &mut dyn Read, limit: usize) -> StoreResult<Vec<ParkedView>> {
    Ok(tx
        .console()
        .parked_texts(limit)?
        .into_iter()
        .map(|t| ParkedView {
            id: t.id,
            to: shown(&t.to, false),
            body: t.body,
            attempts: t.attempts,
            last_error: t.last_error,
        })
        .collect())
}

pub fn audit(tx: &mut dyn Read, limit: usize) -> StoreResult<Vec<AuditEntry>> {
    tx.console().audit_entries(limit)
}
