//! The SQLite writer's outbox: queuing, claims, outcomes and delivery reports.
//! Every text queued or cancelled is also told to this process's dispatcher
//! once the transaction commits (`Prepared::events`).

use chrono::{DateTime, Utc};

use super::exec;
use super::tx::SqliteTx;
use crate::store::outbox;
use crate::store::records::{NewText, OutboxText, SentText, TextStatus};
use crate::store::rows::millis;
use crate::store::statements::Value;
use crate::store::statements::sqlite::MARK_SENT;
use crate::store::tx::Outbox;
use crate::store::{StoreResult, delivery, writes};

impl Outbox for SqliteTx<'_> {
    /// Held, and inserted with the writer's next statement (`held.rs`).
    fn enqueue(&mut self, t: NewText, now: DateTime<Utc>) -> StoreResult<()> {
        self.db.hold(t, now);
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

    fn next_due_after(&mut self, now: DateTime<Utc>) -> StoreResult<Option<DateTime<Utc>>> {
        outbox::next_due_after(self, now)
    }

    fn pending(&mut self) -> StoreResult<Vec<(OutboxText, DateTime<Utc>)>> {
        outbox::pending(self)
    }

    fn mark_sent(&mut self, sent: &[SentText<'_>]) -> StoreResult<()> {
        for t in sent {
            exec::execute(
                &mut self.db,
                &MARK_SENT,
                &[
                    (":id", Value::Int(t.id)),
                    (":attempts", Value::Int(i64::from(t.attempts))),
                    (":provider_ref", Value::MaybeText(t.provider_ref)),
                    (":at", Value::Int(millis(t.at))),
                ],
            )?;
        }
        match sent.last() {
            Some(last) if self.early_reports => {
                delivery::settle_early_reports(self, last.at)?;
                self.early_reports = delivery::any_early_reports(self)?;
                Ok(())
            }
            _ => Ok(()),
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
        let found = delivery::report_status(self, provider_ref, status, error, now)?;
        // None: kept for a send not recorded yet.
        self.early_reports |= found.is_none();
        Ok(found)
    }
}
