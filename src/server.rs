//! `smsarena serve`: open the store, start the dispatcher, serve HTTP until SIGTERM or Ctrl-C.

use std::sync::Arc;

use anyhow::Context;
use tokio::sync::watch;

use crate::clock::{Clock, SystemClock};
use crate::config::Config;
use crate::gateway::Gateway;
use crate::http::listener;
use crate::platform::catalog::Catalog;
use crate::providers::Provider;

pub async fn serve(cfg: Config) -> anyhow::Result<()> {
    cfg.check_exposure().map_err(anyhow::Error::msg)?;
    cfg.check_settings().map_err(anyhow::Error::msg)?;
    for warning in cfg.warnings() {
        tracing::warn!("{warning}");
    }
    let settings = listener::Settings::from_config(&cfg.http).map_err(anyhow::Error::msg)?;
    // Before anything opens files, so the database and the senders get the raised limit too.
    let cap = listener::connection_cap(settings.max_connections);
    let cfg = Arc::new(cfg);
    let clock: Arc<dyn Clock> = Arc::new(SystemClock);
    let provider = Provider::from_config(&cfg)?;
    let catalog = Catalog::load(&cfg).map_err(|e| anyhow::anyhow!("auto_race.tracks_dir: {e}"))?;
    let gateway = Gateway::open(cfg.clone(), clock, provider, catalog)
        .await
        .with_context(|| format!("opening the database {}", cfg.database.shown_url()))?;
    let (stop, _) = watch::channel(false);
    let router = gateway.router();
    let (_, running) = gateway.spawn(&stop);
    let listener = tokio::net::TcpListener::bind(cfg.http.listen)
        .await
        .with_context(|| format!("binding {}", cfg.http.listen))?;
    tracing::info!(listen = %cfg.http.listen, db = %cfg.database.shown_url(), provider = ?cfg.sms.provider, max_connections = cap, "serving");
    listener::serve(listener, router, settings, cap, shutdown_signal()).await;
    let _ = stop.send(true);
    running.stopped().await;
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
