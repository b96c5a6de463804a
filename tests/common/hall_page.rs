//! A whole gateway on a loopback port for the hall's browser tests: its state, its URL, what it sent to real phones, and the thread as the page shows it.

use std::sync::Arc;

use smsarena::app::AppState;
use smsarena::clock::SystemClock;
use smsarena::config::Config;
use smsarena::gateway::Gateway;
use smsarena::platform::catalog::Catalog;
use smsarena::providers::Provider;
use smsarena::providers::capture::Capture;
use smsarena::store::OutboxText;
use tokio::sync::{mpsc, watch};

use super::browser::{Browser, serve};

/// A served gateway and the switch that stops it.
pub struct Hall {
    pub state: AppState,
    pub base: String,
    /// What it sent to real phones.
    pub sent: mpsc::UnboundedReceiver<OutboxText>,
    _stop: watch::Sender<bool>,
    _dir: tempfile::TempDir,
}

/// A whole gateway whose configuration `adjust` changed first: texts faster
/// than thumbs, robots that answer at once.
pub async fn hall_with(adjust: impl FnOnce(&mut Config)) -> Hall {
    let dir = tempfile::tempdir().unwrap();
    let mut cfg = Config::default();
    cfg.database.url = super::fresh_database(dir.path()).await;
    cfg.limits.phone_per_minute = 0;
    cfg.robots.budget_ms = 50;
    adjust(&mut cfg);
    let cfg = Arc::new(cfg);
    let (capture, sent) = Capture::new();
    let gateway = Gateway::open(
        cfg.clone(),
        Arc::new(SystemClock),
        Provider::capture(capture),
        Catalog::new(&cfg),
    )
    .await
    .unwrap();
    let base = serve(gateway.router()).await;
    let (stop, _) = watch::channel(false);
    let (state, _running) = gateway.spawn(&stop);
    Hall {
        state,
        base,
        sent,
        _stop: stop,
        _dir: dir,
    }
}

/// The current phone's texts in, as the page shows them.
pub async fn inbox(browser: &Browser) -> Vec<String> {
    let texts = browser
        .eval("return Array.from(document.querySelectorAll('#thread li.in pre'), p => p.textContent);")
        .await;
    serde_json::from_value(texts).unwrap()
}
