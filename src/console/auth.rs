//! Who may use the console: the admin token, as a bearer header (scripts) or traded at the login form for a session (people), which logging out ends.
//!
//! The session cookie holds a random id and an HMAC of it keyed by the admin
//! token; the database holds the id's SHA-256, the operator's name and when
//! the session ends (`console_sessions`, both backends). A cookie opens the
//! console only while its row is there: logging out deletes the row, so a
//! copy of the cookie is dead at once on every instance, and changing the
//! token ends every session (no old HMAC checks). The cookie is `HttpOnly`
//! (no script reads it), `Secure`, `SameSite=Strict` and scoped to
//! `/console`; the token itself never travels in a URL and is compared in
//! constant time. Requests that change something are also checked for their
//! origin (`forgery.rs`), since `SameSite` does not tell this site's other
//! ports from the console.

use std::net::IpAddr;

use axum::extract::{Request, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use hmac::{Hmac, Mac};
use rand::Rng;
use sha2::{Digest, Sha256};

use crate::app::{AppError, AppState, tokens};

/// The session cookie's name.
pub const COOKIE: &str = "smsarena_console";

/// How long a login lasts.
pub const SESSION_HOURS: i64 = 12;

/// Who did something in the console, for the audit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Operator {
    /// The name given at login, or `bearer` for a script.
    pub name: String,
    /// The address the request came from, where known.
    pub address: Option<IpAddr>,
    /// The hash of the session's id, for a login (none for a bearer).
    pub session: Option<String>,
}

/// Why a request was not let in.
#[derive(Debug, PartialEq, Eq)]
pub enum Refusal {
    /// The console is off: no admin token is configured.
    Off,
    /// No credentials, or wrong ones.
    Unauthorized,
}

/// What a request presents: a bearer token, or a session cookie whose HMAC
/// holds (its id's hash, for the store to look up).
#[derive(Debug, PartialEq, Eq)]
pub enum Credential {
    Bearer,
    Session(String),
}

/// A name as the login form takes it: 1 to 32 letters, digits, `.`, `_`, `-`.
pub fn valid_name(name: &str) -> bool {
    (1..=32).contains(&name.len())
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"._-".contains(&b))
}

fn signature(token: &str, id: &str) -> String {
    let mut mac = Hmac::<Sha256>::new_from_slice(token.as_bytes()).expect("HMAC takes any key");
    mac.update(format!("console-session|{id}").as_bytes());
    hex::encode(mac.finalize().into_bytes())
}

/// What the database keeps of a session's id.
pub fn id_hash(id: &str) -> String {
    hex::encode(Sha256::digest(id.as_bytes()))
}

/// A new session: the cookie's value (its id and the id's HMAC under
/// `token`) and the id's hash, which the store keeps.
pub fn new_session(token: &str) -> (String, String) {
    let id = hex::encode(rand::thread_rng().r#gen::<[u8; 32]>());
    (format!("{id}.{}", signature(token, &id)), id_hash(&id))
}

/// The hash of the session id a cookie's value holds, if it is signed with
/// `token`; whether the session is still open is the store's to say.
pub fn check_session(token: &str, value: &str) -> Option<String> {
    let (id, mac) = value.split_once('.')?;
    if id.len() != 64 || !id.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    tokens::is(mac, &signature(token, id)).then(|| id_hash(id))
}

/// The `Set-Cookie` that carries a session's cookie value.
pub fn login_cookie(value: &str) -> HeaderValue {
    HeaderValue::from_str(&format!(
        "{COOKIE}={value}; Path=/console; HttpOnly; Secure; SameSite=Strict; Max-Age={}",
        SESSION_HOURS * 3600
    ))
    .expect("hex makes a valid header")
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

/// The credential a request presents: a bearer token equal to the admin
/// token, or a session cookie signed with it.
pub fn credential(token: &str, headers: &HeaderMap) -> Result<Credential, Refusal> {
    if token.is_empty() {
        return Err(Refusal::Off);
    }
    if let Some(presented) = tokens::bearer(headers) {
        return if tokens::is(presented, token) {
            Ok(Credential::Bearer)
        } else {
            Err(Refusal::Unauthorized)
        };
    }
    cookie(headers, COOKIE)
        .and_then(|value| check_session(token, value))
        .map(Credential::Session)
        .ok_or(Refusal::Unauthorized)
}

/// The operator a request's credential proves: a bearer, or a session the
/// store holds open.
async fn operator(
    state: &AppState,
    headers: &HeaderMap,
    address: Option<IpAddr>,
) -> Result<Result<Operator, Refusal>, AppError> {
    let token = state.config().admin.token.expose();
    let hash = match credential(token, headers) {
        Ok(Credential::Bearer) => {
            return Ok(Ok(Operator {
                name: "bearer".into(),
                address,
                session: None,
            }));
        }
        Ok(Credential::Session(hash)) => hash,
        Err(refusal) => return Ok(Err(refusal)),
    };
    let now = state.clock().now();
    let key = hash.clone();
    let name = state
        .store()
        .read(move |tx| tx.console().session(&key, now))
        .await?;
    Ok(name
        .map(|name| Operator {
            name,
            address,
            session: Some(hash),
        })
        .ok_or(Refusal::Unauthorized))
}

/// Lets a request in with its [`Operator`] in its extensions, or answers
/// 404 (the console is off), 401 (the login form for a page, JSON for the
/// API), or 429 once an address's wrong credentials are over their limit:
/// the right credential is never held back by them.
pub async fn require(State(state): State<AppState>, mut request: Request, next: Next) -> Response {
    let address = crate::web::client::peer(&request);
    let found = match operator(&state, request.headers(), address).await {
        Ok(found) => found,
        Err(e) => return e.into_response(),
    };
    match found {
        Ok(operator) => {
            request.extensions_mut().insert(operator);
            next.run(request).await
        }
        Err(Refusal::Off) => StatusCode::NOT_FOUND.into_response(),
        Err(Refusal::Unauthorized) => {
            if let Some(limited) = tokens::count_wrong(&state, address) {
                return limited;
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

    #[test]
    fn a_session_cookie_holds_only_under_its_token_and_unaltered() {
        let (value, hash) = new_session(TOKEN);
        assert_eq!(check_session(TOKEN, &value).as_deref(), Some(&*hash));
        assert_eq!(check_session("another-token-entirely", &value), None);
        let (id, mac) = value.split_once('.').unwrap();
        let other = if id.starts_with('0') { "1" } else { "0" };
        let forged = format!("{other}{}.{mac}", &id[1..]);
        assert_eq!(check_session(TOKEN, &forged), None);
        assert_eq!(check_session(TOKEN, "garbage"), None);
        assert_eq!(check_session(TOKEN, &format!("{id}.")), None);
        assert!(!value.contains(&hash), "the cookie is not what is stored");
        assert_ne!(new_session(TOKEN).0, value, "each login its own id");
    }

    #[test]
    fn bearer_and_cookie_are_both_read_and_wrong_ones_refused() {
        let mut headers = HeaderMap::new();
        assert_eq!(credential(TOKEN, &headers), Err(Refusal::Unauthorized));
        assert_eq!(credential("", &headers), Err(Refusal::Off));
        headers.insert(
            header::AUTHORIZATION,
            format!("Bearer {TOKEN}").parse().unwrap(),
        );
        assert_eq!(credential(TOKEN, &headers), Ok(Credential::Bearer));
        headers.insert(header::AUTHORIZATION, "Bearer nope".parse().unwrap());
        assert_eq!(credential(TOKEN, &headers), Err(Refusal::Unauthorized));
        let mut headers = HeaderMap::new();
        let (value, hash) = new_session(TOKEN);
        let cookie = format!("other=1; {COOKIE}={value}");
        headers.insert(header::COOKIE, cookie.parse().unwrap());
        assert_eq!(credential(TOKEN, &headers), Ok(Credential::Session(hash)));
    }

    #[test]
    fn names_are_plain() {
        assert!(valid_name("ops.anna-2"));
        assert!(!valid_name(""));
        assert!(!valid_name("a;b"));
        assert!(!valid_name(&"x".repeat(33)));
    }
}
