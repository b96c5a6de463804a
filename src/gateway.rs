//! The one wiring of the application: the store, the platform with its
//! catalogue, the robot pool, the dispatcher and the scheduler, built the
//! same way for every caller (`serve`, `sim`, the tests), with the training
//! hall beside the configured provider when it is served.

use std::sync::Arc;

use tokio::sync::watch;
use tokio::task::JoinHandle;

use crate::app::AppState;
use crate::clock::Clock;
use crate::config::{Config, ProviderKind};
use crate::dispatcher::Dispatcher;
use crate::http::app;
use crate::metrics::Metrics;
use crate::platform::Platform;
use crate::platform::catalog::Catalog;
use crate::providers::Provider;
use crate::providers::hall::Hall;
use crate::robot_pool::RobotPool;
use crate::store::{Store, StoreResult};

/// The application, built and not yet running.
pub struct Gateway {
    pub state: AppState,
    pub robots: RobotPool,
    dispatcher: Dispatcher,
    /// The training hall, when it is served: its routes read it.
    hall: Option<Arc<Hall>>,
}

/// The background work of a running gateway.
pub struct Running {
    tasks: Vec<JoinHandle<()>>,
}

impl Gateway {
    /// Opens (creating and migrating) the configured database and builds
    /// everything on it, with the games of `catalog`.
    pub async fn open(
        cfg: Arc<Config>,
        clock: Arc<dyn Clock>,
        provider: Provider,
        catalog: Catalog,
    ) -> StoreResult<Gateway> {
        let store = Store::open_with_queue(
            &cfg.database.url,
            cfg.database.max_batch,
            cfg.database.queue_depth,
        )
        .await?;
        Ok(Gateway::on(store, cfg, clock, provider, catalog))
    }

    /// Builds everything on an open store.
    pub fn on(
        store: Store,
        cfg: Arc<Config>,
        clock: Arc<dyn Clock>,
        provider: Provider,
        catalog: Catalog,
    ) -> Gateway {
        let platform = Platform::with_catalog(cfg.clone(), catalog);
        let metrics = Arc::new(Metrics::new());
        let hall = Hall::for_config(&cfg).map(Arc::new);
        {
            let webhooks: Vec<&'static str> = crate::providers::PROVIDERS
                .iter()
                .filter(|p| (p.webhooks)(&cfg).is_some())
                .map(|p| p.kind.as_str())
                .collect();
            let mut routes = vec![cfg.sms.provider.as_str()];
            routes.extend(hall.as_ref().map(|_| ProviderKind::Hall.as_str()));
            metrics.start_at_zero(&webhooks, &routes);
        }
        store.observe(metrics.probe(cfg.sms.provider.as_str()));
        let robots = RobotPool::new(
            store.clone(),
            platform.clone(),
            clock.clone(),
            cfg.robots.clone(),
            metrics.clone(),
        );
        let provider = provider.beside(hall.clone());
        let dispatcher = Dispatcher::new(
            store.clone(),
            provider,
            cfg.sms.clone(),
            clock.clone(),
            metrics.clone(),
        );
        let state = AppState::new(cfg, store, clock, platform, robots.clone(), metrics);
        Gateway {
            state,
            robots,
            dispatcher,
            hall,
        }
    }

    /// The HTTP face.
    pub fn router(&self) -> axum::Router {
        app(self.state.clone(), self.hall.clone())
    }

    /// Starts the dispatcher, the scheduler, the robot pool and the lobby's
    /// second look ([`crate::app::lobby_retry`]); they stop when `shutdown` turns
    /// true.
    pub fn spawn(self, shutdown: &watch::Sender<bool>) -> (AppState, Running) {
        let state = self.state;
        let tasks = vec![
            tokio::spawn(self.dispatcher.run(shutdown.subscribe())),
            tokio::spawn(crate::scheduler::run(state.clone(), shutdown.subscribe())),
            tokio::spawn(self.robots.run(shutdown.subscribe())),
            tokio::spawn(crate::app::lobby_retry::run(
                state.clone(),
                shutdown.subscribe(),
            )),
        ];
        (state, Running { tasks })
    }
}

impl Running {
    /// Waits for the background work to finish after shutdown.
    pub async fn stopped(self) {
        for task in self.tasks {
            let _ = task.await;
        }
    }
}
