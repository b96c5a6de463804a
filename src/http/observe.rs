//! `/metrics`, where what this instance counts and what the database holds are read.

use crate::app::{AppError, AppState, tokens};
use axum::extract::{Request, State};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};

/// `GET /metrics`: Prometheus' text format. Not served (404) where
/// `metrics.enabled` keeps it off this listener; a configured
/// `metrics.token` is asked for as a bearer token, compared in constant
/// time, and a wrong one is refused as the admin API refuses one: logged
/// with its peer, and limited per address (`app/tokens.rs`).
pub async fn metrics(State(state): State<AppState>, request: Request) -> Response {
    let cfg = &state.config().metrics;
    if !cfg.served(state.config().http.listen.ip().is_loopback()) {
        return StatusCode::NOT_FOUND.into_response();
    }
    if !cfg.token.is_empty() {
        let presented = tokens::bearer(request.headers());
        if !presented.is_some_and(|p| tokens::is(p, cfg.token.expose())) {
            let peer = crate::web::client::peer(&request);
            let path = request.uri().path();
            return match tokens::refuse_wrong(
                &state,
                peer,
                "metrics request",
                path,
                presented.is_some(),
            ) {
                None => AppError::Unauthorized.into_response(),
                Some(limited) => limited,
            };
        }
    }
    match state.scrape().await {
        Ok(text) => (
            [(
                header::CONTENT_TYPE,
                "text/plain; version=0.0.4; charset=utf-8",
            )],
            text,
        )
            .into_response(),
        Err(e) => AppError::from(e).into_response(),
    }
}
