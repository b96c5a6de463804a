//! One accepted connection: HTTP/1.1 over hyper, the caller's address for the handlers, and its deadlines.

use std::convert::Infallible;
use std::net::SocketAddr;
use std::time::Duration;

use axum::Router;
use axum::body::Body;
use axum::extract::ConnectInfo;
use axum::http::{HeaderValue, Request, Response, StatusCode, header};
use hyper::body::Incoming;
use hyper_util::rt::TokioIo;
use hyper_util::server::graceful::Watcher;
use tokio::net::TcpStream;
use tokio::sync::{OwnedSemaphorePermit, Semaphore};
use tower::Service;

use super::activity::{Arriving, InFlight, Watched};
use super::registry::{Entry, Phase, Slot};

/// A connection's deadlines while it waits on its client.
#[derive(Clone, Copy, Debug)]
pub struct Timeouts {
    /// For a whole head, from its first byte (or the accept).
    pub header: Duration,
    /// Between requests.
    pub idle: Duration,
    /// For a whole body, from the end of its head.
    pub body: Duration,
}

/// Serves `stream` until the client or the server is done with it. The
/// entry is dropped last, after the socket, so the cap's permit comes back
/// only with the descriptor.
pub async fn serve(
    stream: TcpStream,
    peer: SocketAddr,
    router: Router,
    entry: Entry,
    watcher: Watcher,
    timeouts: Timeouts,
) {
    let slot = entry.slot.clone();
    let stream_permits = entry.stream_permits();
    let io = TokioIo::new(Watched::new(stream, slot.clone()));
    let service = hyper::service::service_fn(move |request: Request<Incoming>| {
        // Called as soon as the head is read, before any of the body.
        let began = slot.request_began();
        let slot = slot.clone();
        let stream_permits = stream_permits.clone();
        let mut router = router.clone();
        async move {
            if !began {
                return Ok::<_, Infallible>(closing().map(|body| InFlight::new(body, slot, None)));
            }
            let mut request = request.map(|body| Arriving::new(body, slot.clone()));
            // The per-address limit (`flood::refusal`) reads it.
            request.extensions_mut().insert(ConnectInfo(peer));
            let response = match router.call(request).await {
                Ok(response) => response,
                Err(never) => match never {},
            };
            let (response, permit) = if is_stream(&response) {
                match stream_place(&stream_permits) {
                    Some(permit) => {
                        slot.streaming();
                        (response, Some(permit))
                    }
                    None => (too_many_streams(), None),
                }
            } else {
                (response, None)
            };
            Ok(response.map(|body| InFlight::new(body, slot, permit)))
        }
    });
    // hyper's own header timer is left off: it starts again as soon as a
    // response is done, so it would cut every idle spell to its length.
    let connection = hyper::server::conn::http1::Builder::new()
        .keep_alive(true)
        .serve_connection(io, service);
    drive(watcher.watch(connection), &entry.slot, timeouts, peer).await;
    drop(entry);
}

/// Polls the connection until it ends, or until its slot's deadline passes
/// or it is told to close; then drops it, which closes the socket.
async fn drive<E: std::fmt::Display>(
    connection: impl Future<Output = Result<(), E>>,
    slot: &Slot,
    timeouts: Timeouts,
    peer: SocketAddr,
) {
    tokio::pin!(connection);
    loop {
        let state = slot.state();
        if state.phase() == Phase::Closed {
            return;
        }
        let deadline = slot.deadline(state, &timeouts);
        let expiry = async {
            match deadline {
                Some(at) => tokio::time::sleep_until(at.into()).await,
                None => std::future::pending().await,
            }
        };
        tokio::select! {
            done = &mut connection => {
                if let Err(e) = done {
                    tracing::debug!(%peer, error = %e, "connection ended");
                }
                return;
            }
            () = slot.changed() => {}
            () = expiry => {
                if slot.expire(state) {
                    tracing::debug!(%peer, phase = ?state.phase(), "connection timed out");
                    return;
                }
            }
        }
    }
}

/// A response that stays open to feed its client (Server-Sent Events).
fn is_stream(response: &Response<Body>) -> bool {
    response
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("text/event-stream"))
}

fn stream_place(permits: &std::sync::Arc<Semaphore>) -> Option<OwnedSemaphorePermit> {
    permits.clone().try_acquire_owned().ok()
}

/// The answer in place of a stream when streams hold their whole share of
/// the cap: the page tries again later, and the other requests keep room.
fn too_many_streams() -> Response<Body> {
    tracing::debug!("a stream refused: streams hold their share of the connection cap");
    let mut response = Response::new(Body::from(
        "too many live streams on this server, try again shortly\n",
    ));
    *response.status_mut() = StatusCode::SERVICE_UNAVAILABLE;
    let headers = response.headers_mut();
    headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/plain; charset=utf-8"),
    );
    headers.insert(header::RETRY_AFTER, HeaderValue::from_static("10"));
    response
}

/// The answer to a request whose connection was chosen to close just as its
/// head arrived: retry elsewhere.
fn closing() -> Response<Body> {
    let mut response = Response::new(Body::from("connection closing\n"));
    *response.status_mut() = StatusCode::SERVICE_UNAVAILABLE;
    let headers = response.headers_mut();
    headers.insert(header::CONNECTION, HeaderValue::from_static("close"));
    headers.insert(header::RETRY_AFTER, HeaderValue::from_static("1"));
    response
}
