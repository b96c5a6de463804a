//! The SQLite writer's outbox: queuing, claims, outcomes and delivery reports.
//! Every text queued or cancelled is also told to this process's dispatcher
//! once the transaction commits (`Prepared::events`).

use chrono::{DateTime, Utc};

use super::exec;
use super::tx::SqliteTx;
use crate::store::backend::OutboxBackend;
use crate::store::model::{NewText, SentText, TextStatus};
use crate::store::rows::millis;
use crate::store::statements::Value;
use crate::store::statements::sqlite::MARK_SENT;
use crate::store::{StoreResult, delivery};

impl OutboxBackend for SqliteTx<'_> {
    /// Held, and inserted with the writer's next statement (`held.rs`).
    fn enqueue(&mut self, t: NewText, now: DateTime<Utc>) -> StoreResult<()> {
        self.db.hold(t, now);
        Ok(())
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
