//! The outbox's work that both backends do alike, written once over
//! [`Sql`]: an answer found again by its reference, what is pending when a
//! dispatcher starts, and a phone's waiting texts cancelled. Queuing and
//! claiming stay per backend (PostgreSQL defers the one and claims beside
//! the writer).

use chrono::{DateTime, Utc};

use super::StoreResult;
use super::records::{OutboxEvent, OutboxText};
use super::rows::{Fields, Record, millis};
use super::sql::Sql;
use super::statements::Value;
use super::statements::outbox::{ANSWERED, CANCEL_TO, PENDING};

pub(crate) fn answered(db: &mut impl Sql, reference: &str) -> StoreResult<Option<OutboxText>> {
    db.first(&ANSWERED, &[(":reference", Value::Text(reference))])
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
