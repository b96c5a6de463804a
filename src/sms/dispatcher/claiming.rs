//! Claiming due texts from a store shared by several instances (PostgreSQL).
//!
//! Woken when a transaction of this instance that queued texts commits (it
//! then waits [`LINGER`] for more such wake-ups), and at the latest every few
//! seconds, for other instances' texts and for retries, the loop claims as
//! many due texts as it has free slots. The store
//! hands out only a phone's oldest unsent text and leases it, so texts to one
//! phone go out in order whichever instance sends them.

use std::sync::Arc;
use std::time::Duration;

use tokio::sync::{Semaphore, mpsc, watch};

use super::{Dispatcher, Outcome};
use crate::store::{OutboxText, StoreError};

/// Longest the loop sleeps without looking, a guard against a missed wake-up
/// and the way it hears of texts other instances queued.
const IDLE_RECHECK: Duration = Duration::from_secs(5);
/// How long a wake-up waits for others before claiming: every claim is a
/// transaction of its own, and under load wake-ups come every millisecond.
pub(super) const LINGER: Duration = Duration::from_millis(5);

pub(super) async fn run(
    this: Arc<Dispatcher>,
    slots: Arc<Semaphore>,
    outcomes: mpsc::UnboundedSender<Outcome>,
    mut shutdown: watch::Receiver<bool>,
) {
    while !*shutdown.borrow() {
        let free = slots.available_permits();
        if free == 0 {
            // Every slot is busy; recorded outcomes wake us.
            tokio::select! {
                _ = woken(&this) => tokio::time::sleep(LINGER).await,
                _ = shutdown.changed() => {}
            }
            continue;
        }
        let claimed = match claim(&this, free).await {
            Ok(texts) => texts,
            Err(e) => {
                tracing::error!(error = %e, "cannot claim texts; retrying shortly");
                tokio::time::sleep(Duration::from_millis(500)).await;
                continue;
            }
        };
        if claimed.is_empty() {
            let wait = idle_wait(&this).await;
            tokio::select! {
                _ = woken(&this) => tokio::time::sleep(LINGER).await,
                _ = tokio::time::sleep(wait) => {}
                _ = shutdown.changed() => {}
            }
            continue;
        }
        for text in claimed {
            let Ok(permit) = slots.clone().acquire_owned().await else {
                return;
            };
            let (this, outcomes) = (this.clone(), outcomes.clone());
            tokio::spawn(async move {
                let verdict = this.deliver(&text).await;
                // The slot is free once the provider answered; the outcome is
                // written with others in one transaction.
                drop(permit);
                let _ = outcomes.send(Outcome::of(&text, verdict, this.clock.now()));
            });
        }
    }
}

/// Resolves when this instance committed queued texts or recorded outcomes.
async fn woken(this: &Dispatcher) {
    match this.store.texts_queued() {
        Some(queued) => queued.notified().await,
        // Nothing signals such a store: the idle re-check finds its texts.
        None => std::future::pending().await,
    }
}

async fn claim(this: &Dispatcher, limit: usize) -> Result<Vec<OutboxText>, StoreError> {
    let now = this.clock.now();
    let lease_until = now + chrono::Duration::milliseconds(this.cfg.lease_ms as i64);
    this.store
        .run_solo(move |tx| tx.outbox().claim(now, lease_until, limit))
        .await
}

/// How long to sleep when nothing is due: until the next retry, at most [`IDLE_RECHECK`].
async fn idle_wait(this: &Dispatcher) -> Duration {
    let next = this
        .store
        .run_solo(|tx| tx.outbox().next_due())
        .await
        .ok()
        .flatten();
    match next {
        Some(due) => (due - this.clock.now())
            .to_std()
            .unwrap_or(Duration::ZERO)
            .clamp(Duration::from_millis(1), IDLE_RECHECK),
        None => IDLE_RECHECK,
    }
}
