//! One live stream carries every phone a browser holds: `POST /hall/events` names the phones, proves each token and says where each left off.
//!
//! A browser opens six connections per host over HTTP/1.1, so a stream per
//! phone hangs the seventh request; the page's shared worker holds this one
//! stream for all its tabs and phones. The tokens ride in the body, which
//! request logs never carry. Each phone still takes its place against
//! `hall.streams_per_phone` and `hall.streams_per_client`; the stream ends
//! after `hall.stream_max_secs` and the page asks again from each phone's
//! newest text (none lost, none twice). Texts come from the hub as they are
//! sent here and from the store (sent while no page watched, or by another
//! instance).

use super::Hall;
use axum::Extension;
use std::collections::{BTreeMap, VecDeque};
use std::convert::Infallible;
use std::sync::Arc;
use std::time::Duration;

use axum::Json;
use axum::extract::{Request, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use futures_util::StreamExt;
use futures_util::stream::{BoxStream, SelectAll};
use serde::Deserialize;
use serde_json::json;
use tokio::sync::broadcast;

use super::streams;
use crate::app::{AppError, AppState};
use crate::store::{OutboxText, TextStatus};

/// Phones one stream may name: more than a person plays with at once, and
/// a bound on what one request makes the server check.
pub const PHONES_PER_STREAM: usize = 64;

/// How often the watched phones are looked up in the store as well: a text
/// another instance sent (several instances on one PostgreSQL) never passes
/// this instance's hub.
const STORE_CHECK: Duration = Duration::from_secs(3);

/// How long a text's "delivered" waits for its "sent" to be recorded first.
const REPORT_TRIES: u32 = 50;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct Watching {
    phones: Vec<WatchedPhone>,
    /// The id the browser's worker gave its streams: its next stream takes
    /// this one's places at once (it names one more phone, say) rather
    /// than wait for the server to see this one's connection close.
    #[serde(default)]
    browser: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct WatchedPhone {
    number: String,
    token: String,
    /// The newest text to this phone the page already shows.
    #[serde(default)]
    after: i64,
}

/// `POST /hall/events`: every text to each named phone after its `after`,
/// first those waiting in the outbox, then each as it is sent, each event
/// naming its phone, until `hall.stream_max_secs` have passed.
pub(super) async fn events(
    State(state): State<AppState>,
    Extension(hall): Extension<Arc<Hall>>,
    request: Request,
) -> Result<Response, AppError> {
    let client = hall.client(&request);
    let body = axum::body::to_bytes(request.into_body(), 64 * 1024)
        .await
        .map_err(|_| AppError::bad_request("the request body is too large"))?;
    let watching: Watching = serde_json::from_slice(&body)
        .map_err(|e| AppError::bad_request(format!("invalid JSON body: {e}")))?;
    if watching.phones.is_empty() || watching.phones.len() > PHONES_PER_STREAM {
        return Err(AppError::bad_request(format!(
            "phones: 1 to {PHONES_PER_STREAM} phones to watch"
        )));
    }
    // A phone named twice is watched once, from the older of its cursors.
    let mut after: BTreeMap<String, i64> = BTreeMap::new();
    let mut refused = Vec::new();
    for phone in watching.phones {
        if hall
            .check_token(&state, &phone.number, &phone.token)
            .await
            .is_err()
        {
            refused.push(phone.number);
            continue;
        }
        let cursor = after.entry(phone.number).or_insert(phone.after.max(0));
        *cursor = (*cursor).min(phone.after.max(0));
    }
    if !refused.is_empty() {
        // The page learns which of its phones' keys failed and watches the
        // others without them; the answer is the same whether a phone exists.
        return Ok(forbidden(&refused));
    }
    if let Some(id) = &watching.browser
        && !is_id(id)
    {
        return Err(AppError::bad_request(
            "browser: 1-64 letters, digits or dashes",
        ));
    }
    let numbers: Vec<String> = after.keys().cloned().collect();
    let held = match hall
        .streams
        .open_for(&numbers, client, watching.browser.as_deref())
    {
        Ok(held) => held,
        Err(refused) => return Ok(too_many_streams(&refused)),
    };
    let live = after
        .keys()
        .map(|number| texts_sent_here(hall.hub().subscribe(number)))
        .collect();
    let lifetime = tokio::time::sleep(hall.stream_max);
    let replaced = held.ended.clone();
    let end = async move {
        tokio::select! {
            () = lifetime => {},
            () = replaced.notified() => {},
        }
    };
    let mut watch = Watch {
        state,
        after,
        live,
        pending: VecDeque::new(),
        _held: held,
    };
    watch.catch_up().await;
    let stream = futures_util::stream::unfold(watch, |mut watch| async move {
        let text = watch.next().await?;
        Some((Ok::<_, Infallible>(event(&text)), watch))
    })
    .take_until(end);
    Ok(Sse::new(stream)
        .keep_alive(KeepAlive::default())
        .into_response())
}

fn is_id(id: &str) -> bool {
    !id.is_empty() && id.len() <= 64 && id.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-')
}

fn forbidden(phones: &[String]) -> Response {
    (
        StatusCode::FORBIDDEN,
        Json(json!({
            "error": "these phones' tokens are not theirs",
            "phones": phones,
        })),
    )
        .into_response()
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

/// What the hub hands one phone's subscription; `None` when the page fell
/// behind and must read the store.
type Sent = Option<OutboxText>;

fn texts_sent_here(receiver: broadcast::Receiver<OutboxText>) -> BoxStream<'static, Sent> {
    futures_util::stream::unfold(receiver, |mut receiver| async move {
        match receiver.recv().await {
            Ok(text) => Some((Some(text), receiver)),
            Err(broadcast::error::RecvError::Lagged(_)) => Some((None, receiver)),
            Err(broadcast::error::RecvError::Closed) => None,
        }
    })
    .boxed()
}

/// One browser's watch over its phones.
struct Watch {
    state: AppState,
    /// Each phone's newest text handed to the page.
    after: BTreeMap<String, i64>,
    live: SelectAll<BoxStream<'static, Sent>>,
    /// Their places among the phones' and the client's streams, for its life.
    _held: streams::Held,
    pending: VecDeque<OutboxText>,
}

impl Watch {
    /// The next text for the page, each phone's in id order, each once.
    async fn next(&mut self) -> Option<OutboxText> {
        loop {
            while let Some(text) = self.pending.pop_front() {
                let Some(after) = self.after.get_mut(&text.to) else {
                    continue;
                };
                if text.id > *after && text.status != TextStatus::Cancelled {
                    *after = text.id;
                    report_delivered(self.state.clone(), text.id);
                    return Some(text);
                }
            }
            tokio::select! {
                got = self.live.next() => match got {
                    Some(Some(text)) => self.pending.push_back(text),
                    // The page fell behind the hub: what it missed is in the store.
                    Some(None) => self.catch_up().await,
                    None => return None,
                },
                () = tokio::time::sleep(STORE_CHECK) => self.catch_up().await,
            }
        }
    }

    /// Queues what the store holds for the phones after their cursors.
    async fn catch_up(&mut self) {
        let after = self.after.clone();
        let found = self
            .state
            .store()
            .read(move |r| {
                let mut newer = Vec::new();
                for (number, after) in &after {
                    newer.extend(r.texts_to(number)?.into_iter().filter(|t| t.id > *after));
                }
                Ok(newer)
            })
            .await;
        match found {
            Ok(mut newer) => {
                newer.sort_by_key(|t| t.id);
                self.pending.extend(newer);
            }
            Err(e) => {
                tracing::warn!(error = %e, "training hall: the phones' texts could not be read")
            }
        }
    }
}

fn event(text: &OutboxText) -> Event {
    let data = json!({
        "phone": text.to,
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
