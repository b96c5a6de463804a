//! What the writers report as they work, for `/metrics`: each transaction's time, the texts each commit queued, and on PostgreSQL the callers that met a conflict and run again.
//!
//! Set once, after the store is open ([`super::Store::observe`]); until then
//! the writers report to no one. The handles are the recorder's own, so a
//! report is an atomic add, on the writer's thread, with no lock.

use std::sync::{Arc, OnceLock};
use std::time::Duration;

/// The handles a writer reports through.
#[derive(Clone)]
pub struct Probe {
    /// Seconds from a batch's BEGIN to its COMMIT (or its failure).
    pub transaction: metrics::Histogram,
    /// Texts to real phones a commit queued.
    pub queued: metrics::Counter,
    /// Texts to the training hall's virtual phones a commit queued.
    pub queued_virtual: metrics::Counter,
    /// PostgreSQL: callers taken out of a batch because another instance
    /// held a lock they needed.
    pub refused_locks: metrics::Counter,
    /// PostgreSQL: those callers' transactions, run again on their own.
    pub retried: metrics::Counter,
}

/// Where a store keeps its probe once it is set.
pub(crate) type ProbeCell = Arc<OnceLock<Probe>>;

/// Reports one batch: how long it took and, if it committed, the texts it
/// queued (by recipient).
pub(crate) fn batch<'a>(
    cell: &ProbeCell,
    took: Duration,
    committed: bool,
    queued_to: impl Iterator<Item = &'a str>,
) {
    let Some(probe) = cell.get() else {
        return;
    };
    probe.transaction.record(took.as_secs_f64());
    if committed {
        let (mut real, mut virtual_) = (0, 0);
        for to in queued_to {
            if crate::phone::is_virtual(to) {
                virtual_ += 1;
            } else {
                real += 1;
            }
        }
        probe.queued.increment(real);
        probe.queued_virtual.increment(virtual_);
    }
}

/// Reports callers that met a conflict (a lock wait that ran out, a deadlock), each to be run again on its own.
pub(crate) fn refused(cell: &ProbeCell, callers: usize) {
    if let (Some(probe), true) = (cell.get(), callers > 0) {
        probe.refused_locks.increment(callers as u64);
        probe.retried.increment(callers as u64);
    }
}
