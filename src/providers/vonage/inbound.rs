//! `GET|POST /webhooks/vonage`: Vonage's inbound SMS (`msisdn`, `to`, `text`, `messageId`, `type`),
//! as query, form or JSON; the signed-webhook `sig` checked when a signature secret is set.

use axum::body::Bytes;
use axum::extract::{RawQuery, State};
use axum::http::{HeaderMap, Method, StatusCode};
use chrono::{DateTime, Utc};
use hmac::{Hmac, Mac};
use md5::{Digest, Md5};
use subtle::ConstantTimeEq;

use crate::app::{AppError, AppState};
use crate::config::Config;
use crate::inbound::{InboundMessage, MAX_PARTS, Part};
use crate::store::TextStatus;

use crate::providers::webhook::{RawParams, StatusReport, addresses, is_form, is_json};

pub(super) async fn inbound(
    State(state): State<AppState>,
    method: Method,
    RawQuery(query): RawQuery,
    headers: HeaderMap,
    body: Bytes,
) -> Result<StatusCode, AppError> {
    let query = query.unwrap_or_default();
    let read = parse_inbound(
        state.config(),
        &method,
        &query,
        &headers,
        &body,
        state.clock().now(),
    )?;
    match read.part {
        None => state.receive(read.message).await?,
        Some(part) => state.receive_part(read.message, part).await?,
    };
    Ok(StatusCode::OK)
}

pub(super) async fn status(
    State(state): State<AppState>,
    method: Method,
    RawQuery(query): RawQuery,
    headers: HeaderMap,
    body: Bytes,
) -> Result<StatusCode, AppError> {
    let query = query.unwrap_or_default();
    let now = state.clock().now();
    if let Some(report) = parse_status(state.config(), &method, &query, &headers, &body, now)? {
        state
            .report_status("vonage", report.reference, report.status, report.error)
            .await?;
    }
    Ok(StatusCode::OK)
}

/// The query's parameters, plus a POST body's (form or JSON): Vonage sends either.
/// With a signature secret configured, their `sig` must match, and the
/// signed `timestamp` must be within `signature_max_age_secs` of `now`: a
/// signed request captured once is not good for ever.
fn signed_pairs(
    cfg: &Config,
    method: &Method,
    query: &str,
    headers: &HeaderMap,
    body: &[u8],
    now: DateTime<Utc>,
) -> Result<Vec<(String, String)>, AppError> {
    let mut pairs = RawParams::parse(query.as_bytes()).text_pairs();
    if method == Method::POST {
        pairs.extend(body_pairs(headers, body)?);
    }
    let cfg = &cfg.sms.vonage;
    if !cfg.signature_secret.is_empty() {
        verify(&cfg.signature_secret, &cfg.signature_method, &pairs)?;
        fresh(&pairs, now, cfg.signature_max_age_secs)?;
    }
    Ok(pairs)
}

/// A signed request's `timestamp` (Unix seconds, which Vonage adds to
/// every signed request) is no further than `max_age_secs` from `now`,
/// either way: a clock a little ahead of ours is not a replay.
fn fresh(
    pairs: &[(String, String)],
    now: DateTime<Utc>,
    max_age_secs: u64,
) -> Result<(), AppError> {
    let signed_at = param(pairs, "timestamp")
        .and_then(|t| t.parse::<i64>().ok())
        .ok_or_else(|| AppError::bad_request("a signed request needs its timestamp"))?;
    let age = now.timestamp().saturating_sub(signed_at).unsigned_abs();
    if age > max_age_secs {
        tracing::warn!(
            age_secs = age,
            max_age_secs,
            "a signed Vonage request outside its window refused (a replay, or a clock off)"
        );
        return Err(AppError::Stale);
    }
    Ok(())
}

/// A parameter's value, trimmed.
fn param(pairs: &[(String, String)], key: &str) -> Option<String> {
    pairs
        .iter()
        .find(|(k, _)| k == key)
        .map(|(_, v)| v.trim().to_string())
}

/// Reads a delivery receipt; it names our text by the `client-ref` we sent.
/// `None` for a status that tells us nothing new.
pub fn parse_status(
    cfg: &Config,
    method: &Method,
    query: &str,
    headers: &HeaderMap,
    body: &[u8],
    now: DateTime<Utc>,
) -> Result<Option<StatusReport>, AppError> {
    let pairs = signed_pairs(cfg, method, query, headers, body, now)?;
    let get = |key: &str| param(&pairs, key);
    let reference = get("client-ref")
        .filter(|r| !r.is_empty())
        .ok_or_else(|| AppError::bad_request("missing parameter client-ref"))?;
    let status = match get("status").unwrap_or_default().as_str() {
        "delivered" => TextStatus::Delivered,
        "accepted" | "buffered" => TextStatus::Sent,
        "expired" | "failed" | "rejected" => TextStatus::Failed,
        _ => return Ok(None),
    };
    let error = get("err-code")
        .filter(|c| c != "0")
        .map(|c| format!("Vonage error {c}"));
    Ok(Some(StatusReport {
        reference,
        status,
        error,
    }))
}

fn body_pairs(headers: &HeaderMap, body: &[u8]) -> Result<Vec<(String, String)>, AppError> {
    if is_json(headers) {
        json_pairs(body)
    } else if is_form(headers) {
        Ok(RawParams::parse(body).text_pairs())
    } else {
        Err(AppError::bad_request("expected a form or JSON body"))
    }
}

/// Flattens a JSON object of scalars into name/value pairs, as Vonage signs them.
fn json_pairs(body: &[u8]) -> Result<Vec<(String, String)>, AppError> {
    let value: serde_json::Value = serde_json::from_slice(body)
        .map_err(|e| AppError::bad_request(format!("invalid JSON body: {e}")))?;
    let object = value
        .as_object()
        .ok_or_else(|| AppError::bad_request("expected a JSON object"))?;
    Ok(object
        .iter()
        .map(|(k, v)| {
            let v = match v {
                serde_json::Value::String(s) => s.clone(),
                other => other.to_string(),
            };
            (k.clone(), v)
        })
        .collect())
}

/// Reads an inbound text from the query, plus a POST's form or JSON body;
/// the signature when a secret is set; then `messageId`, `msisdn`, `to` and
/// `text` (a binary message is refused).
/// An inbound message as Vonage sent it: a whole text, or one part of a
/// long one (`concat=true`), which waits for the others.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VonageInbound {
    pub message: InboundMessage,
    pub part: Option<Part>,
}

pub fn parse_inbound(
    cfg: &Config,
    method: &Method,
    query: &str,
    headers: &HeaderMap,
    body: &[u8],
    received_at: DateTime<Utc>,
) -> Result<VonageInbound, AppError> {
    let pairs = signed_pairs(cfg, method, query, headers, body, received_at)?;
    let get = |key: &str| param(&pairs, key);
    let required = |key: &str| {
        get(key)
            .filter(|v| !v.is_empty())
            .ok_or_else(|| AppError::bad_request(format!("missing parameter {key}")))
    };
    if get("type").as_deref() == Some("binary") {
        return Err(AppError::bad_request("binary messages are not texts"));
    }
    let (from, to) = addresses(cfg, &required("msisdn")?, &required("to")?)?;
    let message = InboundMessage {
        provider: "vonage",
        provider_id: required("messageId")?,
        from,
        to,
        text: pairs
            .iter()
            .find(|(k, _)| k == "text")
            .map(|(_, v)| v.clone())
            .unwrap_or_default(),
        received_at,
    };
    let part = if get("concat").as_deref() == Some("true") {
        concat_part(&get)?
    } else {
        None
    };
    Ok(VonageInbound { message, part })
}

/// `concat-ref`, `concat-part` and `concat-total` of a part; `None` for a
/// "long" text of one part, which is whole.
fn concat_part(get: &dyn Fn(&str) -> Option<String>) -> Result<Option<Part>, AppError> {
    let number = |key: &str| {
        get(key)
            .and_then(|v| v.parse::<u32>().ok())
            .ok_or_else(|| AppError::bad_request(format!("missing or bad parameter {key}")))
    };
    let reference = get("concat-ref")
        .filter(|r| !r.is_empty())
        .ok_or_else(|| AppError::bad_request("missing parameter concat-ref"))?;
    let (part, total) = (number("concat-part")?, number("concat-total")?);
    if !(1..=MAX_PARTS).contains(&total) || !(1..=total).contains(&part) {
        return Err(AppError::bad_request(format!(
            "concat-part {part} of {total} is no part of a text"
        )));
    }
    Ok((total > 1).then_some(Part {
        reference,
        number: part,
        total,
    }))
}

fn verify(secret: &str, method: &str, pairs: &[(String, String)]) -> Result<(), AppError> {
    let presented = pairs
        .iter()
        .find(|(k, _)| k == "sig")
        .map(|(_, v)| v.to_ascii_lowercase())
        .ok_or(AppError::BadSignature)?;
    let expected = vonage_signature(secret, method, pairs)
        .ok_or_else(|| AppError::bad_request("unknown signature method configured"))?
        .to_ascii_lowercase();
    if bool::from(expected.as_bytes().ct_eq(presented.as_bytes())) {
        Ok(())
    } else {
        Err(AppError::BadSignature)
    }
}

/// Vonage's signature: every parameter but `sig`, sorted by name, as
/// `&name=value` with `&` and `=` in values replaced by `_`; then either MD5
/// of that string followed by the secret (`md5hash`), or an HMAC keyed by the
/// secret (`md5`, `sha1`, `sha256`, `sha512`). Hex; compared case-insensitively.
pub fn vonage_signature(secret: &str, method: &str, pairs: &[(String, String)]) -> Option<String> {
    let mut signed: Vec<(&str, String)> = pairs
        .iter()
        .filter(|(k, _)| k != "sig")
        .map(|(k, v)| (k.as_str(), v.replace(['&', '='], "_")))
        .collect();
    signed.sort();
    let base: String = signed.iter().map(|(k, v)| format!("&{k}={v}")).collect();
    fn hmac_hex<M: Mac + hmac::digest::KeyInit>(secret: &str, base: &str) -> String {
        let mut mac = <M as hmac::digest::KeyInit>::new_from_slice(secret.as_bytes())
            .expect("any key length");
        mac.update(base.as_bytes());
        hex(&mac.finalize().into_bytes())
    }
    Some(match method {
        "md5hash" => hex(&Md5::digest(format!("{base}{secret}").as_bytes())),
        "md5" => hmac_hex::<Hmac<Md5>>(secret, &base),
        "sha1" => hmac_hex::<Hmac<sha1::Sha1>>(secret, &base),
        "sha256" => hmac_hex::<Hmac<sha2::Sha256>>(secret, &base),
        "sha512" => hmac_hex::<Hmac<sha2::Sha512>>(secret, &base),
        _ => return None,
    })
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pairs(list: &[(&str, &str)]) -> Vec<(String, String)> {
        list.iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    }

    #[test]
    fn every_method_the_configuration_accepts_is_computed() {
        for method in crate::config::VONAGE_SIGNATURE_METHODS {
            assert!(vonage_signature("s", method, &[]).is_some(), "{method}");
        }
        assert!(vonage_signature("s", "sha3", &[]).is_none());
    }

    #[test]
    fn md5hash_signs_sorted_params_with_the_secret_appended() {
        let p = pairs(&[
            ("to", "447700900000"),
            ("msisdn", "447700900001"),
            ("text", "a=b&c"),
            ("sig", "x"),
        ]);
        let expected = hex(&Md5::digest(
            b"&msisdn=447700900001&text=a_b_c&to=447700900000secret",
        ));
        assert_eq!(vonage_signature("secret", "md5hash", &p).unwrap(), expected);
    }

    #[test]
    fn hmac_methods_differ_and_unknown_is_refused() {
        let p = pairs(&[("a", "1")]);
        let sha256 = vonage_signature("k", "sha256", &p).unwrap();
        assert_eq!(sha256.len(), 64);
        assert_ne!(sha256, vonage_signature("k", "sha512", &p).unwrap());
        assert!(vonage_signature("k", "rot13", &p).is_none());
    }
}
