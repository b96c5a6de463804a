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
        let now = clock.now();
        let p = state.platform().clone();
        match store.run(move |tx| p.fire_due(tx, now)).await {
            Ok(fired) => {
                if fired.robots_due {
                    state.robots().wake();
                }
                if fired.timers > 0 {
                    continue;
                }
            }
            Err(e) => tracing::error!(error = %e, "timers failed; retrying"),
        }
        let next = store.run(|tx| tx.timers().next()).await.ok().flatten();
        let sleep = next
            .and_then(|t| (t - clock.now()).to_std().ok())
            .unwrap_or(MAX_SLEEP)
            .clamp(Duration::from_millis(10), MAX_SLEEP);
        tokio::select! {
            _ = tokio::time::sleep(sleep) => {}
            _ = shutdown.changed() => {}
        }
    }
}
