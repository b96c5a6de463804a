//! The `vonage` sender: the SMS API (`/sms/json`), `type=unicode` for non-GSM text, receipts to
//! `/webhooks/vonage/status` carrying our `client-ref`.

use serde::Deserialize;

use crate::config::VonageConfig;
use crate::encoding;
use crate::providers::outbound::{Accepted, Outbound, SendError, SendFuture, classify_status};
use crate::providers::send_client::{SendClient, form, uri};
use crate::store::OutboxText;

pub struct Vonage {
    http: SendClient,
    cfg: VonageConfig,
    callback: String,
}

#[derive(Deserialize)]
struct Answer {
    messages: Vec<Part>,
}

#[derive(Deserialize)]
struct Part {
    status: String,
    #[serde(rename = "error-text")]
    error_text: Option<String>,
}

impl Vonage {
    pub fn new(http: SendClient, cfg: VonageConfig, public_base: &str) -> Vonage {
        Vonage {
            http,
            cfg,
            callback: format!("{public_base}/webhooks/vonage/status"),
        }
    }

    /// The `client-ref` every part's receipt carries back.
    pub fn reference(text: &OutboxText) -> String {
        crate::providers::outbound::own_reference('v', text.id)
    }

    async fn send_text(&self, text: &OutboxText) -> Result<Accepted, SendError> {
        let kind = if text.encoding == encoding::Encoding::Ucs2.as_str() {
            "unicode"
        } else {
            "text"
        };
        let reference = Self::reference(text);
        let pairs = [
            ("api_key", self.cfg.api_key.as_str()),
            ("api_secret", self.cfg.api_secret.expose()),
            ("from", text.from.as_str()),
            ("to", text.to.as_str()),
            ("text", text.body.as_str()),
            ("type", kind),
            ("callback", self.callback.as_str()),
            ("status-report-req", "1"),
            ("client-ref", reference.as_str()),
        ];
        let url = format!("{}/sms/json", self.cfg.base_url.trim_end_matches('/'));
        let answer = self
            .http
            .send(form(uri(&url, "sms.vonage.base_url")?, &pairs))
            .await?;
        let status = answer.status;
        let body = answer.text();
        if !status.is_success() {
            return Err(classify_status(status, &body));
        }
        let answer: Answer = serde_json::from_str(&body).map_err(|e| SendError::Final {
            reason: format!("unreadable answer from Vonage: {e}"),
        })?;
        // Vonage answers 200 and puts the verdict per part: "0" is success,
        // "1" throttled and "5" an internal error are worth retrying.
        match answer.messages.iter().find(|p| p.status != "0") {
            None => Ok(Accepted {
                provider_ref: Some(reference),
            }),
            Some(part) => {
                let reason = format!(
                    "Vonage status {}: {}",
                    part.status,
                    part.error_text.as_deref().unwrap_or("")
                );
                if matches!(part.status.as_str(), "1" | "5") {
                    Err(SendError::Retry {
                        reason,
                        after: None,
                    })
                } else {
                    Err(SendError::Final { reason })
                }
            }
        }
    }
}

impl Outbound for Vonage {
    fn send<'a>(&'a self, text: &'a OutboxText) -> SendFuture<'a> {
        Box::pin(self.send_text(text))
    }
}
