//! The `twilio` sender: `POST /2010-04-01/Accounts/{AccountSid}/Messages.json`, status callbacks to
//! `/webhooks/twilio/status`; error 21610 (recipient opted out) marks the number opted out.

use serde::Deserialize;

use crate::config::TwilioConfig;
use crate::providers::outbound::{
    Accepted, Outbound, SendError, SendFuture, classify_status, retry_after, transport_error,
};
use crate::store::OutboxText;

/// Twilio's error code for "the recipient replied STOP to this number".
const RECIPIENT_OPTED_OUT: u32 = 21610;

pub struct Twilio {
    http: reqwest::Client,
    cfg: TwilioConfig,
    status_callback: String,
}

#[derive(Deserialize)]
struct Created {
    sid: String,
}

#[derive(Deserialize)]
struct ApiError {
    code: Option<u32>,
}

impl Twilio {
    pub fn new(http: reqwest::Client, cfg: TwilioConfig, public_base: &str) -> Twilio {
        Twilio {
            http,
            cfg,
            status_callback: format!("{public_base}/webhooks/twilio/status"),
        }
    }

    async fn send_text(&self, text: &OutboxText) -> Result<Accepted, SendError> {
        let url = format!(
            "{}/2010-04-01/Accounts/{}/Messages.json",
            self.cfg.base_url.trim_end_matches('/'),
            self.cfg.account_sid
        );
        let form = [
            ("To", text.to.as_str()),
            ("From", text.from.as_str()),
            ("Body", text.body.as_str()),
            ("StatusCallback", self.status_callback.as_str()),
        ];
        let response = self
            .http
            .post(url)
            .basic_auth(&self.cfg.account_sid, Some(self.cfg.auth_token.expose()))
            .form(&form)
            .send()
            .await
            .map_err(transport_error)?;
        let status = response.status();
        let after = retry_after(response.headers());
        let body = response.text().await.unwrap_or_default();
        if status.is_success() {
            let created: Created = serde_json::from_str(&body).map_err(|e| SendError::Final {
                reason: format!("unreadable answer from Twilio: {e}"),
            })?;
            return Ok(Accepted {
                provider_ref: Some(created.sid),
            });
        }
        if serde_json::from_str::<ApiError>(&body)
            .ok()
            .and_then(|e| e.code)
            == Some(RECIPIENT_OPTED_OUT)
        {
            return Err(SendError::RecipientOptedOut);
        }
        match classify_status(status, &body) {
            SendError::Retry { reason, .. } => Err(SendError::Retry { reason, after }),
            other => Err(other),
        }
    }
}

impl Outbound for Twilio {
    fn send<'a>(&'a self, text: &'a OutboxText) -> SendFuture<'a> {
        Box::pin(self.send_text(text))
    }
}
