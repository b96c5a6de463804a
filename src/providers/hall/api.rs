//! What the hall's page asks of the gateway: a new virtual phone, a text from one, and the stream of texts to it.
//!
//! A text goes through [`AppState::receive`] like any provider's: its id
//! taken once, the same command parsing, the same flood limits, the same
//! transaction. Texts to the phone come back from the outbox through the
//! hall's sender ([`super::Hall::deliver`]) and, for a page that was closed,
//! from the store when it comes back.

use std::collections::VecDeque;
use std::convert::Infallible;
use std::time::Duration;

use axum::Json;
use axum::extract::{Path, Query, Request, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use futures_util::StreamExt;
use serde::Deserialize;
use serde_json::{Value, json};
use tokio::sync::broadcast;

use super::streams;
use crate::http::{AppError, AppState, Receipt};
use crate::inbound::InboundMessage;
use crate::sms::encoding;
use crate::store::{OutboxText, TextStatus};

/// Longest text the hall takes: ten parts, as a handset would refuse more.
const TEXT_MAX_CHARS: usize = 1530;

/// How often a watching page's phone is looked up in the store as well: a
/// text another instance sent (several instances on one PostgreSQL) never
/// passes this instance's hub.
const STORE_CHECK: Duration = Duration::from_secs(3);

/// How long a text's "delivered" waits for its "sent" to be recorded first.
const REPORT_TRIES: u32 = 50;

/// `POST /hall/phones`: a new virtual phone and the token that is its key.
pub(super) async fn open_phone(
    State(state): State<AppState>,
    request: Request,
) -> Result<Json<Value>, AppError> {
    let hall = state.hall().ok_or(AppError::NotFound)?;
    if let Some(client) = hall.client(&request)
        && !hall.may_open_phone(client)
    {
        return Err(AppError::TooManyRequests);
    }
    let (number, token) = hall.open_phone(&state).await?;
    tracing::info!(phone = %number, "training hall: a virtual phone opened");
    Ok(Json(json!({ "number": number, "token": token })))
}

#[derive(Deserialize)]
pub(super) struct Typed {
    token: String,
    /// The page's own id for the text, so that a resent request is one text.
    id: String,
    to: String,
    text: String,
}

/// `POST /hall/phones/{number}/texts`: the phone texts one of the service numbers.
pub(super) async fn text(
    State(state): State<AppState>,
    Path(number): Path<String>,
    request: Request,
) -> Result<Json<Value>, AppError> {
    let hall = state.hall().ok_or(AppError::NotFound)?;
    let client = hall.client(&request);
    let body = axum::body::to_bytes(request.into_body(), 64 * 1024)
        .await
        .map_err(|_| AppError::bad_request("the request body is too large"))?;
    let typed: Typed = serde_json::from_slice(&body)
        .map_err(|e| AppError::bad_request(format!("invalid JSON body: {e}")))?;
    hall.check_token(&state, &number, &typed.token).await?;
    if let Some(client) = client
        && !hall.may_text(client)
    {
        return Err(AppError::TooManyRequests);
    }
    let ok_id = !typed.id.is_empty()
        && typed.id.len() <= 64
        && typed
            .id
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-');
    if !ok_id {
        return Err(AppError::bad_request("id: 1-64 letters, digits or dashes"));
    }
    if typed.text.chars().count() > TEXT_MAX_CHARS {
        return Err(AppError::bad_request(format!(
            "a text of at most {TEXT_MAX_CHARS} characters"
        )));
    }
    let numbers = &state.config().numbers;
    let to = numbers
        .canonical(&typed.to)
        .ok()
        .filter(|to| numbers.serves(to))
        .ok_or_else(|| {
            AppError::bad_request("the number texted is none of this gateway's numbers")
        })?;
    let analysis = encoding::analyse(&typed.text);
    let msg = InboundMessage {
        provider: "hall",
        provider_id: format!("{number}:{}", typed.id),
        from: number,
        to,
        text: typed.text,
        received_at: state.clock().now(),
    };
    let mut answer = json!({
        "encoding": analysis.encoding.as_str(),
        "parts": analysis.parts,
    });
    answer["status"] = match state.receive(msg).await? {
        Receipt::Applied(_) | Receipt::Waiting => "accepted".into(),
        Receipt::Duplicate => "duplicate".into(),
        Receipt::Dropped { retry_after } => {
            // Whole seconds, never 0: the page says "try again in N s".
            answer["retry_after_secs"] = (retry_after.as_secs_f64().ceil().max(1.0) as u64).into();
            "rate_limited".into()
        }
    };
    Ok(Json(answer))
}

#[derive(Deserialize)]
pub(super) struct Watching {
    token: String,
    /// The newest text the page already shows.
    #[serde(default)]
    after: i64,
}

/// `GET /hall/phones/{number}/events`: every text to the phone after
/// `after` (or the `Last-Event-ID` a reconnecting browser sends, if newer),
/// first those waiting in the outbox, then each as it is sent, until
/// `hall.stream_max_secs` have passed; the page then asks again.
pub(super) async fn events(
    State(state): State<AppState>,
    Path(number): Path<String>,
    Query(watching): Query<Watching>,
    request: Request,
) -> Result<Response, AppError> {
    let hall = state.hall().ok_or(AppError::NotFound)?;
    hall.check_token(&state, &number, &watching.token).await?;
    let ticket = match hall.streams.open(&number, hall.client(&request)) {
        Ok(ticket) => ticket,
        Err(refused) => return Ok(too_many_streams(&refused)),
    };
    let seen = request
        .headers()
        .get("last-event-id")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse::<i64>().ok())
        .unwrap_or(0);
    let live = hall.hub().subscribe(&number);
    let lifetime = tokio::time::sleep(hall.stream_max);
    let mut watch = Watch {
        state,
        number,
        live,
        after: watching.after.max(seen),
        pending: VecDeque::new(),
        _ticket: ticket,
    };
    watch.catch_up().await;
    let stream = futures_util::stream::unfold(watch, |mut watch| async move {
        let text = watch.next().await?;
        Some((Ok::<_, Infallible>(event(&text)), watch))
    })
    .take_until(lifetime);
    Ok(Sse::new(stream)
        .keep_alive(KeepAlive::default())
        .into_response())
}

/// 429 with a reason and a `Retry-After` long enough that a page backing
/// off does not knock again at once.
fn too_many_streams(refused: &streams::Refused) -> Response {
    tracing::debug!(reason = %refused.reason(), "training hall: a stream refused");
    let mut response = (
        StatusCode::TOO_MANY_REQUESTS,
        Json(json!({ "error": format!("{}: close one and try again", refused.reason()) })),
    )
        .into_response();
    response
        .headers_mut()
        .insert(header::RETRY_AFTER, HeaderValue::from_static("30"));
    response
}

/// One page's watch over its phone.
struct Watch {
    state: AppState,
    number: String,
    live: broadcast::Receiver<OutboxText>,
    /// Its place among the phone's and the client's streams, for its life.
    _ticket: streams::Ticket,
    /// The newest text handed to the page.
    after: i64,
    pending: VecDeque<OutboxText>,
}

impl Watch {
    /// The next text for the page, in id order, each once.
    async fn next(&mut self) -> Option<OutboxText> {
        loop {
            while let Some(text) = self.pending.pop_front() {
                if text.id > self.after && text.status != TextStatus::Cancelled {
                    self.after = text.id;
                    report_delivered(self.state.clone(), text.id);
                    return Some(text);
                }
            }
            tokio::select! {
                got = self.live.recv() => match got {
                    Ok(text) => self.pending.push_back(text),
                    // The page fell behind the hub: what it missed is in the store.
                    Err(broadcast::error::RecvError::Lagged(_)) => self.catch_up().await,
                    Err(broadcast::error::RecvError::Closed) => return None,
                },
                () = tokio::time::sleep(STORE_CHECK) => self.catch_up().await,
            }
        }
    }

    /// Queues what the store holds for the phone after `after`.
    async fn catch_up(&mut self) {
        let number = self.number.clone();
        let after = self.after;
        let found = self.state.store().read(move |r| r.texts_to(&number)).await;
        match found {
            Ok(texts) => {
                let mut newer: Vec<OutboxText> =
                    texts.into_iter().filter(|t| t.id > after).collect();
                newer.sort_by_key(|t| t.id);
                self.pending.extend(newer);
            }
            Err(e) => {
                tracing::warn!(error = %e, "training hall: a phone's texts could not be read")
            }
        }
    }
}

fn event(text: &OutboxText) -> Event {
    let data = json!({
        "id": text.id,
        "from": text.from,
        "body": text.body,
        "parts": text.parts,
        "encoding": text.encoding,
    });
    Event::default()
        .event("text")
        .id(text.id.to_string())
        .data(data.to_string())
}

/// The page has the text: its delivery report, once the dispatcher has
/// recorded it as sent (until then its reference is unknown).
fn report_delivered(state: AppState, id: i64) {
    tokio::spawn(async move {
        for _ in 0..REPORT_TRIES {
            match state
                .report_status("hall", super::reference(id), TextStatus::Delivered, None)
                .await
            {
                Ok(Some(_)) => return,
                Ok(None) | Err(_) => tokio::time::sleep(Duration::from_millis(100)).await,
            }
        }
    });
}
