//! Delivery reports, written once for both backends: a report moves its
//! text's status forward only, and one that overtakes the record of its
//! text's send is kept until that record is written.

use chrono::{DateTime, Utc};

use super::model::TextStatus;
use super::reference;
use super::rows::{Fields, Record, millis};
use super::sql::Sql;
use super::statements::Value;
use super::statements::outbox::{
    ANY_EARLY_REPORT, EARLY_REPORT_DROP, EARLY_REPORT_KEEP, EARLY_REPORT_STATUS, EARLY_REPORTS,
    EARLY_REPORTS_PRUNE, REPORTED_STATUS, TEXT_BY_OWN_REFERENCE, TEXT_BY_REFERENCE,
};
use super::{EARLY_REPORT_KEPT, StoreResult, advance_status};

/// A text as a report finds it.
struct Reported {
    id: i64,
    status: TextStatus,
}

impl Record for Reported {
    const NAME: &'static str = "reported text";
    const COLUMNS: &'static [&'static str] = &["id", "status"];

    fn decode(f: &mut Fields<'_>) -> StoreResult<Reported> {
        let id = f.int("id")?;
        f.keyed(id);
        Ok(Reported {
            id,
            status: f.parsed("status")?,
        })
    }
}

/// A report kept for a text whose send was not recorded yet.
pub(crate) struct EarlyReport {
    pub provider_ref: String,
    pub status: TextStatus,
    pub error: Option<String>,
}

impl Record for EarlyReport {
    const NAME: &'static str = "early report";
    const COLUMNS: &'static [&'static str] = &["provider_ref", "status", "error"];

    fn decode(f: &mut Fields<'_>) -> StoreResult<EarlyReport> {
        Ok(EarlyReport {
            provider_ref: f.text("provider_ref")?,
            status: f.parsed("status")?,
            error: f.opt_text("error")?,
        })
    }
}

/// [`super::tx::Outbox::report_status`], for either backend.
pub(crate) fn report_status(
    db: &mut impl Sql,
    provider_ref: &str,
    status: TextStatus,
    error: Option<&str>,
    now: DateTime<Utc>,
) -> StoreResult<Option<TextStatus>> {
    let Some(text) = reported(db, provider_ref)? else {
        keep_early_report(db, provider_ref, status, error, now)?;
        return Ok(None);
    };
    move_status(db, &text, status, error, now).map(Some)
}

/// Moves `text`'s status forward to what a report said, if that is forward.
fn move_status(
    db: &mut impl Sql,
    text: &Reported,
    status: TextStatus,
    error: Option<&str>,
    now: DateTime<Utc>,
) -> StoreResult<TextStatus> {
    let next = advance_status(text.status, status);
    if next != text.status {
        db.execute(
            &REPORTED_STATUS,
            &[
                (":id", Value::Int(text.id)),
                (":status", Value::Text(next.as_str())),
                (":error", Value::MaybeText(error)),
                (":now", Value::Int(millis(now))),
            ],
        )?;
    }
    Ok(next)
}

/// Keeps a report whose text is not (yet) recorded under its reference: the
/// provider's answer to our send may still be on its way to the store. Of
/// two early reports the furthest wins; ones nothing claimed in a day go.
fn keep_early_report(
    db: &mut impl Sql,
    provider_ref: &str,
    status: TextStatus,
    error: Option<&str>,
    now: DateTime<Utc>,
) -> StoreResult<()> {
    let earlier: Option<EarlyStatus> = db.first(
        &EARLY_REPORT_STATUS,
        &[(":provider_ref", Value::Text(provider_ref))],
    )?;
    let status = match earlier {
        Some(EarlyStatus(earlier)) => advance_status(earlier, status),
        None => status,
    };
    db.execute(
        &EARLY_REPORTS_PRUNE,
        &[(":before", Value::Int(millis(now - EARLY_REPORT_KEPT)))],
    )?;
    db.execute(
        &EARLY_REPORT_KEEP,
        &[
            (":provider_ref", Value::Text(provider_ref)),
            (":status", Value::Text(status.as_str())),
            (":error", Value::MaybeText(error)),
            (":now", Value::Int(millis(now))),
        ],
    )?;
    Ok(())
}

/// An early report's status alone.
struct EarlyStatus(TextStatus);

impl Record for EarlyStatus {
    const NAME: &'static str = "early report";
    const COLUMNS: &'static [&'static str] = &["status"];

    fn decode(f: &mut Fields<'_>) -> StoreResult<EarlyStatus> {
        Ok(EarlyStatus(f.parsed("status")?))
    }
}

/// The text a report names, and its status.
fn reported(db: &mut impl Sql, reference: &str) -> StoreResult<Option<Reported>> {
    reference::text_by(db, &TEXT_BY_OWN_REFERENCE, &TEXT_BY_REFERENCE, reference)
}

/// Applies the early reports whose texts are now recorded, and forgets them.
pub(crate) fn settle_early_reports(db: &mut impl Sql, now: DateTime<Utc>) -> StoreResult<()> {
    let kept: Vec<EarlyReport> = db.all(&EARLY_REPORTS, &[])?;
    for report in kept {
        if let Some(text) = reported(db, &report.provider_ref)? {
            move_status(db, &text, report.status, report.error.as_deref(), now)?;
            forget_early_report(db, &report.provider_ref)?;
        }
    }
    Ok(())
}

/// Whether any early report is kept.
pub(crate) fn any_early_reports(db: &mut impl Sql) -> StoreResult<bool> {
    let any: Option<EarlyStatus> = db.first(&ANY_EARLY_REPORT, &[])?;
    Ok(any.is_some())
}

/// Applies early reports whose texts are recorded, and forgets them.
pub(crate) fn apply_early_reports(
    db: &mut impl Sql,
    reports: Vec<EarlyReport>,
    now: DateTime<Utc>,
) -> StoreResult<()> {
    for report in reports {
        report_status(
            db,
            &report.provider_ref,
            report.status,
            report.error.as_deref(),
            now,
        )?;
        forget_early_report(db, &report.provider_ref)?;
    }
    Ok(())
}

fn forget_early_report(db: &mut impl Sql, provider_ref: &str) -> StoreResult<()> {
    db.execute(
        &EARLY_REPORT_DROP,
        &[(":provider_ref", Value::Text(provider_ref))],
    )?;
    Ok(())
}
