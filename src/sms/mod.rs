//! Outbound SMS: encoding, provider senders (one file each) and the outbox dispatcher.

use std::time::Duration;

use crate::config::{Config, ProviderKind};
use crate::store::OutboxText;

pub mod capture;
pub mod console;
pub mod dispatcher;
pub mod encoding;

/// What the provider said when it accepted a text.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Accepted {
    /// The provider's id for the text, which its delivery reports will name.
    pub provider_ref: Option<String>,
}

/// Why a send failed, typed by what the caller should do about it.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SendError {
    /// A passing failure (timeout, 5xx, 429): try again later, no sooner than `after` if given.
    #[error("temporary: {reason}")]
    Retry {
        reason: String,
        after: Option<Duration>,
    },
    /// The provider refused the text for good (4xx): retrying cannot help.
    #[error("final: {reason}")]
    Final { reason: String },
    /// The recipient has opted out at the provider (Twilio 21610): final, and stop texting the number.
    #[error("recipient opted out at the provider")]
    RecipientOptedOut,
}

/// The configured provider. An enum rather than a trait object: the set is
/// closed, and each variant's `send` stays an ordinary `async fn`.
pub enum Provider {
    Console(console::Console),
    Capture(capture::Capture),
}

impl Provider {
    pub fn from_config(cfg: &Config) -> anyhow::Result<Provider> {
        match cfg.sms.provider {
            ProviderKind::Console => Ok(Provider::Console(console::Console)),
            other => anyhow::bail!("the {other:?} sender is not built yet"),
        }
    }

    pub async fn send(&self, text: &OutboxText) -> Result<Accepted, SendError> {
        match self {
            Provider::Console(p) => p.send(text).await,
            Provider::Capture(p) => p.send(text).await,
        }
    }
}

/// Classifies an HTTP status the way every provider's API means it.
pub fn classify_status(status: reqwest::StatusCode, body: &str) -> SendError {
    let reason = format!(
        "HTTP {status}: {}",
        body.chars().take(200).collect::<String>()
    );
    if status.is_server_error()
        || status == reqwest::StatusCode::TOO_MANY_REQUESTS
        || status == reqwest::StatusCode::REQUEST_TIMEOUT
    {
        SendError::Retry {
            reason,
            after: None,
        }
    } else {
        SendError::Final { reason }
    }
}
