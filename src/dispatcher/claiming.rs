//! Claiming due texts from a store shared by several instances (PostgreSQL).
//!
//! The loop claims as many due texts as it has free slots, and claims again
//! at once only while claims come back full. Once one took every text due,
//! it sleeps until a transaction of this instance that queued texts or
//! recorded sends commits (but claims at most once every [`LINGER`]), until
//! the next retry or lease falls due (looked up only after a quiet spell),
//! and at the latest every few seconds, for other instances' texts. The
//! store hands out only a phone's oldest unsent text and leases it, so texts
//! to one phone go out in order whichever instance sends them; a text held
//! back so is claimed after the record of the one before it, which wakes
//! the instance that sent that one.

use std::sync::Arc;
use std::time::Duration;

use chrono::{DateTime, Utc};
use tokio::sync::{Semaphore, mpsc, watch};
use tokio::time::Instant;

use super::{Dispatcher, Outcome};
use crate::store::{OutboxText, StoreError};

/// Longest the loop sleeps without looking, a guard against a missed wake-up
/// and the way it hears of texts other instances queued.
const IDLE_RECHECK: Duration = Duration::from_secs(5);
/// The least time from one claim to the next after a wake-up: every claim is
/// a transaction of its own, and under load wake-ups come every millisecond.
/// A wake-up after a quiet spell claims at once.
pub(super) const LINGER: Duration = Duration::from_millis(5);
/// How long a loop that took every text due waits for a wake-up before it
/// looks when the next retry or lease falls due: a retry waits at most this
/// much longer, beside a backoff of half a second and more.
const QUIET: Duration = Duration::from_millis(50);

pub(super) async fn run(
    this: Arc<Dispatcher>,
    slots: Arc<Semaphore>,
    outcomes: mpsc::UnboundedSender<Outcome>,
    mut shutdown: watch::Receiver<bool>,
) {
    let mut last_claim = Instant::now();
    while !*shutdown.borrow() {
        let free = slots.available_permits();
        if free == 0 {
            // Every slot is busy; recorded outcomes wake us.
            tokio::select! {
                _ = woken(&this) => tokio::time::sleep_until(last_claim + LINGER).await,
                _ = shutdown.changed() => {}
            }
            continue;
        }
        last_claim = Instant::now();
        let now = this.clock.now();
        let claimed = match claim(&this, now, free).await {
            Ok(texts) => texts,
            Err(e) => {
                tracing::error!(error = %e, "cannot claim texts; retrying shortly");
                tokio::time::sleep(Duration::from_millis(500)).await;
                continue;
            }
        };
        // Fewer than asked for: every text due was taken but those another
        // claim holds or an unsent one before them holds back, which its
        // sender's record wakes someone for. Claiming again at once would
        // find nothing, at the price of a transaction.
        let drained = claimed.len() < free;
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
        if drained {
            sleep_drained(&this, now, last_claim, &mut shutdown).await;
        }
    }
}

/// After a claim at `claimed_at` took every text due: sleeps until a commit
/// wakes the loop, and then until [`LINGER`] after `last_claim`, or else
/// until the next retry or lease falls due. That is looked up only after
/// [`QUIET`] without a wake-up: under load a commit nearly always comes
/// first, and the look would cost the store a statement per claim.
async fn sleep_drained(
    this: &Dispatcher,
    claimed_at: DateTime<Utc>,
    last_claim: Instant,
    shutdown: &mut watch::Receiver<bool>,
) {
    let woke = tokio::select! {
        _ = woken(this) => true,
        _ = tokio::time::sleep(QUIET) => false,
        _ = shutdown.changed() => return,
    };
    if !woke {
        let wait = idle_wait(this, claimed_at).await;
        tokio::select! {
            _ = woken(this) => {}
            _ = tokio::time::sleep(wait) => return,
            _ = shutdown.changed() => return,
        }
    }
    tokio::time::sleep_until(last_claim + LINGER).await;
}

/// Resolves when this instance committed queued texts or recorded outcomes.
async fn woken(this: &Dispatcher) {
    match this.store.texts_queued() {
        Some(queued) => queued.notified().await,
        // Nothing signals such a store: the idle re-check finds its texts.
        None => std::future::pending().await,
    }
}

async fn claim(
    this: &Dispatcher,
    now: DateTime<Utc>,
    limit: usize,
) -> Result<Vec<OutboxText>, StoreError> {
    let lease_until = now + chrono::Duration::milliseconds(this.cfg.lease_ms as i64);
    this.store
        // One statement, atomic on its own: no BEGIN and COMMIT around it.
        .run_unframed(move |tx| tx.outbox().claim(now, lease_until, limit))
        .await
}

/// How long to sleep after a claim at `claimed_at` took every text due:
/// until the next retry or lease falls due, at most [`IDLE_RECHECK`].
async fn idle_wait(this: &Dispatcher, claimed_at: DateTime<Utc>) -> Duration {
    let next = this
        .store
        .run_unframed(move |tx| tx.outbox().next_due_after(claimed_at))
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
