//! The outbox's statements that both backends run: answers found again,
//! pending texts, cancellations, delivery reports, and the reports kept for
//! texts whose send is not recorded yet.

use std::sync::LazyLock;

use super::Statement;
use crate::store::records::OutboxText;
use crate::store::rows::column_list;

/// The text a provider knows by a reference, and its status: locked on
/// PostgreSQL, where two instances may take reports of one text at once.
pub(crate) static TEXT_BY_REFERENCE: Statement = Statement::differing(
    "text by reference",
    "SELECT id, status FROM outbox WHERE provider_ref = :provider_ref ORDER BY id LIMIT 1",
    "SELECT id, status FROM outbox WHERE provider_ref = :provider_ref ORDER BY id LIMIT 1 FOR UPDATE",
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

/// The early reports whose text is now recorded under their reference.
pub(crate) static EARLY_REPORTS_MATCHED: Statement = Statement::same(
    "early reports matched",
    "SELECT e.provider_ref, e.status, e.error FROM early_reports e
     WHERE EXISTS (SELECT 1 FROM outbox o WHERE o.provider_ref = e.provider_ref)",
);

/// Forgets an early report once applied.
pub(crate) static EARLY_REPORT_DROP: Statement = Statement::same(
    "early report drop",
    "DELETE FROM early_reports WHERE provider_ref = :provider_ref",
);

/// The text given in an answer under a reference.
pub(crate) static ANSWERED: LazyLock<Statement> = LazyLock::new(|| {
    Statement::made(
        "answered",
        format!(
            "SELECT {} FROM outbox o WHERE o.provider_ref = :reference ORDER BY o.id LIMIT 1",
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
