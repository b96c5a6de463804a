//! The PostgreSQL outbox: queuing (deferred), claims with leases, outcomes
//! and delivery reports. Claims run on the pool beside the writer
//! (`PgStore::run_solo`), each in a transaction of its own.

use chrono::{DateTime, Utc};

use super::parts::{QUEUED_TEXTS, QueuedText};
use super::tx::PgTx;
use crate::store::StoreResult;
use crate::store::backend::OutboxBackend;
use crate::store::delivery::{self, EarlyReport};
use crate::store::model::{NewText, SentText, TextStatus};
use crate::store::rows::millis;

/// Records sends, claimed texts only: one whose lease ran out may be another
/// instance's now. The same round trip finds the delivery reports that came
/// before their text was recorded: this batch's, and any an instance's
/// report kept while the send was recorded in a transaction it could not see.
/// A report's reference is a provider's (through `outbox_by_ref`, its
/// condition repeated) or one of ours (`store/reference.rs`, by the id).
pub(super) const MARK_SENT: &str = "WITH sent AS (
    UPDATE outbox o SET status = CASE WHEN o.status = 'sending' THEN 'sent' ELSE o.status END,
    attempts = v.attempts, provider_ref = COALESCE(v.provider_ref, o.provider_ref),
    lease_until = NULL, last_error = NULL, updated_at = v.at
    FROM UNNEST($1::bigint[], $2::int[], $3::text[], $4::bigint[]) AS v(id, attempts, provider_ref, at)
    WHERE o.id = v.id RETURNING o.provider_ref)
 SELECT e.provider_ref, e.status, e.error FROM early_reports e
 WHERE e.provider_ref IN (SELECT provider_ref FROM sent)
    OR EXISTS (SELECT 1 FROM outbox o WHERE o.provider_ref = e.provider_ref
               AND o.provider_ref NOT IN ('g' || CAST(o.id AS TEXT), 'h' || CAST(o.id AS TEXT),
                                          'k' || CAST(o.id AS TEXT), 'v' || CAST(o.id AS TEXT)))
    OR EXISTS (SELECT 1 FROM outbox o WHERE o.provider_ref = e.provider_ref
               AND o.id = CASE WHEN substr(e.provider_ref, 1, 1) IN ('g', 'h', 'k', 'v')
                                AND substr(e.provider_ref, 2) ~ '^(0|[1-9][0-9]{0,17})$'
                               THEN CAST(substr(e.provider_ref, 2) AS bigint) END)";

impl OutboxBackend for PgTx<'_> {
    fn enqueue(&mut self, t: NewText, now: DateTime<Utc>) -> StoreResult<()> {
        self.queued_to.push(t.to.clone());
        self.pending.put(
            &QUEUED_TEXTS,
            QueuedText {
                text: t,
                at: millis(now),
            },
        );
        self.queued_texts = true;
        Ok(())
    }

    fn mark_sent(&mut self, sent: &[SentText<'_>]) -> StoreResult<()> {
        if sent.is_empty() {
            return Ok(());
        }
        let ids: Vec<i64> = sent.iter().map(|t| t.id).collect();
        let attempts: Vec<i32> = sent.iter().map(|t| t.attempts as i32).collect();
        let refs: Vec<Option<&str>> = sent.iter().map(|t| t.provider_ref).collect();
        let at: Vec<i64> = sent.iter().map(|t| millis(t.at)).collect();
        let q = sqlx::query(MARK_SENT)
            .bind(ids)
            .bind(attempts)
            .bind(refs)
            .bind(at);
        let early: Vec<EarlyReport> = self.all(q)?;
        delivery::apply_early_reports(self, early, sent[sent.len() - 1].at)
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
