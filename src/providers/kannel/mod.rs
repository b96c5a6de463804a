//! Kannel: texts in from its `sms-service` at `/webhooks/kannel` (checked by `webhooks.secret`), out through its `sendsms` interface or on the webhook's answer, delivery reports to `/webhooks/kannel/status` proved by a per-text tag.

use axum::Router;
use axum::routing::get;

use super::Registration;
use crate::app::AppState;
use crate::config::{Config, ProviderKind};

mod inbound;
mod sender;

pub use inbound::{answer_rule, parse_inbound, parse_status};
pub use sender::{Kannel, dlr_tag, dlr_url};

pub const PROVIDER: Registration = Registration {
    kind: ProviderKind::Kannel,
    webhooks,
    sender: |cfg, http| {
        Ok(Box::new(Kannel::new(
            http,
            cfg.sms.kannel.clone(),
            &cfg.http.public_base(),
            &cfg.webhooks.secret,
        )))
    },
};

fn webhooks(cfg: &Config) -> Option<Router<AppState>> {
    cfg.webhooks.kannel.then(|| {
        Router::new()
            .route(
                "/webhooks/kannel",
                get(inbound::inbound_get).post(inbound::inbound_post),
            )
            .route(
                "/webhooks/kannel/status",
                get(inbound::status).post(inbound::status),
            )
    })
}
