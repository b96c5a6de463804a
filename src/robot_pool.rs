//! The robot pool: computes robots' turns off the writer and plays them.
//!
//! A robot's turn is a durable job (`robot_turns`), queued in the transaction
//! that made it due. The pool claims due jobs with a lease (so that exactly
//! one instance computes each, and a dead instance's jobs are taken over when
//! the lease runs out), searches on a blocking thread, at most
//! `robots.threads` searches at once (the rest wait in the table), and hands
//! the move to `Platform::apply_robot_move`, which plays it in a transaction
//! of its own by the same path as a player's text and drops it if the turn
//! moved on meanwhile. No search ever runs inside a store transaction.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use rand::SeedableRng;
use tokio::sync::{Notify, Semaphore, watch};

use crate::clock::Clock;
use crate::config::RobotsConfig;
use crate::games::{Budget, MatchRng, Stopwatch};
use crate::platform::Platform;
use crate::platform::robot_turns::{Applied, RobotJob, Searched};
use crate::store::{Store, StoreError, StoreResult};

/// Longest the pool sleeps between looks, for turns another instance queued
/// or whose lease ran out.
const IDLE_RECHECK: Duration = Duration::from_millis(500);

/// The pool; cheap to clone.
#[derive(Clone)]
pub struct RobotPool {
    inner: Arc<Inner>,
}

struct Inner {
    store: Store,
    platform: Platform,
    clock: Arc<dyn Clock>,
    cfg: RobotsConfig,
    /// Free search slots.
    slots: Arc<Semaphore>,
    /// Turns claimed and not yet played.
    in_flight: std::sync::atomic::AtomicUsize,
    /// Most turns claimed at once: a few per search slot, so that claiming and
    /// playing overlap with the searches, and few enough that a claimed turn
    /// waits for a slot much less than its lease.
    max_in_flight: usize,
    /// Told when a commit of this instance made a robot's turn due.
    wake: Notify,
    /// Milliseconds from due to the search's start, per turn.
    waits: Mutex<hdrhistogram::Histogram<u64>>,
    metrics: Arc<crate::metrics::Metrics>,
}

/// What the pool has done, for the admin API and the bench.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct RobotStats {
    pub turns: u64,
    pub wait_p50_ms: u64,
    pub wait_p99_ms: u64,
    pub wait_max_ms: u64,
}

/// A real clock for a search's budget, started when the search starts.
struct Started(Instant);

impl Stopwatch for Started {
    fn elapsed_ms(&self) -> u64 {
        self.0.elapsed().as_millis() as u64
    }
}

impl RobotPool {
    pub fn new(
        store: Store,
        platform: Platform,
        clock: Arc<dyn Clock>,
        cfg: RobotsConfig,
        metrics: Arc<crate::metrics::Metrics>,
    ) -> RobotPool {
        let threads = cfg.search_threads();
        RobotPool {
            inner: Arc::new(Inner {
                store,
                platform,
                clock,
                cfg,
                slots: Arc::new(Semaphore::new(threads)),
                in_flight: std::sync::atomic::AtomicUsize::new(0),
                max_in_flight: 4 * threads,
                wake: Notify::new(),
                waits: Mutex::new(
                    hdrhistogram::Histogram::new_with_bounds(1, 3_600_000, 2)
                        .expect("histogram bounds are valid"),
                ),
                metrics,
            }),
        }
    }

    /// Tells the pool that a robot's turn fell due.
    pub fn wake(&self) {
        self.inner.wake.notify_one();
    }

    pub fn stats(&self) -> RobotStats {
        let waits = self.inner.waits.lock().expect("robot stats lock");
        RobotStats {
            turns: waits.len(),
            wait_p50_ms: waits.value_at_quantile(0.5),
            wait_p99_ms: waits.value_at_quantile(0.99),
            wait_max_ms: waits.max(),
        }
    }

    /// Claims what is due and plays it, until shutdown. A search holds one of
    /// the slots; claiming and playing (store transactions) do not.
    pub async fn run(self, mut shutdown: watch::Receiver<bool>) {
        use std::sync::atomic::Ordering;
        while !*shutdown.borrow() {
            let busy = self.inner.in_flight.load(Ordering::SeqCst);
            let room = self.inner.max_in_flight.saturating_sub(busy);
            let claimed = if room > 0 {
                match self.claim(room).await {
                    Ok(jobs) => jobs,
                    Err(e) => {
                        tracing::error!(error = %e, "claiming robot turns failed; retrying");
                        Vec::new()
                    }
                }
            } else {
                Vec::new()
            };
            let full = room > 0 && claimed.len() == room;
            for job in claimed {
                self.inner.in_flight.fetch_add(1, Ordering::SeqCst);
                let pool = self.clone();
                tokio::spawn(async move {
                    if let Err(e) = pool.play(job).await {
                        tracing::error!(error = %e, "a robot's turn failed; it is retried after its lease");
                    }
                    pool.inner.in_flight.fetch_sub(1, Ordering::SeqCst);
                    pool.wake();
                });
            }
            if full {
                continue;
            }
            tokio::select! {
                _ = self.inner.wake.notified() => {}
                _ = tokio::time::sleep(IDLE_RECHECK) => {}
                _ = shutdown.changed() => {}
            }
        }
    }

    /// Plays every robot turn due now, one after another, until none is left;
    /// returns how many were played. For tests and tools that drive time by
    /// hand instead of running the pool.
    pub async fn run_due(&self) -> StoreResult<usize> {
        let mut played = 0;
        loop {
            let jobs = self.claim(16).await?;
            if jobs.is_empty() {
                return Ok(played);
            }
            for job in jobs {
                if self.play(job).await? == Applied::Played {
                    played += 1;
                }
            }
        }
    }

    async fn claim(&self, limit: usize) -> StoreResult<Vec<RobotJob>> {
        let now = self.inner.clock.now();
        let lease_until = now + chrono::Duration::milliseconds(self.inner.cfg.lease_ms as i64);
        let platform = self.inner.platform.clone();
        self.inner
            .store
            .run_solo(move |tx| platform.claim_robot_turns(tx, now, lease_until, limit))
            .await
    }

    /// Computes one turn on a blocking thread, in one of the search slots, then plays it.
    async fn play(&self, job: RobotJob) -> StoreResult<Applied> {
        let platform = self.inner.platform.clone();
        let budget_ms = self.inner.cfg.budget_ms;
        let searched = job.clone();
        let slot = self
            .inner
            .slots
            .clone()
            .acquire_owned()
            .await
            .map_err(|_| StoreError::WriterGone)?;
        let waited = (self.inner.clock.now() - job.turn.due_at).num_milliseconds();
        let _ = self
            .inner
            .waits
            .lock()
            .expect("robot stats lock")
            .record(waited.max(1) as u64);
        self.inner
            .metrics
            .robot_turn(Duration::from_millis(waited.max(0) as u64));
        let searched = tokio::task::spawn_blocking(move || search(&platform, &searched, budget_ms))
            .await
            .map_err(|_| StoreError::Panicked)?;
        drop(slot);
        let platform = self.inner.platform.clone();
        let now = self.inner.clock.now();
        let turn = job.turn;
        let (applied, more, tally) = self
            .inner
            .store
            .run(move |tx| platform.apply_robot_move(tx, &turn, &searched, now))
            .await?;
        self.inner.metrics.matches(&tally);
        if more {
            self.wake();
        }
        tracing::debug!(
            match_id = job.turn.match_id,
            seat = job.turn.seat,
            ?applied,
            "robot turn"
        );
        Ok(applied)
    }
}

/// The robot's move for a job: the game's search, with the budget on a real
/// clock and a generator of its own, drawn from the match's seed, turn and
/// seat. A match that does not load goes back to be voided, not retried.
fn search(platform: &Platform, job: &RobotJob, budget_ms: u64) -> Searched {
    let Some(game) = platform.catalog().get(&job.game) else {
        return Searched::Unloadable;
    };
    let Some(state) = game
        .load(&job.state)
        .ok()
        .filter(|s| s.seats() == job.seats)
    else {
        return Searched::Unloadable;
    };
    let seed =
        job.seed ^ (u64::from(job.turn.turn) << 24) ^ job.turn.seat as u64 ^ 0x726f_626f_7400;
    let mut rng = MatchRng::seed_from_u64(seed);
    let watch = Started(Instant::now());
    let budget = Budget {
        millis: budget_ms,
        clock: &watch,
        max_nodes: None,
    };
    Searched::Move(state.robot_move(job.turn.seat, job.level, &budget, &mut rng))
}
