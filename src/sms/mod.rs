//! Outbound SMS: encoding, provider senders (one file each) and the outbox dispatcher.

use std::time::Duration;

use crate::config::{Config, ProviderKind};
use crate::store::OutboxText;

pub mod capture;
pub mod console;
pub mod dispatcher;
pub mod encoding;
pub mod generic;
pub mod kannel;
pub mod rate;
pub mod twilio;
pub mod vonage;

/// What the provider said when it accepted a text.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Accepted {
    /// The reference the provider's delivery reports will name this text by.
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
    Kannel(kannel::Kannel),
    Twilio(twilio::Twilio),
    Vonage(vonage::Vonage),
    Generic(generic::Generic),
}

impl Provider {
    pub fn from_config(cfg: &Config) -> anyhow::Result<Provider> {
        let http = reqwest::Client::builder()
            .timeout(Duration::from_millis(cfg.sms.send_timeout_ms))
            // A send API that redirects is misconfigured: re-posting a text
            // elsewhere is not ours to decide, and the 3xx is reported as a
            // final error with its status. (Following redirects also cost a
            // URL parse per text.)
            .redirect(reqwest::redirect::Policy::none())
            .pool_max_idle_per_host(cfg.sms.concurrency)
            .build()?;
        let public = cfg.http.public_base();
        Ok(match cfg.sms.provider {
            ProviderKind::Console => Provider::Console(console::Console),
            ProviderKind::Kannel => Provider::Kannel(kannel::Kannel::new(
                http,
                cfg.sms.kannel.clone(),
                &public,
                &cfg.webhooks.secret,
            )),
            ProviderKind::Twilio => {
                anyhow::ensure!(
                    !cfg.sms.twilio.account_sid.is_empty() && !cfg.sms.twilio.auth_token.is_empty(),
                    "sms.twilio.account_sid and sms.twilio.auth_token are needed to send through Twilio"
                );
                Provider::Twilio(twilio::Twilio::new(http, cfg.sms.twilio.clone(), &public))
            }
            ProviderKind::Vonage => {
                anyhow::ensure!(
                    !cfg.sms.vonage.api_key.is_empty() && !cfg.sms.vonage.api_secret.is_empty(),
                    "sms.vonage.api_key and sms.vonage.api_secret are needed to send through Vonage"
                );
                Provider::Vonage(vonage::Vonage::new(http, cfg.sms.vonage.clone(), &public))
            }
            ProviderKind::Generic => {
                anyhow::ensure!(
                    !cfg.sms.generic.url.is_empty(),
                    "sms.generic.url is needed to send through the generic provider"
                );
                Provider::Generic(generic::Generic::new(http, cfg.sms.generic.clone())?)
            }
        })
    }

    pub async fn send(&self, text: &OutboxText) -> Result<Accepted, SendError> {
        match self {
            Provider::Console(p) => p.send(text).await,
            Provider::Capture(p) => p.send(text).await,
            Provider::Kannel(p) => p.send(text).await,
            Provider::Twilio(p) => p.send(text).await,
            Provider::Vonage(p) => p.send(text).await,
            Provider::Generic(p) => p.send(text).await,
        }
    }
}

/// Classifies an HTTP status the way every provider's API means it:
/// 5xx, 429 and 408 are passing; any other 4xx is final.
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

/// A request that never got an answer (refused, reset, timed out) is worth
/// retrying. Its text leaves the URL out: a Kannel `sendsms` URL carries the
/// username and password.
pub(crate) fn transport_error(e: reqwest::Error) -> SendError {
    let e = e.without_url();
    let mut reason = format!("transport: {e}");
    let mut source = std::error::Error::source(&e);
    while let Some(cause) = source {
        reason.push_str(&format!(": {cause}"));
        source = cause.source();
    }
    SendError::Retry {
        reason,
        after: None,
    }
}

impl SendError {
    /// The same error with every one of `secrets` scrubbed from its reason
    /// (a provider's error page may echo the request back).
    pub fn scrubbed(self, secrets: &[String]) -> SendError {
        use crate::config::scrub;
        match self {
            SendError::Retry { reason, after } => SendError::Retry {
                reason: scrub(&reason, secrets),
                after,
            },
            SendError::Final { reason } => SendError::Final {
                reason: scrub(&reason, secrets),
            },
            other => other,
        }
    }
}

/// The `Retry-After` seconds a provider asked for, if any.
pub(crate) fn retry_after(headers: &reqwest::header::HeaderMap) -> Option<Duration> {
    headers
        .get(reqwest::header::RETRY_AFTER)?
        .to_str()
        .ok()?
        .trim()
        .parse::<u64>()
        .ok()
        .map(Duration::from_secs)
}

#[cfg(test)]
mod tests {
    use super::*;
    use reqwest::StatusCode;

    #[test]
    fn statuses_are_classified_by_what_the_caller_should_do() {
        for code in [500, 502, 503, 429, 408] {
            assert!(
                matches!(
                    classify_status(StatusCode::from_u16(code).unwrap(), ""),
                    SendError::Retry { .. }
                ),
                "{code}"
            );
        }
        for code in [400, 401, 403, 404, 422] {
            assert!(
                matches!(
                    classify_status(StatusCode::from_u16(code).unwrap(), ""),
                    SendError::Final { .. }
                ),
                "{code}"
            );
        }
    }
}
