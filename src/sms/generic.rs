//! The `generic` sender: POST JSON `{"id","from","to","text"}` to a configured URL, with an optional
//! `X-Webhook-Secret`; the `id` lets the receiver drop a text it has already taken.

use serde_json::json;

use super::{Accepted, SendError, classify_status, retry_after, transport_error};
use crate::config::GenericConfig;
use crate::store::OutboxText;

pub struct Generic {
    http: reqwest::Client,
    cfg: GenericConfig,
}

impl Generic {
    pub fn new(http: reqwest::Client, cfg: GenericConfig) -> Generic {
        Generic { http, cfg }
    }

    pub fn reference(text: &OutboxText) -> String {
        format!("g{}", text.id)
    }

    pub async fn send(&self, text: &OutboxText) -> Result<Accepted, SendError> {
        let reference = Self::reference(text);
        let mut request = self.http.post(&self.cfg.url).json(&json!({
            "id": reference,
            "from": text.from,
            "to": text.to,
            "text": text.body,
        }));
        if !self.cfg.secret.is_empty() {
            request = request.header("X-Webhook-Secret", &self.cfg.secret);
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
