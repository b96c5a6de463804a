//! What every provider's webhooks share: the routes assembled from the registry, secret checks, form parameters, the canonical numbers of a text, delivery reports.
//!
//! Each provider's webhook (`providers/<name>/inbound.rs`) normalises its
//! payload to an [`InboundMessage`]. A webhook records the message durably (through [`AppState::receive`]) and
//! only then answers. Every outgoing text is an outbox row; only Kannel's
//! answer may carry one, the lone reply to the sender, recorded as sent in
//! the same transaction (`kannel::answer_rule`).
//!
//! Each provider's reading of a request is a pure public function
//! (`parse_inbound`, `parse_status`) that its handler calls, so the fuzz
//! targets in `fuzz/` drive the parsers without a server or a store.
//!
//! [`InboundMessage`]: crate::inbound::InboundMessage

use axum::Router;
use axum::extract::{Request, State};
use axum::middleware::{Next, from_fn_with_state};
use axum::response::Response;
use subtle::ConstantTimeEq;

use crate::app::{AppError, AppState, flood};
use crate::config::Config;
use crate::providers::observed::Observed;
use crate::store::TextStatus;

/// The enabled providers' webhooks, as each provider's folder declares
/// them (a disabled one is not served: 404), behind [`gate`].
pub fn routes(state: &AppState, cfg: &Config) -> Router<AppState> {
    let mut router = Router::new();
    for provider in super::PROVIDERS {
        if let Some(routes) = (provider.webhooks)(cfg) {
            router = router.merge(routes);
        }
    }
    router.route_layer(from_fn_with_state(state.clone(), gate))
}

/// Every webhook request, in one layer: timed and its refusal counted
/// (`observe`), and refused with 429 when its source address is over its
/// limit (`flood`), before the provider's handler reads it. One layer, not
/// one each: a layer costs every text a boxed future and a clone of the
/// route behind it (BENCHMARKS.md, issue 30).
async fn gate(State(state): State<AppState>, request: Request, next: Next) -> Response {
    let observed = Observed::start(&request);
    let response = match flood::refusal(&state, &request) {
        Some(refusal) => refusal,
        None => next.run(request).await,
    };
    observed.answered(&state, &response);
    response
}

/// Compares a presented secret with the configured one without leaking timing.
/// An empty configured secret means no check.
pub(crate) fn check_secret(configured: &str, presented: Option<&str>) -> Result<(), AppError> {
    if configured.is_empty() {
        return Ok(());
    }
    match presented {
        Some(p) if bool::from(p.as_bytes().ct_eq(configured.as_bytes())) => Ok(()),
        _ => Err(AppError::Unauthorized),
    }
}

/// The sender's number and ours as a provider gave them, each in its
/// canonical form ([`crate::phone`]): a text to a number this gateway does
/// not serve, or from one of its own, is refused, so that no reply ever goes
/// out from a number the request chose; so is one from a name, which no
/// reply reaches and no player plays from.
pub(crate) fn addresses(cfg: &Config, from: &str, to: &str) -> Result<(String, String), AppError> {
    let numbers = &cfg.numbers;
    let from = numbers
        .canonical(from)
        .map_err(|e| AppError::bad_request(format!("the sender's number {e}")))?;
    let to = numbers
        .canonical(to)
        .map_err(|e| AppError::bad_request(format!("the number texted {e}")))?;
    if !numbers.serves(&to) {
        return Err(AppError::bad_request(
            "the number texted is none of this gateway's numbers",
        ));
    }
    if from.bytes().any(|b| b.is_ascii_alphabetic()) {
        return Err(AppError::bad_request(
            "the sender's number is a name (an alphanumeric sender), which no reply can reach",
        ));
    }
    if crate::phone::is_virtual(&from) {
        return Err(AppError::bad_request(
            "the sender's number is a training hall phone, which only the hall may use",
        ));
    }
    if numbers.serves(&from) {
        return Err(AppError::bad_request(
            "the sender is one of this gateway's own numbers",
        ));
    }
    Ok((from, to))
}

/// A provider's delivery report, read: the text it names and what became of it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StatusReport {
    /// The provider's reference for our text (what it answered when we sent it).
    pub reference: String,
    pub status: TextStatus,
    pub error: Option<String>,
}

/// Decoded `application/x-www-form-urlencoded` pairs with raw byte values, so
/// that a value in another charset (Kannel's UTF-16BE) survives decoding.
#[derive(Debug, Default)]
pub struct RawParams(Vec<(String, Vec<u8>)>);

impl RawParams {
    pub fn parse(input: &[u8]) -> RawParams {
        let pairs = input
            .split(|&b| b == b'&')
            .filter(|p| !p.is_empty())
            .map(|pair| {
                let mut kv = pair.splitn(2, |&b| b == b'=');
                let key = decode(kv.next().unwrap_or_default());
                let value = decode(kv.next().unwrap_or_default());
                (String::from_utf8_lossy(&key).into_owned(), value)
            })
            .collect();
        RawParams(pairs)
    }

    /// Adds another source's pairs (a POST body after the query).
    pub fn extend(&mut self, other: RawParams) {
        self.0.extend(other.0);
    }

    pub fn bytes(&self, key: &str) -> Option<&[u8]> {
        self.0
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_slice())
    }

    /// A value as UTF-8 text (lossy: these are ids and numbers).
    pub fn text(&self, key: &str) -> Option<String> {
        self.bytes(key)
            .map(|v| String::from_utf8_lossy(v).into_owned())
    }

    /// A value that must be present and not blank.
    pub fn required(&self, key: &str) -> Result<String, AppError> {
        self.text(key)
            .map(|v| v.trim().to_string())
            .filter(|v| !v.is_empty())
            .ok_or_else(|| AppError::bad_request(format!("missing parameter {key}")))
    }

    /// Every pair as text, for signature checks.
    pub fn text_pairs(&self) -> Vec<(String, String)> {
        self.0
            .iter()
            .map(|(k, v)| (k.clone(), String::from_utf8_lossy(v).into_owned()))
            .collect()
    }
}

fn decode(raw: &[u8]) -> Vec<u8> {
    let spaced: Vec<u8> = raw
        .iter()
        .map(|&b| if b == b'+' { b' ' } else { b })
        .collect();
    percent_encoding::percent_decode(&spaced).collect()
}

/// Does the request's content type say form-encoded?
pub(crate) fn is_form(headers: &axum::http::HeaderMap) -> bool {
    headers
        .get(axum::http::header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("application/x-www-form-urlencoded"))
}

pub(crate) fn is_json(headers: &axum::http::HeaderMap) -> bool {
    headers
        .get(axum::http::header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("application/json"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn raw_params_keep_bytes_and_decode_plus_as_space() {
        let p = RawParams::parse(b"text=%04%1F%04%40+x&from=%2B7900&empty=&flag");
        assert_eq!(
            p.bytes("text"),
            Some(&[0x04, 0x1f, 0x04, 0x40, b' ', b'x'][..])
        );
        assert_eq!(p.text("from").as_deref(), Some("+7900"));
        assert_eq!(p.text("empty").as_deref(), Some(""));
        assert_eq!(p.text("flag").as_deref(), Some(""));
        assert!(p.required("empty").is_err());
        assert!(p.required("missing").is_err());
    }

    #[test]
    fn secrets_compare_exactly() {
        assert!(check_secret("", None).is_ok());
        assert!(check_secret("s3", Some("s3")).is_ok());
        assert!(check_secret("s3", Some("s4")).is_err());
        assert!(check_secret("s3", None).is_err());
    }
}
