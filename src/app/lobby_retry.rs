//! The lobby's second look: queues a text or a timer joined while another
//! instance was matching them (PostgreSQL, [`crate::store::Queue::Busy`])
//! are matched again a moment later, once a queue however many found it busy
//! meanwhile.
//!
//! Neither instance's batch saw who the other had just queued, so a group
//! that the two together complete would otherwise wait for the queue's next
//! `P`. A look per busy text, right after its commit, cost PostgreSQL more
//! than the lock wait it replaced (measured in BENCHMARKS.md): the second
//! look waits [`SETTLE`] and takes every queue marked meanwhile at once.

use std::sync::Mutex;
use std::time::Duration;

use tokio::sync::{Notify, watch};

use crate::app::AppState;
use crate::platform::BusyQueue;

/// How long after a queue is found busy it is matched again: several times
/// what a batch takes to commit, so the batch that had the queue has
/// committed, and short beside the wait for other players a lobby means.
pub const SETTLE: Duration = Duration::from_millis(250);

/// Queues found busy and not yet matched again.
#[derive(Debug, Default)]
pub struct BusyQueues {
    queues: Mutex<Vec<BusyQueue>>,
    marked: Notify,
}

impl BusyQueues {
    /// Marks queues found busy by a unit of work that has committed.
    pub fn add(&self, queues: Vec<BusyQueue>) {
        if queues.is_empty() {
            return;
        }
        let mut marked = self.queues.lock().unwrap_or_else(|e| e.into_inner());
        for queue in queues {
            queue.mark_in(&mut marked);
        }
        drop(marked);
        self.marked.notify_one();
    }

    /// Every queue marked so far, unmarked.
    pub fn take(&self) -> Vec<BusyQueue> {
        std::mem::take(&mut *self.queues.lock().unwrap_or_else(|e| e.into_inner()))
    }
}

/// Matches marked queues again, [`SETTLE`] after the first mark of a spell,
/// until `shutdown`. A mark left at shutdown is matched by the queue's next
/// `P`, on any instance.
pub async fn run(state: AppState, mut shutdown: watch::Receiver<bool>) {
    while !*shutdown.borrow() {
        tokio::select! {
            _ = state.busy_queues().marked.notified() => {}
            _ = shutdown.changed() => continue,
        }
        tokio::select! {
            _ = tokio::time::sleep(SETTLE) => {}
            _ = shutdown.changed() => continue,
        }
        state.match_busy_queues().await;
    }
}
