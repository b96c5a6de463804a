//! Group commit: many callers' closures run one after another in one
//! transaction on one connection, and every caller hears back after the
//! shared COMMIT. Both backends' writers run their batches through here.
//!
//! A batch first runs without savepoints: on SQLite a savepoint makes it copy
//! every page a job is about to change into a statement journal (the largest
//! single cost of its writer in a profile), on PostgreSQL it is a round trip
//! per job, and jobs almost never fail. When one does, the whole transaction
//! is rolled back and the batch runs again with a savepoint per job, so that
//! only the failed job's writes are undone. Jobs may therefore run twice,
//! which [`super::Store::run`] asks every closure to allow.

use std::panic::{AssertUnwindSafe, catch_unwind};

use tokio::sync::{mpsc, oneshot};

use super::{StoreError, StoreResult, Tx};

/// A backend's connection as the batch runner drives it.
pub(super) trait BatchTx {
    /// The connection as the platform sees it.
    fn tx(&mut self) -> &mut dyn Tx;
    fn begin(&mut self) -> StoreResult<()>;
    fn savepoint(&mut self) -> StoreResult<()>;
    /// Undoes everything since [`BatchTx::savepoint`], in the database and in
    /// whatever the connection keeps beside it.
    fn rollback_to_savepoint(&mut self) -> StoreResult<()>;
    fn release_savepoint(&mut self) -> StoreResult<()>;
    /// Writes what the last job left pending (PostgreSQL defers writes to
    /// save round trips); an error here is that job's failure.
    fn flush(&mut self) -> StoreResult<()> {
        Ok(())
    }
    fn commit(&mut self) -> StoreResult<()>;
    /// Abandons the transaction; errors are ignored (the connection may be gone).
    fn rollback(&mut self);
}

/// Batches a caller's work may run in: the first and those after conflicts.
pub(super) const MAX_RUNS: u32 = 5;

/// A caller's work, type-erased so one queue carries every result type.
pub(super) trait Job: Send {
    /// Runs the work (again, if the batch is re-run); `false` when it failed
    /// and its writes must roll back.
    fn run(&mut self, tx: &mut dyn Tx) -> bool;
    /// Replaces the result with the error that befell the job after its work ran.
    fn fail(&mut self, error: StoreError);
    /// Whether the job, its writes undone, should run again in a later batch:
    /// it met a conflict with another transaction and has runs left.
    fn wants_another_run(&mut self) -> bool;
    /// Hands the result back once the batch's COMMIT succeeded or failed.
    fn finish(self: Box<Self>, commit: Result<(), &str>);
}

struct TypedJob<T, F> {
    work: F,
    runs: u32,
    result: Option<StoreResult<T>>,
    reply: oneshot::Sender<StoreResult<T>>,
}

impl<T, F> Job for TypedJob<T, F>
where
    T: Send + 'static,
    F: Fn(&mut dyn Tx) -> StoreResult<T> + Send + 'static,
{
    fn run(&mut self, tx: &mut dyn Tx) -> bool {
        // A bug in one caller's work must not take the writer (and every
        // other caller) down with it.
        let work = &self.work;
        let result =
            catch_unwind(AssertUnwindSafe(|| work(tx))).unwrap_or(Err(StoreError::Panicked));
        let ok = result.is_ok();
        self.result = Some(result);
        ok
    }

    fn fail(&mut self, error: StoreError) {
        self.result = Some(Err(error));
    }

    fn wants_another_run(&mut self) -> bool {
        self.runs += 1;
        let conflict = matches!(&self.result, Some(Err(e)) if e.is_conflict());
        if conflict && self.runs < MAX_RUNS {
            tracing::debug!(runs = self.runs, "transaction conflict; running it again");
            self.result = None;
            return true;
        }
        false
    }

    fn finish(self: Box<Self>, commit: Result<(), &str>) {
        let result = match commit {
            Ok(()) => self.result.unwrap_or(Err(StoreError::WriterGone)),
            Err(e) => Err(StoreError::CommitFailed(e.to_string())),
        };
        // The caller may have gone away (request cancelled); nothing to do then.
        let _ = self.reply.send(result);
    }
}

/// Queues `work` for a writer and waits for its result, after the commit.
pub(super) async fn submit<T, F>(jobs: &mpsc::Sender<Box<dyn Job>>, work: F) -> StoreResult<T>
where
    T: Send + 'static,
    F: Fn(&mut dyn Tx) -> StoreResult<T> + Send + 'static,
{
    let (job, answer) = job(work);
    jobs.send(job).await.map_err(|_| StoreError::WriterGone)?;
    answer.await.map_err(|_| StoreError::WriterGone)?
}

/// Like [`submit`], but a full queue is [`StoreError::Busy`] at once: the
/// caller (a webhook) answers 503 and the provider retries later, instead of
/// every request waiting in a queue that only grows.
pub(super) async fn try_submit<T, F>(jobs: &mpsc::Sender<Box<dyn Job>>, work: F) -> StoreResult<T>
where
    T: Send + 'static,
    F: Fn(&mut dyn Tx) -> StoreResult<T> + Send + 'static,
{
    let (job, answer) = job(work);
    jobs.try_send(job).map_err(|e| match e {
        mpsc::error::TrySendError::Full(_) => StoreError::Busy,
        mpsc::error::TrySendError::Closed(_) => StoreError::WriterGone,
    })?;
    answer.await.map_err(|_| StoreError::WriterGone)?
}

/// A job for `work`, and where its result will arrive.
pub(super) fn job<T, F>(work: F) -> (Box<dyn Job>, oneshot::Receiver<StoreResult<T>>)
where
    T: Send + 'static,
    F: Fn(&mut dyn Tx) -> StoreResult<T> + Send + 'static,
{
    let (reply, answer) = oneshot::channel();
    let job = TypedJob {
        work,
        runs: 0,
        result: None,
        reply,
    };
    (Box::new(job), answer)
}

/// Starts the next batch with the jobs to run `again`, or waits for a new
/// one, and takes whatever else is already queued, up to `max_batch`.
/// `false` once every sender is gone.
pub(super) fn next_batch(
    rx: &mut mpsc::Receiver<Box<dyn Job>>,
    batch: &mut Vec<Box<dyn Job>>,
    again: &mut Vec<Box<dyn Job>>,
    max_batch: usize,
) -> bool {
    if again.is_empty() {
        let Some(first) = rx.blocking_recv() else {
            return false;
        };
        batch.push(first);
    } else {
        batch.append(again);
    }
    while batch.len() < max_batch {
        match rx.try_recv() {
            Ok(job) => batch.push(job),
            Err(_) => break,
        }
    }
    true
}

/// Runs a batch of jobs in one transaction; the error is the transaction's own
/// (it could not begin or commit), not a job's.
pub(super) fn run_batch(tx: &mut dyn BatchTx, batch: &mut [Box<dyn Job>]) -> StoreResult<()> {
    if run_in_transaction(tx, batch, false)? {
        return Ok(());
    }
    run_in_transaction(tx, batch, true).map(|_| ())
}

/// Tells every job of the batch how its transaction ended, but for those that
/// go to `again`, to run in the next batch: by then the transaction they
/// conflicted with has likely ended, where running them at once would likely
/// meet it again.
pub(super) fn finish_batch(
    batch: &mut Vec<Box<dyn Job>>,
    outcome: &StoreResult<()>,
    again: &mut Vec<Box<dyn Job>>,
) {
    let commit = outcome.as_ref().map(|_| ()).map_err(|e| e.to_string());
    for mut job in batch.drain(..) {
        if commit.is_ok() && job.wants_another_run() {
            again.push(job);
        } else {
            job.finish(commit.as_ref().map(|_| ()).map_err(String::as_str));
        }
    }
}

/// `Ok(false)`: a job failed with no savepoint to undo it alone; nothing was committed.
fn run_in_transaction(
    tx: &mut dyn BatchTx,
    batch: &mut [Box<dyn Job>],
    savepoints: bool,
) -> StoreResult<bool> {
    tx.begin()?;
    let result = (|| {
        for job in batch.iter_mut() {
            if !savepoints {
                // Deferred writes go out with the next job's first statement
                // or before COMMIT; a failure there fails the batch, and the
                // re-run with savepoints pins it on the job it belongs to.
                if !job.run(tx.tx()) {
                    return Ok(false);
                }
                continue;
            }
            tx.savepoint()?;
            let ok = job.run(tx.tx()) && {
                match tx.flush() {
                    Ok(()) => true,
                    Err(e) => {
                        job.fail(e);
                        false
                    }
                }
            };
            if !ok {
                tx.rollback_to_savepoint()?;
            }
            tx.release_savepoint()?;
        }
        if !savepoints && tx.flush().is_err() {
            return Ok(false);
        }
        tx.commit()?;
        Ok(true)
    })();
    if !matches!(result, Ok(true)) {
        tx.rollback();
    }
    result
}
