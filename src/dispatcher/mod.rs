//! The outbox dispatcher: takes committed texts, sends them through the provider, records the outcome.
//!
//! Texts to one phone go out one at a time in the order they were written;
//! different phones are served concurrently, up to `sms.concurrency` sends at
//! once. Where the texts come from depends on the store:
//!
//! - `fed`: a store written by this process alone (SQLite) tells the
//!   dispatcher of every commit; each phone's texts wait in memory, so sending
//!   costs the database one write per text (its outcome) and nothing per claim.
//! - `claiming`: a store shared by several instances (PostgreSQL) is asked
//!   for due texts, at most one per phone, leased so that a dead instance's
//!   texts go to the others.
//!
//! Either way a text is an outbox row first, so a crash loses nothing: at
//! worst a text that left just before the crash is sent again.

use std::sync::Arc;
use std::time::Duration;

use chrono::{DateTime, Utc};
use rand::Rng;
use tokio::sync::{Semaphore, mpsc, watch};

mod claiming;
mod fed;
mod rate;

use crate::clock::Clock;
use crate::config::SmsConfig;
use crate::metrics::{Metrics, OutboundStatus};
use crate::providers::{Provider, SendError};
use crate::store::{OutboxText, SentText, Store, Tx};
use rate::SendRate;

/// Times the outcome of a send is written before giving up (about 4.5 s in all).
const RECORD_ATTEMPTS: u32 = 6;

/// Outcomes written in one transaction at most.
const RECORD_BATCH: usize = 512;

/// A finished send on its way to the outbox.
struct Outcome {
    id: i64,
    to: String,
    /// Attempts made so far, this one included.
    attempts: u32,
    verdict: Verdict,
    at: DateTime<Utc>,
}

impl Outcome {
    fn of(text: &OutboxText, verdict: Verdict, at: DateTime<Utc>) -> Outcome {
        Outcome {
            id: text.id,
            to: text.to.clone(),
            attempts: text.attempts,
            verdict,
            at,
        }
    }
}

/// What became of one send, to be written to the outbox.
#[derive(Clone, Debug)]
enum Verdict {
    Sent(Option<String>),
    Retry(String, DateTime<Utc>),
    /// The reason, and whether the recipient opted out at the provider.
    Failed(String, bool),
}

pub struct Dispatcher {
    store: Store,
    provider: Arc<Provider>,
    cfg: SmsConfig,
    clock: Arc<dyn Clock>,
    rate: SendRate,
    metrics: Arc<Metrics>,
}

impl Dispatcher {
    pub fn new(
        store: Store,
        provider: Provider,
        cfg: SmsConfig,
        clock: Arc<dyn Clock>,
        metrics: Arc<Metrics>,
    ) -> Dispatcher {
        Dispatcher {
            store,
            provider: Arc::new(provider),
            rate: SendRate::new(cfg.parts_per_second),
            cfg,
            clock,
            metrics,
        }
    }

    /// Runs until `shutdown` turns true. Texts in flight then finish; the rest
    /// wait in the outbox for the next start (or, claimed, for their lease to end).
    pub async fn run(self, shutdown: watch::Receiver<bool>) {
        let this = Arc::new(self);
        let slots = Arc::new(Semaphore::new(this.cfg.concurrency.max(1)));
        let (outcomes, recorded) = mpsc::unbounded_channel();
        let feed = this.store.take_outbox_feed();
        // Where every record is a transaction of its own beside the writer's
        // batches (a claiming store), a few milliseconds' outcomes gather first.
        let linger = if feed.is_some() {
            Duration::ZERO
        } else {
            claiming::LINGER
        };
        let recorder = tokio::spawn(this.clone().record_outcomes(recorded, linger));
        match feed {
            Some(feed) => fed::run(this, feed, slots, outcomes, shutdown).await,
            None => claiming::run(this, slots, outcomes, shutdown).await,
        }
        let _ = recorder.await;
    }

    /// Writes send outcomes as they come, many per transaction, then wakes the
    /// claim loop: a phone's next text is claimable once its previous one is recorded.
    async fn record_outcomes(
        self: Arc<Self>,
        mut outcomes: mpsc::UnboundedReceiver<Outcome>,
        linger: Duration,
    ) {
        let mut batch = Vec::with_capacity(RECORD_BATCH);
        while let Some(first) = outcomes.recv().await {
            batch.push(first);
            if !linger.is_zero() {
                tokio::time::sleep(linger).await;
            }
            while batch.len() < RECORD_BATCH {
                match outcomes.try_recv() {
                    Ok(outcome) => batch.push(outcome),
                    Err(_) => break,
                }
            }
            self.record(std::mem::take(&mut batch)).await;
            // The claiming loop may claim these phones' next texts now.
            if let Some(queued) = self.store.texts_queued() {
                queued.notify_one();
            }
        }
    }

    /// Sends one text and says what became of it, and counts it.
    async fn deliver(&self, text: &OutboxText) -> Verdict {
        let verdict = self.send(text).await;
        let status = match verdict {
            Verdict::Sent(_) => OutboundStatus::Sent,
            Verdict::Retry(..) => OutboundStatus::Failed,
            Verdict::Failed(..) => OutboundStatus::Parked,
        };
        self.metrics
            .outbound(self.provider.route(&text.to), status, 1);
        verdict
    }

    async fn send(&self, text: &OutboxText) -> Verdict {
        self.rate.wait(&text.from, text.parts).await;
        let timeout = Duration::from_millis(self.cfg.send_timeout_ms);
        // A provider's failure comes scrubbed of every configured secret
        // (`Provider::send`), so what is logged and stored below is clean.
        let outcome = match tokio::time::timeout(timeout, self.provider.send(text)).await {
            Ok(result) => result,
            Err(_) => Err(SendError::Retry {
                reason: "send timed out".into(),
                after: None,
            }),
        };
        let id = text.id;
        match outcome {
            Ok(accepted) => Verdict::Sent(accepted.provider_ref),
            Err(SendError::Retry { reason, after }) if text.attempts < self.cfg.max_attempts => {
                tracing::warn!(text = id, attempt = text.attempts, %reason, "send failed; will retry");
                Verdict::Retry(
                    reason,
                    self.clock.now() + self.backoff(text.attempts, after),
                )
            }
            Err(e) => {
                let reason = match &e {
                    SendError::Retry { reason, .. } => {
                        format!("gave up after {} attempts: {reason}", text.attempts)
                    }
                    other => other.to_string(),
                };
                tracing::warn!(text = id, %reason, "text parked as failed");
                Verdict::Failed(reason, matches!(e, SendError::RecipientOptedOut))
            }
        }
    }

    /// Writes a batch of outcomes at once. The texts have left already,
    /// so a failure to record is retried for a while: giving up means their leases
    /// run out and they are sent again.
    async fn record(&self, batch: Vec<Outcome>) {
        // Sends alone are recorded by one statement, which needs no
        // transaction around it; its early delivery reports, applied after
        // it, are found again by the next record should one fail.
        let only_sends = batch.iter().all(|o| matches!(o.verdict, Verdict::Sent(_)));
        let batch = Arc::new(batch);
        let mut last_error = None;
        for attempt in 1..=RECORD_ATTEMPTS {
            let outcomes = batch.clone();
            // Beside the platform's batches (PostgreSQL): recording sends is the
            // dispatcher's bookkeeping and need not wait for the players' moves.
            let work = move |tx: &mut dyn Tx| {
                let sent: Vec<SentText<'_>> = outcomes
                    .iter()
                    .filter_map(|o| match &o.verdict {
                        Verdict::Sent(reference) => Some(SentText {
                            id: o.id,
                            attempts: o.attempts,
                            provider_ref: reference.as_deref(),
                            at: o.at,
                        }),
                        _ => None,
                    })
                    .collect();
                tx.outbox().mark_sent(&sent)?;
                for o in outcomes.iter() {
                    let (id, attempts) = (o.id, o.attempts);
                    match &o.verdict {
                        Verdict::Sent(_) => {}
                        Verdict::Retry(reason, next) => {
                            tx.outbox().mark_retry(id, attempts, reason, *next, o.at)?
                        }
                        Verdict::Failed(reason, opted_out) => {
                            tx.outbox().mark_failed(id, attempts, reason, o.at)?;
                            if *opted_out {
                                mark_opted_out(tx, &o.to, o.at)?;
                            }
                        }
                    }
                }
                Ok(())
            };
            let result = if only_sends {
                self.store.run_unframed(work).await
            } else {
                self.store.run_solo(work).await
            };
            match result {
                Ok(()) => return,
                Err(e) => last_error = Some(e),
            }
            tokio::time::sleep(Duration::from_millis(200 * u64::from(attempt))).await;
        }
        if let Some(e) = last_error {
            // At-least-once is the best a store that will not record allows.
            tracing::error!(texts = batch.len(), error = %e, "cannot record send outcomes; the texts will be sent again");
        }
    }

    /// Exponential backoff with full jitter, never sooner than the provider asked.
    fn backoff(&self, attempts: u32, at_least: Option<Duration>) -> chrono::Duration {
        let base = self.cfg.retry_base_ms.max(1);
        let cap = self.cfg.retry_max_ms.max(base);
        let ceiling = base
            .saturating_mul(1u64 << attempts.saturating_sub(1).min(20))
            .min(cap);
        let jittered = rand::thread_rng().gen_range(ceiling / 2..=ceiling);
        let floor = at_least.map(|d| d.as_millis() as u64).unwrap_or(0);
        chrono::Duration::milliseconds(jittered.max(floor) as i64)
    }
}

/// The provider says the number opted out: treat it as a STOP we did not hear.
fn mark_opted_out(
    tx: &mut dyn Tx,
    phone: &str,
    now: DateTime<Utc>,
) -> crate::store::StoreResult<()> {
    if let Some(mut player) = tx.players().by_phone(phone)? {
        player.opted_out = true;
        tx.players().save(&player, now)?;
    }
    tx.outbox().cancel_to(phone, now)?;
    Ok(())
}
