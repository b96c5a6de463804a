//! Texts in, written once over [`super::sql::Sql`] for both backends: the parts of a
//! long text, each taken once by its own id and kept until the last one
//! arrives; and texts past their retention trimmed to what deduplication
//! needs.

use chrono::{DateTime, Utc};

use super::StoreResult;
use super::model::{Fragment, PartArrival, oldest_prefix, whole};
use super::rows::{Fields, Record, millis};
use super::sql::Writer;
use super::statements::Value;
use super::statements::inbound::{
    DROP_FRAGMENTS, DROP_STALE_FRAGMENTS, FRAGMENTS, INBOUND_AFTER, KEEP_FRAGMENT, TAKE_PART,
    TRIM_INBOUND,
};
use super::tx::{Fragments, Inbound};

/// A part of a long text: its own id and its words.
struct Part(String, String);

impl Record for Part {
    const NAME: &'static str = "inbound fragment";
    const COLUMNS: &'static [&'static str] = &["provider_id", "body"];

    fn decode(f: &mut Fields<'_>) -> StoreResult<Part> {
        Ok(Part(f.text("provider_id")?, f.text("body")?))
    }
}

/// A text in as the trimming sweep sees it.
struct Arrived(i64, i64);

impl Record for Arrived {
    const NAME: &'static str = "inbound text";
    const COLUMNS: &'static [&'static str] = &["id", "received_at"];

    fn decode(f: &mut Fields<'_>) -> StoreResult<Arrived> {
        Ok(Arrived(f.int("id")?, f.int("received_at")?))
    }
}

impl<W: Writer> Fragments for W {
    fn add(&mut self, f: &Fragment) -> StoreResult<PartArrival> {
        // A retry of the same part reaching another instance waits here for
        // the first one's insert to commit, and is then a repeat.
        let taken = self.execute(
            &TAKE_PART,
            &[
                (":provider", Value::Text(&f.provider)),
                (":provider_id", Value::Text(&f.provider_id)),
                (":received_at", Value::Int(millis(f.received_at))),
            ],
        )?;
        if taken == 0 {
            return Ok(PartArrival::Repeat);
        }
        // Another instance's transaction may hold the text's other part,
        // uncommitted and so unseen: both would count too few. The lock
        // makes the second wait, then see the first's part.
        self.lock_key(&format!(
            "fragments/{}/{}/{}/{}",
            f.provider, f.from, f.reference, f.total
        ))?;
        let text = [
            (":provider", Value::Text(&f.provider)),
            (":from_phone", Value::Text(&f.from)),
            (":concat_ref", Value::Text(&f.reference)),
            (":total", Value::Int(i64::from(f.total))),
        ];
        let [provider, from, reference, total] = text;
        self.execute(
            &KEEP_FRAGMENT,
            &[
                provider,
                from,
                reference,
                total,
                (":part", Value::Int(i64::from(f.part))),
                (":provider_id", Value::Text(&f.provider_id)),
                (":body", Value::Text(&f.text)),
                (":received_at", Value::Int(millis(f.received_at))),
            ],
        )?;
        let parts: Vec<Part> = self.all(&FRAGMENTS, &text)?;
        if parts.len() < f.total as usize {
            return Ok(PartArrival::Waiting {
                opened: parts.len() == 1,
            });
        }
        self.execute(&DROP_FRAGMENTS, &text)?;
        Ok(whole(
            parts.into_iter().map(|Part(id, body)| (id, body)).collect(),
        ))
    }

    fn drop_stale(&mut self, before: DateTime<Utc>) -> StoreResult<u64> {
        self.execute(
            &DROP_STALE_FRAGMENTS,
            &[(":before", Value::Int(millis(before)))],
        )
    }
}

impl<W: Writer> Inbound for W {
    fn trim(
        &mut self,
        before: DateTime<Utc>,
        after_id: i64,
        limit: usize,
    ) -> StoreResult<Option<i64>> {
        let next: Vec<Arrived> = self.all(
            &INBOUND_AFTER,
            &[
                (":after_id", Value::Int(after_id)),
                (":limit", Value::count(limit)),
            ],
        )?;
        let next: Vec<(i64, i64)> = next.into_iter().map(|Arrived(id, at)| (id, at)).collect();
        let Some(last) = oldest_prefix(&next, millis(before)) else {
            return Ok(None);
        };
        self.execute(
            &TRIM_INBOUND,
            &[
                (":after_id", Value::Int(after_id)),
                (":last", Value::Int(last)),
            ],
        )?;
        Ok(Some(last))
    }
}
