//! The PostgreSQL outbox: queuing (deferred), claims with leases, outcomes
//! and delivery reports. Claims run on the pool beside the writer
//! (`PgStore::run_solo`), each in a transaction of its own.

use std::sync::LazyLock;

use chrono::{DateTime, Utc};
use sqlx::Row;

use super::parts::{QUEUED_TEXTS, QueuedText};
use super::tx::PgTx;
use crate::store::StoreResult;
use crate::store::delivery::{self, EarlyReport};
use crate::store::outbox;
use crate::store::records::{NewText, OutboxText, SentText, TextStatus};
use crate::store::rows::{Record, from_millis, millis};
use crate::store::tx::Outbox;
use crate::store::writes;

/// Two walks, each stopping at `limit`: texts whose lease ran out (the oldest
/// unsent of their phone, since the ones after them waited), and queued texts
/// in id order that no older unsent text to the same phone holds back.
/// Locked rows are another instance's claim in the making.
static CLAIM: LazyLock<String> = LazyLock::new(|| {
    format!(
        "WITH expired AS (
            SELECT o.id FROM outbox o
            WHERE o.status = 'sending' AND o.lease_until < $1
            ORDER BY o.lease_until LIMIT $3
            FOR UPDATE SKIP LOCKED),
         due AS (
            SELECT o.id FROM outbox o
            WHERE o.status = 'queued' AND o.next_attempt_at <= $1
              AND NOT EXISTS (
                SELECT 1 FROM outbox e
                WHERE e.to_phone = o.to_phone AND e.id < o.id AND e.status IN ('queued', 'sending'))
            ORDER BY o.id LIMIT $3
            FOR UPDATE SKIP LOCKED)
         UPDATE outbox SET status = 'sending', lease_until = $2, attempts = attempts + 1, updated_at = $1
         WHERE id = ANY(ARRAY(SELECT id FROM expired) || ARRAY(SELECT id FROM due))
         RETURNING {}",
        OutboxText::COLUMNS.join(", ")
    )
});

impl Outbox for PgTx<'_> {
    fn enqueue(&mut self, t: &NewText, now: DateTime<Utc>) -> StoreResult<()> {
        self.pending.put(
            &QUEUED_TEXTS,
            QueuedText {
                text: t.clone(),
                at: millis(now),
            },
        );
        self.queued_texts = true;
        self.queued_to.push(t.to.clone());
        Ok(())
    }

    fn answer(&mut self, t: &NewText, reference: &str, now: DateTime<Utc>) -> StoreResult<bool> {
        let q = sqlx::query(
            "INSERT INTO outbox (from_number, to_phone, body, encoding, parts, status, attempts,
             next_attempt_at, provider_ref, created_at, updated_at)
             SELECT $1, $2, $3, $4, $5, 'sent', 1, $6, $7, $6, $6
             WHERE NOT EXISTS (
                SELECT 1 FROM outbox WHERE to_phone = $2 AND status IN ('queued', 'sending'))",
        )
        .bind(&t.from)
        .bind(&t.to)
        .bind(&t.body)
        .bind(t.encoding)
        .bind(t.parts as i32)
        .bind(millis(now))
        .bind(reference);
        if self.execute(q)? == 1 {
            return Ok(true);
        }
        self.enqueue(t, now)?;
        Ok(false)
    }

    fn answered(&mut self, reference: &str) -> StoreResult<Option<OutboxText>> {
        outbox::answered(self, reference)
    }

    fn cancel_to(&mut self, phone: &str, now: DateTime<Utc>) -> StoreResult<u64> {
        outbox::cancel_to(self, phone, now)
    }

    fn claim(
        &mut self,
        now: DateTime<Utc>,
        lease_until: DateTime<Utc>,
        limit: usize,
    ) -> StoreResult<Vec<OutboxText>> {
        let q = sqlx::query(&CLAIM)
            .bind(millis(now))
            .bind(millis(lease_until))
            .bind(limit as i64);
        let mut texts: Vec<OutboxText> = self.all(q)?;
        texts.sort_by_key(|t| t.id);
        Ok(texts)
    }

    fn next_due(&mut self) -> StoreResult<Option<DateTime<Utc>>> {
        // Two index lookups rather than one pass over every pending text.
        let q = sqlx::query(
            "SELECT LEAST(
                (SELECT MIN(next_attempt_at) FROM outbox WHERE status = 'queued'),
                (SELECT MIN(lease_until) FROM outbox WHERE status = 'sending'))",
        );
        let row = self.fetch_one(q)?;
        Ok(row.try_get::<Option<i64>, _>(0)?.and_then(from_millis))
    }

    fn pending(&mut self) -> StoreResult<Vec<(OutboxText, DateTime<Utc>)>> {
        outbox::pending(self)
    }

    fn mark_sent(&mut self, sent: &[SentText<'_>]) -> StoreResult<()> {
        if sent.is_empty() {
            return Ok(());
        }
        let ids: Vec<i64> = sent.iter().map(|t| t.id).collect();
        let attempts: Vec<i32> = sent.iter().map(|t| t.attempts as i32).collect();
        let refs: Vec<Option<&str>> = sent.iter().map(|t| t.provider_ref).collect();
        let at: Vec<i64> = sent.iter().map(|t| millis(t.at)).collect();
        // Claimed texts only: one whose lease ran out may be another instance's now.
        // The same round trip finds the delivery reports that came before
        // their text was recorded: this batch's, and any an instance's report
        // kept while the send was recorded in a transaction it could not see.
        let q = sqlx::query(
            "WITH sent AS (
                UPDATE outbox o SET status = CASE WHEN o.status = 'sending' THEN 'sent' ELSE o.status END,
                attempts = v.attempts, provider_ref = COALESCE(v.provider_ref, o.provider_ref),
                lease_until = NULL, last_error = NULL, updated_at = v.at
                FROM UNNEST($1::bigint[], $2::int[], $3::text[], $4::bigint[]) AS v(id, attempts, provider_ref, at)
                WHERE o.id = v.id RETURNING o.provider_ref)
             SELECT e.provider_ref, e.status, e.error FROM early_reports e
             WHERE e.provider_ref IN (SELECT provider_ref FROM sent)
                OR EXISTS (SELECT 1 FROM outbox o WHERE o.provider_ref = e.provider_ref)",
        )
        .bind(ids)
        .bind(attempts)
        .bind(refs)
        .bind(at);
        let early: Vec<EarlyReport> = self.all(q)?;
        delivery::apply_early_reports(self, early, sent[sent.len() - 1].at)
    }

    fn mark_retry(
        &mut self,
        id: i64,
        attempts: u32,
        error: &str,
        next_attempt: DateTime<Utc>,
        now: DateTime<Utc>,
    ) -> StoreResult<()> {
        let q = sqlx::query(
            "UPDATE outbox SET status = 'queued', attempts = $2, lease_until = NULL, last_error = $3,
             next_attempt_at = $4, updated_at = $5 WHERE id = $1 AND status = 'sending'",
        )
        .bind(id)
        .bind(attempts as i32)
        .bind(error)
        .bind(millis(next_attempt))
        .bind(millis(now));
        self.execute(q)?;
        Ok(())
    }

    fn mark_failed(
        &mut self,
        id: i64,
        attempts: u32,
        error: &str,
        now: DateTime<Utc>,
    ) -> StoreResult<()> {
        writes::park_text(self, id, attempts, error, now)
    }

    fn report_status(
        &mut self,
        provider_ref: &str,
        status: TextStatus,
        error: Option<&str>,
        now: DateTime<Utc>,
    ) -> StoreResult<Option<TextStatus>> {
        delivery::report_status(self, provider_ref, status, error, now)
    }
}
