//! The SQLite writer's outbox: queuing, claims, outcomes and delivery reports.
//! Every text queued or cancelled is also told to this process's dispatcher
//! once the transaction commits (`SqliteTx::events`).

use chrono::{DateTime, Utc};
use rusqlite::params;

use super::tx::SqliteTx;
use crate::store::StoreResult;
use crate::store::outbox;
use crate::store::records::{NewText, OutboxEvent, OutboxText, SentText, TextStatus};
use crate::store::rows::millis;
use crate::store::tx::Outbox;
use crate::store::{delivery, writes};

impl Outbox for SqliteTx<'_> {
    fn enqueue(&mut self, t: &NewText, now: DateTime<Utc>) -> StoreResult<()> {
        let id = self
            .conn
            .prepare_cached(
                "INSERT INTO outbox (from_number, to_phone, body, encoding, parts, next_attempt_at,
                 created_at, updated_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?6, ?6)",
            )?
            .insert(params![
                t.from,
                t.to,
                t.body,
                t.encoding,
                t.parts,
                millis(now)
            ])?;
        self.events.push(OutboxEvent::Queued(OutboxText {
            id,
            from: t.from.clone(),
            to: t.to.clone(),
            body: t.body.clone(),
            encoding: t.encoding.to_string(),
            parts: t.parts,
            attempts: 0,
            status: TextStatus::Queued,
            provider_ref: None,
            last_error: None,
        }));
        Ok(())
    }

    fn answer(&mut self, t: &NewText, reference: &str, now: DateTime<Utc>) -> StoreResult<bool> {
        outbox::answer(self, t, reference, now)
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
        outbox::claim(self, now, lease_until, limit)
    }

    fn next_due(&mut self) -> StoreResult<Option<DateTime<Utc>>> {
        outbox::next_due(self)
    }

    fn pending(&mut self) -> StoreResult<Vec<(OutboxText, DateTime<Utc>)>> {
        outbox::pending(self)
    }

    fn mark_sent(&mut self, sent: &[SentText<'_>]) -> StoreResult<()> {
        // A delivery report may have overtaken us (it stays); a text a STOP
        // cancelled while it was on its way did leave, so it is 'sent'.
        let mut stmt = self.conn.prepare_cached(
            "UPDATE outbox SET status = CASE WHEN status IN ('delivered', 'failed') THEN status ELSE 'sent' END,
             attempts = ?2, provider_ref = COALESCE(?3, provider_ref), lease_until = NULL,
             last_error = NULL, updated_at = ?4 WHERE id = ?1",
        )?;
        for t in sent {
            stmt.execute(params![t.id, t.attempts, t.provider_ref, millis(t.at)])?;
        }
        match sent.last() {
            Some(last) => delivery::settle_early_reports(self, last.at),
            None => Ok(()),
        }
    }

    fn mark_retry(
        &mut self,
        id: i64,
        attempts: u32,
        error: &str,
        next_attempt: DateTime<Utc>,
        now: DateTime<Utc>,
    ) -> StoreResult<()> {
        outbox::retry(self, id, attempts, error, next_attempt, now)
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
