//! The outbox's work that both backends do alike, written once over
//! [`Sql`]: replies in the webhook's answer, claims, outcomes, what is
//! pending when a dispatcher starts, and a phone's waiting texts cancelled.
//! Queuing and recording sends stay per backend (PostgreSQL defers the one
//! and batches the other).

use chrono::{DateTime, Utc};

use super::StoreResult;
use super::model::{NewText, OutboxEvent, OutboxText};
use super::reference;
use super::rows::{Fields, Record, millis};
use super::sql::Sql;
use super::statements::Value;
use super::statements::outbox::{
    ANSWER, ANSWERED, ANSWERED_OWN, CANCEL_TO, CLAIM, NEXT_DUE, PENDING, RETRY,
};
use super::tx::Outbox;

pub(crate) fn answered(db: &mut impl Sql, reference: &str) -> StoreResult<Option<OutboxText>> {
    reference::text_by(db, &ANSWERED_OWN, &ANSWERED, reference)
}

/// A text not yet handed over, and when it falls due.
struct Pending(OutboxText, DateTime<Utc>);

impl Record for Pending {
    const NAME: &'static str = "outbox text";
    const COLUMNS: &'static [&'static str] = OutboxText::COLUMNS;
    const WIDTH: usize = OutboxText::COLUMNS.len() + 1;
    const TAIL: &'static [&'static str] = &["next_attempt_at"];

    fn decode(f: &mut Fields<'_>) -> StoreResult<Pending> {
        let text = OutboxText::decode(f)?;
        let due = f.time("next_attempt_at")?;
        Ok(Pending(text, due))
    }
}

pub(crate) fn pending(db: &mut impl Sql) -> StoreResult<Vec<(OutboxText, DateTime<Utc>)>> {
    let texts: Vec<Pending> = db.all(&PENDING, &[])?;
    Ok(texts
        .into_iter()
        .map(|Pending(text, due)| (text, due))
        .collect())
}

pub(crate) fn cancel_to(db: &mut impl Sql, phone: &str, now: DateTime<Utc>) -> StoreResult<u64> {
    let n = db.execute(
        &CANCEL_TO,
        &[
            (":phone", Value::Text(phone)),
            (":now", Value::Int(millis(now))),
        ],
    )?;
    db.tell_dispatcher(OutboxEvent::Cancelled(phone.to_string()));
    Ok(n)
}

/// A new text's arguments, and when it was written (`:now`).
pub(crate) fn text_args<'a>(t: &'a NewText, now: DateTime<Utc>) -> [(&'static str, Value<'a>); 6] {
    [
        (":from_number", Value::Text(&t.from)),
        (":to_phone", Value::Text(&t.to)),
        (":body", Value::Text(&t.body)),
        (":encoding", Value::Text(t.encoding)),
        (":parts", Value::Int(i64::from(t.parts))),
        (":now", Value::Int(millis(now))),
    ]
}

/// [`Outbox::answer`]: the reply recorded as sent under `reference`, or
/// queued as usual when it would overtake an older unsent text.
pub(crate) fn answer<T: Sql + Outbox>(
    db: &mut T,
    t: &NewText,
    reference: &str,
    now: DateTime<Utc>,
) -> StoreResult<bool> {
    let [from, to, body, encoding, parts, at] = text_args(t, now);
    let recorded = db.execute(
        &ANSWER,
        &[
            from,
            to,
            body,
            encoding,
            parts,
            at,
            (":reference", Value::Text(reference)),
        ],
    )?;
    if recorded == 1 {
        return Ok(true);
    }
    db.enqueue(t.clone(), now)?;
    Ok(false)
}

pub(crate) fn claim(
    db: &mut impl Sql,
    now: DateTime<Utc>,
    lease_until: DateTime<Utc>,
    limit: usize,
) -> StoreResult<Vec<OutboxText>> {
    let mut texts: Vec<OutboxText> = db.all(
        &CLAIM,
        &[
            (":now", Value::Int(millis(now))),
            (":lease_until", Value::Int(millis(lease_until))),
            (":limit", Value::count(limit)),
        ],
    )?;
    texts.sort_by_key(|t| t.id);
    Ok(texts)
}

pub(crate) fn next_due_after(
    db: &mut impl Sql,
    now: DateTime<Utc>,
) -> StoreResult<Option<DateTime<Utc>>> {
    db.next_time(&NEXT_DUE, &[(":now", Value::Int(millis(now)))])
}

pub(crate) fn retry(
    db: &mut impl Sql,
    id: i64,
    attempts: u32,
    error: &str,
    next_attempt: DateTime<Utc>,
    now: DateTime<Utc>,
) -> StoreResult<()> {
    db.execute(
        &RETRY,
        &[
            (":id", Value::Int(id)),
            (":attempts", Value::Int(i64::from(attempts))),
            (":error", Value::Text(error)),
            (":next_attempt", Value::Int(millis(next_attempt))),
            (":now", Value::Int(millis(now))),
        ],
    )?;
    Ok(())
}
