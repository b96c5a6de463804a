//! `POST /webhooks/generic`: JSON `{"id","from","to","text"}` from any HTTP gateway.

use axum::Json;
use axum::body::Bytes;
use axum::extract::State;
use axum::http::HeaderMap;
use serde::Deserialize;
use serde_json::{Value, json};

use crate::http::{AppError, AppState};
use crate::inbound::{InboundMessage, normalise_phone};
use crate::platform::Handled;
use crate::store::TextStatus;

use super::check_secret;

#[derive(Deserialize)]
struct Payload {
    id: String,
    from: String,
    to: String,
    text: String,
}

pub(super) async fn inbound(
    State(state): State<AppState>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Json<Value>, AppError> {
    let payload: Payload = authenticated_json(&state, &headers, &body)?;
    for (name, value) in [
        ("id", &payload.id),
        ("from", &payload.from),
        ("to", &payload.to),
    ] {
        if value.trim().is_empty() {
            return Err(AppError::bad_request(format!("{name} is empty")));
        }
    }
    let msg = InboundMessage {
        provider: "generic",
        provider_id: payload.id,
        from: normalise_phone(&payload.from),
        to: normalise_phone(&payload.to),
        text: payload.text,
        received_at: state.clock().now(),
    };
    let status = match state.receive(msg).await? {
        Handled {
            duplicate: false, ..
        } => "accepted",
        Handled {
            duplicate: true, ..
        } => "duplicate",
    };
    Ok(Json(json!({ "status": status })))
}

#[derive(Deserialize)]
struct StatusPayload {
    id: String,
    status: String,
    error: Option<String>,
}

/// `POST /webhooks/generic/status`: `{"id": "<the id we sent>", "status": "sent|delivered|failed", "error": "..."}`.
pub(super) async fn status(
    State(state): State<AppState>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Json<Value>, AppError> {
    let payload: StatusPayload = authenticated_json(&state, &headers, &body)?;
    let status = match payload.status.as_str() {
        "sent" => TextStatus::Sent,
        "delivered" => TextStatus::Delivered,
        "failed" | "undelivered" => TextStatus::Failed,
        other => return Err(AppError::bad_request(format!("unknown status {other:?}"))),
    };
    let now = state
        .report_status(payload.id, status, payload.error)
        .await?;
    Ok(Json(
        json!({ "status": now.map(TextStatus::as_str).unwrap_or("unknown") }),
    ))
}

/// Checks the shared secret header, then reads the JSON body.
fn authenticated_json<T: serde::de::DeserializeOwned>(
    state: &AppState,
    headers: &HeaderMap,
    body: &[u8],
) -> Result<T, AppError> {
    let presented = headers
        .get("x-webhook-secret")
        .and_then(|v| v.to_str().ok());
    check_secret(&state.config().webhooks.secret, presented)?;
    serde_json::from_slice(body)
        .map_err(|e| AppError::bad_request(format!("invalid JSON body: {e}")))
}
