//! Group commit: many callers' closures run one after another in one
//! transaction on one connection, and every caller hears back after the
//! shared COMMIT. Both backends' writers run their batches through here.
//!
//! A batch first runs without savepoints: on SQLite a savepoint makes it copy
//! every page a job is about to change into a statement journal (the largest
//! single cost of its writer in a profile), on PostgreSQL it is a round trip
//! per job, and jobs almost never fail. When one does, the whole transaction
//! is rolled back and the batch runs again with a savepoint per job, so that
//! only the failed job's writes are undone; a job that failed by a conflict
//! with another transaction is instead taken out to run again later, and the
//! rest run again without it ([`run_batch`]). Jobs may therefore run twice,
//! which [`super::Store::run`] asks every closure to allow.

use std::panic::{AssertUnwindSafe, catch_unwind};

use tokio::sync::{mpsc, oneshot};

use super::{StoreError, StoreResult, Tx};

/// A backend's connection as the batch runner drives it.
pub(super) trait BatchTx {
    /// The connection as the platform sees it.
    fn tx(&mut self) -> &mut dyn Tx;
    /// Begins the batch's transaction. How long its jobs may wait for a lock
    /// another transaction holds is the connection's setting (PostgreSQL's
    /// writer: its `lock_timeout`); SQLite's one writer never meets one.
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

/// Whether a batch's jobs are new or ran before into a conflict: how long
/// they may wait for a row or lock another instance's transaction holds is
/// the connection's setting (PostgreSQL's writer: a short `lock_timeout`;
/// its pooled sessions: none), and a new job that meets a conflict is taken
/// out of its batch.
///
/// A batch keeps every lock its jobs took until its COMMIT. A job that waits
/// while its batch holds locks can close a cycle with another instance's
/// batch waiting for those (the four players of a match reach different
/// instances), and then both wait out their timeout. So new work waits only
/// [`Patience::Brief`]ly: on a conflict it is undone and runs again where it
/// holds nothing of anyone else's work and may wait [`Patience::Long`]: in a
/// batch of retries (SQLite, which never meets one), or in a transaction of
/// its own beside the writer ([`run_alone`], PostgreSQL), so that its wait
/// stalls no caller behind it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Patience {
    /// New callers: give up on a held lock soon (PostgreSQL: after the
    /// writer's `lock_timeout`, about as long as a batch takes).
    Brief,
    /// Callers that met a conflict: wait for the holder's COMMIT.
    Long,
}

/// Conflicted jobs taken out of one batch before the rest runs with
/// savepoints instead: each taking out costs a run of the jobs before it.
const MAX_TAKEN_OUT: usize = 8;

/// Batches a caller's work may run in: the first and those after conflicts.
pub(super) const MAX_RUNS: u32 = 5;

/// A caller's work, type-erased so one queue carries every result type.
pub(super) trait Job: Send {
    /// Runs the work (again, if the batch is re-run); `false` when it failed
    /// and its writes must roll back.
    fn run(&mut self, tx: &mut dyn Tx) -> bool;
    /// Replaces the result with the error that befell the job after its work ran.
    fn fail(&mut self, error: StoreError);
    /// Whether its last run failed by a conflict with another transaction.
    fn conflicted(&self) -> bool;
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

    fn conflicted(&self) -> bool {
        matches!(&self.result, Some(Err(e)) if e.is_conflict())
    }

    fn wants_another_run(&mut self) -> bool {
        self.runs += 1;
        if self.conflicted() && self.runs < MAX_RUNS {
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

/// The next batch: the jobs to run `again`, alone and patient (see
/// [`Patience`]); else a new job, waited for, and whatever else is already
/// queued, up to `max_batch`. `None` once every sender is gone.
pub(super) fn next_batch(
    rx: &mut mpsc::Receiver<Box<dyn Job>>,
    batch: &mut Vec<Box<dyn Job>>,
    again: &mut Vec<Box<dyn Job>>,
    max_batch: usize,
) -> Option<Patience> {
    if !again.is_empty() {
        batch.append(again);
        return Some(Patience::Long);
    }
    batch.push(rx.blocking_recv()?);
    while batch.len() < max_batch {
        match rx.try_recv() {
            Ok(job) => batch.push(job),
            Err(_) => break,
        }
    }
    Some(Patience::Brief)
}

/// Runs a batch of jobs in one transaction; the error is the transaction's own
/// (it could not begin or commit), not a job's.
///
/// A new job that met a conflict ([`Patience::Brief`]) is taken out of the
/// batch, and the others run again without it and without savepoints: they
/// will run fine, and the conflicted one will run again later anyway
/// ([`finish_batch`]). It goes back into `batch` once the rest has committed.
pub(super) fn run_batch(
    tx: &mut dyn BatchTx,
    batch: &mut Vec<Box<dyn Job>>,
    patience: Patience,
) -> StoreResult<()> {
    let mut conflicted = Vec::new();
    let outcome = loop {
        match run_in_transaction(tx, batch, false) {
            Ok(Run::Committed) => break Ok(()),
            Ok(Run::JobFailed(i))
                if patience == Patience::Brief
                    && conflicted.len() < MAX_TAKEN_OUT
                    && batch[i].conflicted() =>
            {
                tracing::debug!(
                    jobs = batch.len(),
                    "a caller met a conflict: taken out of its batch"
                );
                conflicted.push(batch.remove(i));
            }
            Ok(_) => break run_in_transaction(tx, batch, true).map(|_| ()),
            Err(e) => break Err(e),
        }
    };
    batch.append(&mut conflicted);
    outcome
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

/// Runs one job in transactions of its own, patient, until it is done (or
/// out of runs), and tells it how it ended: PostgreSQL's retries after a
/// conflict run this way beside the writer, so that their waits for another
/// instance's locks hold up no other caller. The last transaction's outcome.
pub(super) fn run_alone(tx: &mut dyn BatchTx, job: Box<dyn Job>) -> StoreResult<()> {
    let mut batch = vec![job];
    let mut again = Vec::new();
    loop {
        let outcome = run_batch(tx, &mut batch, Patience::Long);
        finish_batch(&mut batch, &outcome, &mut again);
        if again.is_empty() {
            return outcome;
        }
        std::mem::swap(&mut batch, &mut again);
    }
}

/// How a run of a batch ended, short of a failure of the transaction itself.
enum Run {
    Committed,
    /// This job failed with no savepoint to undo it alone: nothing was committed.
    JobFailed(usize),
    /// The last deferred writes failed, whoever's they were: nothing was committed.
    FlushFailed,
}

fn run_in_transaction(
    tx: &mut dyn BatchTx,
    batch: &mut [Box<dyn Job>],
    savepoints: bool,
) -> StoreResult<Run> {
    tx.begin()?;
    let result = (|| {
        for (i, job) in batch.iter_mut().enumerate() {
            if !savepoints {
                // Deferred writes go out with the next job's first statement
                // or before COMMIT; a failure there fails the batch, and the
                // re-run with savepoints pins it on the job it belongs to.
                if !job.run(tx.tx()) {
                    return Ok(Run::JobFailed(i));
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
            return Ok(Run::FlushFailed);
        }
        tx.commit()?;
        Ok(Run::Committed)
    })();
    if !matches!(result, Ok(Run::Committed)) {
        tx.rollback();
    }
    result
}
