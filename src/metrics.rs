//! Prometheus metrics: what this instance counts as it works (texts in and out, latencies, robots' waits), rendered at `/metrics` beside what the database holds.
//!
//! Each gateway owns its recorder (no global one), so that two gateways in
//! one process, as in the tests, count apart. Names follow Prometheus'
//! conventions: `smsarena_` first, base units (`_seconds`), `_total` on
//! counters; labels are closed sets (a provider, an outcome, a game), never
//! a phone number or a text.

use std::sync::OnceLock;
use std::time::Duration;

use metrics::{Counter, Gauge, Histogram, Key, Label, Metadata, Recorder, Unit};
use metrics_exporter_prometheus::{
    Matcher, PrometheusBuilder, PrometheusHandle, PrometheusRecorder,
};

/// Latency buckets, in seconds: from a fast commit to a request timeout.
const LATENCY_BUCKETS: &[f64] = &[
    0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0,
];

/// Robots' waits, in seconds: a turn may wait behind others for a while.
const WAIT_BUCKETS: &[f64] = &[
    0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 5.0, 10.0, 20.0, 60.0,
];

/// What became of an inbound text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InboundOutcome {
    /// Recorded and acted on.
    Applied,
    /// A provider's retry of a text already applied.
    Repeat,
    /// A part of a long text, kept until the others arrive.
    PartWaiting,
    /// Not taken: malformed, or from a number that may not text.
    Refused,
    /// Over a flood limit (the phone's or the address's).
    Limited,
    /// A missing or wrong secret or signature, or a stale signed request.
    RejectedSignature,
    /// The gateway could not take it now (the writer's queue full, the
    /// database away): the provider retries.
    Unavailable,
}

impl InboundOutcome {
    fn as_str(self) -> &'static str {
        match self {
            InboundOutcome::Applied => "applied",
            InboundOutcome::Repeat => "repeat",
            InboundOutcome::PartWaiting => "part_waiting",
            InboundOutcome::Refused => "refused",
            InboundOutcome::Limited => "limited",
            InboundOutcome::RejectedSignature => "rejected_signature",
            InboundOutcome::Unavailable => "unavailable",
        }
    }
}

/// What became of an outgoing text, as this instance saw it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OutboundStatus {
    /// Written to the outbox, in a committed transaction.
    Queued,
    /// The provider accepted it.
    Sent,
    /// A send failed and will be tried again.
    Failed,
    /// Given up on (a final refusal, or every attempt used): it waits in the
    /// outbox for an operator.
    Parked,
    /// The provider reports it delivered.
    Delivered,
    /// The provider reports it undelivered.
    Undelivered,
}

impl OutboundStatus {
    fn as_str(self) -> &'static str {
        match self {
            OutboundStatus::Queued => "queued",
            OutboundStatus::Sent => "sent",
            OutboundStatus::Failed => "failed",
            OutboundStatus::Parked => "parked",
            OutboundStatus::Delivered => "delivered",
            OutboundStatus::Undelivered => "undelivered",
        }
    }
}

/// The names, in one place.
mod name {
    pub const INBOUND: &str = "smsarena_inbound_texts_total";
    pub const OUTBOUND: &str = "smsarena_outbound_texts_total";
    pub const WEBHOOK_SECONDS: &str = "smsarena_webhook_duration_seconds";
    pub const WRITER_SECONDS: &str = "smsarena_writer_transaction_duration_seconds";
    pub const WRITER_QUEUE: &str = "smsarena_writer_queue_depth";
    pub const ROBOT_TURNS: &str = "smsarena_robot_turns_total";
    pub const ROBOT_WAIT_SECONDS: &str = "smsarena_robot_turn_wait_seconds";
    pub const PG_LOCK_TIMEOUTS: &str = "smsarena_postgres_lock_timeouts_total";
    pub const PG_RETRIES: &str = "smsarena_postgres_retried_transactions_total";
    pub const SECOND_LOOKS: &str = "smsarena_lobby_second_looks_total";
    pub const STARTED: &str = "smsarena_matches_started_total";
    pub const FINISHED: &str = "smsarena_matches_finished_total";
    pub const PLAYERS: &str = "smsarena_players_registered";
    pub const LOBBY: &str = "smsarena_lobby_players_waiting";
    pub const RUNNING: &str = "smsarena_matches_running";
    pub const BACKLOG: &str = "smsarena_outbox_backlog_texts";
    pub const OLDEST: &str = "smsarena_outbox_oldest_waiting_seconds";
    pub const PARKED: &str = "smsarena_outbox_parked_texts";
}

/// The providers whose per-text series are kept at hand ([`Handles`]).
const PROVIDERS: [&str; 5] = ["generic", "kannel", "twilio", "vonage", "sim"];
const INBOUND_OUTCOMES: usize = 7;
/// The outcomes of a lobby's second look, as labelled.
const SECOND_LOOK_OUTCOMES: [&str; 2] = ["done", "failed"];
const OUTBOUND_STATUSES: usize = 6;

/// The series every text touches, registered once and kept: the recorder
/// finds a series by building its key and hashing it whole, a few thousand
/// instructions per text; these are found by two indexes. A provider or a
/// variant beyond the arrays is looked up in the recorder, as before.
#[derive(Default)]
struct Handles {
    inbound: [[OnceLock<Counter>; INBOUND_OUTCOMES]; PROVIDERS.len()],
    outbound: [[OnceLock<Counter>; OUTBOUND_STATUSES]; PROVIDERS.len()],
    webhook: [OnceLock<Histogram>; PROVIDERS.len()],
}

/// Where `provider` is in [`PROVIDERS`].
fn provider_index(provider: &str) -> Option<usize> {
    PROVIDERS.iter().position(|&p| p == provider)
}

/// Does `act` to the series kept in `cell`, registered by `register` the
/// first time; with no cell, to the series `register` looks up.
fn with_kept<T>(cell: Option<&OnceLock<T>>, register: impl FnOnce() -> T, act: impl FnOnce(&T)) {
    match cell {
        Some(cell) => act(cell.get_or_init(register)),
        None => act(&register()),
    }
}

/// One gateway's metrics.
pub struct Metrics {
    recorder: PrometheusRecorder,
    handle: PrometheusHandle,
    handles: Handles,
}

impl std::fmt::Debug for Metrics {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Metrics")
    }
}

impl Default for Metrics {
    fn default() -> Self {
        Metrics::new()
    }
}

impl Metrics {
    pub fn new() -> Metrics {
        let recorder = PrometheusBuilder::new()
            .set_buckets_for_metric(Matcher::Suffix("_duration_seconds".into()), LATENCY_BUCKETS)
            .and_then(|b| {
                b.set_buckets_for_metric(Matcher::Suffix("_wait_seconds".into()), WAIT_BUCKETS)
            })
            .expect("the buckets are not empty")
            .build_recorder();
        let handle = recorder.handle();
        let metrics = Metrics {
            recorder,
            handle,
            handles: Handles::default(),
        };
        metrics.describe();
        metrics
    }

    fn describe(&self) {
        let r = &self.recorder;
        r.describe_counter(
            name::INBOUND.into(),
            None,
            "Texts that reached a webhook, by provider and what became of them.".into(),
        );
        r.describe_counter(
            name::OUTBOUND.into(),
            None,
            "Outgoing texts by provider and status: queued in a commit, sent, failed (to be retried), parked, and as delivery reports say.".into(),
        );
        r.describe_histogram(
            name::WEBHOOK_SECONDS.into(),
            Some(Unit::Seconds),
            "Time from a webhook request to its answer.".into(),
        );
        r.describe_histogram(
            name::WRITER_SECONDS.into(),
            Some(Unit::Seconds),
            "Time of one writer transaction (a batch), from its start to its commit.".into(),
        );
        r.describe_gauge(
            name::WRITER_QUEUE.into(),
            None,
            "Units of work waiting for the writer at the last scrape.".into(),
        );
        r.describe_counter(
            name::ROBOT_TURNS.into(),
            None,
            "Robots' turns this instance searched and handed back.".into(),
        );
        r.describe_histogram(
            name::ROBOT_WAIT_SECONDS.into(),
            Some(Unit::Seconds),
            "Time a robot's turn waited from falling due to its search starting.".into(),
        );
        for (gauge, help) in [
            (name::PLAYERS, "Players with a nick."),
            (name::LOBBY, "Players waiting in a lobby."),
            (name::RUNNING, "Matches not over, by game."),
            (name::BACKLOG, "Texts queued or being sent."),
            (name::OLDEST, "Age of the oldest text queued or being sent."),
            (name::PARKED, "Texts given up on, waiting for an operator."),
        ] {
            r.describe_gauge(gauge.into(), None, help.into());
        }
        r.describe_counter(
            name::STARTED.into(),
            None,
            "Matches this instance started, by game.".into(),
        );
        r.describe_counter(
            name::FINISHED.into(),
            None,
            "Matches this instance finished (a result, a resignation, a withdrawal), by game."
                .into(),
        );
        r.describe_counter(
            name::PG_LOCK_TIMEOUTS.into(),
            None,
            "PostgreSQL: callers taken out of a batch by a conflict with another instance (a lock wait that ran out, a deadlock) and run again alone.".into(),
        );
        r.describe_counter(
            name::PG_RETRIES.into(),
            None,
            "PostgreSQL: transactions run again after a conflict.".into(),
        );
        r.describe_counter(
            name::SECOND_LOOKS.into(),
            None,
            "PostgreSQL: lobby queues matched again because another instance was matching them when a P joined, by outcome: done, or failed (logged; the queue's next P matches it).".into(),
        );
    }

    fn counter(&self, name: &'static str, labels: &[(&'static str, &'static str)]) -> Counter {
        let labels: Vec<Label> = labels
            .iter()
            .map(|&(k, v)| Label::from_static_parts(k, v))
            .collect();
        self.recorder
            .register_counter(&Key::from_parts(name, labels), &METADATA)
    }

    fn histogram(&self, name: &'static str, labels: &[(&'static str, &'static str)]) -> Histogram {
        let labels: Vec<Label> = labels
            .iter()
            .map(|&(k, v)| Label::from_static_parts(k, v))
            .collect();
        self.recorder
            .register_histogram(&Key::from_parts(name, labels), &METADATA)
    }

    fn gauge(&self, name: &'static str) -> Gauge {
        self.recorder
            .register_gauge(&Key::from_static_name(name), &METADATA)
    }

    /// Writes every series these providers can have as 0, so that a
    /// scraper sees a counter before its first increment (and a rate over
    /// its first one).
    pub fn start_at_zero(&self, inbound: &[&'static str], outbound: &[&'static str]) {
        use InboundOutcome::*;
        use OutboundStatus::*;
        for &provider in inbound {
            for outcome in [
                Applied,
                Repeat,
                PartWaiting,
                Refused,
                Limited,
                RejectedSignature,
                Unavailable,
            ] {
                self.counter(
                    name::INBOUND,
                    &[("provider", provider), ("outcome", outcome.as_str())],
                )
                .increment(0);
            }
        }
        for &provider in outbound {
            for status in [Queued, Sent, Failed, Parked, Delivered, Undelivered] {
                self.counter(
                    name::OUTBOUND,
                    &[("provider", provider), ("status", status.as_str())],
                )
                .increment(0);
            }
        }
        self.counter(name::ROBOT_TURNS, &[]).increment(0);
        for outcome in SECOND_LOOK_OUTCOMES {
            self.counter(name::SECOND_LOOKS, &[("outcome", outcome)])
                .increment(0);
        }
    }

    /// An inbound text through `provider`'s webhook.
    pub fn inbound(&self, provider: &'static str, outcome: InboundOutcome) {
        let label = ("outcome", outcome.as_str());
        let cells = &self.handles.inbound;
        self.count_per_text(cells, name::INBOUND, provider, label, outcome as usize, 1);
    }

    /// Outgoing texts of `provider` reaching `status`.
    pub fn outbound(&self, provider: &'static str, status: OutboundStatus, texts: u64) {
        if texts > 0 {
            let label = ("status", status.as_str());
            let cells = &self.handles.outbound;
            self.count_per_text(
                cells,
                name::OUTBOUND,
                provider,
                label,
                status as usize,
                texts,
            );
        }
    }

    /// Adds `n` to the counter `name` of `provider` and `label`, kept in
    /// `cells` by provider and `at`.
    fn count_per_text<const N: usize>(
        &self,
        cells: &[[OnceLock<Counter>; N]; PROVIDERS.len()],
        name: &'static str,
        provider: &'static str,
        label: (&'static str, &'static str),
        at: usize,
        n: u64,
    ) {
        let register = || self.counter(name, &[("provider", provider), label]);
        let kept = provider_index(provider).and_then(|p| cells[p].get(at));
        with_kept(kept, register, |c| c.increment(n));
    }

    /// The matches a committed unit of work started and finished.
    pub fn matches(&self, tally: &crate::platform::Tally) {
        for (name, games) in [
            (name::STARTED, &tally.started),
            (name::FINISHED, &tally.finished),
        ] {
            for game in games {
                let labels = vec![Label::new("game", game.clone())];
                self.recorder
                    .register_counter(&Key::from_parts(name, labels), &METADATA)
                    .increment(1);
            }
        }
    }

    /// A lobby queue matched again after another instance had it; `done` is
    /// false when that failed.
    pub fn second_look(&self, done: bool) {
        let outcome = SECOND_LOOK_OUTCOMES[usize::from(!done)];
        self.counter(name::SECOND_LOOKS, &[("outcome", outcome)])
            .increment(1);
    }

    /// A webhook request of `provider`, answered after `took`.
    pub fn webhook(&self, provider: &'static str, took: Duration) {
        let register = || self.histogram(name::WEBHOOK_SECONDS, &[("provider", provider)]);
        let kept = provider_index(provider).map(|p| &self.handles.webhook[p]);
        with_kept(kept, register, |h| h.record(took.as_secs_f64()));
    }

    /// The writer's queue as a scrape finds it.
    pub fn writer_queue(&self, depth: usize) {
        self.gauge(name::WRITER_QUEUE).set(depth as f64);
    }

    /// A robot's turn searched in `lane` after waiting `waited` for its search.
    pub fn robot_turn(&self, lane: &'static str, waited: Duration) {
        self.counter(name::ROBOT_TURNS, &[("lane", lane)])
            .increment(1);
        self.histogram(name::ROBOT_WAIT_SECONDS, &[("lane", lane)])
            .record(waited.as_secs_f64());
    }

    /// What the database holds, as a scrape finds it.
    pub fn database(&self, s: &crate::platform::counts::Counts) {
        self.gauge(name::PLAYERS).set(s.players as f64);
        self.gauge(name::LOBBY).set(s.lobbies_waiting as f64);
        for (game, n) in &s.running {
            let labels = vec![Label::new("game", game.clone())];
            self.recorder
                .register_gauge(&Key::from_parts(name::RUNNING, labels), &METADATA)
                .set(*n as f64);
        }
        self.gauge(name::BACKLOG).set(s.outbox_backlog as f64);
        self.gauge(name::OLDEST)
            .set(s.oldest_waiting_secs.unwrap_or(0) as f64);
        self.gauge(name::PARKED).set(s.parked as f64);
    }

    /// The handles a store's writer reports through, with `route` the
    /// provider texts to real phones go through.
    pub fn probe(&self, route: &'static str) -> crate::store::probe::Probe {
        let queued = |provider| {
            self.counter(
                name::OUTBOUND,
                &[
                    ("provider", provider),
                    ("status", OutboundStatus::Queued.as_str()),
                ],
            )
        };
        crate::store::probe::Probe {
            transaction: self.histogram(name::WRITER_SECONDS, &[]),
            queued: queued(route),
            queued_virtual: queued(crate::config::ProviderKind::Hall.as_str()),
            refused_locks: self.counter(name::PG_LOCK_TIMEOUTS, &[]),
            retried: self.counter(name::PG_RETRIES, &[]),
        }
    }

    /// Everything counted so far, in Prometheus' text format.
    pub fn render(&self) -> String {
        self.handle.run_upkeep();
        self.handle.render()
    }
}

static METADATA: Metadata<'static> =
    Metadata::new(module_path!(), metrics::Level::INFO, Some(module_path!()));

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counters_render_with_their_labels_and_help() {
        let m = Metrics::new();
        m.inbound("kannel", InboundOutcome::Applied);
        m.inbound("kannel", InboundOutcome::Applied);
        m.outbound("generic", OutboundStatus::Parked, 3);
        m.webhook("kannel", Duration::from_millis(3));
        let text = m.render();
        assert!(
            text.contains(
                "smsarena_inbound_texts_total{provider=\"kannel\",outcome=\"applied\"} 2"
            ),
            "{text}"
        );
        assert!(
            text.contains(
                "smsarena_outbound_texts_total{provider=\"generic\",status=\"parked\"} 3"
            ),
            "{text}"
        );
        assert!(
            text.contains("# HELP smsarena_inbound_texts_total"),
            "{text}"
        );
        assert!(
            text.contains(
                "smsarena_webhook_duration_seconds_bucket{provider=\"kannel\",le=\"0.005\"} 1"
            ),
            "{text}"
        );
    }

    #[test]
    fn two_gateways_count_apart() {
        let (a, b) = (Metrics::new(), Metrics::new());
        a.inbound("generic", InboundOutcome::Refused);
        assert!(a.render().contains("outcome=\"refused\"} 1"));
        assert!(!b.render().contains("outcome=\"refused\""));
    }
}
