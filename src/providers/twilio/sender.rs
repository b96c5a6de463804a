//! The `twilio` sender: `POST /2010-04-01/Accounts/{AccountSid}/Messages.json`, status callbacks to
//! `/webhooks/twilio/status`; error 21610 (recipient opted out) marks the number opted out.

use serde::Deserialize;

use crate::config::TwilioConfig;
use crate::providers::outbound::{
    Accepted, Outbound, SendError, SendFuture, classify_status, retry_after,
};
use crate::providers::send_client::{SendClient, basic_auth, form, uri};
use crate::store::OutboxText;

/// Twilio's error code for "the recipient replied STOP to this number".
const RECIPIENT_OPTED_OUT: u32 = 21610;

pub struct Twilio {
    http: SendClient,
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
    pub fn new(http: SendClient, cfg: TwilioConfig, public_base: &str) -> Twilio {
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
        let pairs = [
            ("To", text.to.as_str()),
            ("From", text.from.as_str()),
            ("Body", text.body.as_str()),
            ("StatusCallback", self.status_callback.as_str()),
        ];
        let mut request = form(uri(&url, "sms.twilio.base_url")?, &pairs);
        let (name, value) = basic_auth(&self.cfg.account_sid, self.cfg.auth_token.expose())?;
        request.headers_mut().insert(name, value);
        let answer = self.http.send(request).await?;
        let status = answer.status;
        let after = retry_after(&answer.headers);
        let body = answer.text();
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
