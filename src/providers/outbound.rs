//! What every sender shares: the [`Outbound`] face the dispatcher sends through, the configured [`Provider`], and errors typed by what the caller should do.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::time::Duration;

use hyper::header::RETRY_AFTER;
use hyper::{HeaderMap, StatusCode};

use super::hall::Hall;
use super::send_client::SendClient;
use crate::config::{Config, Scrubber};
use crate::phone::is_virtual;
use crate::store::OutboxText;

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

/// Characters of a failure's reason kept for the log and the outbox's
/// `last_error`: a provider's error page can be long.
pub const REASON_CHARS: usize = 200;

/// One provider's sender: what every provider that sends texts gives the
/// dispatcher. A boxed future rather than an `async fn`, so that the
/// registry can hold every provider's sender alike.
pub trait Outbound: Send + Sync {
    fn send<'a>(&'a self, text: &'a OutboxText) -> SendFuture<'a>;
}

/// What [`Outbound::send`] gives back.
pub type SendFuture<'a> = Pin<Box<dyn Future<Output = Result<Accepted, SendError>> + Send + 'a>>;

/// The configured provider's sender, and the scrubber of every configured
/// secret that each of its failures passes through; beside it, the training
/// hall, which alone reaches virtual phones.
pub struct Provider {
    /// Which provider sends to real phones (for metrics' labels).
    kind: crate::config::ProviderKind,
    sender: Box<dyn Outbound>,
    scrubber: Scrubber,
    hall: Option<Arc<Hall>>,
}

impl Provider {
    /// Texts kept in memory for whoever reads the capture (the terminal phone).
    pub fn capture(capture: super::capture::Capture) -> Provider {
        Provider {
            kind: crate::config::ProviderKind::Console,
            sender: Box::new(capture),
            scrubber: Scrubber::default(),
            hall: None,
        }
    }

    /// The sender of the provider `sms.provider` names, as its folder builds it.
    pub fn from_config(cfg: &Config) -> anyhow::Result<Provider> {
        let http = SendClient::new(cfg.sms.concurrency);
        let registration = super::registration(cfg.sms.provider);
        Ok(Provider {
            kind: cfg.sms.provider,
            sender: (registration.sender)(cfg, http)?,
            scrubber: cfg.scrubber(),
            hall: None,
        })
    }

    /// This provider with the training hall beside it, when the hall is served.
    pub fn beside(mut self, hall: Option<Arc<Hall>>) -> Provider {
        self.hall = hall;
        self
    }

    /// The name of the route a text to `to` takes: the hall for a virtual
    /// phone, the configured provider for any other.
    pub fn route(&self, to: &str) -> &'static str {
        if is_virtual(to) {
            crate::config::ProviderKind::Hall.as_str()
        } else {
            self.kind.as_str()
        }
    }

    /// Sends one text. A failure's reason is scrubbed of every configured
    /// secret and then cut to [`REASON_CHARS`], here, once for every sender:
    /// whatever a provider answers (an error page may echo the whole
    /// request) reaches the log and the outbox only through this.
    ///
    /// The route is decided here, from the number, and nowhere else: a
    /// virtual phone's text goes to the hall and never to the provider (nor
    /// anywhere, when no hall is served), a real phone's never to the hall.
    pub async fn send(&self, text: &OutboxText) -> Result<Accepted, SendError> {
        if is_virtual(&text.to) {
            return match &self.hall {
                Some(hall) => hall.deliver(text),
                None => Err(SendError::Final {
                    reason: "a training hall phone, and no training hall is served here".into(),
                }),
            };
        }
        let result = self.sender.send(text).await;
        result.map_err(|e| e.scrubbed(&self.scrubber))
    }
}

/// Classifies an HTTP status the way every provider's API means it:
/// 5xx, 429 and 408 are passing; any other 4xx is final. The body is kept
/// whole: [`Provider::send`] cuts it once it is scrubbed.
pub fn classify_status(status: StatusCode, body: &str) -> SendError {
    let reason = format!("HTTP {status}: {body}");
    if status.is_server_error()
        || status == StatusCode::TOO_MANY_REQUESTS
        || status == StatusCode::REQUEST_TIMEOUT
    {
        SendError::Retry {
            reason,
            after: None,
        }
    } else {
        SendError::Final { reason }
    }
}

impl SendError {
    /// The same error with every secret `scrubber` knows taken out of its
    /// reason, which is then cut to [`REASON_CHARS`]: scrubbed first, so
    /// that a secret across the cut is not left in by its first characters.
    pub fn scrubbed(self, scrubber: &Scrubber) -> SendError {
        match self {
            SendError::Retry { reason, after } => SendError::Retry {
                reason: scrubber.scrub_and_cut(&reason, REASON_CHARS),
                after,
            },
            SendError::Final { reason } => SendError::Final {
                reason: scrubber.scrub_and_cut(&reason, REASON_CHARS),
            },
            other => other,
        }
    }
}

/// The reference a sender makes for the text `id` when the provider gives
/// none of its own: its letter, then the id (`g12`). Written without the
/// formatter: every text sent gets one.
pub(crate) fn own_reference(letter: char, id: i64) -> String {
    debug_assert!(
        crate::store::reference::OWN_LETTERS.contains(&letter),
        "{letter} is not in outbox_by_ref's condition"
    );
    let mut digits = itoa::Buffer::new();
    let digits = digits.format(id);
    let mut reference = String::with_capacity(1 + digits.len());
    reference.push(letter);
    reference.push_str(digits);
    reference
}

/// The `Retry-After` seconds a provider asked for, if any.
pub(crate) fn retry_after(headers: &HeaderMap) -> Option<Duration> {
    headers
        .get(RETRY_AFTER)?
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
