//! The SMS providers, one folder each: its webhooks (inbound parsing, signature checks, delivery reports) and its sender together, normalised to [`crate::inbound::InboundMessage`] and [`OutboxText`](crate::store::OutboxText).
//!
//! [`PROVIDERS`] is the one place they register: a provider is a folder (or
//! a file, for one that only sends) and a line there, plus its settings
//! section and its `webhooks.<name>` switch in the configuration.

use axum::Router;

use crate::app::AppState;
use crate::config::{Config, ProviderKind};
use send_client::SendClient;

pub mod capture;
pub mod generic;
pub mod hall;
pub mod kannel;
pub mod observed;
pub mod outbound;
pub mod send_client;
pub mod stdout;
pub mod twilio;
pub mod vonage;
pub mod webhook;

pub use outbound::{Accepted, Outbound, Provider, SendError};

/// Provider signature algorithms, public so tests and tools can sign requests.
pub mod signatures {
    pub use super::twilio::twilio_signature;
    pub use super::vonage::vonage_signature;
}

/// What a provider's folder declares.
pub struct Registration {
    /// The name `sms.provider` calls it by.
    pub kind: ProviderKind,
    /// Its webhooks when they are switched on (`webhooks.<name>`), or none.
    pub webhooks: fn(&Config) -> Option<Router<AppState>>,
    /// Its sender, built when `sms.provider` names it; an error names the
    /// setting it lacks.
    pub sender: fn(&Config, SendClient) -> anyhow::Result<Box<dyn Outbound>>,
}

/// Every provider.
pub const PROVIDERS: &[Registration] = &[
    stdout::PROVIDER,
    generic::PROVIDER,
    kannel::PROVIDER,
    twilio::PROVIDER,
    vonage::PROVIDER,
    hall::PROVIDER,
];

/// The registration of a kind; every kind has one (a unit test checks).
pub(crate) fn registration(kind: ProviderKind) -> &'static Registration {
    PROVIDERS
        .iter()
        .find(|p| p.kind == kind)
        .expect("every provider kind is registered")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_provider_kind_is_registered_once() {
        for kind in [
            ProviderKind::Console,
            ProviderKind::Kannel,
            ProviderKind::Twilio,
            ProviderKind::Vonage,
            ProviderKind::Generic,
            ProviderKind::Hall,
        ] {
            assert_eq!(
                PROVIDERS.iter().filter(|p| p.kind == kind).count(),
                1,
                "{kind:?}"
            );
        }
        assert_eq!(PROVIDERS.len(), 6);
    }
}
