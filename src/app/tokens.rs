//! Secret tokens (the admin's, the scraper's) as requests present them: the right one always gets in; only wrong ones count against their address's limit, and each within it is logged.
//!
//! The limit is checked after the token, never before: a stranger behind
//! the operator's address (a shared proxy, a NAT) who guesses wrong must not
//! lock the operator out. So the limit does not bound how fast a token can
//! be guessed (a right guess gets in whatever the limit says); the token's
//! length does (`config/safety.rs` refuses a short one off loopback). What
//! the limit bounds is the work and the log lines wrong guesses cost: past
//! it they are answered 429 and logged at `debug` only.

use std::net::IpAddr;

use axum::http::{HeaderMap, header};
use axum::response::Response;
use subtle::ConstantTimeEq;

use super::AppState;

/// The token of an `Authorization: Bearer` header, if there is one.
pub fn bearer(headers: &HeaderMap) -> Option<&str> {
    headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "))
}

/// Whether `presented` is `token`, compared in constant time.
pub fn is(presented: &str, token: &str) -> bool {
    bool::from(presented.as_bytes().ct_eq(token.as_bytes()))
}

/// Counts a refused credential against `peer`'s limit: a 429 to answer
/// once the address is over it, none while it is not (the caller answers
/// its own 401).
pub fn count_wrong(state: &AppState, peer: Option<IpAddr>) -> Option<Response> {
    match peer {
        Some(ip) if !state.flood().wrong_token(ip) => {
            tracing::debug!(%ip, "wrong-token limit reached");
            Some(crate::web::client::too_many_requests())
        }
        _ => None,
    }
}

/// [`count_wrong`], and a warning naming `what` was refused, with the peer,
/// the path and whether a token was given at all (never the token itself).
pub fn refuse_wrong(
    state: &AppState,
    peer: Option<IpAddr>,
    what: &str,
    path: &str,
    presented: bool,
) -> Option<Response> {
    if let Some(limited) = count_wrong(state, peer) {
        return Some(limited);
    }
    let peer = peer.map_or_else(|| "unknown".to_string(), |ip| ip.to_string());
    let token = if presented { "wrong" } else { "missing" };
    tracing::warn!(%peer, path, token, "{what} refused");
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bearer_token_is_read_and_compared_whole() {
        let mut headers = HeaderMap::new();
        assert_eq!(bearer(&headers), None);
        headers.insert(header::AUTHORIZATION, "Basic abc".parse().unwrap());
        assert_eq!(bearer(&headers), None);
        headers.insert(header::AUTHORIZATION, "Bearer abc".parse().unwrap());
        assert_eq!(bearer(&headers), Some("abc"));
        assert!(is("abc", "abc"));
        assert!(!is("ab", "abc"));
        assert!(!is("abcd", "abc"));
    }
}
