//! Twilio: texts in at `/webhooks/twilio` (its `X-Twilio-Signature` checked by `sms.twilio.auth_token`), out through its Messages API, status callbacks to `/webhooks/twilio/status`.

use axum::Router;
use axum::routing::post;

use super::Registration;
use crate::app::AppState;
use crate::config::{Config, ProviderKind};

mod inbound;
mod sender;

pub use inbound::{parse_inbound, parse_status, twilio_signature};
pub use sender::Twilio;

pub const PROVIDER: Registration = Registration {
    kind: ProviderKind::Twilio,
    webhooks,
    sender: |cfg, http| {
        let twilio = &cfg.sms.twilio;
        anyhow::ensure!(
            !twilio.account_sid.is_empty() && !twilio.auth_token.is_empty(),
            "sms.twilio.account_sid and sms.twilio.auth_token are needed to send through Twilio"
        );
        Ok(Box::new(Twilio::new(
            http,
            twilio.clone(),
            &cfg.http.public_base(),
        )))
    },
};

fn webhooks(cfg: &Config) -> Option<Router<AppState>> {
    cfg.webhooks.twilio.then(|| {
        Router::new()
            .route("/webhooks/twilio", post(inbound::inbound))
            .route("/webhooks/twilio/status", post(inbound::status))
    })
}
