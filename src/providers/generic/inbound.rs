//! `POST /webhooks/generic`: JSON `{"id","from","to","text"}` from any HTTP gateway.

use axum::Json;
use axum::body::Bytes;
use axum::extract::State;
use axum::http::HeaderMap;
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::app::{AppError, AppState, Receipt};
use crate::config::Config;
use crate::inbound::InboundMessage;
use crate::store::TextStatus;

use crate::providers::webhook::{StatusReport, addresses, check_secret};

#[derive(Deserialize)]
struct Payload {
    id: String,
    from: String,
    to: String,
    text: String,
}

/// The webhook's answer, `{"status": ...}`: written straight from the
/// struct, not built as a JSON value first, since every text gets one.
#[derive(Serialize)]
pub(super) struct Answer {
    status: &'static str,
}

pub(super) async fn inbound(
    State(state): State<AppState>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Json<Answer>, AppError> {
    let msg = parse_inbound(state.config(), &headers, &body, state.clock().now())?;
    let status = match state.receive(msg).await? {
        Receipt::Applied(_) => "accepted",
        Receipt::Duplicate => "duplicate",
        Receipt::Dropped { .. } => "rate_limited",
        Receipt::Waiting => "waiting",
    };
    Ok(Json(Answer { status }))
}

/// Reads an inbound text: the shared secret (header `X-Webhook-Secret`), then
/// the JSON body, whose `id`, `from` and `to` must not be blank.
pub fn parse_inbound(
    cfg: &Config,
    headers: &HeaderMap,
    body: &[u8],
    received_at: DateTime<Utc>,
) -> Result<InboundMessage, AppError> {
    let payload: Payload = authenticated_json(&cfg.webhooks.secret, headers, body)?;
    for (name, value) in [
        ("id", &payload.id),
        ("from", &payload.from),
        ("to", &payload.to),
    ] {
        if value.trim().is_empty() {
            return Err(AppError::bad_request(format!("{name} is empty")));
        }
    }
    let (from, to) = addresses(cfg, &payload.from, &payload.to)?;
    Ok(InboundMessage {
        provider: "generic",
        provider_id: payload.id,
        from,
        to,
        text: payload.text,
        received_at,
    })
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
    let report = parse_status(state.config(), &headers, &body)?;
    let now = state
        .report_status("generic", report.reference, report.status, report.error)
        .await?;
    Ok(Json(
        json!({ "status": now.map(TextStatus::as_str).unwrap_or("unknown") }),
    ))
}

/// Reads a delivery report: the shared secret, then the JSON body; an unknown status is refused.
pub fn parse_status(
    cfg: &Config,
    headers: &HeaderMap,
    body: &[u8],
) -> Result<StatusReport, AppError> {
    let payload: StatusPayload = authenticated_json(&cfg.webhooks.secret, headers, body)?;
    let status = match payload.status.as_str() {
        "sent" => TextStatus::Sent,
        "delivered" => TextStatus::Delivered,
        "failed" | "undelivered" => TextStatus::Failed,
        other => return Err(AppError::bad_request(format!("unknown status {other:?}"))),
    };
    Ok(StatusReport {
        reference: payload.id,
        status,
        error: payload.error,
    })
}

/// Checks the shared secret header, then reads the JSON body.
fn authenticated_json<T: serde::de::DeserializeOwned>(
    secret: &str,
    headers: &HeaderMap,
    body: &[u8],
) -> Result<T, AppError> {
    let presented = headers
        .get("x-webhook-secret")
        .and_then(|v| v.to_str().ok());
    check_secret(secret, presented)?;
    serde_json::from_slice(body)
        .map_err(|e| AppError::bad_request(format!("invalid JSON body: {e}")))
}
