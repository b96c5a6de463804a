//! The SQLite store's own tests: the writer's batches, its copies and migrations, beside what `tests/service/store.rs` checks on both backends.

use chrono::Utc;

use super::*;
use crate::store::model::NewText;

fn text(to: &str) -> NewText {
    NewText {
        from: "1".into(),
        to: to.into(),
        body: "hi".into(),
        encoding: "gsm7",
        parts: 1,
    }
}

/// A migrated database in `dir`, for a writer's transaction to run on.
fn migrated(dir: &tempfile::TempDir) -> Connection {
    let mut conn = Connection::open(dir.path().join("t.db")).unwrap();
    migrations().to_latest(&mut conn).unwrap();
    conn
}

/// Whom the texts in the outbox are to, oldest first.
fn queued_to(tx: &mut SqliteTx<'_>) -> Vec<String> {
    let texts = tx.outbox().pending().unwrap();
    texts.into_iter().map(|(t, _)| t.to).collect()
}

/// A job that queues a text to `to`, then ends as `outcome` says.
fn queuing_job(to: &'static str, outcome: &'static str) -> Box<dyn Job> {
    let (job, _answer) = group_commit::job(move |tx| {
        tx.outbox().enqueue(text(to), Utc::now())?;
        match outcome {
            "fail" => Err(StoreError::Corrupt("refused".into())),
            "panic" => panic!("a bug in one job"),
            _ => Ok(()),
        }
    });
    job
}

/// A second store on a file that has one is refused (after waiting
/// `LOCK_WAIT` for the first to stop); once the first is dropped, its
/// writer lets the file go.
#[test]
fn a_file_has_one_writer_at_a_time() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("one.db");
    let path = path.to_str().unwrap();
    let first = SqliteStore::open(path, 8, 8).unwrap();
    let second = SqliteStore::open(path, 8, 8).err().expect("refused");
    assert!(matches!(second, StoreError::InUse { .. }), "{second:?}");
    drop(first);
    SqliteStore::open(path, 8, 8).expect("free once the first store is gone");
}

/// The dispatcher hears only of what committed: a failed or panicking
/// job's texts leave the batch's events with its writes. (That the
/// writes themselves are undone, on either database: tests/service/store.rs.)
#[test]
fn a_batch_reports_only_the_texts_of_jobs_that_committed() {
    let dir = tempfile::tempdir().unwrap();
    let conn = migrated(&dir);
    let mut tx = SqliteTx::new(&conn);
    let mut batch = vec![
        queuing_job("+1", "ok"),
        queuing_job("+2", "fail"),
        queuing_job("+3", "ok"),
        queuing_job("+4", "panic"),
        queuing_job("+5", "ok"),
    ];
    group_commit::run_batch(&mut tx, &mut batch, group_commit::Patience::Brief).unwrap();
    let heard: Vec<String> = tx
        .db
        .events
        .iter()
        .map(|e| match e {
            OutboxEvent::Queued(t) => t.to.clone(),
            OutboxEvent::Cancelled(phone) => format!("cancelled {phone}"),
            OutboxEvent::Requeued(t) => format!("requeued {}", t.to),
        })
        .collect();
    assert_eq!(heard, ["+1", "+3", "+5"]);
    assert_eq!(queued_to(&mut tx), heard);
}

/// Texts held back go into the outbox together, but in the order they
/// were queued, each told to the dispatcher under its own row's id, and
/// a read between them sees those queued before it: here more than
/// one `INSERT` takes (`held.rs`).
#[test]
fn held_texts_keep_their_order_and_their_ids() {
    use crate::store::group_commit::BatchTx;
    let dir = tempfile::tempdir().unwrap();
    let conn = migrated(&dir);
    let mut tx = SqliteTx::new(&conn);
    let phones: Vec<String> = (0..19).map(|i| format!("+{}", 100 + i)).collect();
    tx.begin().unwrap();
    for phone in &phones[..10] {
        tx.outbox().enqueue(text(phone), Utc::now()).unwrap();
    }
    assert_eq!(queued_to(&mut tx), phones[..10]);
    for phone in &phones[10..] {
        tx.outbox().enqueue(text(phone), Utc::now()).unwrap();
    }
    tx.flush().unwrap();
    tx.commit().unwrap();
    let told: Vec<(i64, String)> = tx
        .db
        .events
        .iter()
        .map(|e| match e {
            OutboxEvent::Queued(t) => (t.id, t.to.clone()),
            other => panic!("{other:?}"),
        })
        .collect();
    let stored: Vec<(i64, String)> = tx
        .outbox()
        .pending()
        .unwrap()
        .into_iter()
        .map(|(t, _)| (t.id, t.to))
        .collect();
    assert_eq!(told, stored);
    let order: Vec<&String> = stored.iter().map(|(_, to)| to).collect();
    assert_eq!(order, phones.iter().collect::<Vec<_>>());
}

/// SQLite's plan for `statement`, a step a line, every parameter 0.
fn plan(conn: &Connection, statement: &crate::store::statements::Statement) -> Vec<String> {
    let mut plan = conn
        .prepare(&format!("EXPLAIN QUERY PLAN {}", statement.sqlite()))
        .unwrap();
    for i in 1..=plan.parameter_count() {
        plan.raw_bind_parameter(i, 0).unwrap();
    }
    let mut rows = plan.raw_query();
    let mut steps = Vec::new();
    while let Some(row) = rows.next().unwrap() {
        steps.push(row.get::<_, String>(3).unwrap());
    }
    steps
}

/// The statements about running matches use SQLite's partial indexes
/// (on `finished = 0`): written as PostgreSQL writes them (`NOT
/// finished`) they scan every match ever played.
#[test]
fn running_matches_are_found_by_their_partial_indexes() {
    use crate::store::statements::{console, writes};
    let dir = tempfile::tempdir().unwrap();
    let conn = migrated(&dir);
    for statement in [&writes::DUE_TURNS, &writes::NEXT_TIMER, &*console::RUNNING] {
        let steps = plan(&conn, statement);
        assert!(
            steps.iter().any(|s| s.contains("INDEX matches_")),
            "{}: {steps:?}",
            statement.name
        );
    }
}

/// A provider's reference is found through `outbox_by_ref`, whose
/// condition leaves our own references out (the statements must repeat
/// it, or SQLite scans the outbox); one of ours by the text's id.
#[test]
fn references_are_found_by_their_index_or_by_the_id() {
    use crate::store::statements::outbox;
    let dir = tempfile::tempdir().unwrap();
    let conn = migrated(&dir);
    let (index, key) = ("INDEX outbox_by_ref", "INTEGER PRIMARY KEY");
    for (statement, found_by) in [
        (&outbox::TEXT_BY_REFERENCE, index),
        (&*outbox::ANSWERED, index),
        (&outbox::TEXT_BY_OWN_REFERENCE, key),
        (&*outbox::ANSWERED_OWN, key),
    ] {
        let steps = plan(&conn, statement);
        assert!(
            steps.iter().any(|s| s.contains(found_by)),
            "{}: {steps:?}",
            statement.name
        );
    }
}

/// What PostgreSQL says when it chose this transaction to end a deadlock.
#[derive(Debug)]
struct Deadlock;

impl std::fmt::Display for Deadlock {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("deadlock detected")
    }
}

impl std::error::Error for Deadlock {}

impl sqlx::error::DatabaseError for Deadlock {
    fn message(&self) -> &str {
        "deadlock detected"
    }
    fn code(&self) -> Option<std::borrow::Cow<'_, str>> {
        Some("40P01".into())
    }
    fn as_error(&self) -> &(dyn std::error::Error + Send + Sync + 'static) {
        self
    }
    fn as_error_mut(&mut self) -> &mut (dyn std::error::Error + Send + Sync + 'static) {
        self
    }
    fn into_error(self: Box<Self>) -> Box<dyn std::error::Error + Send + Sync + 'static> {
        self
    }
    fn kind(&self) -> sqlx::error::ErrorKind {
        sqlx::error::ErrorKind::Other
    }
}

/// A caller that lost a deadlock is taken out of its batch (its writes
/// undone, the others committed without it) and run again in the next,
/// and one that keeps losing gets the error after `MAX_RUNS` batches.
/// The runner is the same for both databases; SQLite's connection stands
/// in for PostgreSQL's here.
#[test]
fn a_caller_that_lost_a_deadlock_runs_again_in_the_next_batch() {
    use std::sync::atomic::{AtomicU32, Ordering};
    let dir = tempfile::tempdir().unwrap();
    let conn = migrated(&dir);
    let mut tx = SqliteTx::new(&conn);
    let deadlock = || StoreError::Postgres(sqlx::Error::Database(Box::new(Deadlock)));
    let unlucky_runs = Arc::new(AtomicU32::new(0));
    let runs = unlucky_runs.clone();
    let (unlucky, mut unlucky_answer) = group_commit::job(move |tx| {
        tx.outbox().enqueue(text("+1"), Utc::now())?;
        // Lost in its first batch (taken out, the others committed
        // without it) and in its second.
        match runs.fetch_add(1, Ordering::SeqCst) {
            0 | 1 => Err(deadlock()),
            n => Ok(n),
        }
    });
    let (doomed, mut doomed_answer) = group_commit::job(move |tx| {
        tx.outbox().enqueue(text("+2"), Utc::now())?;
        Err::<(), _>(deadlock())
    });
    let (lucky, mut lucky_answer) =
        group_commit::job(|tx| tx.outbox().enqueue(text("+3"), Utc::now()));

    let mut batch = vec![unlucky, doomed, lucky];
    let mut again = Vec::new();
    let outcome = group_commit::run_batch(&mut tx, &mut batch, group_commit::Patience::Brief);
    group_commit::finish_batch(&mut batch, &outcome, &mut again);
    assert!(matches!(lucky_answer.try_recv(), Ok(Ok(()))));
    assert!(
        unlucky_answer.try_recv().is_err(),
        "no answer yet: it runs again"
    );
    assert_eq!(again.len(), 2);

    let mut batches = 1;
    while !again.is_empty() {
        batch.append(&mut again);
        let outcome = group_commit::run_batch(&mut tx, &mut batch, group_commit::Patience::Brief);
        group_commit::finish_batch(&mut batch, &outcome, &mut again);
        batches += 1;
    }
    assert_eq!(
        batches,
        group_commit::MAX_RUNS,
        "the doomed one ran in MAX_RUNS batches"
    );
    // The unlucky caller's first batch was undone, its second committed.
    assert!(matches!(unlucky_answer.try_recv(), Ok(Ok(n)) if n >= 2));
    assert!(matches!(doomed_answer.try_recv(), Ok(Err(e)) if e.is_conflict()));
    assert_eq!(queued_to(&mut tx), ["+3", "+1"]);
}

/// A match of `player_id` against a robot.
fn match_for(player_id: i64) -> crate::store::model::NewMatch {
    use crate::store::model::{NewMatch, NewSeat};
    NewMatch {
        game: "football".into(),
        options: String::new(),
        state: "state".into(),
        seed: 1,
        rng_pos: 0,
        deadline_at: None,
        rematch_of: None,
        seats: vec![NewSeat::Player(player_id), NewSeat::Robot(2)],
    }
}

/// A writer's transaction on `conn`, where player `+1` has been made
/// and a match of his against a robot: committed, nothing read yet.
fn a_player_in_a_match(conn: &Connection) -> (SqliteTx<'_>, crate::store::model::Player, i64) {
    use crate::store::group_commit::BatchTx;
    let mut tx = SqliteTx::new(conn);
    let now = Utc::now();
    tx.begin().unwrap();
    let player = tx.players().create("+1", now).unwrap();
    let id = tx.matches().insert(&match_for(player.id), now).unwrap();
    tx.commit().unwrap();
    (tx, player, id)
}

/// The writer keeps a match's seats and its players between moves
/// (`copies.rs`); what it gives is what a read gives, after a seat or a
/// player is saved and after a job's or a whole transaction's writes
/// are undone.
#[test]
fn kept_seats_and_players_are_what_a_read_gives_after_every_write_and_undo() {
    use crate::store::group_commit::BatchTx;
    use crate::store::lookups;
    let dir = tempfile::tempdir().unwrap();
    let conn = migrated(&dir);
    let (mut tx, mut player, id) = a_player_in_a_match(&conn);
    let now = Utc::now();
    // Seat 0's misses, as the writer gives them, checked against a read.
    let missed = |tx: &mut SqliteTx<'_>| {
        let kept = tx.matches().seats(id).unwrap();
        assert_eq!(kept, lookups::seats(tx, id).unwrap());
        kept[0].missed
    };
    let save_missed = |tx: &mut SqliteTx<'_>, n: u32| {
        let mut seat = tx.matches().seats(id).unwrap().remove(0);
        seat.missed = n;
        tx.matches().save_seat(id, &seat).unwrap();
    };

    tx.begin().unwrap();
    // The match is found as the player's (in play, so kept), then its seats.
    assert_eq!(tx.matches().last_of(player.id).unwrap().unwrap().id, id);
    assert_eq!(missed(&mut tx), 0);
    assert!(tx.copies.seats(id).is_some(), "kept");
    save_missed(&mut tx, 2);
    assert_eq!(missed(&mut tx), 2);
    // The player's nick, as the writer gives it by his phone and in his
    // seat, checked against reads.
    let nick = |tx: &mut SqliteTx<'_>| {
        let kept = tx.players().by_phone("+1").unwrap();
        assert_eq!(kept, lookups::player_by_phone(tx, "+1").unwrap());
        let seats = tx.matches().seats(id).unwrap();
        assert_eq!(seats, lookups::seats(tx, id).unwrap());
        assert_eq!(seats[0].player(), kept.as_ref());
        kept.unwrap().nick
    };
    assert_eq!(nick(&mut tx), None);
    player.nick = Some("Ann".into());
    tx.players().save(&player, now).unwrap();
    assert_eq!(nick(&mut tx).as_deref(), Some("Ann"));

    tx.savepoint().unwrap();
    save_missed(&mut tx, 5);
    assert_eq!(missed(&mut tx), 5, "read, and kept, inside the job");
    tx.rollback_to_savepoint().unwrap();
    tx.release_savepoint().unwrap();
    assert_eq!(missed(&mut tx), 2, "the job's write undone");
    tx.commit().unwrap();

    tx.begin().unwrap();
    save_missed(&mut tx, 7);
    assert_eq!(missed(&mut tx), 7);
    player.nick = Some("Bob".into());
    tx.players().save(&player, now).unwrap();
    assert_eq!(nick(&mut tx).as_deref(), Some("Bob"));
    tx.rollback();
    tx.begin().unwrap();
    assert_eq!(missed(&mut tx), 2, "the transaction undone");
    assert_eq!(nick(&mut tx).as_deref(), Some("Ann"));
    tx.commit().unwrap();
}

/// The writer keeps a player's newest match between moves (`copies.rs`),
/// and copies each save of it: what it gives is what a read gives, after
/// a move's save and a finishing one (times kept to the millisecond, as
/// stored), after a new match is made for him and after an undo.
#[test]
fn the_kept_newest_match_is_what_a_read_gives_after_every_save_and_undo() {
    use crate::store::group_commit::BatchTx;
    use crate::store::lookups;
    let dir = tempfile::tempdir().unwrap();
    let conn = migrated(&dir);
    let (mut tx, player, first) = a_player_in_a_match(&conn);
    let player = player.id;
    let now = Utc::now();
    let newest = |tx: &mut SqliteTx<'_>| {
        let kept = tx.matches().last_of(player).unwrap().unwrap();
        assert_eq!(
            Some(&kept),
            lookups::last_match_of(tx, player).unwrap().as_ref()
        );
        kept
    };
    // What `active_of` gives, checked against a fresh read.
    let active = |tx: &mut SqliteTx<'_>| {
        let kept = tx.matches().active_of(player).unwrap().map(|m| m.id);
        let read = lookups::last_match_of(tx, player).unwrap();
        assert_eq!(kept, read.filter(|m| !m.finished).map(|m| m.id));
        kept
    };
    let saved = |tx: &mut SqliteTx<'_>, state: &str, finished: bool| {
        let mut record = newest(tx);
        record.state = state.into();
        record.turn += 1;
        record.rng_pos += 7;
        record.deadline_at = Some(now + chrono::Duration::nanoseconds(1_234_567));
        record.finished = finished;
        record.finished_at = finished.then_some(now);
        tx.matches().save(&record).unwrap();
    };

    tx.begin().unwrap();
    assert_eq!(newest(&mut tx).id, first);
    saved(&mut tx, "moved", false);
    assert_eq!(newest(&mut tx).state, "moved");
    tx.savepoint().unwrap();
    saved(&mut tx, "undone", false);
    assert_eq!(newest(&mut tx).state, "undone");
    tx.rollback_to_savepoint().unwrap();
    tx.release_savepoint().unwrap();
    assert_eq!(newest(&mut tx).state, "moved", "the job's save undone");
    assert!(tx.copies.newest_match(player).is_some(), "kept in play");
    assert_eq!(active(&mut tx), Some(first));
    saved(&mut tx, "over", true);
    assert!(
        tx.copies.plays_none(player),
        "over, told by the save of the match he found as his newest"
    );
    assert_eq!(active(&mut tx), None);
    assert!(newest(&mut tx).finished);
    assert!(
        tx.copies.newest_match(player).is_none(),
        "not kept finished"
    );
    tx.copies.forget_all();
    assert_eq!(active(&mut tx), None);
    assert!(tx.copies.plays_none(player), "over, as a read found it");
    let second = tx.matches().insert(&match_for(player), now).unwrap();
    assert!(!tx.copies.plays_none(player), "a new match forgets it");
    assert_eq!(active(&mut tx), Some(second));
    assert_eq!(newest(&mut tx).id, second);
    tx.commit().unwrap();

    tx.begin().unwrap();
    saved(&mut tx, "never", false);
    tx.rollback();
    tx.begin().unwrap();
    let record = newest(&mut tx);
    assert_eq!((record.id, record.state.as_str()), (second, "state"));
    tx.commit().unwrap();
}
