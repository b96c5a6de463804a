//! What a webhook request costs and why it was refused, counted once its answer is known.
//!
//! A text that reaches the store is counted where its fate is known
//! (`AppState::receive`: applied, a repeat, a part kept, a phone over its
//! limit); what never gets that far (a bad signature, a malformed request,
//! an address over its limit, a writer that cannot take it now) is counted
//! here from the answer's status.

use std::time::Instant;

use axum::extract::Request;
use axum::http::StatusCode;
use axum::response::Response;

use crate::app::AppState;
use crate::metrics::InboundOutcome;

/// The provider a webhook path belongs to (`/webhooks/<name>[/status]`),
/// as the registry names it, and whether it is a delivery report.
fn webhook_of(path: &str) -> Option<(&'static str, bool)> {
    let rest = path.strip_prefix("/webhooks/")?;
    let (name, tail) = rest.split_once('/').unwrap_or((rest, ""));
    let provider = super::PROVIDERS
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
