//! The `generic` sender: POST JSON `{"id","from","to","text"}` to a configured URL, with an optional
//! `X-Webhook-Secret`; the `id` lets the receiver drop a text it has already taken.

use hyper::body::Bytes;
use hyper::header::{HOST, HeaderName, HeaderValue};
use hyper::{Method, Uri};
use serde::Serialize;

use crate::config::GenericConfig;
use crate::providers::outbound::{
    Accepted, Outbound, SendError, SendFuture, classify_status, retry_after,
};
use crate::providers::send_client::{SendClient, host_header, request, uri};
use crate::store::OutboxText;

/// The header that carries `sms.generic.secret`.
const SECRET_HEADER: HeaderName = HeaderName::from_static("x-webhook-secret");

pub struct Generic {
    http: SendClient,
    /// Parsed once: parsing it for every text was a visible share of a send's CPU.
    url: Uri,
    /// Its `Host` header, made once too.
    host: Option<HeaderValue>,
    /// The secret's header value, made once (marked sensitive: never logged).
    secret: Option<HeaderValue>,
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
    pub fn new(http: SendClient, cfg: GenericConfig) -> anyhow::Result<Generic> {
        // Not the URL itself in the error: its query may hold a credential.
        let url = uri(&cfg.url, "sms.generic.url").map_err(|e| anyhow::anyhow!("{e}"))?;
        let secret = match cfg.secret.expose() {
            "" => None,
            secret => {
                let mut value = HeaderValue::from_str(secret).map_err(|_| {
                    anyhow::anyhow!("sms.generic.secret cannot go in an HTTP header")
                })?;
                value.set_sensitive(true);
                Some(value)
            }
        };
        let host = host_header(&url);
        Ok(Generic {
            http,
            url,
            host,
            secret,
        })
    }

    pub fn reference(text: &OutboxText) -> String {
        crate::providers::outbound::own_reference('g', text.id)
    }

    async fn send_text(&self, text: &OutboxText) -> Result<Accepted, SendError> {
        let reference = Self::reference(text);
        let body = serde_json::to_vec(&Send {
            id: &reference,
            from: &text.from,
            to: &text.to,
            text: &text.body,
        })
        .expect("a struct of strings serialises");
        let mut request = request(
            Method::POST,
            self.url.clone(),
            "application/json",
            Bytes::from(body),
        );
        if let Some(host) = &self.host {
            request.headers_mut().insert(HOST, host.clone());
        }
        if let Some(secret) = &self.secret {
            request.headers_mut().insert(SECRET_HEADER, secret.clone());
        }
        let answer = self.http.send(request).await?;
        if answer.status.is_success() {
            return Ok(Accepted {
                provider_ref: Some(reference),
            });
        }
        let after = retry_after(&answer.headers);
        match classify_status(answer.status, &answer.text()) {
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
