//! Vonage: texts in at `/webhooks/vonage` (signed webhooks checked by `sms.vonage.signature_secret`, long texts joined from their parts), out through its SMS API, receipts to `/webhooks/vonage/status`.

use axum::Router;
use axum::routing::get;

use super::Registration;
use crate::app::AppState;
use crate::config::{Config, ProviderKind};

mod inbound;
mod sender;

pub use inbound::{VonageInbound, parse_inbound, parse_status, vonage_signature};
pub use sender::Vonage;

pub const PROVIDER: Registration = Registration {
    kind: ProviderKind::Vonage,
    webhooks,
    sender: |cfg, http| {
        let vonage = &cfg.sms.vonage;
        anyhow::ensure!(
            !vonage.api_key.is_empty() && !vonage.api_secret.is_empty(),
            "sms.vonage.api_key and sms.vonage.api_secret are needed to send through Vonage"
        );
        Ok(Box::new(Vonage::new(
            http,
            vonage.clone(),
            &cfg.http.public_base(),
        )))
    },
};

fn webhooks(cfg: &Config) -> Option<Router<AppState>> {
    cfg.webhooks.vonage.then(|| {
        Router::new()
            .route(
                "/webhooks/vonage",
                get(inbound::inbound).post(inbound::inbound),
            )
            .route(
                "/webhooks/vonage/status",
                get(inbound::status).post(inbound::status),
            )
    })
}
