//! `smsarena serve`: open the store, start the dispatcher, serve HTTP until SIGTERM or Ctrl-C.

use std::sync::Arc;

use anyhow::Context;
use tokio::sync::watch;

use crate::clock::{Clock, SystemClock};
use crate::config::Config;
use crate::http::{AppState, app};
use crate::sms::Provider;
use crate::sms::dispatcher::Dispatcher;
use crate::store::Store;

pub async fn serve(cfg: Config) -> anyhow::Result<()> {
    let cfg = Arc::new(cfg);
    let store = Store::open(&cfg.database.url, cfg.database.max_batch)
        .await
        .with_context(|| format!("opening the database {}", cfg.database.url))?;
    let clock: Arc<dyn Clock> = Arc::new(SystemClock);
    let provider = Provider::from_config(&cfg)?;
    let (stop, stopped) = watch::channel(false);
    let dispatcher = Dispatcher::new(store.clone(), provider, cfg.sms.clone(), clock.clone());
    let dispatcher = tokio::spawn(dispatcher.run(stopped));

    let state = AppState::new(cfg.clone(), store.clone(), clock.clone());
    let timers = tokio::spawn(crate::scheduler::run(
        store,
        state.platform().clone(),
        clock,
        stop.subscribe(),
    ));
    let listener = tokio::net::TcpListener::bind(cfg.http.listen)
        .await
        .with_context(|| format!("binding {}", cfg.http.listen))?;
    tracing::info!(listen = %cfg.http.listen, db = %cfg.database.url, provider = ?cfg.sms.provider, "serving");
    axum::serve(listener, app(state))
        .with_graceful_shutdown(shutdown_signal())
        .await?;
    let _ = stop.send(true);
    let _ = dispatcher.await;
    let _ = timers.await;
    tracing::info!("stopped");
    Ok(())
}

/// Resolves on Ctrl-C or SIGTERM.
pub async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let term = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! {
        _ = ctrl_c => {}
        _ = term => {}
    }
}
