//! `GET|POST /webhooks/kannel`: what Kannel's `sms-service` `get-url`/`post-url` sends.
//!
//! The operator's URL carries Kannel's escapes as parameters
//! (`from=%p&to=%P&text=%b&id=%I&coding=%c&charset=%C&secret=S`). `%b` is the
//! raw message, so a UCS-2 text arrives as UTF-16BE bytes and is decoded by
//! its charset here. The answer is an empty 200, so Kannel sends nothing of
//! its own (with `omit-empty = yes` in the sms-service group), or, with
//! `sms.kannel.answer_max_parts` set, the one reply to the phone
//! ([`answer_rule`]): Kannel sends it as it would any `get-url`'s answer,
//! sparing a `sendsms` request per reply, the larger part of Kannel's work
//! per text in a burst.

use axum::body::Bytes;
use axum::extract::{RawQuery, State};
use axum::http::{HeaderMap, HeaderValue, Method, StatusCode, header};
use axum::response::{IntoResponse, Response};
use chrono::{DateTime, Utc};

use super::sender::{dlr_tag, dlr_url};
use crate::app::{AppError, AppState};
use crate::config::{Config, ProviderKind};
use crate::inbound::InboundMessage;
use crate::platform::{Answer, AnswerRule};
use crate::store::TextStatus;

use crate::providers::webhook::{RawParams, StatusReport, addresses, check_secret, is_form};

pub(super) async fn inbound_get(
    State(state): State<AppState>,
    RawQuery(query): RawQuery,
) -> Result<Response, AppError> {
    let query = query.unwrap_or_default();
    let msg = parse_inbound(
        state.config(),
        &Method::GET,
        &query,
        &HeaderMap::new(),
        &[],
        state.clock().now(),
    )?;
    answer(&state, msg).await
}

pub(super) async fn inbound_post(
    State(state): State<AppState>,
    RawQuery(query): RawQuery,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Response, AppError> {
    let query = query.unwrap_or_default();
    let msg = parse_inbound(
        state.config(),
        &Method::POST,
        &query,
        &headers,
        &body,
        state.clock().now(),
    )?;
    answer(&state, msg).await
}

/// Receives the text, durably, and answers: empty, or with the reply Kannel
/// is to send the phone.
async fn answer(state: &AppState, msg: InboundMessage) -> Result<Response, AppError> {
    let rule = answer_rule(state.config(), &msg);
    let (_, answer) = state.receive_answering(msg, rule.clone()).await?;
    Ok(match (answer, rule) {
        (Some(answer), Some(rule)) => answer_response(state.config(), &answer, &rule.reference),
        _ => StatusCode::OK.into_response(),
    })
}

/// Whether the reply to `msg` may ride on the answer, and the reference its
/// delivery reports carry: `a` and Kannel's message id, which goes into the
/// `dlr-url`, where Kannel expands `%` codes; so only an id of letters,
/// digits and dashes (Kannel's own are UUIDs) is taken.
pub fn answer_rule(cfg: &Config, msg: &InboundMessage) -> Option<AnswerRule> {
    let kannel = &cfg.sms.kannel;
    if kannel.answer_max_parts == 0
        || kannel.always_ucs2
        || cfg.sms.provider != ProviderKind::Kannel
    {
        return None;
    }
    let id = &msg.provider_id;
    let plain = id.len() <= 64 && id.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-');
    (plain && !id.is_empty()).then(|| AnswerRule {
        max_parts: kannel.answer_max_parts,
        reference: format!("a{id}"),
    })
}

/// The reply as Kannel's `sms-service` reads a `get-url`'s answer: the text
/// as the body, and with `accept-x-kannel-headers` the sending number and
/// where its delivery reports go.
fn answer_response(cfg: &Config, answer: &Answer, reference: &str) -> Response {
    let mut headers = HeaderMap::new();
    headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/plain; charset=utf-8"),
    );
    if let Ok(from) = HeaderValue::from_str(&answer.from) {
        headers.insert("x-kannel-from", from);
    }
    let dlr_mask = cfg.sms.kannel.dlr_mask;
    if dlr_mask != 0
        && let Ok(url) = HeaderValue::from_str(&dlr_url(
            &cfg.http.public_base(),
            &cfg.webhooks.secret,
            reference,
        ))
    {
        headers.insert("x-kannel-dlr-mask", HeaderValue::from(dlr_mask));
        headers.insert("x-kannel-dlr-url", url);
    }
    (StatusCode::OK, headers, answer.body.clone()).into_response()
}

/// Reads an inbound text: the query's parameters (a GET's only ones), plus a
/// POST's form body, or a POST's body as the message itself (`post-url`),
/// its charset in the content type. Then the secret, and the text decoded by
/// its charset and coding.
pub fn parse_inbound(
    cfg: &Config,
    method: &Method,
    query: &str,
    headers: &HeaderMap,
    body: &[u8],
    received_at: DateTime<Utc>,
) -> Result<InboundMessage, AppError> {
    let mut params = RawParams::parse(query.as_bytes());
    if method != Method::POST {
        return accept(cfg, &params, None, received_at);
    }
    if is_form(headers) {
        params.extend(RawParams::parse(body));
        accept(cfg, &params, None, received_at)
    } else {
        // post-url: the body is the message itself, its charset in the content type.
        let charset = headers
            .get(header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .and_then(|ct| ct.split("charset=").nth(1))
            .map(|c| {
                c.trim_matches(|ch: char| ch == '"' || ch.is_whitespace())
                    .to_string()
            });
        accept(cfg, &params, Some((body, charset)), received_at)
    }
}

fn accept(
    cfg: &Config,
    params: &RawParams,
    posted_text: Option<(&[u8], Option<String>)>,
    received_at: DateTime<Utc>,
) -> Result<InboundMessage, AppError> {
    check_secret(&cfg.webhooks.secret, params.text("secret").as_deref())?;
    let (from, to) = addresses(cfg, &params.required("from")?, &params.required("to")?)?;
    let id = params.required("id")?;
    let coding = params.text("coding").unwrap_or_default();
    let text = match posted_text {
        Some((body, charset)) => {
            let charset = params.text("charset").or(charset).unwrap_or_default();
            decode_text(body, &charset, &coding)?
        }
        None => {
            let raw = params
                .bytes("text")
                .ok_or_else(|| AppError::bad_request("missing parameter text"))?;
            decode_text(raw, &params.text("charset").unwrap_or_default(), &coding)?
        }
    };
    Ok(InboundMessage {
        provider: "kannel",
        provider_id: id,
        from,
        to,
        text,
        received_at,
    })
}

/// `/webhooks/kannel/status?tag=T&ref=kNNN&type=%d`: Kannel's delivery report for one text.
/// Reports of one text arrive in either order (SMSC-level and phone-level); the store keeps the furthest.
pub(super) async fn status(
    State(state): State<AppState>,
    RawQuery(query): RawQuery,
) -> Result<StatusCode, AppError> {
    let report = parse_status(state.config(), &query.unwrap_or_default())?;
    state
        .report_status("kannel", report.reference, report.status, report.error)
        .await?;
    Ok(StatusCode::OK)
}

/// Reads a delivery report from its query: the proof, `ref`, and a known `type`.
pub fn parse_status(cfg: &Config, query: &str) -> Result<StatusReport, AppError> {
    let params = RawParams::parse(query.as_bytes());
    check_report(&cfg.webhooks.secret, &params)?;
    let reference = params.required("ref")?;
    let kind = params.required("type")?;
    let status = match kind.as_str() {
        "1" => TextStatus::Delivered,
        "2" | "16" => TextStatus::Failed,
        "4" | "8" => TextStatus::Sent,
        other => {
            return Err(AppError::bad_request(format!(
                "unknown delivery report type {other}"
            )));
        }
    };
    let error =
        (status == TextStatus::Failed).then(|| format!("Kannel delivery report type {kind}"));
    Ok(StatusReport {
        reference,
        status,
        error,
    })
}

/// A report proves itself by the tag of its reference ([`dlr_tag`]), both
/// compared in constant time; or, for a text sent before reports carried
/// tags, by `secret=`, as its `dlr-url` then did.
fn check_report(secret: &str, params: &RawParams) -> Result<(), AppError> {
    if secret.is_empty() {
        return Ok(());
    }
    if let Some(reference) = params.text("ref") {
        let expected = dlr_tag(secret, reference.trim());
        if check_secret(&expected, params.text("tag").as_deref()).is_ok() {
            return Ok(());
        }
    }
    check_secret(secret, params.text("secret").as_deref())
}

/// Decodes Kannel's raw message bytes by the charset (`%C`) and coding (`%c`: 0 GSM, 1 binary, 2 UCS-2).
fn decode_text(raw: &[u8], charset: &str, coding: &str) -> Result<String, AppError> {
    let charset = charset.to_ascii_uppercase();
    let utf16 = matches!(
        charset.as_str(),
        "UTF-16BE" | "UTF-16" | "UCS-2" | "UCS-2BE" | "UNICODEBIG"
    ) || (charset.is_empty() && coding == "2");
    if utf16 {
        if !raw.len().is_multiple_of(2) {
            return Err(AppError::bad_request(
                "UTF-16 text has an odd number of bytes",
            ));
        }
        let units: Vec<u16> = raw
            .chunks_exact(2)
            .map(|c| u16::from_be_bytes([c[0], c[1]]))
            .collect();
        return String::from_utf16(&units)
            .map_err(|_| AppError::bad_request("text is not valid UTF-16"));
    }
    if coding == "1" {
        return Err(AppError::bad_request(
            "binary (8-bit) messages are not texts",
        ));
    }
    match charset.as_str() {
        "ISO-8859-1" | "LATIN1" | "WINDOWS-1252" => {
            Ok(raw.iter().map(|&b| char::from(b)).collect())
        }
        _ => match std::str::from_utf8(raw) {
            Ok(s) => Ok(s.to_string()),
            // Kannel's own default for 7-bit texts is Latin-1.
            Err(_) => Ok(raw.iter().map(|&b| char::from(b)).collect()),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::decode_text;

    #[test]
    fn ucs2_text_decodes_from_utf16be_bytes() {
        let raw: Vec<u8> = "Привет".encode_utf16().flat_map(u16::to_be_bytes).collect();
        assert_eq!(decode_text(&raw, "UTF-16BE", "2").unwrap(), "Привет");
        assert_eq!(decode_text(&raw, "", "2").unwrap(), "Привет");
        assert!(decode_text(&raw[1..], "UTF-16BE", "2").is_err());
    }

    #[test]
    fn gsm_text_decodes_as_utf8_or_latin1() {
        assert_eq!(
            decode_text(b"R ronaldo", "UTF-8", "0").unwrap(),
            "R ronaldo"
        );
        assert_eq!(decode_text(b"caf\xe9", "ISO-8859-1", "0").unwrap(), "café");
        assert_eq!(decode_text(b"caf\xe9", "", "0").unwrap(), "café");
        assert!(decode_text(b"\x01\x02", "", "1").is_err());
    }
}
