//! What the HTTP layer counts: each webhook request's latency and the refusals it answered, and `/metrics`, where the counts are read.
//!
//! A text that reaches the store is counted where its fate is known
//! (`AppState::receive`: applied, a repeat, a part kept, a phone over its
//! limit); what never gets that far (a bad signature, a malformed request,
//! an address over its limit, a writer that cannot take it now) is counted
//! here from the answer's status.

use std::time::Instant;

use super::{AppError, AppState, tokens};
use crate::metrics::InboundOutcome;
use axum::extract::{Request, State};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};

/// The provider a webhook path belongs to (`/webhooks/<name>[/status]`),
/// as the registry names it, and whether it is a delivery report.
fn webhook_of(path: &str) -> Option<(&'static str, bool)> {
    let rest = path.strip_prefix("/webhooks/")?;
    let (name, tail) = rest.split_once('/').unwrap_or((rest, ""));
    let provider = crate::providers::PROVIDERS
        .iter()
        .map(|p| p.kind.as_str())
        .find(|known| *known == name)?;
    Some((provider, tail == "status"))
}

/// A webhook request being timed: its time and, for a text refused before
/// the store saw it, its refusal are counted once its answer is known.
pub struct Observed {
    started: Instant,
    webhook: Option<(&'static str, bool)>,
}

impl Observed {
    pub fn start(request: &Request) -> Observed {
        Observed {
            started: Instant::now(),
            webhook: webhook_of(request.uri().path()),
        }
    }

    /// Times the request, and counts a refusal by what the answer says.
    pub fn answered(self, state: &AppState, response: &Response) {
        let Some((provider, report)) = self.webhook else {
            return;
        };
        let metrics = state.metrics();
        metrics.webhook(provider, self.started.elapsed());
        let refused = match response.status() {
            s if s.is_success() => None,
            StatusCode::UNAUTHORIZED | StatusCode::FORBIDDEN => {
                Some(InboundOutcome::RejectedSignature)
            }
            StatusCode::TOO_MANY_REQUESTS => Some(InboundOutcome::Limited),
            s if s.is_server_error() => Some(InboundOutcome::Unavailable),
            _ => Some(InboundOutcome::Refused),
        };
        if let (Some(outcome), false) = (refused, report) {
            metrics.inbound(provider, outcome);
        }
    }
}

/// `GET /metrics`: Prometheus' text format. Not served (404) where
/// `metrics.enabled` keeps it off this listener; a configured
/// `metrics.token` is asked for as a bearer token, compared in constant
/// time, and a wrong one is refused as the admin API refuses one: logged
/// with its peer, and limited per address (`http/tokens.rs`).
pub async fn metrics(State(state): State<AppState>, request: Request) -> Response {
    let cfg = &state.config().metrics;
    if !cfg.served(state.config().http.listen.ip().is_loopback()) {
        return StatusCode::NOT_FOUND.into_response();
    }
    if !cfg.token.is_empty() {
        let presented = tokens::bearer(request.headers());
        if !presented.is_some_and(|p| tokens::is(p, cfg.token.expose())) {
            let peer = super::flood::peer(&request);
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn webhook_paths_name_their_provider() {
        assert_eq!(webhook_of("/webhooks/kannel"), Some(("kannel", false)));
        assert_eq!(
            webhook_of("/webhooks/twilio/status"),
            Some(("twilio", true))
        );
        assert_eq!(webhook_of("/webhooks/nobody"), None);
        assert_eq!(webhook_of("/hall"), None);
    }
}
