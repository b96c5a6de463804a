//! Runs the platform's database timers (turn deadlines, rematch windows) as they fall due.

use std::time::Duration;

use tokio::sync::watch;

use crate::http::AppState;

/// Longest sleep between looks, so a deadline set by another writer is seen within it.
const MAX_SLEEP: Duration = Duration::from_millis(500);

pub async fn run(state: AppState, mut shutdown: watch::Receiver<bool>) {
    let store = state.store().clone();
    let clock = state.clock().clone();
    while !*shutdown.borrow() {
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
                if f.robots_due {
                    state.robots().wake();
                }
            }
            Err(e) => {
                failed += 1;
                tracing::error!(?timer, error = %e, "a timer failed; it fires again later");
            }
        }
    }
    (fired, failed)
}
