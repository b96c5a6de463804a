//! Runs the platform's database timers (turn deadlines, rematch windows) as they fall due.

use std::time::Duration;

use tokio::sync::watch;

use crate::app::AppState;

/// Longest sleep between looks, so a deadline set by another writer is seen within it.
const MAX_SLEEP: Duration = Duration::from_millis(500);

/// How long the parts of a long inbound text wait for the rest (providers
/// deliver a text's parts within seconds; a part later than this is lost).
pub const FRAGMENT_TIMEOUT: chrono::TimeDelta = chrono::TimeDelta::minutes(10);

/// How often parts past [`FRAGMENT_TIMEOUT`] are looked for.
const FRAGMENT_SWEEP_EVERY: Duration = Duration::from_secs(60);

/// How often inbound texts past their retention are trimmed, and how many
/// at most in one transaction, and in one sweep: a backlog (the first
/// sweep after retention was turned on) is worked off over several, so a
/// sweep never holds the writer long.
const INBOUND_SWEEP_EVERY: Duration = Duration::from_secs(600);
const INBOUND_TRIM_BATCH: usize = 1000;
const INBOUND_TRIM_BATCHES: usize = 20;

pub async fn run(state: AppState, mut shutdown: watch::Receiver<bool>) {
    let store = state.store().clone();
    let clock = state.clock().clone();
    let mut next_sweep = tokio::time::Instant::now();
    let mut next_trim = tokio::time::Instant::now();
    let mut trimmed_up_to = 0;
    while !*shutdown.borrow() {
        if tokio::time::Instant::now() >= next_sweep {
            next_sweep += FRAGMENT_SWEEP_EVERY;
            drop_stale_fragments(&state).await;
        }
        if tokio::time::Instant::now() >= next_trim {
            next_trim += INBOUND_SWEEP_EVERY;
            trim_inbound(&state, &mut trimmed_up_to).await;
        }
        let (fired, failed) = fire_due(&state).await;
        if fired > 0 && failed == 0 {
            continue;
        }
        let next = store.run(|tx| tx.timers().next()).await.ok().flatten();
        // A timer that keeps failing is due at once again: not a busy loop.
        let shortest = if failed > 0 {
            MAX_SLEEP
        } else {
            Duration::from_millis(10)
        };
        let sleep = next
            .and_then(|t| (t - clock.now()).to_std().ok())
            .unwrap_or(MAX_SLEEP)
            .clamp(shortest, MAX_SLEEP);
        tokio::select! {
            _ = tokio::time::sleep(sleep) => {}
            _ = shutdown.changed() => {}
        }
    }
}

/// Drops the parts of long texts that waited past [`FRAGMENT_TIMEOUT`] for
/// the rest, and says so in the log; how many parts went.
pub async fn drop_stale_fragments(state: &AppState) -> u64 {
    let before = state.clock().now() - FRAGMENT_TIMEOUT;
    match state
        .store()
        .run(move |tx| tx.fragments().drop_stale(before))
        .await
    {
        Ok(0) => 0,
        Ok(dropped) => {
            tracing::warn!(
                dropped,
                "parts of long texts dropped: the rest never came within {} minutes",
                FRAGMENT_TIMEOUT.num_minutes()
            );
            dropped
        }
        Err(e) => {
            tracing::error!(error = %e, "dropping stale parts of long texts failed");
            0
        }
    }
}

/// Trims the inbound texts older than `database.inbound_retention_days`
/// to their provider ids, walking ids from `up_to` (this instance's mark,
/// moved on); how many batches trimmed texts. Nothing when retention is off.
pub async fn trim_inbound(state: &AppState, up_to: &mut i64) -> usize {
    let days = state.config().database.inbound_retention_days;
    if days == 0 {
        return 0;
    }
    let before = state.clock().now() - chrono::TimeDelta::days(i64::from(days));
    let mut passed = 0;
    for _ in 0..INBOUND_TRIM_BATCHES {
        let after = *up_to;
        let trimmed = state
            .store()
            .run(move |tx| tx.inbound().trim(before, after, INBOUND_TRIM_BATCH))
            .await;
        match trimmed {
            Ok(Some(last)) => {
                passed += 1;
                *up_to = last;
            }
            Ok(None) => break,
            Err(e) => {
                tracing::error!(error = %e, "trimming old inbound texts failed; trying later");
                break;
            }
        }
    }
    if passed > 0 {
        tracing::info!(
            days,
            up_to = *up_to,
            "inbound texts past their retention trimmed"
        );
    }
    passed
}

/// Fires what is due, each timer in a transaction of its own (they commit
/// together in the writer's batch; one that fails is undone alone and
/// logged). Returns how many fired and how many failed.
async fn fire_due(state: &AppState) -> (usize, usize) {
    let store = state.store();
    let now = state.clock().now();
    let platform = state.platform().clone();
    let due = match store.run(move |tx| platform.due_timers(tx, now)).await {
        Ok(due) => due,
        Err(e) => {
            tracing::error!(error = %e, "reading due timers failed; retrying");
            return (0, 1);
        }
    };
    let mut fires = tokio::task::JoinSet::new();
    for timer in due {
        let (store, platform) = (store.clone(), state.platform().clone());
        fires.spawn(async move {
            let outcome = store.run(move |tx| platform.fire(tx, timer, now)).await;
            (timer, outcome)
        });
    }
    let (mut fired, mut failed) = (0, 0);
    while let Some(done) = fires.join_next().await {
        let Ok((timer, outcome)) = done else { continue };
        match outcome {
            Ok(f) => {
                fired += f.timers;
                state.metrics().matches(&f.tally);
                if f.robots_due {
                    state.robots().wake();
                }
                state.busy_queues().add(f.queues_to_match);
            }
            Err(e) => {
                failed += 1;
                tracing::error!(?timer, error = %e, "a timer failed; it fires again later");
            }
        }
    }
    (fired, failed)
}
