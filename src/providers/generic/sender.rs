//! The `generic` sender: POST JSON `{"id","from","to","text"}` to a configured URL, with an optional
//! `X-Webhook-Secret`; the `id` lets the receiver drop a text it has already taken.

use serde::Serialize;

use crate::config::GenericConfig;
use crate::providers::outbound::{
    Accepted, Outbound, SendError, SendFuture, classify_status, retry_after, transport_error,
};
use crate::store::OutboxText;

pub struct Generic {
    http: reqwest::Client,
    /// Parsed once: parsing it for every text was a visible share of a send's CPU.
    url: reqwest::Url,
    cfg: GenericConfig,
}

/// The body of a send.
#[derive(Serialize)]
struct Send<'a> {
    id: &'a str,
    from: &'a str,
    to: &'a str,
    text: &'a str,
}

impl Generic {
    pub fn new(http: reqwest::Client, cfg: GenericConfig) -> anyhow::Result<Generic> {
        // Not the URL itself: its query may hold a credential.
        let url = reqwest::Url::parse(&cfg.url)
            .map_err(|e| anyhow::anyhow!("sms.generic.url is not a URL: {e}"))?;
        Ok(Generic { http, url, cfg })
    }

    pub fn reference(text: &OutboxText) -> String {
        format!("g{}", text.id)
    }

    async fn send_text(&self, text: &OutboxText) -> Result<Accepted, SendError> {
        let reference = Self::reference(text);
        let mut request = self.http.post(self.url.clone()).json(&Send {
            id: &reference,
            from: &text.from,
            to: &text.to,
            text: &text.body,
        });
        if !self.cfg.secret.is_empty() {
            request = request.header("X-Webhook-Secret", self.cfg.secret.expose());
        }
        let response = request.send().await.map_err(transport_error)?;
        let status = response.status();
        let after = retry_after(response.headers());
        if status.is_success() {
            return Ok(Accepted {
                provider_ref: Some(reference),
            });
        }
        let body = response.text().await.unwrap_or_default();
        match classify_status(status, &body) {
            SendError::Retry { reason, .. } => Err(SendError::Retry { reason, after }),
            other => Err(other),
        }
    }
}

impl Outbound for Generic {
    fn send<'a>(&'a self, text: &'a OutboxText) -> SendFuture<'a> {
        Box::pin(self.send_text(text))
    }
}
