//! The senders' HTTP client: hyper's pooled client over rustls, and nothing more.
//!
//! A provider's send is one request to an address the configuration names.
//! A general client's layers (a redirect policy, proxy matching, the URL
//! parsed again for each of them) cost more instructions per text than the
//! text's whole game logic (`BENCHMARKS.md`, issue 30), and none is wanted:
//! a send API that redirects is misconfigured (re-posting a text elsewhere is
//! not ours to decide; the 3xx is a final error with its status), and no
//! proxy is configured. So the request goes straight to hyper's pool.
//!
//! Nor is a timeout of its own wanted: the dispatcher bounds every send,
//! whatever the provider, by `sms.send_timeout_ms` (`sms/dispatcher`), and
//! a second timer on the same request cost each text a timer armed and
//! cancelled for nothing.

use std::error::Error;

use http_body_util::{BodyExt, Full};
use hyper::body::Bytes;
use hyper::header::{AUTHORIZATION, CONTENT_TYPE, HeaderValue};
use hyper::{HeaderMap, Method, Request, StatusCode, Uri};
use hyper_rustls::HttpsConnector;
use hyper_util::client::legacy::Client;
use hyper_util::client::legacy::connect::HttpConnector;
use hyper_util::rt::TokioExecutor;

use super::outbound::SendError;

/// What a send carries.
pub type Body = Full<Bytes>;

/// The client a provider's sender sends through: one pool of connections.
pub struct SendClient {
    client: Client<HttpsConnector<HttpConnector>, Body>,
}

/// A provider's whole answer: its status, headers and body.
#[derive(Debug)]
pub struct Answer {
    pub status: StatusCode,
    pub headers: HeaderMap,
    pub body: Bytes,
}

impl Answer {
    /// The body as text (an error page may not be UTF-8).
    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.body).into_owned()
    }
}

impl SendClient {
    /// A client that keeps up to `idle_per_host` connections open between sends.
    pub fn new(idle_per_host: usize) -> SendClient {
        let https = hyper_rustls::HttpsConnectorBuilder::new()
            .with_webpki_roots()
            .https_or_http()
            .enable_http1()
            .build();
        let client = Client::builder(TokioExecutor::new())
            .pool_max_idle_per_host(idle_per_host)
            .build(https);
        SendClient { client }
    }

    /// Sends `request` and reads the whole answer. A request that gets no
    /// answer (refused, reset) is worth retrying; its reason leaves the URL
    /// out (a Kannel `sendsms` URL carries the password). Its time is the
    /// caller's to bound.
    pub async fn send(&self, request: Request<Body>) -> Result<Answer, SendError> {
        let exchange = async {
            let response = self.client.request(request).await?;
            let (parts, body) = response.into_parts();
            let body = body.collect().await?.to_bytes();
            Ok::<_, Box<dyn Error + Send + Sync>>(Answer {
                status: parts.status,
                headers: parts.headers,
                body,
            })
        };
        exchange.await.map_err(|e| transport_error(&*e))
    }
}

/// A request of `method` to `uri`, its body of `content_type` (none for an empty body).
pub fn request(method: Method, uri: Uri, content_type: &'static str, body: Bytes) -> Request<Body> {
    let mut request = Request::new(Full::new(body));
    *request.method_mut() = method;
    *request.uri_mut() = uri;
    if !content_type.is_empty() {
        request
            .headers_mut()
            .insert(CONTENT_TYPE, HeaderValue::from_static(content_type));
    }
    request
}

/// The `Host` header a request to `uri` carries (its host, and its port
/// when not the scheme's own), for a sender to make once: left to the
/// client, it is formatted anew for every text.
pub fn host_header(uri: &Uri) -> Option<HeaderValue> {
    let host = uri.host()?;
    let default_port = match uri.scheme_str() {
        Some("https") => 443,
        _ => 80,
    };
    let value = match uri.port_u16() {
        Some(port) if port != default_port => format!("{host}:{port}"),
        _ => host.to_string(),
    };
    HeaderValue::from_str(&value).ok()
}

/// `pairs` as an `application/x-www-form-urlencoded` POST to `uri`.
pub fn form(uri: Uri, pairs: &[(&str, &str)]) -> Request<Body> {
    let mut body = form_urlencoded::Serializer::new(String::new());
    body.extend_pairs(pairs);
    request(
        Method::POST,
        uri,
        "application/x-www-form-urlencoded",
        Bytes::from(body.finish()),
    )
}

/// HTTP basic authentication's header value for `user` and `password`.
pub fn basic_auth(
    user: &str,
    password: &str,
) -> Result<(hyper::header::HeaderName, HeaderValue), SendError> {
    use base64::Engine as _;
    let token = base64::engine::general_purpose::STANDARD.encode(format!("{user}:{password}"));
    let mut value =
        HeaderValue::from_str(&format!("Basic {token}")).map_err(|_| SendError::Final {
            reason: "the account's credentials cannot go in a header".into(),
        })?;
    value.set_sensitive(true);
    Ok((AUTHORIZATION, value))
}

/// An address from the configuration or built from it, as a request's URI;
/// `what` names it in the error, which leaves the address itself out (its
/// query may hold a credential).
pub fn uri(address: &str, what: &str) -> Result<Uri, SendError> {
    address.parse::<Uri>().map_err(|e| SendError::Final {
        reason: format!("{what} is not a URL: {e}"),
    })
}

fn transport_error(e: &(dyn Error + 'static)) -> SendError {
    let mut reason = format!("transport: {e}");
    let mut source = e.source();
    while let Some(cause) = source {
        reason.push_str(&format!(": {cause}"));
        source = cause.source();
    }
    SendError::Retry {
        reason,
        after: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_host_header_names_a_port_only_when_not_the_schemes_own() {
        let host = |u: &str| host_header(&u.parse().unwrap()).unwrap();
        assert_eq!(host("http://example.com/send"), "example.com");
        assert_eq!(host("http://example.com:80/send"), "example.com");
        assert_eq!(host("https://example.com:443/"), "example.com");
        assert_eq!(host("http://127.0.0.1:19199/capture"), "127.0.0.1:19199");
        assert_eq!(host("https://example.com:80/"), "example.com:80");
        assert_eq!(host("http://[::1]:8080/"), "[::1]:8080");
    }

    #[tokio::test]
    async fn a_refused_connection_is_worth_retrying_and_names_no_address() {
        // A port nothing listens on: bind one, then close it.
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let client = SendClient::new(1);
        let address = format!("http://127.0.0.1:{port}/send?password=hunter2");
        let request = request(
            Method::GET,
            uri(&address, "the URL").unwrap(),
            "",
            Bytes::new(),
        );
        match client.send(request).await {
            Err(SendError::Retry {
                reason,
                after: None,
            }) => {
                assert!(reason.starts_with("transport: "), "{reason}");
                assert!(!reason.contains("hunter2"), "{reason}");
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn basic_auth_is_the_standard_header() {
        let (name, value) = basic_auth("AC123", "token").unwrap();
        assert_eq!(name, AUTHORIZATION);
        assert_eq!(value.to_str().unwrap(), "Basic QUMxMjM6dG9rZW4=");
        assert!(value.is_sensitive());
    }
}
