//! What the hall's page asks of the gateway: a new virtual phone and a text from one (the texts to it come by `live.rs`).
//!
//! A text goes through [`AppState::receive`] like any provider's: its id
//! taken once, the same command parsing, the same flood limits, the same
//! transaction.

use super::Hall;
use axum::Extension;
use axum::Json;
use axum::extract::{Path, Request, State};
use serde::Deserialize;
use serde_json::{Value, json};
use std::sync::Arc;

use crate::app::{AppError, AppState, Receipt};
use crate::encoding;
use crate::inbound::InboundMessage;

/// Longest text the hall takes: ten parts, as a handset would refuse more.
const TEXT_MAX_CHARS: usize = 1530;

/// `POST /hall/phones`: a new virtual phone and the token that is its key.
pub(super) async fn open_phone(
    State(state): State<AppState>,
    Extension(hall): Extension<Arc<Hall>>,
    request: Request,
) -> Result<Json<Value>, AppError> {
    if let Some(client) = hall.client(&request)
        && !hall.may_open_phone(client)
    {
        return Err(AppError::TooManyRequests);
    }
    let (number, token) = hall.open_phone(&state).await?;
    tracing::info!(phone = %number, "training hall: a virtual phone opened");
    Ok(Json(json!({ "number": number, "token": token })))
}

#[derive(Deserialize)]
pub(super) struct Typed {
    token: String,
    /// The page's own id for the text, so that a resent request is one text.
    id: String,
    to: String,
    text: String,
}

/// `POST /hall/phones/{number}/texts`: the phone texts one of the service numbers.
pub(super) async fn text(
    State(state): State<AppState>,
    Extension(hall): Extension<Arc<Hall>>,
    Path(number): Path<String>,
    request: Request,
) -> Result<Json<Value>, AppError> {
    let client = hall.client(&request);
    let body = axum::body::to_bytes(request.into_body(), 64 * 1024)
        .await
        .map_err(|_| AppError::bad_request("the request body is too large"))?;
    let typed: Typed = serde_json::from_slice(&body)
        .map_err(|e| AppError::bad_request(format!("invalid JSON body: {e}")))?;
    hall.check_token(&state, &number, &typed.token).await?;
    if let Some(client) = client
        && !hall.may_text(client)
    {
        return Err(AppError::TooManyRequests);
    }
    let ok_id = !typed.id.is_empty()
        && typed.id.len() <= 64
        && typed
            .id
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-');
    if !ok_id {
        return Err(AppError::bad_request("id: 1-64 letters, digits or dashes"));
    }
    if typed.text.chars().count() > TEXT_MAX_CHARS {
        return Err(AppError::bad_request(format!(
            "a text of at most {TEXT_MAX_CHARS} characters"
        )));
    }
    let numbers = &state.config().numbers;
    let to = numbers
        .canonical(&typed.to)
        .ok()
        .filter(|to| numbers.serves(to))
        .ok_or_else(|| {
            AppError::bad_request("the number texted is none of this gateway's numbers")
        })?;
    let analysis = encoding::analyse(&typed.text);
    let msg = InboundMessage {
        provider: "hall",
        provider_id: format!("{number}:{}", typed.id),
        from: number,
        to,
        text: typed.text,
        received_at: state.clock().now(),
    };
    let mut answer = json!({
        "encoding": analysis.encoding.as_str(),
        "parts": analysis.parts,
    });
    answer["status"] = match state.receive(msg).await? {
        Receipt::Applied(_) | Receipt::Waiting => "accepted".into(),
        Receipt::Duplicate => "duplicate".into(),
        Receipt::Dropped { retry_after } => {
            // Whole seconds, never 0: the page says "try again in N s".
            answer["retry_after_secs"] = (retry_after.as_secs_f64().ceil().max(1.0) as u64).into();
            "rate_limited".into()
        }
    };
    Ok(Json(answer))
}
