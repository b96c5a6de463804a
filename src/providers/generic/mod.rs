//! The generic HTTP provider: JSON texts in at `/webhooks/generic` (checked by `webhooks.secret`), JSON texts out to `sms.generic.url`, delivery reports both ways.

use axum::Router;
use axum::routing::post;

use super::Registration;
use crate::app::AppState;
use crate::config::{Config, ProviderKind};

mod inbound;
mod sender;

pub use inbound::{parse_inbound, parse_status};
pub use sender::Generic;

pub const PROVIDER: Registration = Registration {
    kind: ProviderKind::Generic,
    webhooks,
    sender: |cfg, http| {
        anyhow::ensure!(
            !cfg.sms.generic.url.is_empty(),
            "sms.generic.url is needed to send through the generic provider"
        );
        Ok(Box::new(Generic::new(http, cfg.sms.generic.clone())?))
    },
};

fn webhooks(cfg: &Config) -> Option<Router<AppState>> {
    cfg.webhooks.generic.then(|| {
        Router::new()
            .route("/webhooks/generic", post(inbound::inbound))
            .route("/webhooks/generic/status", post(inbound::status))
    })
}
