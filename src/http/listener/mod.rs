//! Our serving loop: accepts connections under a cap that fits the open-files limit, gives each its header and idle deadlines, and drains them on shutdown.
//!
//! `axum::serve` has no header or idle timeout and no cap: connections that
//! send half a head and stop filled the descriptor table, and then `accept`
//! failed for everyone. Here a connection waiting on its client (for a head,
//! a body, its next request) is closed when its deadline passes, and at the
//! cap a newcomer is served by closing one that waits on its client or only
//! feeds it a long-lived stream, so a provider's webhook and `/healthz` still
//! get in while one client holds every slow body and event stream it can.

mod activity;
mod connection;
pub mod descriptors;
mod registry;

use std::future::Future;
use std::io;
use std::time::{Duration, Instant};

use axum::Router;
use hyper_util::server::graceful::GracefulShutdown;
use tokio::net::TcpListener;

use crate::config::HttpConfig;
pub use connection::Timeouts;
use registry::{Admission, Registry};

/// How long an accept at the cap waits for the connection it evicted to let
/// go of its descriptor (it does within microseconds unless the runtime is
/// starved).
const EVICTION_PATIENCE: Duration = Duration::from_secs(1);

/// The listener's settings, checked.
#[derive(Clone, Copy, Debug)]
pub struct Settings {
    pub timeouts: Timeouts,
    /// `http.max_connections` as configured (0: what fits).
    pub max_connections: usize,
    /// `http.stream_share_percent`: of the cap, what long-lived streams may hold.
    pub stream_share_percent: u8,
}

impl Settings {
    /// A timeout of 0 is refused: it would close every connection at once,
    /// and there is no "off" (that is the defect these timeouts mend).
    pub fn from_config(http: &HttpConfig) -> Result<Settings, String> {
        let positive = |key: &str, ms: u64| {
            if ms == 0 {
                Err(format!("http.{key} must be at least 1 (milliseconds)"))
            } else {
                Ok(Duration::from_millis(ms))
            }
        };
        Ok(Settings {
            timeouts: Timeouts {
                header: positive("header_read_timeout_ms", http.header_read_timeout_ms)?,
                idle: positive("idle_timeout_ms", http.idle_timeout_ms)?,
                body: positive("body_read_timeout_ms", http.body_read_timeout_ms)?,
            },
            max_connections: http.max_connections,
            stream_share_percent: match http.stream_share_percent {
                share @ 1..=100 => share,
                other => {
                    return Err(format!(
                        "http.stream_share_percent is {other}: a share of the connection cap, \
                         from 1 to 100"
                    ));
                }
            },
        })
    }
}

/// Raises the open-files limit and fits the connection cap under it,
/// warning when the configured cap had to be lowered.
pub fn connection_cap(max_connections: usize) -> usize {
    let limit = descriptors::raise_open_files_limit();
    let fitted = descriptors::fit(max_connections, limit);
    if fitted.lowered {
        tracing::warn!(
            "http.max_connections is {max_connections} but the open-files limit is {}: \
             serving at most {} connections, keeping {} descriptors for the database, \
             outbound HTTP and logs",
            limit.unwrap_or_default(),
            fitted.cap,
            limit.unwrap_or_default() - fitted.cap as u64,
        );
    }
    fitted.cap
}

/// Serves `router` on `listener` until `shutdown` resolves; then stops
/// accepting, lets the requests in flight finish (idle connections close at
/// once, the others after their response) and returns when every
/// connection is closed.
pub async fn serve(
    listener: TcpListener,
    router: Router,
    settings: Settings,
    cap: usize,
    shutdown: impl Future<Output = ()>,
) {
    let registry = Registry::new(cap, settings.stream_share_percent);
    let graceful = GracefulShutdown::new();
    let mut accept_errors = Throttle::default();
    let mut refusals = Throttle::default();
    let mut evictions = Throttle::default();
    tokio::pin!(shutdown);
    loop {
        let accepted = tokio::select! {
            biased;
            () = &mut shutdown => break,
            accepted = listener.accept() => accepted,
        };
        let (stream, peer) = match accepted {
            Ok(accepted) => accepted,
            Err(e) if is_connection_error(&e) => continue,
            Err(e) => {
                // Out of descriptors (EMFILE, ENFILE) or memory: accept would
                // fail again at once, so free a descriptor if a connection
                // can spare it, and pause rather than spin.
                let evicted = registry.make_room();
                if let Some(skipped) = accept_errors.ready() {
                    tracing::error!(error = %e, open = registry.open_count(), evicted, skipped, "accept error");
                }
                let pause = if evicted { 5 } else { 100 };
                tokio::time::sleep(Duration::from_millis(pause)).await;
                continue;
            }
        };
        let entry = match registry.try_admit() {
            Some(entry) => entry,
            None => match registry.admit_by_eviction(EVICTION_PATIENCE).await {
                Admission::Evicted(entry) => {
                    if let Some(skipped) = evictions.ready() {
                        tracing::warn!(
                            cap = registry.cap(),
                            also = skipped,
                            "connection cap reached: closed the connection idle longest to serve a new one"
                        );
                    }
                    entry
                }
                refused => {
                    if let Some(skipped) = refusals.ready() {
                        let why = match refused {
                            Admission::AllBusy => "every connection has a request in flight",
                            _ => "the connection evicted for it did not close in time",
                        };
                        tracing::warn!(%peer, cap = registry.cap(), also = skipped, "connection refused at the cap: {why}");
                    }
                    drop(stream);
                    continue;
                }
            },
        };
        let watcher = graceful.watcher();
        let router = router.clone();
        tokio::spawn(connection::serve(
            stream,
            peer,
            router,
            entry,
            watcher,
            settings.timeouts,
        ));
    }
    drop(listener);
    // A stream has no end to wait for: its page reconnects to whichever
    // instance serves next and catches up.
    let streams = registry.close_streams();
    tracing::info!(
        open = registry.open_count(),
        streams,
        "stopping: no new connections; streams closed; waiting for the requests in flight"
    );
    graceful.shutdown().await;
}

/// Errors of one connection that left before we took it: accept the next.
fn is_connection_error(e: &io::Error) -> bool {
    matches!(
        e.kind(),
        io::ErrorKind::ConnectionRefused
            | io::ErrorKind::ConnectionAborted
            | io::ErrorKind::ConnectionReset
    )
}

/// Lets a repeated message through once a second, counting what it held back.
#[derive(Default)]
struct Throttle {
    last: Option<Instant>,
    skipped: u64,
}

impl Throttle {
    /// `Some(held back since the last one)` when it is time to say it again.
    fn ready(&mut self) -> Option<u64> {
        let now = Instant::now();
        if self
            .last
            .is_some_and(|last| now.duration_since(last) < Duration::from_secs(1))
        {
            self.skipped += 1;
            return None;
        }
        self.last = Some(now);
        Some(std::mem::take(&mut self.skipped))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_zero_timeout_is_refused_naming_its_key() {
        let mut http = HttpConfig::default();
        let settings = Settings::from_config(&http).unwrap();
        assert_eq!(settings.timeouts.header, Duration::from_secs(5));
        assert_eq!(settings.timeouts.idle, Duration::from_secs(60));
        http.idle_timeout_ms = 0;
        let err = Settings::from_config(&http).unwrap_err();
        assert!(err.contains("http.idle_timeout_ms"), "{err}");
        http.idle_timeout_ms = 1;
        http.header_read_timeout_ms = 0;
        let err = Settings::from_config(&http).unwrap_err();
        assert!(err.contains("http.header_read_timeout_ms"), "{err}");
        http.header_read_timeout_ms = 1;
        http.body_read_timeout_ms = 0;
        let err = Settings::from_config(&http).unwrap_err();
        assert!(err.contains("http.body_read_timeout_ms"), "{err}");
    }

    #[test]
    fn the_body_deadline_is_short_and_streams_hold_a_share() {
        let mut http = HttpConfig::default();
        let settings = Settings::from_config(&http).unwrap();
        assert!(settings.timeouts.body * 3 <= Duration::from_millis(http.request_timeout_ms));
        assert_eq!(settings.stream_share_percent, 50);
        for bad in [0, 101] {
            http.stream_share_percent = bad;
            let err = Settings::from_config(&http).unwrap_err();
            assert!(err.contains("http.stream_share_percent"), "{err}");
        }
    }

    #[test]
    fn a_repeated_message_is_said_once_a_second() {
        let mut throttle = Throttle::default();
        assert_eq!(throttle.ready(), Some(0));
        assert_eq!(throttle.ready(), None);
        assert_eq!(throttle.ready(), None);
        throttle.last = Some(Instant::now() - Duration::from_secs(2));
        assert_eq!(throttle.ready(), Some(2));
    }
}
