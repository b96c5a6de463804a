//! SQLite's own statements: the writes PostgreSQL does its own way, deferred
//! into one statement per batch (`postgres/parts.rs`, `postgres/pending.rs`),
//! riding with the inbound insert, or under its locks (`postgres/tx.rs`).
//! SQLite's one writer runs them as they come.

use std::sync::LazyLock;

use super::Statement;

/// The writer's transaction control: a batch's transaction (taken for
/// writing at once, so no reader's lock can make it fail half-way), and a
/// job's savepoint in a batch run again job by job.
pub(crate) static BEGIN: Statement = Statement::same("begin", "BEGIN IMMEDIATE");
pub(crate) static COMMIT: Statement = Statement::same("commit", "COMMIT");
pub(crate) static SAVEPOINT: Statement = Statement::same("savepoint", "SAVEPOINT job");
pub(crate) static RELEASE_SAVEPOINT: Statement =
    Statement::same("release savepoint", "RELEASE job");
pub(crate) static ROLLBACK_TO_SAVEPOINT: Statement =
    Statement::same("rollback to savepoint", "ROLLBACK TO job");

/// Takes an inbound text once: changes no row for a repeat.
pub(crate) static ACCEPT_INBOUND: Statement = Statement::same(
    "accept inbound",
    "INSERT INTO inbound (provider, provider_id, from_phone, to_number, body, received_at)
     VALUES (:provider, :provider_id, :from_phone, :to_number, :body, :received_at)
     ON CONFLICT (provider, provider_id) DO NOTHING",
);

pub(crate) static SAVE_PLAYER: Statement = Statement::same(
    "save player",
    "UPDATE players SET nick = :nick, nick_key = :nick_key, lang = :lang, opted_out = :opted_out,
     away = :away, updated_at = :now WHERE id = :id",
);

pub(crate) static LEAVE_LOBBY: Statement = Statement::same(
    "leave lobby",
    "DELETE FROM lobby WHERE player_id = :player_id",
);

pub(crate) static INSERT_SEAT: Statement = Statement::same(
    "insert seat",
    "INSERT INTO match_seats (match_id, seat, player_id, robot_level)
     VALUES (:match_id, :seat, :player_id, :robot_level)",
);

pub(crate) static SAVE_MATCH: Statement = Statement::same(
    "save match",
    "UPDATE matches SET state = :state, rng_pos = :rng_pos, finished = :finished,
     deadline_at = :deadline_at, rematch_deadline_at = :rematch_deadline_at,
     finished_at = :finished_at, turn = :turn, void_reason = :void_reason WHERE id = :id",
);

/// A match still in play saved: the columns a move changes, and no others.
/// SQLite rewrites an index's entry when a statement sets a column of the
/// index or of its condition, changed or not: [`SAVE_MATCH`] setting
/// `finished` rewrote `matches_running`'s entry on every move. The
/// conditions are what the other columns must hold for this to be the same
/// save; when they do not (no row changed), the whole save runs.
pub(crate) static SAVE_MATCH_IN_PLAY: Statement = Statement::same(
    "save match in play",
    "UPDATE matches SET state = :state, rng_pos = :rng_pos, deadline_at = :deadline_at, turn = :turn
     WHERE id = :id AND finished = 0 AND rematch_deadline_at IS NULL AND finished_at IS NULL
       AND void_reason IS NULL",
);

pub(crate) static SAVE_SEAT: Statement = Statement::same(
    "save seat",
    "UPDATE match_seats SET missed = :missed, rematch_at = :rematch_at,
     message_sent = :message_sent, place = :place, score = :score
     WHERE match_id = :match_id AND seat = :seat",
);

/// A move, numbered after the match's last.
pub(crate) static RECORD_MOVE: Statement = Statement::same(
    "record move",
    "INSERT INTO match_moves (match_id, ply, seat, kind, move, automatic, at, state_after, rng_pos)
     VALUES (:match_id,
             (SELECT COALESCE(MAX(ply), 0) + 1 FROM match_moves WHERE match_id = :match_id),
             :seat, :kind, :move, :automatic, :at, :state_after, :rng_pos)",
);

/// The most texts one `INSERT` of [`ENQUEUE_ROWS`] takes; more go in several.
pub(crate) const MOST_ROWS: usize = 8;

/// Each text's parameters in [`ENQUEUE_ROWS`], numbered on from the last
/// text's: from, to, body, encoding, parts, and the time queued (due,
/// created and updated at once).
pub(crate) const ENQUEUE_PER_ROW: usize = 6;

/// Texts queued, 1 to [`MOST_ROWS`] at once: element `n - 1` takes `n`.
///
/// `OR FAIL`, not the default `ABORT`: a statement that writes several rows
/// and may abort half-way makes SQLite copy every page it touches into a
/// statement journal first, to undo its own rows alone. No row here can
/// break a constraint, and if one did, the job would fail and be undone
/// whole (its savepoint), rows and all. With no function in the outbox's
/// index conditions either (`outbox_by_ref`), nothing opens that journal.
pub(crate) static ENQUEUE_ROWS: LazyLock<Vec<Statement>> = LazyLock::new(|| {
    (1..=MOST_ROWS)
        .map(|n| {
            let rows: Vec<String> = (0..n)
                .map(|r| {
                    let [from, to, body, encoding, parts, at] =
                        std::array::from_fn(|k| format!("?{}", r * ENQUEUE_PER_ROW + k + 1));
                    format!("({from}, {to}, {body}, {encoding}, {parts}, {at}, {at}, {at})")
                })
                .collect();
            Statement::made(
                "enqueue rows",
                format!(
                    "INSERT OR FAIL INTO outbox (from_number, to_phone, body, encoding, parts,
                     next_attempt_at, created_at, updated_at) VALUES {}",
                    rows.join(", ")
                ),
            )
        })
        .collect()
});

/// A send recorded. A delivery report may have overtaken it (it stays); a
/// text a STOP cancelled while it was on its way did leave, so it is 'sent'.
pub(crate) static MARK_SENT: Statement = Statement::same(
    "mark sent",
    "UPDATE outbox SET status = CASE WHEN status IN ('delivered', 'failed') THEN status ELSE 'sent' END,
     attempts = :attempts, provider_ref = COALESCE(:provider_ref, provider_ref), lease_until = NULL,
     last_error = NULL, updated_at = :at WHERE id = :id",
);
