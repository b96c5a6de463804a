//! `POST /webhooks/twilio`: Twilio's form fields, `X-Twilio-Signature` checked when an auth token is set.

use axum::body::Bytes;
use axum::extract::State;
use axum::http::{HeaderMap, Uri, header};
use axum::response::IntoResponse;
use base64::Engine;
use chrono::{DateTime, Utc};
use hmac::{Hmac, Mac};
use sha1::Sha1;
use subtle::ConstantTimeEq;

use crate::app::{AppError, AppState};
use crate::config::Config;
use crate::inbound::InboundMessage;
use crate::store::TextStatus;

use crate::providers::webhook::{RawParams, StatusReport, addresses, is_form};

/// Twilio's answer that says "send nothing yourself".
const EMPTY_TWIML: &str = "<?xml version=\"1.0\" encoding=\"UTF-8\"?><Response/>";

pub(super) async fn inbound(
    State(state): State<AppState>,
    uri: Uri,
    headers: HeaderMap,
    body: Bytes,
) -> Result<impl IntoResponse, AppError> {
    let msg = parse_inbound(state.config(), &uri, &headers, &body, state.clock().now())?;
    state.receive(msg).await?;
    Ok(([(header::CONTENT_TYPE, "text/xml")], EMPTY_TWIML))
}

/// Reads an inbound text: a form body, its signature (when an auth token is
/// set), then `MessageSid`, `From`, `To` and `Body`.
pub fn parse_inbound(
    cfg: &Config,
    uri: &Uri,
    headers: &HeaderMap,
    body: &[u8],
    received_at: DateTime<Utc>,
) -> Result<InboundMessage, AppError> {
    if !is_form(headers) {
        return Err(AppError::bad_request("expected a form-encoded body"));
    }
    let params = RawParams::parse(body);
    verify(cfg, uri, headers, &params)?;
    let (from, to) = addresses(cfg, &params.required("From")?, &params.required("To")?)?;
    Ok(InboundMessage {
        provider: "twilio",
        provider_id: params.required("MessageSid")?,
        from,
        to,
        text: params.text("Body").unwrap_or_default(),
        received_at,
    })
}

/// `POST /webhooks/twilio/status`: the `StatusCallback` we give with every text.
pub(super) async fn status(
    State(state): State<AppState>,
    uri: Uri,
    headers: HeaderMap,
    body: Bytes,
) -> Result<axum::http::StatusCode, AppError> {
    if let Some(report) = parse_status(state.config(), &uri, &headers, &body)? {
        state
            .report_status("twilio", report.reference, report.status, report.error)
            .await?;
    }
    Ok(axum::http::StatusCode::OK)
}

/// Reads a status callback: a form body, its signature, then `MessageSid` and
/// `MessageStatus`; `None` for a status that tells us nothing new.
pub fn parse_status(
    cfg: &Config,
    uri: &Uri,
    headers: &HeaderMap,
    body: &[u8],
) -> Result<Option<StatusReport>, AppError> {
    if !is_form(headers) {
        return Err(AppError::bad_request("expected a form-encoded body"));
    }
    let params = RawParams::parse(body);
    verify(cfg, uri, headers, &params)?;
    let sid = params.required("MessageSid")?;
    let status = match params.required("MessageStatus")?.as_str() {
        "sent" => TextStatus::Sent,
        "delivered" | "read" => TextStatus::Delivered,
        "failed" | "undelivered" | "canceled" => TextStatus::Failed,
        // queued, accepted, scheduled, sending: nothing we do not know already.
        _ => return Ok(None),
    };
    let error = params
        .text("ErrorCode")
        .filter(|c| !c.is_empty())
        .map(|c| format!("Twilio error {c}"));
    Ok(Some(StatusReport {
        reference: sid,
        status,
        error,
    }))
}

/// Checks `X-Twilio-Signature` against our public URL, when an auth token is configured.
fn verify(
    cfg: &Config,
    uri: &Uri,
    headers: &HeaderMap,
    params: &RawParams,
) -> Result<(), AppError> {
    let token = &cfg.sms.twilio.auth_token;
    if token.is_empty() {
        return Ok(());
    }
    let presented = headers
        .get("x-twilio-signature")
        .and_then(|v| v.to_str().ok())
        .ok_or(AppError::BadSignature)?;
    let path = uri
        .path_and_query()
        .map(|p| p.as_str())
        .unwrap_or("/webhooks/twilio");
    let url = format!("{}{}", cfg.http.public_base(), path);
    let expected = twilio_signature(token, &url, &params.text_pairs());
    if bool::from(expected.as_bytes().ct_eq(presented.as_bytes())) {
        Ok(())
    } else {
        Err(AppError::BadSignature)
    }
}

/// Twilio's request signature: the full URL, then every POST parameter
/// sorted by name, each name then value with no separators, HMAC-SHA1 with
/// the auth token, Base64.
pub fn twilio_signature(auth_token: &str, url: &str, params: &[(String, String)]) -> String {
    let mut sorted: Vec<&(String, String)> = params.iter().collect();
    sorted.sort();
    let mut mac = Hmac::<Sha1>::new_from_slice(auth_token.as_bytes())
        .expect("HMAC takes a key of any length");
    mac.update(url.as_bytes());
    for (name, value) in sorted {
        mac.update(name.as_bytes());
        mac.update(value.as_bytes());
    }
    base64::engine::general_purpose::STANDARD.encode(mac.finalize().into_bytes())
}

#[cfg(test)]
mod tests {
    use super::twilio_signature;

    #[test]
    fn twilio_public_test_vector() {
        let params: Vec<(String, String)> = [
            ("CallSid", "CA1234567890ABCDE"),
            ("Caller", "+12349013030"),
            ("Digits", "1234"),
            ("From", "+12349013030"),
            ("To", "+18005551212"),
        ]
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
        assert_eq!(
            twilio_signature(
                "12345",
                "https://mycompany.com/myapp.php?foo=1&bar=2",
                &params
            ),
            "0/KCTR6DLpKmkAf8muzZqo1nDgQ="
        );
    }
}
