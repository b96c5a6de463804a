//! The application's state, one place below every web area: what a request
//! handler needs (`AppState`), the one error type it answers with
//! (`AppError`, internals logged and never shown), and what the service does
//! with a text that comes in (`receive`), its flood limits and the lobbies'
//! second look. The web areas (`providers`, `console`, `player_pages`) and
//! the router (`http`) import it; it imports none of them.

use std::sync::Arc;

use crate::clock::Clock;
use crate::config::Config;
use crate::inbound::{InboundMessage, Part};
use crate::metrics::{InboundOutcome, Metrics, OutboundStatus};
use crate::platform::{Answer, AnswerRule, Handled, Platform};
use crate::robot_pool::RobotPool;
use crate::store::{Fragment, PartArrival, Store};

pub mod budget;
pub mod error;
pub mod flood;
pub mod lobby_retry;
pub mod tokens;

pub use error::AppError;
pub use flood::Flood;
use lobby_retry::BusyQueues;

/// Everything a request handler needs; cheap to clone.
#[derive(Clone)]
pub struct AppState {
    inner: Arc<Inner>,
}

struct Inner {
    cfg: Arc<Config>,
    store: Store,
    platform: Platform,
    clock: Arc<dyn Clock>,
    robots: RobotPool,
    flood: Flood,
    metrics: Arc<Metrics>,
    busy_queues: BusyQueues,
}

/// What became of an inbound text.
#[derive(Debug)]
pub enum Receipt {
    /// Applied now: its effects and replies are committed.
    Applied(Handled),
    /// Its id was seen before: nothing done again.
    Duplicate,
    /// A part of a long text, kept until the others arrive.
    Waiting,
    /// Over its phone's flood limit: dropped unrecorded (the sender told so
    /// once a window). Acknowledged all the same, so the provider does not
    /// retry; `retry_after` until the phone's next text would be read.
    Dropped { retry_after: std::time::Duration },
}

impl AppState {
    /// The handlers' state; built by the gateway (`gateway.rs`), the one wiring.
    pub fn new(
        cfg: Arc<Config>,
        store: Store,
        clock: Arc<dyn Clock>,
        platform: Platform,
        robots: RobotPool,
        metrics: Arc<Metrics>,
    ) -> AppState {
        AppState {
            inner: Arc::new(Inner {
                store,
                platform,
                flood: Flood::new(&cfg.limits, clock.clone()),
                clock,
                robots,
                metrics,
                busy_queues: BusyQueues::default(),
                cfg,
            }),
        }
    }

    pub fn robots(&self) -> &RobotPool {
        &self.inner.robots
    }

    pub fn config(&self) -> &Config {
        &self.inner.cfg
    }

    pub fn store(&self) -> &Store {
        &self.inner.store
    }

    pub fn clock(&self) -> &Arc<dyn Clock> {
        &self.inner.clock
    }

    pub fn platform(&self) -> &Platform {
        &self.inner.platform
    }

    /// What this instance counts, for `/metrics`.
    pub fn metrics(&self) -> &Metrics {
        &self.inner.metrics
    }

    /// `/metrics`' text: this instance's counts, and what the database
    /// holds (the same on every instance), read off the writer.
    pub async fn scrape(&self) -> Result<String, crate::store::StoreError> {
        let platform = self.inner.platform.clone();
        let now = self.inner.clock.now();
        let summary = self
            .inner
            .store
            .read(move |tx| crate::platform::counts::counts(&platform, tx, now))
            .await?;
        self.inner.metrics.database(&summary);
        self.inner
            .metrics
            .writer_queue(self.inner.store.queue_depth());
        Ok(self.inner.metrics.render())
    }

    /// The flood limits and what they held back.
    pub fn flood(&self) -> &Flood {
        &self.inner.flood
    }

    /// Applies an inbound text durably: it returns once the message, its
    /// effects and every reply are committed, so answering 200 afterwards never
    /// acknowledges something that could be lost.
    ///
    /// A text over its phone's flood limit is dropped before the store sees
    /// it (a flood costs the writer nothing), and the first of a window brings
    /// one notice; a repeat the store recognises costs the phone nothing. A
    /// writer whose queue is full is [`AppError`] 503 at once: the provider
    /// retries, with the same id, so nothing is applied twice.
    pub async fn receive(&self, msg: InboundMessage) -> Result<Receipt, AppError> {
        self.receive_answering(msg, None)
            .await
            .map(|(receipt, _)| receipt)
    }

    /// [`AppState::receive`], where a lone reply to the sender may ride on
    /// the webhook's answer under `rule` (Kannel); the answer, if one does.
    pub async fn receive_answering(
        &self,
        msg: InboundMessage,
        rule: Option<AnswerRule>,
    ) -> Result<(Receipt, Option<Answer>), AppError> {
        let msg = msg.without_nul();
        let provider = msg.provider;
        let verdict = self.inner.flood.phone(&msg.from);
        if let Some(retry_after) = self.dropped(verdict, &msg).await? {
            self.inner
                .metrics
                .inbound(provider, InboundOutcome::Limited);
            return Ok((Receipt::Dropped { retry_after }, None));
        }
        let platform = self.inner.platform.clone();
        let now = self.inner.clock.now();
        let from = msg.from.clone();
        let outcome = self
            .inner
            .store
            .try_run(move |tx| platform.handle_inbound_answering(tx, &msg, now, rule.as_ref()))
            .await;
        let repeat = outcome
            .as_ref()
            .map_or(true, |(handled, _)| handled.duplicate);
        if repeat && verdict == (flood::PhoneVerdict::Pass { charged: true }) {
            self.inner.flood.refund(&from);
        }
        let (handled, answer) = outcome?;
        Ok((self.settle(provider, handled), answer))
    }

    /// Lobby queues found busy, to match again shortly ([`crate::app::lobby_retry`]).
    pub fn busy_queues(&self) -> &BusyQueues {
        &self.inner.busy_queues
    }

    /// Matches again every lobby queue found busy so far, each in a
    /// transaction of its own that waits for the other instance's turn;
    /// how many. A failure is logged: the queue's next `P` matches it too.
    pub async fn match_busy_queues(&self) -> usize {
        let queues = self.inner.busy_queues.take();
        let count = queues.len();
        for queue in queues {
            let platform = self.inner.platform.clone();
            let now = self.inner.clock.now();
            let matched = self
                .inner
                .store
                .run_solo(move |tx| platform.match_queue(tx, &queue, now))
                .await;
            match matched {
                Ok((robots_due, tally, still_busy)) => {
                    self.inner.metrics.second_look(true);
                    self.inner.metrics.matches(&tally);
                    self.inner.busy_queues.add(still_busy);
                    if robots_due {
                        self.inner.robots.wake();
                    }
                }
                Err(e) => {
                    self.inner.metrics.second_look(false);
                    tracing::error!(error = %e, "matching a lobby queue again failed");
                }
            }
        }
        count
    }

    /// Whether a text the flood limit passed judgement on is to be dropped
    /// (then, how long until the phone's next is read); the first of a
    /// window brings one notice.
    async fn dropped(
        &self,
        verdict: flood::PhoneVerdict,
        msg: &InboundMessage,
    ) -> Result<Option<std::time::Duration>, AppError> {
        let flood::PhoneVerdict::Drop {
            notify,
            retry_after,
        } = verdict
        else {
            return Ok(None);
        };
        tracing::debug!(phone = %msg.from, notify, "text dropped: over the phone's limit");
        if notify {
            let platform = self.inner.platform.clone();
            let now = self.inner.clock.now();
            let (from, to) = (msg.from.clone(), msg.to.clone());
            self.inner
                .store
                .try_run(move |tx| platform.tell_flooding(tx, &from, &to, now))
                .await?;
        }
        Ok(Some(retry_after))
    }

    /// After a text's commit: wakes the robots it made due, hands on the
    /// lobby queues it found busy, and counts it.
    fn settle(&self, provider: &'static str, mut handled: Handled) -> Receipt {
        self.inner
            .busy_queues
            .add(std::mem::take(&mut handled.queues_to_match));
        self.inner.metrics.matches(&handled.tally);
        if handled.robots_due {
            self.inner.robots.wake();
        }
        if handled.duplicate {
            self.inner.metrics.inbound(provider, InboundOutcome::Repeat);
            Receipt::Duplicate
        } else {
            self.inner
                .metrics
                .inbound(provider, InboundOutcome::Applied);
            Receipt::Applied(handled)
        }
    }
}

impl AppState {
    /// Takes one part of a long text durably, once by its own id, and, with
    /// the last part in, applies the whole text as one. Its id is made from
    /// its first part's, so that the same parts replayed in another order
    /// are the same text. The flood limit counts the text once, not each
    /// part, and a repeated part costs nothing.
    pub async fn receive_part(
        &self,
        part_msg: InboundMessage,
        part: Part,
    ) -> Result<Receipt, AppError> {
        let part_msg = part_msg.without_nul();
        let part = Part {
            reference: part.reference.replace('\0', "\u{fffd}"),
            ..part
        };
        let provider = part_msg.provider;
        let metrics = &self.inner.metrics;
        let flood = &self.inner.flood;
        let verdict = flood.part(&part_msg.from, &part.reference, part.total);
        if let Some(retry_after) = self.dropped(verdict, &part_msg).await? {
            metrics.inbound(provider, InboundOutcome::Limited);
            return Ok(Receipt::Dropped { retry_after });
        }
        let platform = self.inner.platform.clone();
        let now = self.inner.clock.now();
        let phone = part_msg.from.clone();
        let fragment = Fragment {
            provider: part_msg.provider.to_string(),
            provider_id: part_msg.provider_id.clone(),
            from: part_msg.from.clone(),
            reference: part.reference.clone(),
            part: part.number,
            total: part.total,
            text: part_msg.text.clone(),
            received_at: part_msg.received_at,
        };
        let outcome = self
            .inner
            .store
            .try_run(move |tx| match tx.fragments().add(&fragment)? {
                PartArrival::Repeat => Ok(None),
                PartArrival::Waiting { .. } => Ok(Some(None)),
                PartArrival::Whole { text, first_id } => {
                    let whole = InboundMessage {
                        provider_id: whole_text_id(&first_id),
                        text,
                        ..part_msg.clone()
                    };
                    platform.handle_inbound(tx, &whole, now).map(Some).map(Some)
                }
            })
            .await;
        // A part not taken (a repeat, or the store failed) gives back the
        // charge it made; a whole text frees its reference for a new one.
        let charged = verdict == (flood::PhoneVerdict::Pass { charged: true });
        let close = |refund: bool| flood.close_part(&phone, &part.reference, part.total, refund);
        Ok(match outcome {
            Err(e) => {
                close(charged);
                return Err(e.into());
            }
            Ok(None) => {
                close(charged);
                metrics.inbound(provider, InboundOutcome::Repeat);
                Receipt::Duplicate
            }
            Ok(Some(None)) => {
                metrics.inbound(provider, InboundOutcome::PartWaiting);
                Receipt::Waiting
            }
            Ok(Some(Some(handled))) => {
                close(false);
                self.settle(provider, handled)
            }
        })
    }

    /// Applies a provider's delivery report to the text it names; unknown references are ignored.
    pub async fn report_status(
        &self,
        provider: &'static str,
        provider_ref: String,
        status: crate::store::TextStatus,
        error: Option<String>,
    ) -> Result<Option<crate::store::TextStatus>, AppError> {
        let now = self.inner.clock.now();
        let result = self
            .inner
            .store
            .run(move |tx| {
                tx.outbox()
                    .report_status(&provider_ref, status, error.as_deref(), now)
            })
            .await?;
        // Only a report that names one of our texts is counted.
        let counted = match status {
            crate::store::TextStatus::Delivered => Some(OutboundStatus::Delivered),
            crate::store::TextStatus::Failed => Some(OutboundStatus::Undelivered),
            _ => None,
        };
        if let (Some(counted), Some(_)) = (counted, result) {
            self.inner.metrics.outbound(provider, counted, 1);
        }
        Ok(result)
    }
}

/// The id a long text is recorded under once whole: made from its first
/// part's own id (a provider's message ids hold no `:`), so whichever part
/// came last, and however often the parts are replayed, it is one text.
fn whole_text_id(first_part_id: &str) -> String {
    format!("whole:{first_part_id}")
}
