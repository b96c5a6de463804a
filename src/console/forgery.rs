//! Refusing forged operator actions: a console request that changes something must come from the console's own origin, and the API's must say it is JSON.
//!
//! `SameSite=Strict` keeps other sites' forms from carrying the session
//! cookie, but a site is a registrable domain, ports and scheme aside: a
//! page on another port of the console's host, or on a sibling subdomain,
//! is the same site, and its forms and `fetch` calls carry the cookie. So
//! every request but `GET` and `HEAD` is checked for where it comes from:
//! its `Origin` (or, when a browser sends none, its `Referer`) must be the
//! console's own origin, the request's `Host` (under the scheme the browser
//! names) or `http.public_url`'s when that is set (a proxy in front may
//! pass on another `Host`). A request with neither header, or `Origin:
//! null`, is refused: browsers send one on every such request from a page
//! (the console's pages send their referrer to their own origin only).
//!
//! A request carrying an `Authorization` header is a script's: no browser
//! attaches one to another site's request by itself (a cross-origin
//! `fetch` with it needs a CORS preflight, which the console never grants),
//! so it needs no origin. Every `POST` under `/console/api/` must be
//! `application/json` whoever sends it: `text/plain` and form bodies are
//! what a page can send elsewhere without a preflight.

use axum::extract::{Request, State};
use axum::http::{HeaderMap, Method, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use url::{Origin, Url};

use crate::app::AppState;

/// Why a request that would change something is refused.
#[derive(Debug, PartialEq, Eq)]
pub enum Forged {
    /// Neither `Origin` nor `Referer`, or `Origin: null`.
    NoOrigin,
    /// From another origin than the console's.
    OtherOrigin,
    /// A JSON API request whose body says it is something else.
    NotJson,
}

impl IntoResponse for Forged {
    fn into_response(self) -> Response {
        let (status, error) = match self {
            Forged::NoOrigin => (
                StatusCode::FORBIDDEN,
                "a console action must come from a console page (no Origin or Referer)",
            ),
            Forged::OtherOrigin => (
                StatusCode::FORBIDDEN,
                "a console action must come from the console's own origin",
            ),
            Forged::NotJson => (
                StatusCode::UNSUPPORTED_MEDIA_TYPE,
                "the console's API takes application/json only",
            ),
        };
        (status, axum::Json(serde_json::json!({ "error": error }))).into_response()
    }
}

/// Checks a request against forgery: `public_url` is `http.public_url`
/// (empty when unset).
pub fn check(
    method: &Method,
    path: &str,
    headers: &HeaderMap,
    public_url: &str,
) -> Result<(), Forged> {
    if matches!(*method, Method::GET | Method::HEAD) {
        return Ok(());
    }
    if path.starts_with("/console/api/") && !is_json(headers) {
        return Err(Forged::NotJson);
    }
    if headers.contains_key(header::AUTHORIZATION) {
        return Ok(());
    }
    let from = origin_of(headers).ok_or(Forged::NoOrigin)?;
    if own_origins(headers, &from, public_url).contains(&from) {
        Ok(())
    } else {
        Err(Forged::OtherOrigin)
    }
}

/// The middleware: refuses a forged request before anything reads it, so
/// it changes nothing and writes no audit row.
pub async fn refuse(State(state): State<AppState>, request: Request, next: Next) -> Response {
    let public_url = &state.config().http.public_url;
    match check(
        request.method(),
        request.uri().path(),
        request.headers(),
        public_url,
    ) {
        Ok(()) => next.run(request).await,
        Err(forged) => {
            let peer = crate::web::client::peer(&request)
                .map_or_else(|| "unknown".to_string(), |ip| ip.to_string());
            // At debug only: anyone can send these, as fast as he likes.
            tracing::debug!(%peer, path = request.uri().path(), why = ?forged,
                "console request refused as forged");
            forged.into_response()
        }
    }
}

fn is_json(headers: &HeaderMap) -> bool {
    headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .is_some_and(|essence| essence.trim().eq_ignore_ascii_case("application/json"))
}

/// Where the request says it comes from: its `Origin`, else its `Referer`'s.
fn origin_of(headers: &HeaderMap) -> Option<Origin> {
    let named = |name| headers.get(name).and_then(|v| v.to_str().ok());
    let url = match named(header::ORIGIN) {
        Some(origin) => Url::parse(origin).ok()?,
        None => Url::parse(named(header::REFERER)?).ok()?,
    };
    let origin = url.origin();
    origin.is_tuple().then_some(origin)
}

/// The console's own origins for this request: its `Host` under the scheme
/// the browser names (`http` or `https`: a proxy in front may terminate
/// TLS), and `public_url`'s.
fn own_origins(headers: &HeaderMap, from: &Origin, public_url: &str) -> Vec<Origin> {
    let mut own = Vec::new();
    if let Origin::Tuple(scheme, ..) = from
        && matches!(scheme.as_str(), "http" | "https")
        && let Some(host) = headers.get(header::HOST).and_then(|v| v.to_str().ok())
        && let Ok(url) = Url::parse(&format!("{scheme}://{host}"))
        && url.path() == "/"
    {
        own.push(url.origin());
    }
    if let Ok(url) = Url::parse(public_url) {
        own.push(url.origin());
    }
    own
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(pairs: &[(&str, &str)]) -> HeaderMap {
        let mut map = HeaderMap::new();
        for (k, v) in pairs {
            map.insert(
                header::HeaderName::from_bytes(k.as_bytes()).unwrap(),
                v.parse().unwrap(),
            );
        }
        map
    }

    fn post(path: &str, pairs: &[(&str, &str)], public_url: &str) -> Result<(), Forged> {
        check(&Method::POST, path, &headers(pairs), public_url)
    }

    const DROP: &str = "/console/parked/1/drop";

    #[test]
    fn an_action_from_the_consoles_own_origin_passes() {
        let host = ("host", "ops.example.org:8080");
        assert_eq!(
            post(DROP, &[host, ("origin", "http://ops.example.org:8080")], ""),
            Ok(())
        );
        assert_eq!(
            post(
                DROP,
                &[host, ("origin", "HTTPS://OPS.example.org:8080")],
                ""
            ),
            Ok(())
        );
        let referer = ("referer", "http://ops.example.org:8080/console/parked");
        assert_eq!(post(DROP, &[host, referer], ""), Ok(()));
        let default_port = [
            ("host", "ops.example.org:443"),
            ("origin", "https://ops.example.org"),
        ];
        assert_eq!(post(DROP, &default_port, ""), Ok(()));
        let proxied = [
            ("host", "127.0.0.1:8080"),
            ("origin", "https://ops.example.org"),
        ];
        assert_eq!(post(DROP, &proxied, "https://ops.example.org/"), Ok(()));
        assert_eq!(post(DROP, &proxied, ""), Err(Forged::OtherOrigin));
    }

    #[test]
    fn another_port_subdomain_or_no_origin_is_refused() {
        let host = ("host", "ops.example.org:8080");
        for origin in [
            "http://ops.example.org:9999",
            "http://hall.example.org:8080",
            "http://example.org:8080",
            "http://ops.example.org.evil.test:8080",
        ] {
            assert_eq!(
                post(DROP, &[host, ("origin", origin)], ""),
                Err(Forged::OtherOrigin),
                "{origin}"
            );
        }
        assert_eq!(post(DROP, &[host], ""), Err(Forged::NoOrigin));
        assert_eq!(
            post(DROP, &[host, ("origin", "null")], ""),
            Err(Forged::NoOrigin)
        );
        // Origin wins over a Referer that would pass.
        let both = [
            host,
            ("origin", "http://ops.example.org:9999"),
            ("referer", "http://ops.example.org:8080/console"),
        ];
        assert_eq!(post(DROP, &both, ""), Err(Forged::OtherOrigin));
        assert_eq!(post("/console/logout", &[host], ""), Err(Forged::NoOrigin));
        assert_eq!(
            check(&Method::GET, "/console", &headers(&[host]), ""),
            Ok(())
        );
    }

    #[test]
    fn the_api_takes_json_only_and_a_script_needs_no_origin() {
        let api = "/console/api/parked/1/drop";
        let host = ("host", "ops.example.org:8080");
        let own = ("origin", "http://ops.example.org:8080");
        for kind in [
            "text/plain",
            "application/x-www-form-urlencoded",
            "multipart/form-data; boundary=x",
        ] {
            assert_eq!(
                post(api, &[host, own, ("content-type", kind)], ""),
                Err(Forged::NotJson),
                "{kind}"
            );
        }
        assert_eq!(
            post(api, &[host, own], ""),
            Err(Forged::NotJson),
            "no type said"
        );
        assert_eq!(
            post(
                api,
                &[
                    host,
                    own,
                    ("content-type", "application/json; charset=utf-8")
                ],
                ""
            ),
            Ok(())
        );
        let script = ("authorization", "Bearer something");
        assert_eq!(
            post(api, &[script, ("content-type", "application/json")], ""),
            Ok(())
        );
        assert_eq!(
            post(api, &[script, ("content-type", "text/plain")], ""),
            Err(Forged::NotJson)
        );
        assert_eq!(post(DROP, &[script], ""), Ok(()));
    }
}
