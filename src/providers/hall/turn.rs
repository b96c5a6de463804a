//! What a phone's tab shows beside its thread: its reply language and its match, whether it must move, and the turn's deadline.
//!
//! Read beside the writer, from the same rows the platform keeps: the
//! player's language, his newest match, its seats, its state (whose turn the
//! game awaits) and `deadline_at` (the timer the scheduler fires). The page
//! asks again whenever a text reaches the phone, so nothing here is pushed.

use super::Hall;
use axum::Extension;
use axum::Json;
use axum::extract::{Path, Query, State};
use chrono::{DateTime, Utc};
use serde::Deserialize;
use serde_json::{Value, json};
use std::sync::Arc;

use crate::app::{AppError, AppState};
use crate::games::Status;
use crate::lang::Lang;
use crate::store::{MatchRow, Player, SeatRow};

/// A finished match is still named this long, so that its last texts (the
/// result, the rematch offer) are shown as its own.
const FINISHED_SHOWN_SECS: i64 = 60;

#[derive(Deserialize)]
pub(super) struct Asking {
    token: String,
}

/// `GET /hall/phones/{number}/turn`: the phone's language, the languages
/// `LANG` offers, whether it is a player yet, its nick, and its match (or `null`).
pub(super) async fn turn(
    State(state): State<AppState>,
    Extension(hall): Extension<Arc<Hall>>,
    Path(number): Path<String>,
    Query(asking): Query<Asking>,
) -> Result<Json<Value>, AppError> {
    hall.check_token(&state, &number, &asking.token).await?;
    let found = state
        .store()
        .read(move |r| {
            let Some(player) = r.player_by_phone(&number)? else {
                return Ok(None);
            };
            let seated = match r.last_match_of(player.id)? {
                Some(record) => {
                    let seats = r.seats(record.id)?;
                    Some((record, seats))
                }
                None => None,
            };
            Ok(Some((player, seated)))
        })
        .await?;
    let now = state.clock().now();
    let (lang, current) = match &found {
        Some((player, seated)) => (
            player.lang,
            seated
                .as_ref()
                .and_then(|(record, seats)| describe(&state, player, record, seats, now)),
        ),
        None => (Lang::default(), None),
    };
    Ok(Json(json!({
        "lang": lang.code(),
        "langs": Lang::ALL.map(Lang::code),
        // Whether the number is a player yet (registered, or has texted
        // LANG): until then its language is the service's default, not a choice.
        "player": found.is_some(),
        "nick": found.as_ref().and_then(|(player, _)| player.nick.clone()),
        "match": current,
    })))
}

/// The match as the phone's tab shows it; `None` when it is long over or
/// its state will not load (the platform quarantines it on its next text).
fn describe(
    state: &AppState,
    player: &Player,
    record: &MatchRow,
    seats: &[SeatRow],
    now: DateTime<Utc>,
) -> Option<Value> {
    let finished_ago = record.finished_at.map(|at| (now - at).num_seconds());
    if record.finished && finished_ago.is_none_or(|ago| ago > FINISHED_SHOWN_SECS) {
        return None;
    }
    let game = state.platform().catalog().get(&record.game)?;
    let loaded = game.load(&record.state).ok()?;
    let awaited = match loaded.status() {
        Status::Awaiting(seats) => seats,
        Status::Finished(_) => Vec::new(),
    };
    let mine: Vec<usize> = seats
        .iter()
        .filter(|s| s.is(player.id))
        .map(|s| s.seat)
        .collect();
    let to_move = !record.finished && mine.iter().any(|s| awaited.contains(s));
    let seconds_left = record
        .deadline_at
        .filter(|_| !record.finished)
        .map(|at| (at - now).num_seconds().max(0));
    Some(json!({
        "id": record.id,
        "game": record.game,
        "name": game.name(player.lang),
        "finished": record.finished,
        "to_move": to_move,
        "seconds_left": seconds_left,
    }))
}
