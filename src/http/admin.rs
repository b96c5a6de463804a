//! The admin API (`admin.token` as a bearer token; off when empty): match records with a
//! replay audit, a match's export (`platform/export/`), and counts. For operators and support, not for players.
//!
//! Players' numbers are masked unless asked for (`?phones=full`, logged):
//! what support needs of a match is its nicks and moves.

use std::panic::{AssertUnwindSafe, catch_unwind};

use crate::app::{AppError, AppState, tokens};
use crate::phone::mask;
use crate::platform::Platform;
use crate::platform::replay::replay;
use crate::store::{Holder, MatchRow, MoveRow, SeatRow, StoreError};
use axum::Json;
use axum::extract::{Path, Query, Request, State};
use axum::http::{StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use serde_json::{Value, json};

pub fn routes(state: AppState) -> axum::Router<AppState> {
    axum::Router::new()
        .route("/admin/matches/{id}", get(match_record))
        .route("/admin/matches/{id}/export", get(match_export))
        .route("/admin/stats", get(stats))
        .route_layer(axum::middleware::from_fn_with_state(state, require_token))
}

/// 404 while the admin API is off (no token configured); the right token
/// gets in; a wrong or missing one is 401, logged with the address it came
/// from, or 429 once that address is over its wrong-token limit.
async fn require_token(State(state): State<AppState>, request: Request, next: Next) -> Response {
    let token = &state.config().admin.token;
    if token.is_empty() {
        return StatusCode::NOT_FOUND.into_response();
    }
    let presented = tokens::bearer(request.headers());
    if presented.is_some_and(|p| tokens::is(p, token.expose())) {
        return next.run(request).await;
    }
    let peer = crate::web::client::peer(&request);
    let path = request.uri().path();
    match tokens::refuse_wrong(&state, peer, "admin request", path, presented.is_some()) {
        None => AppError::Unauthorized.into_response(),
        Some(limited) => limited,
    }
}

/// `?phones=full` shows the players' numbers whole; without it they are masked.
#[derive(serde::Deserialize, Default)]
struct Shown {
    phones: Option<String>,
}

/// A match's whole record, and whether it replays from its seed to what is stored.
async fn match_record(
    State(state): State<AppState>,
    Path(id): Path<i64>,
    Query(shown): Query<Shown>,
) -> Result<Response, AppError> {
    let platform = state.platform().clone();
    let whole_phones = shown.phones.as_deref() == Some("full");
    if whole_phones {
        tracing::info!(
            match_id = id,
            "admin: a match's phone numbers shown in full"
        );
    }
    let Some(rows) = match_rows(&state, id).await? else {
        return Ok(no_such_match());
    };
    let body = tokio::task::spawn_blocking(move || match_body(&platform, &rows, whole_phones))
        .await
        .map_err(|_| StoreError::Panicked)??;
    Ok(Json(body).into_response())
}

fn no_such_match() -> Response {
    (
        StatusCode::NOT_FOUND,
        Json(json!({ "error": "no such match" })),
    )
        .into_response()
}

/// One match's rows. The read fetches rows only: game code (the replay,
/// the history) runs after the reader is released, so a slow or broken
/// record never holds the reader that `/healthz` and every other read need.
async fn match_rows(state: &AppState, id: i64) -> Result<Option<MatchRows>, AppError> {
    let rows = state
        .store()
        .read(move |tx| {
            let Some(record) = tx.match_by_id(id)? else {
                return Ok(None);
            };
            let previous = match record.rematch_of {
                Some(prev) => tx.match_by_id(prev)?,
                None => None,
            };
            Ok(Some(MatchRows {
                seats: tx.seats(id)?,
                moves: tx.moves(id)?,
                record,
                previous,
            }))
        })
        .await?;
    Ok(rows)
}

/// A match as one document that replays it (`smsarena replay FILE`): its
/// seed, moves and states, and its record in the game's notation. Players
/// appear by nick only.
async fn match_export(
    State(state): State<AppState>,
    Path(id): Path<i64>,
) -> Result<Response, AppError> {
    let platform = state.platform().clone();
    let Some(rows) = match_rows(&state, id).await? else {
        return Ok(no_such_match());
    };
    let export = tokio::task::spawn_blocking(move || {
        let game = platform
            .catalog()
            .get(&rows.record.game)
            .ok_or_else(|| StoreError::Corrupt(format!("unknown game {}", rows.record.game)))?;
        catch_unwind(AssertUnwindSafe(|| {
            crate::platform::export::export(
                game,
                &rows.record,
                rows.previous.as_ref(),
                &rows.seats,
                &rows.moves,
            )
        }))
        .map_err(|_| StoreError::Corrupt("the game's code panicked on the record".into()))
    })
    .await
    .map_err(|_| StoreError::Panicked)??;
    let name = format!("attachment; filename=\"match-{id}.json\"");
    Ok(([(header::CONTENT_DISPOSITION, name)], Json(export)).into_response())
}

/// What the admin API reads of one match.
struct MatchRows {
    record: MatchRow,
    previous: Option<MatchRow>,
    seats: Vec<SeatRow>,
    moves: Vec<MoveRow>,
}

/// The match as JSON, with its replay audit and its record in the game's
/// notation. A panic in the game's code is reported as the audit's finding,
/// not as a failed request.
fn match_body(
    platform: &Platform,
    rows: &MatchRows,
    whole_phones: bool,
) -> Result<Value, StoreError> {
    let MatchRows {
        record,
        previous,
        seats,
        moves,
    } = rows;
    let game = platform
        .catalog()
        .get(&record.game)
        .ok_or_else(|| StoreError::Corrupt(format!("unknown game {}", record.game)))?;
    let audit = match catch_unwind(AssertUnwindSafe(|| {
        replay(game, record, previous.as_ref(), moves, seats.len())
    })) {
        Ok(Ok(end)) if end == record.state => "ok".to_string(),
        Ok(Ok(_)) => "the moves replay to another state than the stored one".to_string(),
        Ok(Err(e)) => e.to_string(),
        Err(_) => "the replay panicked in the game's code".to_string(),
    };
    let history = crate::platform::record::history_text(
        game,
        &record.initial_state,
        moves,
        &crate::platform::record::seat_names(seats),
    );
    let players: Vec<Value> = seats
        .iter()
        .map(|s| match &s.holder {
            Holder::Player(p) => json!({ "seat": s.seat, "nick": p.nick,
                "phone": if whole_phones { p.phone.clone() } else { mask(&p.phone) },
                "place": s.place, "score": s.score }),
            Holder::Robot(level) => json!({ "seat": s.seat, "robot": level,
                "place": s.place, "score": s.score }),
        })
        .collect();
    let moves: Vec<Value> = moves
        .iter()
        .map(|m| {
            json!({ "ply": m.ply, "seat": m.seat, "kind": m.kind.as_str(),
                    "move": m.notation, "automatic": m.automatic,
                    "state_after": m.state_after,
                    "rng_pos": m.rng_pos.map(|p| p.to_string()) })
        })
        .collect();
    Ok(json!({
        "id": record.id,
        "game": record.game,
        "options": record.options,
        "seed": record.seed.to_string(),
        "rematch_of": record.rematch_of,
        "started_at": record.started_at,
        "finished_at": record.finished_at,
        "finished": record.finished,
        "initial_state": record.initial_state,
        "state": record.state,
        "players": players,
        "moves": moves,
        "history": history,
        "replay": audit,
    }))
}

async fn stats(State(state): State<AppState>) -> Result<Json<Value>, AppError> {
    let counts = state
        .store()
        .read(|tx| {
            let mut counts = serde_json::Map::new();
            for table in [
                "players",
                "inbound",
                "outbox",
                "lobby",
                "matches",
                "match_moves",
                "robot_turns",
            ] {
                counts.insert(table.into(), tx.count_rows(table)?.into());
            }
            counts.insert("void_matches".into(), tx.void_matches()?.into());
            Ok(counts)
        })
        .await?;
    let mut counts = counts;
    // The robot pool of this instance: turns computed, and how long they waited.
    counts.insert("robots".into(), json!(state.robots().stats()));
    counts.insert("limits".into(), state.flood().stats());
    Ok(Json(Value::Object(counts)))
}
