//! `GET /hall/phones/{number}/board`: the phone's current or last match, drawn as SVG beside its texts.
//!
//! The picture is the game's own ([`crate::games::Game::picture`]), from the
//! state the platform stored, as the phone's seat sees it. It is an image
//! only: served with a policy that lets it load nothing and run nothing.

use super::Hall;
use axum::Extension;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, HeaderValue, header};
use axum::response::{IntoResponse, Response};
use std::sync::Arc;

use crate::app::{AppError, AppState};
use crate::games::Seat;
use crate::store::MatchRow;

/// The header the page proves the phone with, as it holds the token.
pub const TOKEN_HEADER: &str = "x-hall-token";

/// The drawn board of the phone's newest match; 404 before its first.
pub(super) async fn board(
    State(state): State<AppState>,
    Extension(hall): Extension<Arc<Hall>>,
    Path(number): Path<String>,
    headers: HeaderMap,
) -> Result<Response, AppError> {
    let token = headers
        .get(TOKEN_HEADER)
        .and_then(|v| v.to_str().ok())
        .ok_or(AppError::Forbidden)?;
    hall.check_token(&state, &number, token).await?;
    let (record, seat) = newest_match(&state, number)
        .await?
        .ok_or(AppError::NotFound)?;
    let svg = state
        .platform()
        .catalog()
        .get(&record.game)
        .and_then(|game| game.load(&record.state).ok())
        .and_then(|played| played.picture(seat))
        .ok_or(AppError::NotFound)?;
    let mut response = svg.into_response();
    crate::web::protect(&mut response);
    let headers = response.headers_mut();
    headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("image/svg+xml; charset=utf-8"),
    );
    // Opened on its own, the picture may load and run nothing.
    headers.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static("default-src 'none'; frame-ancestors 'none'"),
    );
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    headers.insert(
        "x-match",
        HeaderValue::from_str(&record.id.to_string()).expect("digits"),
    );
    Ok(response)
}

/// The phone's newest match and its seat there, if it ever played.
async fn newest_match(
    state: &AppState,
    number: String,
) -> Result<Option<(MatchRow, Seat)>, AppError> {
    let found = state
        .store()
        .read(move |r| {
            let Some(player) = r.player_by_phone(&number)? else {
                return Ok(None);
            };
            let Some(record) = r.last_match_of(player.id)? else {
                return Ok(None);
            };
            let seat = r
                .seats(record.id)?
                .iter()
                .find(|s| s.is(player.id))
                .map(|s| s.seat);
            Ok(seat.map(|seat| (record, seat)))
        })
        .await?;
    Ok(found)
}
