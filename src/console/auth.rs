//! Who may use the console: the admin token, as a bearer header (scripts) or traded at the login form for a signed session cookie (people).
//!
//! The cookie holds the operator's name and an expiry, signed with an HMAC
//! keyed by the admin token: any instance with the same token checks it, no
//! session is stored, and changing the token ends every session. It is
//! `HttpOnly` (no script reads it), `Secure`, `SameSite=Strict` (no other
//! site's form carries it) and scoped to `/console`. The token itself never
//! travels in a URL and is compared in constant time.

use std::net::IpAddr;

use axum::extract::{Request, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use chrono::{DateTime, Utc};
use hmac::{Hmac, Mac};
use sha2::Sha256;
use subtle::ConstantTimeEq;

use crate::http::{AppState, flood};

/// The session cookie's name.
pub const COOKIE: &str = "smsarena_console";

/// How long a login lasts.
const SESSION_HOURS: i64 = 12;

/// Who did something in the console, for the audit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Operator {
    /// The name given at login, or `bearer` for a script.
    pub name: String,
    /// The address the request came from, where known.
    pub address: Option<IpAddr>,
}

/// Why a request was not let in.
#[derive(Debug, PartialEq, Eq)]
pub enum Refusal {
    /// The console is off: no admin token is configured.
    Off,
    /// No credentials, or wrong ones.
    Unauthorized,
}

/// A name as the login form takes it: 1 to 32 letters, digits, `.`, `_`, `-`.
pub fn valid_name(name: &str) -> bool {
    (1..=32).contains(&name.len())
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"._-".contains(&b))
}

fn signature(token: &str, name: &str, expires: i64) -> String {
    let mut mac = Hmac::<Sha256>::new_from_slice(token.as_bytes()).expect("HMAC takes any key");
    mac.update(format!("console-session|{name}|{expires}").as_bytes());
    hex::encode(mac.finalize().into_bytes())
}

/// The cookie's value for `name`, valid until `now` plus a session.
pub fn session_value(token: &str, name: &str, now: DateTime<Utc>) -> String {
    let expires = (now + chrono::Duration::hours(SESSION_HOURS)).timestamp();
    format!("{name}.{expires}.{}", signature(token, name, expires))
}

/// The name a session cookie's value proves, if it is signed with `token`
/// and not expired.
pub fn check_session(token: &str, value: &str, now: DateTime<Utc>) -> Option<String> {
    let mut parts = value.rsplitn(3, '.');
    let (mac, expires, name) = (parts.next()?, parts.next()?, parts.next()?);
    let expires: i64 = expires.parse().ok()?;
    if !valid_name(name) || expires < now.timestamp() {
        return None;
    }
    let expected = signature(token, name, expires);
    bool::from(expected.as_bytes().ct_eq(mac.as_bytes())).then(|| name.to_string())
}

/// The `Set-Cookie` that logs `name` in.
pub fn login_cookie(token: &str, name: &str, now: DateTime<Utc>) -> HeaderValue {
    let value = session_value(token, name, now);
    HeaderValue::from_str(&format!(
        "{COOKIE}={value}; Path=/console; HttpOnly; Secure; SameSite=Strict; Max-Age={}",
        SESSION_HOURS * 3600
    ))
    .expect("a name of safe characters makes a valid header")
}

/// The `Set-Cookie` that logs out.
pub fn logout_cookie() -> HeaderValue {
    HeaderValue::from_static(
        "smsarena_console=; Path=/console; HttpOnly; Secure; SameSite=Strict; Max-Age=0",
    )
}

fn cookie<'a>(headers: &'a HeaderMap, name: &str) -> Option<&'a str> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(k, _)| *k == name)
        .map(|(_, v)| v)
}

/// The operator a request's credentials prove: a bearer token equal to
/// the admin token, or a valid session cookie.
pub fn operator(
    token: &str,
    headers: &HeaderMap,
    address: Option<IpAddr>,
    now: DateTime<Utc>,
) -> Result<Operator, Refusal> {
    if token.is_empty() {
        return Err(Refusal::Off);
    }
    let bearer = headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "));
    if let Some(presented) = bearer {
        return if bool::from(presented.as_bytes().ct_eq(token.as_bytes())) {
            Ok(Operator {
                name: "bearer".into(),
                address,
            })
        } else {
            Err(Refusal::Unauthorized)
        };
    }
    cookie(headers, COOKIE)
        .and_then(|value| check_session(token, value, now))
        .map(|name| Operator { name, address })
        .ok_or(Refusal::Unauthorized)
}

/// Lets a request in with its [`Operator`] in its extensions, or answers
/// 404 (the console is off), 429 (an address over the admin limit after
/// wrong credentials) or 401: the login form for a page, JSON for the API.
pub async fn require(State(state): State<AppState>, mut request: Request, next: Next) -> Response {
    let token = state.config().admin.token.expose();
    let address = flood::peer(&request);
    let now = state.clock().now();
    match operator(token, request.headers(), address, now) {
        Ok(operator) => {
            request.extensions_mut().insert(operator);
            next.run(request).await
        }
        Err(Refusal::Off) => StatusCode::NOT_FOUND.into_response(),
        Err(Refusal::Unauthorized) => {
            if let Some(ip) = address
                && !state.flood().admin(ip)
            {
                return flood::too_many_requests();
            }
            let path = request.uri().path();
            if path.starts_with("/console/api/") {
                (
                    StatusCode::UNAUTHORIZED,
                    axum::Json(serde_json::json!({ "error": "unauthorized" })),
                )
                    .into_response()
            } else {
                let mut page = super::pages::login(None);
                *page.status_mut() = StatusCode::UNAUTHORIZED;
                page
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TOKEN: &str = "an-admin-token-long-enough";

    fn now() -> DateTime<Utc> {
        DateTime::from_timestamp(1_800_000_000, 0).unwrap()
    }

    #[test]
    fn a_session_proves_its_name_until_it_expires_and_only_under_its_token() {
        let value = session_value(TOKEN, "ops-anna", now());
        assert_eq!(
            check_session(TOKEN, &value, now()).as_deref(),
            Some("ops-anna")
        );
        let later = now() + chrono::Duration::hours(SESSION_HOURS + 1);
        assert_eq!(check_session(TOKEN, &value, later), None);
        assert_eq!(check_session("another-token-entirely", &value, now()), None);
        let forged = value.replacen("ops-anna", "ops-boss", 1);
        assert_eq!(check_session(TOKEN, &forged, now()), None);
        assert_eq!(check_session(TOKEN, "garbage", now()), None);
    }

    #[test]
    fn bearer_and_cookie_are_both_accepted_and_wrong_ones_refused() {
        let mut headers = HeaderMap::new();
        assert_eq!(
            operator(TOKEN, &headers, None, now()),
            Err(Refusal::Unauthorized)
        );
        assert_eq!(operator("", &headers, None, now()), Err(Refusal::Off));
        headers.insert(
            header::AUTHORIZATION,
            format!("Bearer {TOKEN}").parse().unwrap(),
        );
        assert_eq!(
            operator(TOKEN, &headers, None, now()).unwrap().name,
            "bearer"
        );
        headers.insert(header::AUTHORIZATION, "Bearer nope".parse().unwrap());
        assert_eq!(
            operator(TOKEN, &headers, None, now()),
            Err(Refusal::Unauthorized)
        );
        let mut headers = HeaderMap::new();
        let cookie = format!("other=1; {COOKIE}={}", session_value(TOKEN, "anna", now()));
        headers.insert(header::COOKIE, cookie.parse().unwrap());
        assert_eq!(operator(TOKEN, &headers, None, now()).unwrap().name, "anna");
    }

    #[test]
    fn names_are_plain() {
        assert!(valid_name("ops.anna-2"));
        assert!(!valid_name(""));
        assert!(!valid_name("a;b"));
        assert!(!valid_name(&"x".repeat(33)));
    }
}
