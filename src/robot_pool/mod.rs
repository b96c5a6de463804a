//! The robot pool: computes robots' turns off the writer and plays them.
//!
//! A robot's turn is a durable job (`robot_turns`), queued in the transaction
//! that made it due. The pool claims due jobs with a lease (so that exactly
//! one instance computes each, and a dead instance's jobs are taken over when
//! the lease runs out), searches in the lane of the robot's level
//! ([`lane`]: `robots.threads` search threads each, below the gateway's
//! priority; the rest wait in the table), and hands the move to
//! `Platform::apply_robot_move`, which plays it in a transaction of its own
//! by the same path as a player's text and drops it if the turn moved on
//! meanwhile. No search ever runs inside a store transaction.

mod lane;

use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Duration;

use rand::SeedableRng;
use tokio::sync::{Notify, watch};

use crate::clock::Clock;
use crate::config::RobotsConfig;
use crate::games::{Budget, MatchRng};
use crate::platform::Platform;
use crate::platform::robot_turns::{Applied, RobotJob, SEARCH_ATTEMPTS, Searched};
use crate::store::{Store, StoreError, StoreResult};
pub use lane::LaneStats;
use lane::{LANES, Lane, SearchClock, Spent};

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
    lanes: Vec<Lane>,
    /// Told when a commit of this instance made a robot's turn due.
    wake: Notify,
    metrics: Arc<crate::metrics::Metrics>,
}

/// What the pool has done, for the admin API and the bench: all turns, then
/// each lane's.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct RobotStats {
    pub turns: u64,
    pub wait_p50_ms: u64,
    pub wait_p99_ms: u64,
    pub wait_max_ms: u64,
    pub lanes: Vec<LaneStats>,
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
                lanes: LANES.iter().map(|spec| Lane::new(spec, threads)).collect(),
                wake: Notify::new(),
                metrics,
            }),
        }
    }

    /// Tells the pool that a robot's turn fell due.
    pub fn wake(&self) {
        self.inner.wake.notify_one();
    }

    pub fn stats(&self) -> RobotStats {
        let mut all = lane::histogram();
        for lane in &self.inner.lanes {
            let _ = all.add(&lane.figures.lock().expect("robot lane figures").waits);
        }
        RobotStats {
            turns: all.len(),
            wait_p50_ms: all.value_at_quantile(0.5),
            wait_p99_ms: all.value_at_quantile(0.99),
            wait_max_ms: all.max(),
            lanes: self.inner.lanes.iter().map(Lane::stats).collect(),
        }
    }

    /// Claims what is due and plays it, until shutdown. Each lane claims as
    /// many turns as it has room for, so that a lane full of deep searches
    /// never keeps a cheap robot's turn in the table.
    pub async fn run(self, mut shutdown: watch::Receiver<bool>) {
        while !*shutdown.borrow() {
            let mut full = false;
            for (index, lane) in self.inner.lanes.iter().enumerate() {
                let busy = lane.in_flight.load(Ordering::SeqCst);
                let room = lane.max_in_flight.saturating_sub(busy);
                if room == 0 {
                    continue;
                }
                let claimed = match self.claim(lane, room).await {
                    Ok(jobs) => jobs,
                    Err(e) => {
                        tracing::error!(error = %e, "claiming robot turns failed; retrying");
                        Vec::new()
                    }
                };
                full |= claimed.len() == room;
                for job in claimed {
                    lane.in_flight.fetch_add(1, Ordering::SeqCst);
                    let pool = self.clone();
                    tokio::spawn(async move {
                        if let Err(e) = pool.play(index, job).await {
                            tracing::error!(error = %e, "a robot's turn failed; it is retried after its lease");
                        }
                        pool.inner.lanes[index]
                            .in_flight
                            .fetch_sub(1, Ordering::SeqCst);
                        pool.wake();
                    });
                }
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
            let mut any = false;
            for (index, lane) in self.inner.lanes.iter().enumerate() {
                for job in self.claim(lane, 16).await? {
                    any = true;
                    if self.play(index, job).await? == Applied::Played {
                        played += 1;
                    }
                }
            }
            if !any {
                return Ok(played);
            }
        }
    }

    async fn claim(&self, lane: &Lane, limit: usize) -> StoreResult<Vec<RobotJob>> {
        let now = self.inner.clock.now();
        let lease_until = now + chrono::Duration::milliseconds(self.inner.cfg.lease_ms as i64);
        let platform = self.inner.platform.clone();
        let levels = lane.spec.levels.clone();
        self.inner
            .store
            .run_solo(move |tx| {
                platform.claim_robot_turns(tx, now, lease_until, levels.clone(), limit)
            })
            .await
    }

    /// Computes one turn on a thread of lane `index`, then plays it.
    async fn play(&self, index: usize, job: RobotJob) -> StoreResult<Applied> {
        let lane = &self.inner.lanes[index];
        if job.turn.attempts > SEARCH_ATTEMPTS {
            return self.apply(lane, job, Searched::GaveUp).await;
        }
        let platform = self.inner.platform.clone();
        let budget_ms = self.inner.cfg.budget_ms;
        let clock = self.inner.clock.clone();
        let searched = job.clone();
        let (searched, spent) = lane
            .run(move || {
                let waited = (clock.now() - searched.turn.due_at)
                    .to_std()
                    .unwrap_or_default();
                let watch = SearchClock::start();
                let move_ = search(&platform, &searched, budget_ms, &watch);
                let spent = Spent {
                    waited,
                    cpu: watch.cpu(),
                    wall: watch.wall(),
                };
                (move_, spent)
            })
            .await
            .ok_or(StoreError::Panicked)?;
        lane.record(&spent);
        self.inner.metrics.robot_turn(lane.spec.name, spent.waited);
        self.apply(lane, job, searched).await
    }

    /// Plays what became of a turn's search, in a transaction of its own.
    async fn apply(&self, lane: &Lane, job: RobotJob, searched: Searched) -> StoreResult<Applied> {
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
            lane = lane.spec.name,
            ?applied,
            "robot turn"
        );
        Ok(applied)
    }
}

/// The robot's move for a job: the game's search, with the budget on the
/// search's clock and a generator of its own, drawn from the match's seed,
/// turn and seat. A match that does not load goes back to be voided, not
/// retried.
fn search(platform: &Platform, job: &RobotJob, budget_ms: u64, watch: &SearchClock) -> Searched {
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
    let budget = Budget {
        millis: budget_ms,
        clock: watch,
        max_nodes: None,
    };
    Searched::Move(state.robot_move(job.turn.seat, job.level, &budget, &mut rng))
}
