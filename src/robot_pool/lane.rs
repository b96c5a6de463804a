//! A lane of the robot pool: robots of some levels, searched on threads of
//! their own at a lower OS priority than the gateway, first come, first served.
//!
//! Lanes keep a cheap robot's turn from queueing behind deep searches: a
//! level-1 move costs microseconds, a level-3 move its whole budget, and with
//! a hundred deep matches due, one queue made every robot wait tens of
//! seconds. The priority keeps the searches off the cores the players' texts
//! need: the kernel gives a search thread the time the gateway leaves.

use std::collections::VecDeque;
use std::ops::RangeInclusive;
use std::sync::atomic::AtomicUsize;
use std::sync::{Arc, Condvar, Mutex, OnceLock};
use std::time::{Duration, Instant};

use crate::games::{Level, Stopwatch};

/// One search, boxed for a worker thread.
type Task = Box<dyn FnOnce() + Send>;

/// How a lane is made.
pub(super) struct LaneSpec {
    pub name: &'static str,
    /// Robots of these levels are searched here.
    pub levels: RangeInclusive<Level>,
    /// The search threads' priority.
    pub priority: Priority,
}

/// A lane's threads' place beside the gateway's own (on Linux; elsewhere
/// they run at the gateway's priority).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Priority {
    /// A nice value above the gateway's 0: the kernel gives the thread a
    /// smaller share when the cores are contended.
    Nice(i32),
    /// `SCHED_IDLE`: only the time nothing else wants.
    Idle,
}

/// The lanes: cheap robots, and the ones that think for their whole budget.
pub(super) static LANES: [LaneSpec; 2] = [
    LaneSpec {
        name: "quick",
        levels: 0..=2,
        priority: Priority::Nice(10),
    },
    LaneSpec {
        name: "deep",
        levels: 3..=Level::MAX,
        priority: Priority::Idle,
    },
];

pub(super) struct Lane {
    pub spec: &'static LaneSpec,
    threads: usize,
    queue: Arc<Queue>,
    workers: OnceLock<()>,
    /// Turns claimed for this lane and not yet played.
    pub in_flight: AtomicUsize,
    /// Most turns claimed at once: a few per search thread, so that claiming
    /// and playing overlap with the searches, and few enough that a claimed
    /// turn waits for a thread much less than its lease.
    pub max_in_flight: usize,
    pub figures: Mutex<Figures>,
}

/// What a lane has done, in milliseconds.
pub(super) struct Figures {
    /// From due to the search's start.
    pub waits: hdrhistogram::Histogram<u64>,
    /// The search thread's CPU time.
    pub cpu: hdrhistogram::Histogram<u64>,
    /// The search's wall time.
    pub wall: hdrhistogram::Histogram<u64>,
}

/// What one search took.
pub(super) struct Spent {
    pub waited: Duration,
    pub cpu: Duration,
    pub wall: Duration,
}

/// A lane's figures, for the admin API and the bench.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct LaneStats {
    pub lane: &'static str,
    pub turns: u64,
    pub wait_p50_ms: u64,
    pub wait_p99_ms: u64,
    /// Half the searches used at most this much of their thread's CPU.
    pub search_cpu_p50_ms: u64,
    /// The least CPU a search had: below its budget when the wall clock cut it.
    pub search_cpu_min_ms: u64,
    pub search_wall_p50_ms: u64,
    pub search_wall_max_ms: u64,
}

/// Milliseconds from 1 to an hour, two significant digits.
pub(super) fn histogram() -> hdrhistogram::Histogram<u64> {
    hdrhistogram::Histogram::new_with_bounds(1, 3_600_000, 2).expect("histogram bounds are valid")
}

impl Lane {
    pub fn new(spec: &'static LaneSpec, threads: usize) -> Lane {
        Lane {
            spec,
            threads,
            queue: Arc::new(Queue::default()),
            workers: OnceLock::new(),
            in_flight: AtomicUsize::new(0),
            max_in_flight: 4 * threads,
            figures: Mutex::new(Figures {
                waits: histogram(),
                cpu: histogram(),
                wall: histogram(),
            }),
        }
    }

    /// Runs `search` on one of the lane's threads; `None` if it panicked.
    pub async fn run<T: Send + 'static>(
        &self,
        search: impl FnOnce() -> T + Send + 'static,
    ) -> Option<T> {
        self.workers.get_or_init(|| self.start_workers());
        let (tx, rx) = tokio::sync::oneshot::channel();
        self.queue.push(Box::new(move || {
            let _ = tx.send(search());
        }));
        rx.await.ok()
    }

    fn start_workers(&self) {
        for i in 0..self.threads {
            let queue = self.queue.clone();
            let priority = self.spec.priority;
            let started = std::thread::Builder::new()
                .name(format!("robot-{}-{i}", self.spec.name))
                .spawn(move || {
                    lower_priority(priority);
                    while let Some(task) = queue.pop() {
                        // A panicking search drops its answer channel, which
                        // its caller reads as a failed turn; the thread goes on.
                        let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(task));
                    }
                });
            if let Err(e) = started {
                tracing::error!(error = %e, lane = self.spec.name, "cannot start a robot search thread");
            }
        }
    }

    pub fn record(&self, spent: &Spent) {
        let mut f = self.figures.lock().expect("robot lane figures");
        let ms = |d: Duration| (d.as_millis() as u64).max(1);
        let _ = f.waits.record(ms(spent.waited));
        let _ = f.cpu.record(ms(spent.cpu));
        let _ = f.wall.record(ms(spent.wall));
    }

    pub fn stats(&self) -> LaneStats {
        let f = self.figures.lock().expect("robot lane figures");
        LaneStats {
            lane: self.spec.name,
            turns: f.waits.len(),
            wait_p50_ms: f.waits.value_at_quantile(0.5),
            wait_p99_ms: f.waits.value_at_quantile(0.99),
            search_cpu_p50_ms: f.cpu.value_at_quantile(0.5),
            search_cpu_min_ms: f.cpu.min(),
            search_wall_p50_ms: f.wall.value_at_quantile(0.5),
            search_wall_max_ms: f.wall.max(),
        }
    }
}

impl Drop for Lane {
    /// The threads finish what is queued and end.
    fn drop(&mut self) {
        self.queue.close();
    }
}

#[derive(Default)]
struct Queue {
    tasks: Mutex<(VecDeque<Task>, bool)>,
    ready: Condvar,
}

impl Queue {
    fn push(&self, task: Task) {
        self.tasks
            .lock()
            .expect("robot lane queue")
            .0
            .push_back(task);
        self.ready.notify_one();
    }

    /// The next task; `None` once the lane is closed and nothing is left.
    fn pop(&self) -> Option<Task> {
        let mut tasks = self.tasks.lock().expect("robot lane queue");
        loop {
            if let Some(task) = tasks.0.pop_front() {
                return Some(task);
            }
            if tasks.1 {
                return None;
            }
            tasks = self.ready.wait(tasks).expect("robot lane queue");
        }
    }

    fn close(&self) {
        self.tasks.lock().expect("robot lane queue").1 = true;
        self.ready.notify_all();
    }
}

/// Lowers the calling thread's priority (on Linux a nice value and a
/// scheduling policy belong to the thread). Lowering needs no privilege; if
/// the kernel refuses anyway, the search runs at the gateway's priority.
fn lower_priority(priority: Priority) {
    #[cfg(target_os = "linux")]
    {
        // SAFETY: gettid, setpriority and sched_setscheduler take plain
        // integers and a parameter block that lives across the call.
        let refused = unsafe {
            match priority {
                Priority::Nice(nice) => {
                    libc::setpriority(libc::PRIO_PROCESS, libc::gettid() as libc::id_t, nice) != 0
                }
                Priority::Idle => {
                    let param = libc::sched_param { sched_priority: 0 };
                    libc::sched_setscheduler(0, libc::SCHED_IDLE, &param) != 0
                }
            }
        };
        if refused {
            tracing::warn!(?priority, "cannot lower a robot search thread's priority");
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = priority;
}

/// The calling thread's CPU time so far.
fn thread_cpu() -> Duration {
    let mut t = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `t` is a valid timespec for the call to fill.
    if unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut t) } != 0 {
        return Duration::ZERO;
    }
    Duration::new(t.tv_sec as u64, t.tv_nsec as u32)
}

/// How much longer than its budget a search may take on the wall clock when
/// the gateway leaves its thread little CPU.
pub(super) const WALL_CAP: u32 = 3;

/// A search's clock: the CPU time its thread has spent since the search
/// started, so that a search beside a busy gateway computes as much as on an
/// idle machine (its level's strength holds) and only answers later; and,
/// since a player is waiting, never more than [`WALL_CAP`] times its budget
/// on the wall clock.
pub(super) struct SearchClock {
    cpu: Duration,
    wall: Instant,
}

impl SearchClock {
    /// Starts now, on the thread that searches.
    pub fn start() -> SearchClock {
        SearchClock {
            cpu: thread_cpu(),
            wall: Instant::now(),
        }
    }

    pub fn cpu(&self) -> Duration {
        thread_cpu().saturating_sub(self.cpu)
    }

    pub fn wall(&self) -> Duration {
        self.wall.elapsed()
    }
}

impl Stopwatch for SearchClock {
    fn elapsed_ms(&self) -> u64 {
        let cpu = self.cpu().as_millis() as u64;
        let wall = (self.wall().as_millis() / u128::from(WALL_CAP)) as u64;
        cpu.max(wall)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_search_clock_counts_the_threads_cpu_not_its_sleep() {
        let clock = SearchClock::start();
        std::thread::sleep(Duration::from_millis(60));
        assert!(clock.cpu() < Duration::from_millis(30), "{:?}", clock.cpu());
        assert!(clock.wall() >= Duration::from_millis(60));
        // Asleep, only the wall clock moves, at a third of its pace.
        let elapsed = clock.elapsed_ms();
        assert!((20..60).contains(&elapsed), "{elapsed}");
        let spin = Instant::now();
        while clock.cpu() < Duration::from_millis(40) {
            assert!(
                spin.elapsed() < Duration::from_secs(20),
                "the CPU clock does not move"
            );
        }
        assert!(clock.elapsed_ms() >= 40);
    }

    #[tokio::test]
    async fn a_lane_runs_its_searches_on_its_own_threads_and_survives_a_panic() {
        static SPEC: LaneSpec = LaneSpec {
            name: "test",
            levels: 1..=1,
            priority: Priority::Nice(5),
        };
        let lane = Lane::new(&SPEC, 2);
        let name = lane
            .run(|| std::thread::current().name().map(str::to_string))
            .await;
        assert!(matches!(name, Some(Some(n)) if n.starts_with("robot-test-")));
        #[cfg(target_os = "linux")]
        {
            // SAFETY: getpriority takes plain integers; errno is not needed
            // as 5 is no error value.
            let nice = lane
                .run(|| unsafe {
                    libc::getpriority(libc::PRIO_PROCESS, libc::gettid() as libc::id_t)
                })
                .await;
            assert_eq!(nice, Some(5), "the lane's threads run at its nice value");
            static IDLE: LaneSpec = LaneSpec {
                name: "idle",
                levels: 1..=1,
                priority: Priority::Idle,
            };
            let idle = Lane::new(&IDLE, 1);
            // SAFETY: sched_getscheduler takes a plain integer.
            let policy = idle.run(|| unsafe { libc::sched_getscheduler(0) }).await;
            assert_eq!(policy, Some(libc::SCHED_IDLE));
        }
        assert_eq!(lane.run(|| -> u8 { panic!("a broken search") }).await, None);
        let answers = futures_util::future::join_all((0..8).map(|i| lane.run(move || i * 2))).await;
        assert_eq!(answers, (0..8).map(|i| Some(i * 2)).collect::<Vec<_>>());
    }
}
