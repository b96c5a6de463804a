//! Texts the SQLite writer holds back until its next statement, so that the
//! texts a command queues together (a board to each of four phones) go into
//! the outbox in one `INSERT`.
//!
//! A statement costs SQLite a fixed part whatever its rows (the program's
//! start and end, the table and each of its indexes opened), which each of
//! a move's 2.4 texts paid before: one `INSERT` for them saves 4,700
//! instructions per inbound message (`BENCHMARKS.md`, issue 30).
//!
//! The held texts are inserted before any other statement of the writer
//! runs ([`Prepared::with_prepared`]) and at the batch runner's flush (before
//! a job's savepoint is released, and before COMMIT), so nothing the
//! transaction reads or writes ever sees the outbox without them, and the
//! dispatcher hears of them in the order they were queued. A job undone
//! drops its held texts with its other writes.
//!
//! Their ids are SQLite's: the one writer gives the rows of one `INSERT` one
//! rowid after another, in `VALUES` order (the largest rowid plus one, each),
//! so the last rowid gives them all. `RETURNING` would cost a temporary table.
//!
//! [`Prepared::with_prepared`]: super::exec::Prepare::with_prepared

use chrono::{DateTime, Utc};

use super::exec::Prepared;
use crate::store::model::{NewText, OutboxEvent, OutboxText, TextStatus};
use crate::store::rows::millis;
use crate::store::statements::sqlite::{ENQUEUE_PER_ROW, ENQUEUE_ROWS, MOST_ROWS};
use crate::store::{StoreError, StoreResult};

/// A text queued and not yet inserted: as the dispatcher will hear of it
/// (its id still to come), and when it was queued.
pub(super) struct HeldText {
    text: OutboxText,
    at: i64,
}

impl Prepared<'_> {
    /// Queues `t`: inserted with the writer's next statement or flush.
    pub(super) fn hold(&mut self, t: NewText, now: DateTime<Utc>) {
        self.held.push(HeldText {
            text: OutboxText {
                id: 0,
                from: t.from,
                to: t.to,
                body: t.body,
                encoding: t.encoding.to_string(),
                parts: t.parts,
                attempts: 0,
                status: TextStatus::Queued,
                provider_ref: None,
                last_error: None,
            },
            at: millis(now),
        });
    }

    /// Inserts the held texts, oldest first, and tells the dispatcher of
    /// each with its id. On an error none is told of, and the caller's job
    /// fails (its transaction or savepoint is undone).
    pub(super) fn insert_held(&mut self) -> StoreResult<()> {
        if self.held.is_empty() {
            return Ok(());
        }
        let mut held = std::mem::take(&mut self.held);
        for chunk in held.chunks_mut(MOST_ROWS) {
            let statement = &ENQUEUE_ROWS[chunk.len() - 1];
            let inserted = self.run_prepared(statement, |stmt| {
                for (r, h) in chunk.iter().enumerate() {
                    let at = r * ENQUEUE_PER_ROW;
                    stmt.raw_bind_parameter(at + 1, h.text.from.as_str())?;
                    stmt.raw_bind_parameter(at + 2, h.text.to.as_str())?;
                    stmt.raw_bind_parameter(at + 3, h.text.body.as_str())?;
                    stmt.raw_bind_parameter(at + 4, h.text.encoding.as_str())?;
                    stmt.raw_bind_parameter(at + 5, i64::from(h.text.parts))?;
                    stmt.raw_bind_parameter(at + 6, h.at)?;
                }
                Ok(stmt.raw_execute()?)
            })?;
            if inserted != chunk.len() {
                return Err(StoreError::Corrupt(format!(
                    "queuing {} texts inserted {inserted} rows",
                    chunk.len()
                )));
            }
            let last = self.conn.last_insert_rowid();
            let first = last - chunk.len() as i64 + 1;
            for (id, h) in (first..).zip(chunk.iter_mut()) {
                h.text.id = id;
            }
        }
        self.events
            .extend(held.into_iter().map(|h| OutboxEvent::Queued(h.text)));
        Ok(())
    }
}
