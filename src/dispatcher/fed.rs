//! Sending what the store's commits queue (SQLite, where this process is the only writer).
//!
//! The store tells us of every text as its transaction commits, so each phone's
//! texts can wait in memory in the order they were written: a phone is busy
//! while one text to it is on its way (retries included), and its next text
//! starts when that one is settled. The table is read once, at start, for what
//! an earlier run left unsent. The database sees one write per text, the
//! outcome, batched with others.

use std::collections::hash_map::Entry;
use std::collections::{HashMap, VecDeque};
use std::sync::Arc;
use std::time::Duration;

use chrono::{DateTime, Utc};
use tokio::sync::{Semaphore, mpsc, watch};

use super::{Dispatcher, Outcome, Verdict};
use crate::store::{OutboxEvent, OutboxText};

/// When a text may go: `None` at once, as a text just queued may (and
/// without reading the clock, twice, to find it so).
type Due = Option<DateTime<Utc>>;

pub(super) async fn run(
    this: Arc<Dispatcher>,
    mut feed: mpsc::UnboundedReceiver<OutboxEvent>,
    slots: Arc<Semaphore>,
    outcomes: mpsc::UnboundedSender<Outcome>,
    mut shutdown: watch::Receiver<bool>,
) {
    // Subscribed first, read second: a text committed in between is in both,
    // and ids grow with every commit of the one writer, so the feed's copy of
    // anything up to the last id read is skipped.
    let Some(left_over) = read_unsent(&this, &mut shutdown).await else {
        return;
    };
    let read_up_to = left_over.last().map_or(0, |(text, _)| text.id);
    let (settled, mut settled_phones) = mpsc::unbounded_channel();
    let starter = Starter {
        this,
        slots,
        outcomes,
        settled,
        shutdown: shutdown.clone(),
    };
    let mut phones = Phones::default();
    for (text, due) in left_over {
        phones.offer(text, Some(due), &starter);
    }
    loop {
        tokio::select! {
            changed = shutdown.changed() => {
                if changed.is_err() || *shutdown.borrow() {
                    return;
                }
            }
            Some(phone) = settled_phones.recv() => phones.settled(phone, &starter),
            event = feed.recv() => match event {
                Some(OutboxEvent::Queued(text)) if text.id > read_up_to => {
                    phones.offer(text, None, &starter);
                }
                Some(OutboxEvent::Queued(_)) => {}
                // An old text, parked and put back: offered whatever its id.
                Some(OutboxEvent::Requeued(text)) => phones.offer(text, None, &starter),
                Some(OutboxEvent::Cancelled(phone)) => phones.cancel(&phone),
                None => return,
            },
        }
    }
}

/// Every text an earlier run left unsent, oldest first; `None` on shutdown.
async fn read_unsent(
    this: &Dispatcher,
    shutdown: &mut watch::Receiver<bool>,
) -> Option<Vec<(OutboxText, DateTime<Utc>)>> {
    loop {
        match this.store.run(|tx| tx.outbox().pending()).await {
            Ok(texts) => return Some(texts),
            Err(e) => tracing::error!(error = %e, "cannot read unsent texts; retrying shortly"),
        }
        tokio::select! {
            _ = tokio::time::sleep(Duration::from_millis(500)) => {}
            _ = shutdown.changed() => return None,
        }
    }
}

/// The phones with a text on its way, each with the texts waiting behind it.
/// Hashed with foldhash, seeded per process: SipHash, the standard map's,
/// cost two hundred instructions a phone, and every text looks its phone up
/// twice (BENCHMARKS.md, issue 30).
#[derive(Default)]
struct Phones(HashMap<String, VecDeque<(OutboxText, Due)>, foldhash::fast::RandomState>);

impl Phones {
    fn offer(&mut self, text: OutboxText, due: Due, starter: &Starter) {
        match self.0.entry(text.to.clone()) {
            Entry::Occupied(mut waiting) => waiting.get_mut().push_back((text, due)),
            Entry::Vacant(free) => {
                free.insert(VecDeque::new());
                starter.start(text, due);
            }
        }
    }

    /// The text on its way to `phone` is sent or given up: the next one goes.
    fn settled(&mut self, phone: String, starter: &Starter) {
        let Entry::Occupied(mut waiting) = self.0.entry(phone) else {
            return;
        };
        match waiting.get_mut().pop_front() {
            Some((text, due)) => starter.start(text, due),
            None => {
                waiting.remove();
            }
        }
    }

    /// The phone opted out: what waits is dropped (the store cancelled it);
    /// a text already on its way finishes, as it would have at the provider.
    fn cancel(&mut self, phone: &str) {
        if let Some(waiting) = self.0.get_mut(phone) {
            waiting.clear();
        }
    }
}

/// Starts a text on its way: one task per text, until it is sent or given up.
struct Starter {
    this: Arc<Dispatcher>,
    slots: Arc<Semaphore>,
    outcomes: mpsc::UnboundedSender<Outcome>,
    settled: mpsc::UnboundedSender<String>,
    shutdown: watch::Receiver<bool>,
}

impl Starter {
    fn start(&self, mut text: OutboxText, mut due: Due) {
        let this = self.this.clone();
        let slots = self.slots.clone();
        let outcomes = self.outcomes.clone();
        let settled = self.settled.clone();
        let mut shutdown = self.shutdown.clone();
        tokio::spawn(async move {
            loop {
                let wait = due.map_or(Duration::ZERO, |at| {
                    (at - this.clock.now()).to_std().unwrap_or_default()
                });
                let permit = tokio::select! {
                    permit = async {
                        if !wait.is_zero() {
                            tokio::time::sleep(wait).await;
                        }
                        slots.clone().acquire_owned().await
                    } => permit,
                    // Not sent: it stays queued in the outbox for the next start.
                    _ = shutdown.wait_for(|stop| *stop) => return,
                };
                let Ok(permit) = permit else {
                    return;
                };
                text.attempts += 1;
                let verdict = this.deliver(&text).await;
                drop(permit);
                let retry_at = match &verdict {
                    Verdict::Retry(_, at) => Some(*at),
                    Verdict::Sent(_) | Verdict::Failed(..) => None,
                };
                let _ = outcomes.send(Outcome::of(&text, verdict, this.clock.now()));
                match retry_at {
                    Some(at) => due = Some(at),
                    None => break,
                }
            }
            let _ = settled.send(text.to);
        });
    }
}
