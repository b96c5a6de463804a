//! The webhook callers: a fixed number of connections (`--connections`), each
//! taking the next phone's request from one shared queue, like a provider's
//! delivery workers; and the `GET /ping` hammer for the baseline.

use std::net::SocketAddr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::body::Bytes;
use governor::{DefaultDirectRateLimiter, Quota, RateLimiter};
use hdrhistogram::Histogram;
use hyper::Method;
use tokio::sync::mpsc;

use super::client::Conn;
use super::driver::{Driver, Job, KINDS, Kind, histogram};

/// A webhook call is tried this many times (same id) before it counts as lost.
const ATTEMPTS: u32 = 5;

/// What the callers count, shared so the run can read it while they work.
pub struct CallStats {
    /// Calls answered 2xx, by kind.
    pub ok: [AtomicU64; KINDS],
    /// Failed attempts (transport errors, non-2xx).
    pub errors: AtomicU64,
    /// Calls the gateway answered `duplicate` (it saw the id before).
    pub duplicates: AtomicU64,
    /// Calls given up after every attempt failed.
    pub lost: AtomicU64,
    /// Webhook call to its 200, in microseconds, by kind; one set per connection.
    pub latency: Vec<Mutex<[Histogram<u64>; KINDS]>>,
    pub first_error: Mutex<Option<String>>,
}

impl CallStats {
    pub fn new(connections: usize) -> CallStats {
        CallStats {
            ok: Default::default(),
            errors: AtomicU64::new(0),
            duplicates: AtomicU64::new(0),
            lost: AtomicU64::new(0),
            latency: (0..connections)
                .map(|_| Mutex::new(std::array::from_fn(|_| histogram())))
                .collect(),
            first_error: Mutex::new(None),
        }
    }

    pub fn ok(&self, kind: Kind) -> u64 {
        self.ok[kind.index()].load(Ordering::Relaxed)
    }

    /// The connections' latencies of one kind, merged.
    pub fn latency(&self, kind: Kind) -> Histogram<u64> {
        let mut all = histogram();
        for h in &self.latency {
            let h = h.lock().unwrap_or_else(|p| p.into_inner());
            let _ = all.add(&h[kind.index()]);
        }
        all
    }

    fn error(&self, what: String) {
        self.errors.fetch_add(1, Ordering::Relaxed);
        let mut first = self.first_error.lock().unwrap_or_else(|p| p.into_inner());
        if first.is_none() {
            *first = Some(what);
        }
    }
}

/// Where the callers send, and as whom.
#[derive(Clone)]
pub struct Target {
    /// The gateway instances; connection `i` goes to `addrs[i % len]`, as a
    /// provider's load balancer would spread its calls.
    pub addrs: Vec<SocketAddr>,
    pub tag: u32,
    pub play_number: String,
    pub game_number: String,
}

/// Starts `connections` callers on the shared queue.
pub fn start(
    target: Target,
    connections: usize,
    rate: Option<u32>,
    jobs: mpsc::UnboundedReceiver<Job>,
    driver: Arc<Driver>,
    stats: Arc<CallStats>,
) {
    let jobs = Arc::new(tokio::sync::Mutex::new(jobs));
    let limiter = rate.and_then(std::num::NonZeroU32::new).map(|r| {
        // A small burst keeps the pace smooth without a timer per request.
        let burst = std::num::NonZeroU32::new((r.get() / 200).max(1)).expect("positive");
        Arc::new(RateLimiter::direct(Quota::per_second(r).allow_burst(burst)))
    });
    let seq = Arc::new(AtomicU64::new(0));
    for slot in 0..connections {
        let worker = Worker {
            conn: Conn::new(target.addrs[slot % target.addrs.len()]),
            target: target.clone(),
            jobs: jobs.clone(),
            limiter: limiter.clone(),
            driver: driver.clone(),
            stats: stats.clone(),
            seq: seq.clone(),
            slot,
        };
        tokio::spawn(worker.run());
    }
}

struct Worker {
    conn: Conn,
    target: Target,
    jobs: Arc<tokio::sync::Mutex<mpsc::UnboundedReceiver<Job>>>,
    limiter: Option<Arc<DefaultDirectRateLimiter>>,
    driver: Arc<Driver>,
    stats: Arc<CallStats>,
    seq: Arc<AtomicU64>,
    slot: usize,
}

/// A webhook call's body, as the `generic` provider posts it.
#[derive(serde::Serialize)]
pub struct Inbound<'a> {
    pub id: &'a str,
    pub from: &'a str,
    pub to: &'a str,
    pub text: &'a str,
}

impl Worker {
    async fn run(mut self) {
        loop {
            let job = { self.jobs.lock().await.recv().await };
            let Some(job) = job else { return };
            if let (Some(limiter), Kind::Move) = (&self.limiter, job.kind) {
                limiter.until_ready().await;
            }
            self.call(job).await;
        }
    }

    async fn call(&mut self, job: Job) {
        let id = format!(
            "b{}-{}",
            self.target.tag,
            self.seq.fetch_add(1, Ordering::Relaxed)
        );
        let from = phone_number(self.target.tag, job.phone);
        let to = match job.kind {
            Kind::Play | Kind::RobotPlay => &self.target.play_number,
            _ => &self.target.game_number,
        };
        let body = serde_json::to_vec(&Inbound {
            id: &id,
            from: &from,
            to,
            text: &job.text,
        })
        .expect("serialisable");
        let body = Bytes::from(body);
        for attempt in 1..=ATTEMPTS {
            let start = Instant::now();
            self.driver.call_started(job.phone, start);
            let result = self
                .conn
                .request(Method::POST, "/webhooks/generic", Some(body.clone()))
                .await;
            match result {
                Ok((status, answer)) if status.is_success() => {
                    let micros = start.elapsed().as_micros() as u64;
                    if self.driver.measured(start) {
                        let mut h = self.stats.latency[self.slot]
                            .lock()
                            .unwrap_or_else(|p| p.into_inner());
                        let _ = h[job.kind.index()].record(micros.max(1));
                    }
                    if answer.windows(9).any(|w| w == b"duplicate") {
                        self.stats.duplicates.fetch_add(1, Ordering::Relaxed);
                    }
                    self.stats.ok[job.kind.index()].fetch_add(1, Ordering::Relaxed);
                    return;
                }
                Ok((status, answer)) => {
                    self.stats.error(format!(
                        "{} {}: HTTP {status} {}",
                        job.kind.name(),
                        id,
                        String::from_utf8_lossy(&answer)
                    ));
                    let retry = status.is_server_error() || status.as_u16() == 429;
                    if !retry {
                        break;
                    }
                }
                Err(e) => self
                    .stats
                    .error(format!("{} {}: {e:#}", job.kind.name(), id)),
            }
            if attempt < ATTEMPTS {
                tokio::time::sleep(Duration::from_millis(50 * attempt as u64)).await;
            }
        }
        self.stats.lost.fetch_add(1, Ordering::Relaxed);
        self.driver.call_failed(job.phone);
    }
}

/// A phone's number: `+7`, the run's tag, the phone's index.
pub fn phone_number(tag: u32, phone: usize) -> String {
    format!("+7{tag:03}{phone:07}")
}

/// What the baseline measured.
pub struct Baseline {
    pub requests: u64,
    pub errors: u64,
    pub elapsed: Duration,
    pub latency: Histogram<u64>,
}

impl Baseline {
    pub fn per_second(&self) -> f64 {
        self.requests as f64 / self.elapsed.as_secs_f64()
    }
}

/// `GET path` as fast as `connections` connections allow, for `duration`.
pub async fn hammer(
    addr: SocketAddr,
    path: &'static str,
    connections: usize,
    duration: Duration,
) -> Baseline {
    let start = Instant::now();
    let until = start + duration;
    let mut tasks = Vec::new();
    for _ in 0..connections {
        tasks.push(tokio::spawn(async move {
            let mut conn = Conn::new(addr);
            let mut latency = histogram();
            let (mut ok, mut errors) = (0u64, 0u64);
            loop {
                let t = Instant::now();
                if t >= until {
                    break;
                }
                match conn.request(Method::GET, path, None).await {
                    Ok((status, _)) if status.is_success() => {
                        ok += 1;
                        let _ = latency.record((t.elapsed().as_micros() as u64).max(1));
                    }
                    _ => errors += 1,
                }
            }
            (ok, errors, latency)
        }));
    }
    let mut result = Baseline {
        requests: 0,
        errors: 0,
        elapsed: Duration::ZERO,
        latency: histogram(),
    };
    for task in tasks {
        if let Ok((ok, errors, latency)) = task.await {
            result.requests += ok;
            result.errors += errors;
            let _ = result.latency.add(&latency);
        }
    }
    result.elapsed = start.elapsed();
    result
}
