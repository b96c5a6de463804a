//! The one error type of the HTTP layer: internals go to the log, callers see a short reason.

use axum::Json;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde_json::json;

use crate::store::StoreError;

#[derive(Debug, thiserror::Error)]
pub enum AppError {
    /// The request is malformed; the text says what is wrong (no internals).
    #[error("bad request: {0}")]
    BadRequest(String),
    /// The shared secret is missing or wrong.
    #[error("unauthorized")]
    Unauthorized,
    /// A provider signature does not match.
    #[error("forbidden: bad signature")]
    BadSignature,
    /// A signed request older than its window: a replay, or a clock far off.
    #[error("forbidden: signed too long ago")]
    Stale,
    /// No such page or resource (the training hall when it is off).
    #[error("not found")]
    NotFound,
    /// The caller's address is over one of its limits.
    #[error("too many requests")]
    TooManyRequests,
    /// The caller may not have this (a virtual phone that is not his).
    #[error("forbidden")]
    Forbidden,
    /// The store failed; the provider should retry later.
    #[error("store: {0}")]
    Store(#[from] StoreError),
}

impl AppError {
    pub fn bad_request(msg: impl Into<String>) -> AppError {
        AppError::BadRequest(msg.into())
    }
}

impl IntoResponse for AppError {
    fn into_response(self) -> Response {
        let (status, reason) = match &self {
            AppError::BadRequest(msg) => (StatusCode::BAD_REQUEST, msg.clone()),
            AppError::Unauthorized => (StatusCode::UNAUTHORIZED, "missing or wrong secret".into()),
            AppError::BadSignature => (StatusCode::FORBIDDEN, "signature does not match".into()),
            AppError::Stale => (
                StatusCode::FORBIDDEN,
                "signed too long ago (or the clocks disagree)".into(),
            ),
            AppError::NotFound => (StatusCode::NOT_FOUND, "not found".into()),
            AppError::TooManyRequests => (
                StatusCode::TOO_MANY_REQUESTS,
                "too many requests, slow down".into(),
            ),
            AppError::Forbidden => (StatusCode::FORBIDDEN, "not yours".into()),
            AppError::Store(StoreError::Busy) => {
                // Back-pressure, not a fault: the writer's queue is full.
                tracing::warn!("the writer's queue is full; asking the caller to retry");
                (
                    StatusCode::SERVICE_UNAVAILABLE,
                    "busy, retry shortly".into(),
                )
            }
            AppError::Store(e) => {
                // 503, not 500: the message was not stored, and every provider
                // retries a 5xx, so nothing is lost.
                tracing::error!(error = %e, "store failed; asking the caller to retry");
                (
                    StatusCode::SERVICE_UNAVAILABLE,
                    "temporarily unavailable, retry later".into(),
                )
            }
        };
        if status.is_client_error() {
            tracing::debug!(%status, %reason, "request refused");
        }
        let mut response = (status, Json(json!({ "error": reason }))).into_response();
        if status == StatusCode::SERVICE_UNAVAILABLE {
            response
                .headers_mut()
                .insert(header::RETRY_AFTER, HeaderValue::from_static("1"));
        }
        response
    }
}
