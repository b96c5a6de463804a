//! The senders' HTTP client: hyper's HTTP/1.1 connections over rustls, a
//! few kept open between sends, and nothing more.
//!
//! A provider's send is one request to an address the configuration names.
//! A general client's layers (a redirect policy, proxy matching, the URL
//! parsed again for each of them) cost more instructions per text than the
//! text's whole game logic (`BENCHMARKS.md`, issue 30), and none is wanted:
//! a send API that redirects is misconfigured (re-posting a text elsewhere is
//! not ours to decide; the 3xx is a final error with its status), and no
//! proxy is configured.
//!
//! Nor is hyper-util's general pool wanted: it keys its connections by
//! origin in a map (the key hashed a byte at a time, some thirty times a
//! send), and its send moves its large futures a dozen times; together about
//! 6,700 instructions a text. A sender talks to one or two origins, so its
//! kept connections are a short list searched from the newest, and a
//! connection comes from hyper-rustls's connector and hyper's own HTTP/1.1
//! handshake, as in hyper's client guide.
//!
//! Nor is a timeout of its own wanted: the dispatcher bounds every send,
//! whatever the provider, by `sms.send_timeout_ms` (`sms/dispatcher`), and
//! a second timer on the same request cost each text a timer armed and
//! cancelled for nothing. A send cut short drops its connection with it.

use std::collections::VecDeque;
use std::error::Error;
use std::sync::{Mutex, PoisonError};
use std::time::{Duration, Instant};

use http_body_util::{BodyExt, Full};
use hyper::body::{Bytes, Incoming};
use hyper::client::conn::http1::{self, SendRequest};
use hyper::header::{AUTHORIZATION, CONTENT_TYPE, HOST, HeaderValue};
use hyper::http::uri::{Authority, Parts};
use hyper::{HeaderMap, Method, Request, Response, StatusCode, Uri};
use hyper_rustls::HttpsConnector;
use hyper_util::client::legacy::connect::HttpConnector;
use tower::Service;

use super::outbound::SendError;

/// What a send carries.
pub type Body = Full<Bytes>;

type BoxError = Box<dyn Error + Send + Sync>;

/// The client a provider's sender sends through: its connections, made as
/// needed, and those kept open between sends, by origin.
pub struct SendClient {
    connector: HttpsConnector<HttpConnector>,
    /// Each origin's connections open between sends, oldest first.
    kept: Mutex<Vec<(Origin, VecDeque<Idle>)>>,
    /// How many connections to one origin stay open between sends.
    keep_per_origin: usize,
    /// How long one stays open unused ([`IDLE_FOR`]).
    idle_for: Duration,
}

/// How long a connection stays open unused (hyper-util's pool's default,
/// which the senders had before): a provider's balancer, or a NAT between,
/// may drop an idle connection without a word, and a text sent on it would
/// wait out the send's whole timeout.
const IDLE_FOR: Duration = Duration::from_secs(90);

/// A connection open between sends, and when it was last used.
type Idle = (Instant, SendRequest<Body>);

/// Where a connection goes: requests to one origin may share it.
struct Origin {
    https: bool,
    authority: Authority,
}

impl Origin {
    fn of(uri: &Uri) -> Option<Origin> {
        Some(Origin {
            https: uri.scheme_str() == Some("https"),
            authority: uri.authority()?.clone(),
        })
    }

    /// Byte for byte: a sender's requests name their origin alike, and
    /// `Authority`'s own comparison, blind to case, goes a byte at a time.
    fn is(&self, other: &Origin) -> bool {
        self.https == other.https && self.authority.as_str() == other.authority.as_str()
    }
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
    /// A client that keeps up to `keep_per_origin` connections open between sends.
    pub fn new(keep_per_origin: usize) -> SendClient {
        let connector = hyper_rustls::HttpsConnectorBuilder::new()
            .with_webpki_roots()
            .https_or_http()
            .enable_http1()
            .build();
        SendClient {
            connector,
            kept: Mutex::new(Vec::new()),
            keep_per_origin,
            idle_for: IDLE_FOR,
        }
    }

    /// Sends `request` (its URI absolute) and reads the whole answer. A
    /// request that gets no answer (refused, reset) is worth retrying; its
    /// reason leaves the URL out (a Kannel `sendsms` URL carries the
    /// password). Its time is the caller's to bound.
    pub async fn send(&self, mut request: Request<Body>) -> Result<Answer, SendError> {
        let target = std::mem::take(request.uri_mut());
        let origin = Origin::of(&target).ok_or_else(|| SendError::Final {
            reason: "the address names no host".into(),
        })?;
        if !request.headers().contains_key(HOST)
            && let Some(host) = host_header(&target)
        {
            request.headers_mut().insert(HOST, host);
        }
        // On the connection, the request line carries the path alone.
        *request.uri_mut() = path_of(&target);
        let exchange = async {
            let (sender, response) = self.exchange(&origin, &target, request).await?;
            let (parts, body) = response.into_parts();
            let body = body.collect().await?.to_bytes();
            self.keep(origin, sender);
            Ok::<_, BoxError>(Answer {
                status: parts.status,
                headers: parts.headers,
                body,
            })
        };
        exchange.await.map_err(|e| transport_error(&*e))
    }

    /// Sends `request` on a kept connection to `origin`, else on a new one.
    /// A kept connection the server closed since gives the request back
    /// unsent, and the next one takes it.
    async fn exchange(
        &self,
        origin: &Origin,
        target: &Uri,
        mut request: Request<Body>,
    ) -> Result<(SendRequest<Body>, Response<Incoming>), BoxError> {
        while let Some(mut sender) = self.take_kept(origin) {
            if sender.ready().await.is_err() {
                continue;
            }
            match sender.try_send_request(request).await {
                Ok(response) => return Ok((sender, response)),
                Err(mut e) => match e.take_message() {
                    Some(unsent) => request = unsent,
                    None => return Err(e.into_error().into()),
                },
            }
        }
        let mut sender = self.connect(target).await?;
        let response = sender.send_request(request).await?;
        Ok((sender, response))
    }

    /// A new connection to `target`'s origin, its conversation driven by a task of its own.
    async fn connect(&self, target: &Uri) -> Result<SendRequest<Body>, BoxError> {
        let io = self.connector.clone().call(target.clone()).await?;
        let (sender, connection) = http1::handshake(io).await?;
        tokio::spawn(async move {
            if let Err(e) = connection.await {
                tracing::debug!(error = %e, "a send connection ended");
            }
        });
        Ok(sender)
    }

    /// The newest kept connection to `origin`; those closed since, or
    /// unused for too long ([`IDLE_FOR`]), are dropped.
    fn take_kept(&self, origin: &Origin) -> Option<SendRequest<Body>> {
        let now = Instant::now();
        let mut kept = self.kept.lock().unwrap_or_else(PoisonError::into_inner);
        let (_, idle) = kept.iter_mut().find(|(o, _)| o.is(origin))?;
        while idle
            .front()
            .is_some_and(|(used, _)| now.duration_since(*used) >= self.idle_for)
        {
            idle.pop_front();
        }
        // One closed elsewhere in the list leaves when it reaches an end.
        while let Some((_, sender)) = idle.pop_back() {
            if !sender.is_closed() {
                return Some(sender);
            }
        }
        None
    }

    /// Keeps a connection open for the next send, unless it is closed or
    /// enough to its origin are kept already.
    fn keep(&self, origin: Origin, sender: SendRequest<Body>) {
        if sender.is_closed() {
            return;
        }
        let used = (Instant::now(), sender);
        let mut kept = self.kept.lock().unwrap_or_else(PoisonError::into_inner);
        match kept.iter_mut().find(|(o, _)| o.is(&origin)) {
            Some((_, idle)) if idle.len() < self.keep_per_origin => idle.push_back(used),
            Some(_) => {}
            None if self.keep_per_origin > 0 => kept.push((origin, VecDeque::from([used]))),
            None => {}
        }
    }
}

/// `uri`'s path and query alone, as a request line to its origin carries them.
fn path_of(uri: &Uri) -> Uri {
    match uri.path_and_query() {
        Some(path) if path.as_str() != "/" => {
            let mut parts = Parts::default();
            parts.path_and_query = Some(path.clone());
            Uri::from_parts(parts).unwrap_or_default()
        }
        _ => Uri::default(),
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

    /// How the test provider treats a connection after each answer.
    #[derive(Clone, Copy, PartialEq)]
    enum After {
        KeepsIt,
        SaysItClosesIt,
        ClosesItSilently,
    }

    /// A provider that answers `ok` to every request on a connection, and
    /// keeps or closes it as `after` says; it counts the connections it took.
    async fn provider(after: After) -> (String, std::sync::Arc<std::sync::atomic::AtomicUsize>) {
        use std::sync::atomic::{AtomicUsize, Ordering};
        use tokio::io::{AsyncReadExt, AsyncWriteExt};
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let address = format!("http://{}/send", listener.local_addr().unwrap());
        let taken = std::sync::Arc::new(AtomicUsize::new(0));
        let count = taken.clone();
        tokio::spawn(async move {
            while let Ok((mut socket, _)) = listener.accept().await {
                count.fetch_add(1, Ordering::SeqCst);
                tokio::spawn(async move {
                    let mut buf = [0u8; 4096];
                    // Each read is one whole request here: small, and sent
                    // only after the answer to the one before.
                    while let Ok(n @ 1..) = socket.read(&mut buf).await {
                        assert!(buf[..n].starts_with(b"POST /send HTTP/1.1\r\n"));
                        let answer: &[u8] = match after {
                            After::SaysItClosesIt => {
                                b"HTTP/1.1 200 OK\r\ncontent-length: 2\r\nconnection: close\r\n\r\nok"
                            }
                            _ => b"HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\nok",
                        };
                        if socket.write_all(answer).await.is_err() || after != After::KeepsIt {
                            break;
                        }
                    }
                });
            }
        });
        (address, taken)
    }

    async fn send_to(client: &SendClient, address: &str) -> Answer {
        let request = request(
            Method::POST,
            uri(address, "the URL").unwrap(),
            "text/plain",
            Bytes::from_static(b"hi"),
        );
        client.send(request).await.unwrap()
    }

    #[tokio::test]
    async fn sends_one_after_another_share_one_kept_connection() {
        let (address, taken) = provider(After::KeepsIt).await;
        let client = SendClient::new(4);
        for _ in 0..5 {
            let answer = send_to(&client, &address).await;
            assert_eq!(
                (answer.status, &answer.body[..]),
                (StatusCode::OK, &b"ok"[..])
            );
        }
        assert_eq!(taken.load(std::sync::atomic::Ordering::SeqCst), 1);
    }

    #[tokio::test]
    async fn a_connection_the_provider_closed_is_not_used_again() {
        for after in [After::SaysItClosesIt, After::ClosesItSilently] {
            let (address, taken) = provider(after).await;
            let client = SendClient::new(4);
            for _ in 0..3 {
                assert_eq!(send_to(&client, &address).await.status, StatusCode::OK);
                if after == After::ClosesItSilently {
                    // Unannounced, the close reaches the kept connection a moment later.
                    tokio::time::sleep(std::time::Duration::from_millis(20)).await;
                }
            }
            assert_eq!(taken.load(std::sync::atomic::Ordering::SeqCst), 3);
        }
    }

    #[tokio::test]
    async fn a_connection_unused_for_long_is_not_used_again() {
        let (address, taken) = provider(After::KeepsIt).await;
        let mut client = SendClient::new(4);
        client.idle_for = std::time::Duration::from_millis(300);
        send_to(&client, &address).await;
        send_to(&client, &address).await;
        assert_eq!(taken.load(std::sync::atomic::Ordering::SeqCst), 1);
        tokio::time::sleep(std::time::Duration::from_millis(400)).await;
        send_to(&client, &address).await;
        assert_eq!(taken.load(std::sync::atomic::Ordering::SeqCst), 2);
    }

    #[tokio::test]
    async fn a_client_that_keeps_none_connects_for_every_send() {
        let (address, taken) = provider(After::KeepsIt).await;
        let client = SendClient::new(0);
        for _ in 0..3 {
            assert_eq!(send_to(&client, &address).await.status, StatusCode::OK);
        }
        assert_eq!(taken.load(std::sync::atomic::Ordering::SeqCst), 3);
    }
}
