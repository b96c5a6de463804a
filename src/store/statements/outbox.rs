//! The outbox's statements that both backends run: answers found again,
//! pending texts, cancellations, delivery reports, and the reports kept for
//! texts whose send is not recorded yet.

use std::sync::LazyLock;

use super::Statement;
use crate::store::model::OutboxText;
use crate::store::rows::{Record, column_list};

/// The text a provider knows by a reference it gave, and its status: locked
/// on PostgreSQL, where two instances may take reports of one text at once.
/// The last condition is `outbox_by_ref`'s own, which a partial index is
/// used under: our own references (`reference.rs`, one letter of
/// `OWN_LETTERS` and the id) are not in it.
pub(crate) static TEXT_BY_REFERENCE: Statement = Statement::differing(
    "text by reference",
    "SELECT id, status FROM outbox WHERE provider_ref = :reference
       AND provider_ref NOT IN ('g' || CAST(id AS TEXT), 'h' || CAST(id AS TEXT),
                                'k' || CAST(id AS TEXT), 'v' || CAST(id AS TEXT))
     ORDER BY id LIMIT 1",
    "SELECT id, status FROM outbox WHERE provider_ref = :reference
       AND provider_ref NOT IN ('g' || CAST(id AS TEXT), 'h' || CAST(id AS TEXT),
                                'k' || CAST(id AS TEXT), 'v' || CAST(id AS TEXT))
     ORDER BY id LIMIT 1 FOR UPDATE",
    "SQLite has one writer and no row locks",
);

/// The text one of our own references names (a letter and its id), found
/// by the id, and its status; locked on PostgreSQL as above.
pub(crate) static TEXT_BY_OWN_REFERENCE: Statement = Statement::differing(
    "text by own reference",
    "SELECT id, status FROM outbox WHERE id = :id AND provider_ref = :reference",
    "SELECT id, status FROM outbox WHERE id = :id AND provider_ref = :reference FOR UPDATE",
    "SQLite has one writer and no row locks",
);

/// A text's status moved on by a report.
pub(crate) static REPORTED_STATUS: Statement = Statement::same(
    "reported status",
    "UPDATE outbox SET status = :status, last_error = COALESCE(:error, last_error), updated_at = :now
     WHERE id = :id",
);

/// What a delivery report said of a text not yet recorded as sent, if one did.
pub(crate) static EARLY_REPORT_STATUS: Statement = Statement::same(
    "early report status",
    "SELECT status FROM early_reports WHERE provider_ref = :provider_ref",
);

/// Keeps (or moves on) a delivery report for a text not yet recorded as sent.
pub(crate) static EARLY_REPORT_KEEP: Statement = Statement::same(
    "early report keep",
    "INSERT INTO early_reports (provider_ref, status, error, received_at)
     VALUES (:provider_ref, :status, :error, :now)
     ON CONFLICT (provider_ref) DO UPDATE SET status = excluded.status,
     error = COALESCE(excluded.error, early_reports.error), received_at = excluded.received_at",
);

/// Drops the early reports nothing claimed in time: references of texts that
/// are not ours, or whose send was never recorded.
pub(crate) static EARLY_REPORTS_PRUNE: Statement = Statement::same(
    "early reports prune",
    "DELETE FROM early_reports WHERE received_at < :before",
);

/// Every early report kept: few, since a report overtakes the record of
/// its text's send by milliseconds, and the unclaimed go after a day.
pub(crate) static EARLY_REPORTS: Statement = Statement::same(
    "early reports",
    "SELECT provider_ref, status, error FROM early_reports ORDER BY provider_ref",
);

/// One early report, if any is kept.
pub(crate) static ANY_EARLY_REPORT: Statement = Statement::same(
    "any early report",
    "SELECT status FROM early_reports LIMIT 1",
);

/// Forgets an early report once applied.
pub(crate) static EARLY_REPORT_DROP: Statement = Statement::same(
    "early report drop",
    "DELETE FROM early_reports WHERE provider_ref = :provider_ref",
);

/// The text given in an answer under a reference, through `outbox_by_ref`
/// (its condition last, as in [`TEXT_BY_REFERENCE`]).
pub(crate) static ANSWERED: LazyLock<Statement> = LazyLock::new(|| {
    Statement::made(
        "answered",
        format!(
            "SELECT {} FROM outbox o WHERE o.provider_ref = :reference
               AND o.provider_ref NOT IN ('g' || CAST(o.id AS TEXT), 'h' || CAST(o.id AS TEXT),
                                    'k' || CAST(o.id AS TEXT), 'v' || CAST(o.id AS TEXT))
             ORDER BY o.id LIMIT 1",
            column_list::<OutboxText>("o")
        ),
    )
});

/// The text given in an answer under a reference that reads as one of our
/// own (a letter and its id), found by the id.
pub(crate) static ANSWERED_OWN: LazyLock<Statement> = LazyLock::new(|| {
    Statement::made(
        "answered own",
        format!(
            "SELECT {} FROM outbox o WHERE o.id = :id AND o.provider_ref = :reference",
            column_list::<OutboxText>("o")
        ),
    )
});

/// Every text not yet handed to the provider, with when it falls due.
pub(crate) static PENDING: LazyLock<Statement> = LazyLock::new(|| {
    Statement::made(
        "pending",
        format!(
            "SELECT {}, o.next_attempt_at FROM outbox o
             WHERE o.status IN ('queued', 'sending') ORDER BY o.id",
            column_list::<OutboxText>("o")
        ),
    )
});

/// Cancels what waits for a phone that opted out.
pub(crate) static CANCEL_TO: Statement = Statement::same(
    "cancel to",
    "UPDATE outbox SET status = 'cancelled', lease_until = NULL, updated_at = :now
     WHERE to_phone = :phone AND status = 'queued'",
);

/// A reply given in the webhook's answer, recorded as sent under its
/// reference, unless an older text to the phone is still unsent (it would
/// overtake that one): then it changes no row.
pub(crate) static ANSWER: Statement = Statement::same(
    "answer",
    "INSERT INTO outbox (from_number, to_phone, body, encoding, parts, status, attempts,
     next_attempt_at, provider_ref, created_at, updated_at)
     SELECT :from_number, :to_phone, :body, :encoding, :parts, 'sent', 1, :now, :reference, :now, :now
     WHERE NOT EXISTS (
        SELECT 1 FROM outbox WHERE to_phone = :to_phone AND status IN ('queued', 'sending'))",
);

/// Texts due, at most one per phone (its oldest unsent), leased.
pub(crate) static CLAIM: LazyLock<Statement> = LazyLock::new(|| {
    Statement::made_differing(
        "claim",
        format!(
            "UPDATE outbox SET status = 'sending', lease_until = :lease_until,
             attempts = attempts + 1, updated_at = :now
             WHERE id IN (
                SELECT o.id FROM outbox o
                WHERE o.status IN ('queued', 'sending')
                  AND ((o.status = 'queued' AND o.next_attempt_at <= :now)
                       OR (o.status = 'sending' AND o.lease_until < :now))
                  AND NOT EXISTS (
                    SELECT 1 FROM outbox e
                    WHERE e.to_phone = o.to_phone AND e.id < o.id AND e.status IN ('queued', 'sending'))
                ORDER BY o.id LIMIT :limit)
             RETURNING {}",
            OutboxText::COLUMNS.join(", ")
        ),
        // Two walks, each stopping at the limit: texts whose lease ran out
        // (the oldest unsent of their phone, since the ones after them
        // waited), and queued texts in the order they fell due that are the
        // oldest unsent text to their phone (that check alone keeps a phone's
        // texts in order). Both walk an index on the time they compare with
        // `:now`, so a plan made once (`postgres::planned_once`) stops at the
        // limit whether the backlog is of texts due or of retries not yet
        // due; the oldest is looked up per text, by phone, as a subquery a
        // plan cannot turn into a join that reads every unsent text. Locked
        // rows are another instance's claim in the making.
        format!(
            "WITH expired AS (
                SELECT o.id FROM outbox o
                WHERE o.status = 'sending' AND o.lease_until < :now
                ORDER BY o.lease_until LIMIT :limit
                FOR UPDATE SKIP LOCKED),
             due AS (
                SELECT o.id FROM outbox o
                WHERE o.status = 'queued' AND o.next_attempt_at <= :now
                  AND o.id = (
                    SELECT min(e.id) FROM outbox e
                    WHERE e.to_phone = o.to_phone AND e.status IN ('queued', 'sending'))
                ORDER BY o.next_attempt_at LIMIT :limit
                FOR UPDATE SKIP LOCKED)
             UPDATE outbox SET status = 'sending', lease_until = :lease_until,
             attempts = attempts + 1, updated_at = :now
             WHERE id = ANY(ARRAY(SELECT id FROM expired) || ARRAY(SELECT id FROM due))
             RETURNING {}",
            OutboxText::COLUMNS.join(", ")
        ),
        "instances claim beside each other: rows another holds are skipped, and each walk \
         has an index of its own",
    )
});

/// When the next text falls due after `:now` (or a lease runs out).
pub(crate) static NEXT_DUE: Statement = Statement::differing(
    "next due",
    "SELECT MIN(CASE status WHEN 'queued' THEN next_attempt_at ELSE lease_until END) AS at
     FROM outbox WHERE (status = 'queued' AND next_attempt_at > :now) OR status = 'sending'",
    "SELECT LEAST(
        (SELECT MIN(next_attempt_at) FROM outbox WHERE status = 'queued' AND next_attempt_at > :now),
        (SELECT MIN(lease_until) FROM outbox WHERE status = 'sending')) AS at",
    "two index lookups on PostgreSQL rather than one pass over every pending text; \
     SQLite has no LEAST",
);

/// An attempt that failed in a way worth retrying.
pub(crate) static RETRY: Statement = Statement::differing(
    "retry",
    "UPDATE outbox SET status = 'queued', attempts = :attempts, lease_until = NULL,
     last_error = :error, next_attempt_at = :next_attempt, updated_at = :now
     WHERE id = :id AND status IN ('queued', 'sending')",
    "UPDATE outbox SET status = 'queued', attempts = :attempts, lease_until = NULL,
     last_error = :error, next_attempt_at = :next_attempt, updated_at = :now
     WHERE id = :id AND status = 'sending'",
    "SQLite's dispatcher is fed the texts it sends, still 'queued'; PostgreSQL's claim \
     them ('sending'), and one whose lease ran out may be another instance's now",
);
