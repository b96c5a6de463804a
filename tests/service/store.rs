//! The store's contract, on SQLite or (with `TEST_DATABASE_URL`) PostgreSQL.
//! Every method of [`Tx`]'s concerns and of [`Read`] is exercised here on
//! both backends (the tidy test checks that none is missed): what one
//! caller's closure writes it reads back, a failing caller undoes only its
//! own writes though it shares a transaction with others, inbound messages
//! are taken once, claims hand out one text per phone, the read side sees
//! what committed, and a corrupt row is an error that names it.

use crate::common;

use chrono::{Duration, Utc};
use smsarena::inbound::InboundMessage;
use smsarena::store::{
    Arrival, Fragment, Holder, MoveKind, NewMatch, NewMove, NewSeat, NewText, PartArrival, Pool,
    Queue, RobotTurn, SentText, Store, StoreError, TextStatus, Tx,
};

async fn open() -> (tempfile::TempDir, Store, String) {
    let dir = tempfile::tempdir().unwrap();
    let url = common::fresh_database(dir.path()).await;
    let store = Store::open(&url, 64).await.expect("open the store");
    (dir, store, url)
}

fn text(to: &str, body: &str) -> NewText {
    NewText {
        from: "002220".into(),
        to: to.into(),
        body: body.into(),
        encoding: "gsm7",
        parts: 1,
    }
}

fn inbound(id: &str, from: &str, body: &str) -> InboundMessage {
    InboundMessage {
        provider: "generic",
        provider_id: id.into(),
        from: from.into(),
        to: "001110".into(),
        text: body.into(),
        received_at: Utc::now(),
    }
}

fn new_match(players: Vec<i64>) -> NewMatch {
    NewMatch {
        game: "fb".into(),
        options: String::new(),
        state: "start".into(),
        seed: 7,
        rng_pos: 0,
        deadline_at: None,
        rematch_of: None,
        seats: players.into_iter().map(NewSeat::Player).collect(),
    }
}

fn a_move<'a>(seat: usize, notation: &'a str, state_after: &'a str) -> NewMove<'a> {
    NewMove {
        seat,
        kind: MoveKind::Move,
        notation,
        automatic: false,
        state_after,
        rng_pos: 0,
    }
}

/// Runs every future on its own task, so that they reach the writer together.
async fn run_all_spawned<F>(futures: impl Iterator<Item = F>) -> Vec<F::Output>
where
    F: std::future::Future + Send + 'static,
    F::Output: Send + 'static,
{
    let handles: Vec<_> = futures.map(tokio::spawn).collect();
    let mut out = Vec::new();
    for h in handles {
        out.push(h.await.unwrap());
    }
    out
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_transaction_reads_back_what_it_wrote() {
    let (_dir, store, _) = open().await;
    let now = Utc::now();
    let id = store
        .run(move |tx| {
            let mut alice = tx.players().create("+7001", now)?;
            let bob = tx.players().create("+7002", now)?;
            alice.nick = Some("Alice".into());
            tx.players().save(&alice, now)?;
            assert_eq!(tx.players().by_nick("alice")?.map(|p| p.id), Some(alice.id));
            alice.away = true;
            tx.players().save(&alice, now)?;
            assert!(
                tx.players().by_phone("+7001")?.unwrap().away,
                "the last write wins"
            );

            let id = tx
                .matches()
                .insert(&new_match(vec![alice.id, bob.id]), now)?;
            let mut record = tx.matches().by_id(id)?.unwrap();
            assert_eq!(record.initial_state, "start");
            for (i, state) in ["one", "two", "three"].into_iter().enumerate() {
                record.state = state.into();
                record.rng_pos = u128::MAX - i as u128;
                record.turn = i as u32;
                let notation = format!("m{i}");
                let kind = [MoveKind::Move, MoveKind::Null, MoveKind::Withdrawal][i];
                let mv = NewMove {
                    kind,
                    rng_pos: record.rng_pos,
                    ..a_move(i % 2, &notation, state)
                };
                tx.matches().record_move(id, &mv, now)?;
                tx.matches().save(&record)?;
            }
            let saved = tx.matches().by_id(id)?.unwrap();
            assert_eq!(
                (saved.state.as_str(), saved.rng_pos, saved.turn),
                ("three", u128::MAX - 2, 2)
            );
            let plies: Vec<(u32, String, MoveKind, Option<u128>)> = tx
                .matches()
                .moves(id)?
                .into_iter()
                .map(|m| (m.ply, m.notation, m.kind, m.rng_pos))
                .collect();
            assert_eq!(
                plies,
                vec![
                    (1, "m0".into(), MoveKind::Move, Some(u128::MAX)),
                    (2, "m1".into(), MoveKind::Null, Some(u128::MAX - 1)),
                    (3, "m2".into(), MoveKind::Withdrawal, Some(u128::MAX - 2)),
                ]
            );
            let mut seats = tx.matches().seats(id)?;
            assert_eq!(seats.len(), 2);
            assert!(
                seats[0].player().unwrap().away,
                "a seat shows its player as saved"
            );
            seats[1].missed = 1;
            tx.matches().save_seat(id, &seats[1])?;
            seats[1].missed = 2;
            seats[1].rematch_at = Some(now);
            seats[1].place = Some(1);
            seats[1].score = Some(-7);
            tx.matches().save_seat(id, &seats[1])?;
            let again = &tx.matches().seats(id)?[1];
            assert_eq!((again.missed, again.rematch_at.is_some()), (2, true));
            assert_eq!((again.place, again.score), (Some(1), Some(-7)));
            assert_eq!(tx.matches().active_of(bob.id)?.map(|m| m.id), Some(id));
            assert_eq!(tx.matches().last_of(bob.id)?.map(|m| m.id), Some(id));

            for body in ["a", "b", "c"] {
                tx.outbox().enqueue(text("+7001", body), now)?;
            }
            let pending: Vec<String> = tx
                .outbox()
                .pending()?
                .into_iter()
                .map(|(t, _)| t.body)
                .collect();
            assert_eq!(pending, ["a", "b", "c"]);
            Ok(id)
        })
        .await
        .unwrap();
    // and all of it committed, as the read side sees
    let (bodies, moves, seats, record) = store
        .read(move |r| {
            let bodies: Vec<String> = r.texts_to("+7001")?.into_iter().map(|t| t.body).collect();
            Ok((bodies, r.moves(id)?, r.seats(id)?, r.match_by_id(id)?))
        })
        .await
        .unwrap();
    assert_eq!(bodies, ["a", "b", "c"]);
    assert_eq!(moves.len(), 3);
    assert_eq!(seats[1].missed, 2);
    assert_eq!(record.unwrap().rng_pos, u128::MAX - 2);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_read_side_sees_what_committed_and_nothing_else() {
    let (_dir, store, _) = open().await;
    let now = Utc::now();
    let (bob, id) = store
        .run(move |tx| {
            let bob = tx.players().create("+7101", now)?;
            let id = tx.matches().insert(&new_match(vec![bob.id]), now)?;
            Ok((bob.id, id))
        })
        .await
        .unwrap();
    let seen = store
        .read(move |r| {
            Ok((
                r.player_by_phone("+7101")?.map(|p| p.id),
                r.active_match_of(bob)?.map(|m| m.id),
                r.last_match_of(bob)?.map(|m| m.id),
                r.count_rows("matches")? + r.void_matches()?,
                r.player_by_phone("+7102")?,
            ))
        })
        .await
        .unwrap();
    assert_eq!(seen, (Some(bob), Some(id), Some(id), 1, None));
    // A failed transaction leaves nothing to read.
    let failed: Result<(), _> = store
        .run(|tx| {
            tx.players().create("+7102", Utc::now())?;
            Err(StoreError::Corrupt("refused".into()))
        })
        .await;
    assert!(failed.is_err());
    let gone = store.read(|r| r.player_by_phone("+7102")).await.unwrap();
    assert_eq!(gone, None);
    let unknown = store.read(|r| r.count_rows("secrets")).await;
    assert!(matches!(unknown, Err(StoreError::Corrupt(_))));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_failing_caller_undoes_only_its_own_writes() {
    let (_dir, store, _) = open().await;
    let jobs = (0..60).map(|i| {
        let store = store.clone();
        async move {
            store
                .run(move |tx| {
                    tx.outbox()
                        .enqueue(text(&format!("+{i}"), "hi"), Utc::now())?;
                    match i % 20 {
                        7 => Err(StoreError::Corrupt("refused".into())),
                        13 => panic!("a bug in one caller"),
                        _ => Ok(i),
                    }
                })
                .await
        }
    });
    let results = run_all_spawned(jobs).await;
    for (i, result) in results.iter().enumerate() {
        match i % 20 {
            7 => assert!(matches!(result, Err(StoreError::Corrupt(_))), "{result:?}"),
            13 => assert!(matches!(result, Err(StoreError::Panicked)), "{result:?}"),
            _ => assert_eq!(result.as_ref().ok(), Some(&i)),
        }
    }
    let mut phones: Vec<String> = store
        .run(|tx| {
            Ok(tx
                .outbox()
                .pending()?
                .into_iter()
                .map(|(t, _)| t.to)
                .collect())
        })
        .await
        .unwrap();
    phones.sort();
    let mut expected: Vec<String> = (0..60)
        .filter(|i| i % 20 != 7 && i % 20 != 13)
        .map(|i| format!("+{i}"))
        .collect();
    expected.sort();
    assert_eq!(phones, expected);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn moves_from_many_callers_at_once_are_numbered_without_gaps() {
    let (_dir, store, _) = open().await;
    let now = Utc::now();
    let id = store
        .run(move |tx| {
            let p = tx.players().create("+7001", now)?;
            tx.matches().insert(&new_match(vec![p.id]), now)
        })
        .await
        .unwrap();
    let jobs = (0..40).map(|i| {
        let store = store.clone();
        async move {
            store
                .run(move |tx| {
                    let mut m = tx.matches().by_id(id)?.unwrap();
                    m.state = format!("{}+{i}", m.state);
                    let notation = format!("{i}");
                    tx.matches()
                        .record_move(id, &a_move(0, &notation, &m.state), Utc::now())?;
                    tx.matches().save(&m)
                })
                .await
        }
    });
    for result in run_all_spawned(jobs).await {
        result.unwrap();
    }
    let (moves, state) = store
        .read(move |r| Ok((r.moves(id)?, r.match_by_id(id)?.unwrap().state)))
        .await
        .unwrap();
    let plies: Vec<u32> = moves.iter().map(|m| m.ply).collect();
    assert_eq!(plies, (1..=40).collect::<Vec<u32>>());
    // Each caller saw the state the one before it left: none was lost.
    assert_eq!(state.matches('+').count(), 40);
    assert_eq!(moves.last().unwrap().state_after, state);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_inbound_message_is_taken_once_with_its_sender() {
    let (_dir, store, _) = open().await;
    let arrivals = store
        .run(|tx| {
            let first = tx
                .players()
                .accept_inbound(&inbound("m1", "+7001", "hello"))?;
            tx.players().create("+7001", Utc::now())?;
            let again = tx
                .players()
                .accept_inbound(&inbound("m1", "+7001", "hello"))?;
            let second = tx.players().accept_inbound(&inbound("m2", "+7001", "P"))?;
            Ok((first, again, second))
        })
        .await
        .unwrap();
    assert_eq!(arrivals.0, Arrival::New(None), "a stranger");
    assert_eq!(arrivals.1, Arrival::Duplicate);
    match arrivals.2 {
        Arrival::New(Some(p)) => assert_eq!(p.phone, "+7001"),
        other => panic!("expected the known sender, got {other:?}"),
    }
    assert_eq!(store.read(|r| r.count_rows("inbound")).await.unwrap(), 2);
}

fn fragment(
    id: &str,
    reference: &str,
    part: u32,
    total: u32,
    text: &str,
    minutes_ago: i64,
) -> Fragment {
    Fragment {
        provider: "vonage".into(),
        provider_id: id.into(),
        from: "+7002".into(),
        reference: reference.into(),
        part,
        total,
        text: text.into(),
        received_at: Utc::now() - Duration::minutes(minutes_ago),
    }
}

fn whole(text: &str, first_id: &str) -> PartArrival {
    PartArrival::Whole {
        text: text.into(),
        first_id: first_id.into(),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_parts_of_a_long_text_are_joined_once_all_are_in_and_stale_ones_dropped() {
    let (_dir, store, _) = open().await;
    // Parts out of order, one repeated, across transactions.
    let first = store
        .run(|tx| {
            let a = tx.fragments().add(&fragment("c", "r1", 3, 3, "ck", 0))?;
            let b = tx.fragments().add(&fragment("a", "r1", 1, 3, "R lo", 0))?;
            let c = tx.fragments().add(&fragment("a", "r1", 1, 3, "R lo", 0))?;
            Ok((a, b, c))
        })
        .await
        .unwrap();
    assert_eq!(
        first,
        (
            PartArrival::Waiting { opened: true },
            PartArrival::Waiting { opened: false },
            PartArrival::Repeat
        )
    );
    let joined = store
        .run(|tx| tx.fragments().add(&fragment("b", "r1", 2, 3, "ngni", 0)))
        .await
        .unwrap();
    assert_eq!(
        joined,
        whole("R longnick", "a"),
        "in the parts' order, named by the first"
    );
    assert_eq!(
        store
            .read(|r| r.count_rows("inbound_fragments"))
            .await
            .unwrap(),
        0,
        "a joined text's parts are gone"
    );
    // Its parts replayed are repeats, each known by its own id.
    let replayed = store
        .run(|tx| tx.fragments().add(&fragment("b", "r1", 2, 3, "ngni", 0)))
        .await
        .unwrap();
    assert_eq!(replayed, PartArrival::Repeat);
    // The reference comes back later for another text: a new text; a part
    // that declares another total belongs to another text.
    let again = store
        .run(|tx| {
            tx.fragments().add(&fragment("h1", "r1", 1, 2, "H", 0))?;
            let other = tx.fragments().add(&fragment("x2", "r1", 2, 3, "?", 0))?;
            let done = tx.fragments().add(&fragment("h2", "r1", 2, 2, "ELP", 0))?;
            Ok((other, done))
        })
        .await
        .unwrap();
    assert_eq!(
        again,
        (PartArrival::Waiting { opened: true }, whole("HELP", "h1"))
    );
    // A part that never completes goes by age, a fresh one stays.
    let dropped = store
        .run(|tx| {
            tx.fragments().add(&fragment("o1", "old", 1, 2, "x", 30))?;
            tx.fragments().add(&fragment("n1", "new", 1, 2, "y", 0))?;
            tx.fragments()
                .drop_stale(Utc::now() - Duration::minutes(10))
        })
        .await
        .unwrap();
    assert_eq!(dropped, 1);
    assert_eq!(
        store
            .read(|r| r.count_rows("inbound_fragments"))
            .await
            .unwrap(),
        2,
        "the fresh part, and the part of another total"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn old_inbound_texts_are_trimmed_to_their_ids_and_still_known() {
    let (_dir, store, url) = open().await;
    let now = Utc::now();
    let aged = |id: &str, days: i64| InboundMessage {
        received_at: now - Duration::days(days),
        ..inbound(id, "+7003", "R secretive")
    };
    let texts = [
        aged("d40", 40),
        aged("d35", 35),
        aged("d5", 5),
        aged("d45", 45),
    ];
    let all = texts.clone();
    store
        .run(move |tx| {
            for msg in &all {
                tx.players().accept_inbound(msg)?;
            }
            Ok(())
        })
        .await
        .unwrap();
    let before = now - Duration::days(30);
    let (first, second, third) = store
        .run(move |tx| {
            let first = tx.inbound().trim(before, 0, 1)?;
            let second = tx.inbound().trim(before, first.unwrap(), 10)?;
            let third = tx.inbound().trim(before, second.unwrap(), 10)?;
            Ok((first, second, third))
        })
        .await
        .unwrap();
    assert!(first.is_some() && second > first, "{first:?} {second:?}");
    assert_eq!(
        third, None,
        "the walk stops at the 5-day-old text, and the older one after it waits"
    );
    let bodies = common::raw_rows(
        &url,
        "SELECT provider_id, body, from_phone FROM inbound ORDER BY id",
    )
    .await;
    assert_eq!(
        bodies,
        [
            ["d40", "", ""],
            ["d35", "", ""],
            ["d5", "R secretive", "+7003"],
            ["d45", "R secretive", "+7003"],
        ]
    );
    // A provider's retry of a trimmed text is still acknowledged, not applied.
    let retry = texts[0].clone();
    let arrival = store
        .run(move |tx| tx.players().accept_inbound(&retry))
        .await
        .unwrap();
    assert_eq!(arrival, Arrival::Duplicate);
}

#[cfg(unix)]
#[tokio::test]
async fn the_sqlite_file_is_readable_by_its_owner_only() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("private.db");
    let store = Store::open(&format!("sqlite://{}", path.display()), 8)
        .await
        .unwrap();
    store
        .run(|tx| tx.players().create("+7004", Utc::now()).map(|_| ()))
        .await
        .unwrap();
    for file in ["private.db", "private.db-wal", "private.db-shm"] {
        let mode = std::fs::metadata(dir.path().join(file))
            .unwrap_or_else(|e| panic!("{file}: {e}"))
            .permissions()
            .mode();
        assert_eq!(mode & 0o777, 0o600, "{file}: {:o}", mode & 0o777);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_sender_saved_by_the_last_caller_is_read_as_saved() {
    // On PostgreSQL the save is deferred and must not ride along with the
    // next text's first statement, which reads the players.
    let (_dir, store, _) = open().await;
    store
        .run(|tx| {
            let mut p = tx.players().create("+7201", Utc::now())?;
            p.nick = Some("carol".into());
            tx.players().save(&p, Utc::now())
        })
        .await
        .unwrap();
    let arrival = store
        .run(|tx| tx.players().accept_inbound(&inbound("c1", "+7201", "B")))
        .await
        .unwrap();
    match arrival {
        Arrival::New(Some(p)) => assert_eq!(p.nick.as_deref(), Some("carol")),
        other => panic!("expected carol, got {other:?}"),
    }
}

/// PostgreSQL, several instances: one matchmaker per queue at a time. A
/// batch of new callers finds a queue another instance is matching busy
/// instead of waiting for it; a transaction of its own waits its turn.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_batch_finds_a_queue_another_instance_matches_busy_and_a_solo_caller_waits() {
    let Some(admin) = common::postgres_admin_url().await else {
        return;
    };
    let url = common::fresh_postgres_database(&admin).await;
    let one = Store::open(&url, 64).await.expect("open one instance");
    let other = Store::open(&url, 64).await.expect("open another");
    let hold = common::hold_queue(&other, "fb", "").await;
    let found = one
        .run(|tx| tx.lobby().queue("fb", "", Pool::Everyone, 4))
        .await
        .unwrap();
    assert_eq!(found, Queue::Busy);
    let another_queue = one
        .run(|tx| tx.lobby().queue("fb", "BOT", Pool::Everyone, 4))
        .await
        .unwrap();
    assert_eq!(
        another_queue,
        Queue::Waiting(Vec::new()),
        "each queue has its own lock"
    );
    let waiting = tokio::spawn({
        let one = one.clone();
        async move {
            one.run_solo(|tx| tx.lobby().queue("fb", "", Pool::Everyone, 4))
                .await
        }
    });
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    assert!(
        !waiting.is_finished(),
        "a caller alone waits for the holder"
    );
    hold.release().await;
    assert_eq!(waiting.await.unwrap().unwrap(), Queue::Waiting(Vec::new()));
}

/// A claim of one text, then a failure: what stays of the claim is what the
/// way the closure ran keeps.
fn claim_one_then_fail(tx: &mut dyn Tx) -> Result<(), StoreError> {
    let now = Utc::now();
    let claimed = tx.outbox().claim(now, now + Duration::seconds(60), 1)?;
    assert_eq!(claimed.len(), 1, "a text was due");
    Err(StoreError::Corrupt("refused after the claim".into()))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_unframed_caller_keeps_each_statement_and_a_solo_one_all_or_nothing() {
    let Some(admin) = common::postgres_admin_url().await else {
        return;
    };
    let url = common::fresh_postgres_database(&admin).await;
    let store = Store::open(&url, 64).await.expect("open the store");
    store
        .run(|tx| {
            tx.outbox().enqueue(text("+1", "one"), Utc::now())?;
            tx.outbox().enqueue(text("+2", "two"), Utc::now())
        })
        .await
        .unwrap();
    assert!(store.run_solo(claim_one_then_fail).await.is_err());
    assert!(store.run_unframed(claim_one_then_fail).await.is_err());
    let due = store
        .run_solo(|tx| {
            let now = Utc::now();
            tx.outbox().claim(now, now + Duration::seconds(60), 10)
        })
        .await
        .unwrap();
    assert_eq!(
        due.len(),
        1,
        "the solo claim was undone with its transaction; the unframed one stayed"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_lobby_is_a_queue_per_game_oldest_first() {
    let (_dir, store, _) = open().await;
    let now = Utc::now();
    let (joins, queued, queue_of, after_leave) = store
        .run(move |tx| {
            let ids: Vec<i64> = (0..4)
                .map(|i| tx.players().create(&format!("+73{i}"), now).map(|p| p.id))
                .collect::<Result<_, _>>()?;
            // Joined newest first; the queue is by time, and a re-join moves a player.
            for (i, id) in ids.iter().enumerate() {
                tx.lobby()
                    .join(*id, "fb", "", now - Duration::seconds(i as i64))?;
            }
            // Another option set is another queue; asking again for the
            // same one keeps the earlier place.
            let joins = (
                tx.lobby().join(ids[3], "fb", "BOT", now)?,
                tx.lobby()
                    .join(ids[2], "fb", "", now + Duration::seconds(5))?,
            );
            let queued: Vec<i64> = tx
                .lobby()
                .queue("fb", "", Pool::Everyone, 10)?
                .into_players()
                .iter()
                .map(|p| p.id)
                .collect();
            let queue_of = (tx.lobby().queue_of(ids[3])?, tx.lobby().queue_of(ids[0])?);
            tx.lobby().leave(ids[2])?;
            let after: Vec<i64> = tx
                .lobby()
                .queue("fb", "", Pool::Everyone, 1)?
                .into_players()
                .iter()
                .map(|p| p.id)
                .collect();
            Ok((
                joins,
                queued == vec![ids[2], ids[1], ids[0]],
                queue_of
                    == (
                        Some(("fb".to_string(), "BOT".to_string())),
                        Some(("fb".to_string(), String::new())),
                    ),
                after == vec![ids[1]],
            ))
        })
        .await
        .unwrap();
    assert_eq!(joins, (true, false), "moved; already waiting there");
    assert!(
        queued,
        "oldest first, the one who moved to another queue left out, the one who asked twice in his first place"
    );
    assert!(queue_of);
    assert!(after_leave);
    assert_eq!(store.read(|r| r.count_rows("lobby")).await.unwrap(), 3);
}

/// The hall's virtual phones and real phones wait in one queue; each pool
/// is read alone, oldest first, and everyone together where they may meet.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_queue_is_read_by_pool_the_hall_apart_from_real_phones() {
    let (_dir, store, _) = open().await;
    let now = Utc::now();
    // Oldest first: real, hall, real, hall; and a number that only looks
    // like the hall's (one digit short) is a real phone's.
    let phones = [
        "+79001000001",
        "+99900000001",
        "+9990000001",
        "+99900000002",
    ];
    let read = store
        .run(move |tx| {
            let mut ids = Vec::new();
            for (i, phone) in phones.iter().enumerate() {
                let id = tx.players().create(phone, now)?.id;
                tx.lobby()
                    .join(id, "fb", "", now + Duration::seconds(i as i64))?;
                ids.push(id);
            }
            let mut read = Vec::new();
            for pool in [Pool::Hall, Pool::Phones, Pool::Everyone] {
                let phones: Vec<String> = tx
                    .lobby()
                    .queue("fb", "", pool, 10)?
                    .into_players()
                    .into_iter()
                    .map(|p| p.phone)
                    .collect();
                read.push(phones);
            }
            let oldest_hall = tx.lobby().queue("fb", "", Pool::Hall, 1)?.into_players();
            read.push(oldest_hall.into_iter().map(|p| p.phone).collect());
            Ok(read)
        })
        .await
        .unwrap();
    assert_eq!(read[0], ["+99900000001", "+99900000002"], "the hall's");
    assert_eq!(read[1], ["+79001000001", "+9990000001"], "real phones'");
    assert_eq!(read[2], phones, "everyone's");
    assert_eq!(read[3], ["+99900000001"], "the limit counts the pool's own");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn timers_are_the_deadlines_and_rematch_windows_that_fell_due() {
    let (_dir, store, _) = open().await;
    let now = Utc::now();
    let (due, rematch, next, none_yet) = store
        .run(move |tx| {
            let p = tx.players().create("+7401", now)?;
            let soon = tx.matches().insert(&new_match(vec![p.id]), now)?;
            let later = tx.matches().insert(&new_match(vec![p.id]), now)?;
            let mut m = tx.matches().by_id(soon)?.unwrap();
            m.deadline_at = Some(now + Duration::seconds(10));
            tx.matches().save(&m)?;
            let mut m = tx.matches().by_id(later)?.unwrap();
            m.finished = true;
            m.rematch_deadline_at = Some(now + Duration::seconds(20));
            tx.matches().save(&m)?;
            let none_yet = tx.timers().due_turns(now, 10)?.is_empty()
                && tx.timers().due_rematches(now, 10)?.is_empty();
            let next = tx.timers().next()?;
            let at = now + Duration::seconds(30);
            Ok((
                tx.timers().due_turns(at, 10)? == vec![soon],
                tx.timers().due_rematches(at, 10)? == vec![later],
                next.map(|t| t.timestamp_millis()),
                none_yet,
            ))
        })
        .await
        .unwrap();
    assert!(due && rematch && none_yet);
    assert_eq!(next, Some((now + Duration::seconds(10)).timestamp_millis()));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_outbox_hands_out_one_text_per_phone_and_records_every_outcome() {
    let (_dir, store, _) = open().await;
    let now = Utc::now();
    let lease = now + Duration::seconds(30);
    let steps = store
        .run(move |tx| {
            for body in ["a1", "a2"] {
                tx.outbox().enqueue(text("+7501", body), now)?;
            }
            tx.outbox().enqueue(text("+7502", "b1"), now)?;
            tx.outbox().enqueue(text("+7503", "c1"), now)?;
            // Due at `now`: after an instant before, and nothing after `now` itself.
            let due = [now - Duration::milliseconds(1), now]
                .map(|after| tx.outbox().next_due_after(after))
                .into_iter()
                .map(|at| at.map(|at| at.map(|t| t.timestamp_millis())))
                .collect::<Result<Vec<_>, _>>()?;
            // One per phone, the oldest: a1, b1, c1.
            let first: Vec<String> = tx
                .outbox()
                .claim(now, lease, 10)?
                .into_iter()
                .map(|t| t.body)
                .collect();
            let ids: Vec<i64> = tx
                .outbox()
                .pending()?
                .into_iter()
                .map(|(t, _)| t.id)
                .collect();
            // a1 sent with a reference; b1 to retry later; c1 parked.
            tx.outbox().mark_sent(&[SentText {
                id: ids[0],
                attempts: 1,
                provider_ref: Some("ref-a1"),
                at: now,
            }])?;
            tx.outbox()
                .mark_retry(ids[2], 1, "timeout", now + Duration::seconds(5), now)?;
            tx.outbox().mark_failed(ids[3], 1, "refused", now)?;
            // a2 is next for +7501; b1 waits for its retry.
            let second: Vec<String> = tx
                .outbox()
                .claim(now, lease, 10)?
                .into_iter()
                .map(|t| t.body)
                .collect();
            let delivered =
                tx.outbox()
                    .report_status("ref-a1", TextStatus::Delivered, None, now)?;
            let backwards = tx
                .outbox()
                .report_status("ref-a1", TextStatus::Sent, None, now)?;
            let unknown = tx
                .outbox()
                .report_status("nobody", TextStatus::Delivered, None, now)?;
            let cancelled = tx.outbox().cancel_to("+7502", now)?;
            Ok((due, first, second, delivered, backwards, unknown, cancelled))
        })
        .await
        .unwrap();
    let (due, first, second, delivered, backwards, unknown, cancelled) = steps;
    assert_eq!(due, [Some(now.timestamp_millis()), None]);
    assert_eq!(first, ["a1", "b1", "c1"]);
    assert_eq!(second, ["a2"]);
    assert_eq!(delivered, Some(TextStatus::Delivered));
    assert_eq!(backwards, Some(TextStatus::Delivered), "never backwards");
    assert_eq!(unknown, None);
    assert_eq!(cancelled, 1, "b1, queued again for its retry, is cancelled");
    let statuses = store
        .read(|r| {
            let mut all = r.texts_to("+7501")?;
            all.extend(r.texts_to("+7502")?);
            all.extend(r.texts_to("+7503")?);
            Ok(all
                .into_iter()
                .map(|t| (t.body, t.status, t.last_error))
                .collect::<Vec<_>>())
        })
        .await
        .unwrap();
    assert_eq!(
        statuses,
        vec![
            ("a1".into(), TextStatus::Delivered, None),
            ("a2".into(), TextStatus::Sending, None),
            ("b1".into(), TextStatus::Cancelled, Some("timeout".into())),
            ("c1".into(), TextStatus::Failed, Some("refused".into())),
        ]
    );
}

/// A delivery report that overtakes the record of its text's send (a fast
/// SMSC can report before the provider's answer to the send is stored) is
/// kept and applied once the send is recorded; the furthest of two early
/// reports wins, and one that names no text of ours is dropped after a day.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_delivery_report_that_overtakes_the_send_is_applied_when_it_is_recorded() {
    let (_dir, store, _) = open().await;
    let now = Utc::now();
    let id = store
        .run(move |tx| {
            tx.outbox().enqueue(text("+7511", "fast"), now)?;
            let claimed = tx.outbox().claim(now, now + Duration::seconds(30), 10)?;
            Ok(claimed[0].id)
        })
        .await
        .unwrap();
    let early = store
        .run(move |tx| {
            let delivered =
                tx.outbox()
                    .report_status("k-fast", TextStatus::Delivered, None, now)?;
            let sent = tx
                .outbox()
                .report_status("k-fast", TextStatus::Sent, None, now)?;
            Ok((delivered, sent))
        })
        .await
        .unwrap();
    assert_eq!(early, (None, None), "no text has that reference yet");
    assert_eq!(
        store.read(|r| r.count_rows("early_reports")).await.unwrap(),
        1
    );
    store
        .run(move |tx| {
            tx.outbox().mark_sent(&[SentText {
                id,
                attempts: 1,
                provider_ref: Some("k-fast"),
                at: now,
            }])
        })
        .await
        .unwrap();
    let texts = store.read(|r| r.texts_to("+7511")).await.unwrap();
    assert_eq!(
        texts[0].status,
        TextStatus::Delivered,
        "the kept report applied"
    );
    assert_eq!(
        store.read(|r| r.count_rows("early_reports")).await.unwrap(),
        0
    );
    // A reference that is not ours waits a day, then the next report drops it.
    let later = now + Duration::days(1) + Duration::seconds(1);
    store
        .run(move |tx| {
            tx.outbox()
                .report_status("not-ours", TextStatus::Failed, Some("x"), now)?;
            tx.outbox()
                .report_status("not-ours-either", TextStatus::Failed, None, later)
        })
        .await
        .unwrap();
    assert_eq!(
        store.read(|r| r.count_rows("early_reports")).await.unwrap(),
        1
    );
}

/// Reports find their text whether its reference is one of ours (a letter
/// and the text's id, found by the id), a provider's own, or a provider's
/// that reads like one of ours but names another text; a report that
/// overtakes the send of a text under our own reference waits for it too.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn reports_find_texts_by_our_references_and_by_the_providers() {
    let (_dir, store, _) = open().await;
    let now = Utc::now();
    let phones = ["+7521", "+7522", "+7523", "+7524"];
    let ids = store
        .run(move |tx| {
            for phone in phones {
                tx.outbox().enqueue(text(phone, "board"), now)?;
            }
            let claimed = tx.outbox().claim(now, now + Duration::seconds(30), 10)?;
            Ok(claimed.iter().map(|t| t.id).collect::<Vec<_>>())
        })
        .await
        .unwrap();
    let [own, given, lookalike, late] = ids[..] else {
        panic!("{ids:?}")
    };
    let references = [
        format!("g{own}"),
        "SM5f0e2d".to_string(),
        // Reads as ours for the first text, but was given to the third.
        format!("x{own}"),
        format!("g{late}"),
    ];
    let early_reference = references[3].clone();
    let early = store
        .run(move |tx| {
            tx.outbox()
                .report_status(&early_reference, TextStatus::Delivered, None, now)
        })
        .await
        .unwrap();
    assert_eq!(early, None, "the send of the fourth is not recorded yet");
    let sent_references = references.clone();
    store
        .run(move |tx| {
            let sent: Vec<SentText<'_>> = [own, given, lookalike, late]
                .iter()
                .zip(&sent_references)
                .map(|(&id, reference)| SentText {
                    id,
                    attempts: 1,
                    provider_ref: Some(reference),
                    at: now,
                })
                .collect();
            tx.outbox().mark_sent(&sent)
        })
        .await
        .unwrap();
    let reported = store
        .run(move |tx| {
            let mut found = Vec::new();
            for reference in &references[..3] {
                found.push(tx.outbox().report_status(
                    reference,
                    TextStatus::Delivered,
                    None,
                    now,
                )?);
            }
            Ok(found)
        })
        .await
        .unwrap();
    assert_eq!(reported, vec![Some(TextStatus::Delivered); 3]);
    for phone in phones {
        let texts = store.read(move |r| r.texts_to(phone)).await.unwrap();
        assert_eq!(texts[0].status, TextStatus::Delivered, "{phone}");
    }
    assert_eq!(
        store.read(|r| r.count_rows("early_reports")).await.unwrap(),
        0
    );
}

/// A reply given in the webhook's answer is recorded as sent under its
/// reference, found again by it, and never handed to a dispatcher; one to a
/// phone that still has a text unsent is queued behind that one instead.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_reply_in_the_answer_is_recorded_sent_unless_it_would_overtake_another() {
    let (_dir, store, _) = open().await;
    let now = Utc::now();
    let (answered, overtaking, found, unknown, claimed) = store
        .run(move |tx| {
            let answered = tx
                .outbox()
                .answer(&text("+7601", "welcome"), "a-msg-1", now)?;
            tx.outbox().enqueue(text("+7602", "board"), now)?;
            let overtaking = tx
                .outbox()
                .answer(&text("+7602", "reply"), "a-msg-2", now)?;
            let found = tx.outbox().answered("a-msg-1")?.map(|t| (t.to, t.body));
            let unknown = tx.outbox().answered("a-msg-2")?;
            let claimed: Vec<String> = tx
                .outbox()
                .claim(now, now + Duration::seconds(30), 10)?
                .into_iter()
                .map(|t| t.body)
                .collect();
            Ok((answered, overtaking, found, unknown, claimed))
        })
        .await
        .unwrap();
    assert!(answered);
    assert!(!overtaking, "a text to +7602 was still unsent");
    assert_eq!(found, Some(("+7601".into(), "welcome".into())));
    assert_eq!(
        unknown, None,
        "the overtaking reply was queued, not answered"
    );
    assert_eq!(claimed, ["board"], "the answered text is not sent again");
    let texts = store
        .read(|r| {
            let mut all = r.texts_to("+7601")?;
            all.extend(r.texts_to("+7602")?);
            Ok(all
                .into_iter()
                .map(|t| (t.body, t.status, t.provider_ref))
                .collect::<Vec<_>>())
        })
        .await
        .unwrap();
    assert_eq!(
        texts,
        vec![
            ("welcome".into(), TextStatus::Sent, Some("a-msg-1".into())),
            ("board".into(), TextStatus::Sending, None),
            ("reply".into(), TextStatus::Queued, None),
        ]
    );
    // Its delivery reports find it by the reference.
    let delivered = store
        .run(move |tx| {
            tx.outbox()
                .report_status("a-msg-1", TextStatus::Delivered, None, now)
        })
        .await
        .unwrap();
    assert_eq!(delivered, Some(TextStatus::Delivered));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_corrupt_row_is_an_error_that_names_it() {
    let (_dir, store, url) = open().await;
    let now = Utc::now();
    let id = store
        .run(move |tx| {
            let p = tx.players().create("+7601", now)?;
            tx.matches().insert(&new_match(vec![p.id]), now)
        })
        .await
        .unwrap();
    common::raw_sql(
        &url,
        &format!("UPDATE matches SET rng_pos = 'x1' WHERE id = {id}"),
    )
    .await;
    let written = store.run(move |tx| tx.matches().by_id(id)).await;
    let read = store.read(move |r| r.match_by_id(id)).await;
    for outcome in [written, read] {
        let error = outcome.expect_err("a garbled generator position is no position");
        let text = error.to_string();
        assert!(text.contains(&format!("match {id}: rng_pos")), "{text}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn robot_seats_and_their_turns_are_kept_and_claimed_once() {
    let (_dir, store, _) = open().await;
    // Times are stored in milliseconds.
    let now = chrono::DateTime::from_timestamp_millis(Utc::now().timestamp_millis()).unwrap();
    let lease = now + Duration::seconds(15);
    let (id, holders) = store
        .run(move |tx| {
            let p = tx.players().create("+7701", now)?;
            let mut new = new_match(vec![p.id]);
            new.options = "BOT 2".into();
            new.seats.push(NewSeat::Robot(2));
            let id = tx.matches().insert(&new, now)?;
            let holders: Vec<Holder> = tx
                .matches()
                .seats(id)?
                .into_iter()
                .map(|s| s.holder)
                .collect();
            assert_eq!(tx.matches().by_id(id)?.unwrap().options, "BOT 2");
            Ok((id, holders))
        })
        .await
        .unwrap();
    assert!(matches!(holders[0], Holder::Player(_)));
    assert_eq!(holders[1], Holder::Robot(2));
    let turn = RobotTurn {
        match_id: id,
        seat: 1,
        turn: 3,
        due_at: now,
        attempts: 0,
    };
    let (claimed, again, next, after_lease) = store
        .run(move |tx| {
            tx.robots().queue(&turn)?;
            let next = tx.robots().next_due()?.map(|t| t.timestamp_millis());
            // The robot is of level 2: a lane of other levels does not see its turn.
            let other_lanes = [
                tx.robots().claim(now, lease, 1..=1, 10)?,
                tx.robots().claim(now, lease, 3..=u8::MAX, 10)?,
            ];
            assert_eq!(other_lanes, [vec![], vec![]]);
            let claimed = tx.robots().claim(now, lease, 1..=2, 10)?;
            // Claimed and leased: nobody else takes it until the lease runs out.
            let again = tx.robots().claim(now, lease, 1..=2, 10)?;
            let after_lease =
                tx.robots()
                    .claim(lease + Duration::seconds(1), lease, 2..=u8::MAX, 10)?;
            Ok((claimed, again, next, after_lease))
        })
        .await
        .unwrap();
    // Each claim is counted, so a search that keeps failing can be given up.
    assert_eq!(
        claimed,
        vec![RobotTurn {
            attempts: 1,
            ..turn
        }]
    );
    assert!(again.is_empty());
    assert_eq!(next, Some(now.timestamp_millis()));
    assert_eq!(
        after_lease,
        vec![RobotTurn {
            attempts: 2,
            ..turn
        }],
        "a dead instance's turn is taken over, its second claim"
    );
    let newer = RobotTurn { turn: 4, ..turn };
    let left = store
        .run(move |tx| {
            // A newer turn of the seat replaces the older one (its claims
            // start again from none); the older's result then removes nothing.
            tx.robots().queue(&newer)?;
            tx.robots().done(&turn)?;
            Ok(())
        })
        .await;
    left.unwrap();
    let waiting = store.read(|r| r.robot_turns()).await.unwrap();
    assert_eq!(waiting, vec![newer]);
    store
        .run(move |tx| {
            tx.robots().done(&newer)?;
            tx.robots().queue(&newer)?;
            tx.robots().clear(id)
        })
        .await
        .unwrap();
    assert!(store.read(|r| r.robot_turns()).await.unwrap().is_empty());
}

#[tokio::test]
async fn a_hall_phone_is_opened_once_and_read_by_its_number() {
    let (_dir, store, _url) = open().await;
    let now = Utc::now();
    let (first, again) = store
        .run(move |tx| {
            let first = tx.hall().open_phone("+99900000001", "hash-a", now)?;
            let again = tx.hall().open_phone("+99900000001", "hash-b", now)?;
            Ok((first, again))
        })
        .await
        .unwrap();
    assert!(first, "a new number opens");
    assert!(!again, "a number already held does not open twice");
    let (held, unknown) = store
        .read(|r| Ok((r.hall_phone("+99900000001")?, r.hall_phone("+99900000002")?)))
        .await
        .unwrap();
    assert_eq!(held.as_deref(), Some("hash-a"), "the first holder keeps it");
    assert_eq!(unknown, None);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_console_reads_counts_players_texts_and_parked_and_writes_its_audit() {
    let (_dir, store, _) = open().await;
    let now = Utc::now();
    let (parked, sent) = store
        .run(move |tx| {
            tx.players()
                .accept_inbound(&inbound("c1", "+7901555", "R ann"))?;
            let mut ann = tx.players().create("+7901555", now)?;
            ann.nick = Some("Ann".into());
            tx.players().save(&ann, now)?;
            tx.players().create("+7902666", now)?;
            tx.outbox().enqueue(text("+7901555", "parked"), now)?;
            tx.outbox().enqueue(text("+7902666", "waiting"), now)?;
            let pending = tx.outbox().pending()?;
            let (parked, waiting) = (pending[0].0.id, pending[1].0.id);
            tx.outbox().mark_failed(parked, 3, "HTTP 400", now)?;
            tx.console().audit(
                &smsarena::store::NewAudit {
                    actor: "anna",
                    action: "look at texts",
                    target: "player #1",
                    address: Some("192.0.2.1"),
                },
                now,
            )?;
            Ok((parked, waiting))
        })
        .await
        .unwrap();
    let (counts, minutes, found, by_number, by_digits, ann, texts, parked_texts, audit) = store
        .read(move |r| {
            let counts = r.console().counts()?;
            let minutes = r.console().inbound_per_minute(now - Duration::minutes(5))?;
            let found = r.console().find_players("an%", None, 10)?;
            let by_number = r.console().find_players("", Some("+7902666"), 10)?;
            let by_digits = r.console().find_players("902", Some("902"), 10)?;
            let ann = r.console().player_by_id(found[0].id)?;
            let texts = r.console().texts_from("+7901555", 10)?;
            let parked = r.console().parked_texts(10)?;
            let audit = r.console().audit_entries(10)?;
            Ok((
                counts, minutes, found, by_number, by_digits, ann, texts, parked, audit,
            ))
        })
        .await
        .unwrap();
    assert_eq!(counts.players, 1, "one with a nick");
    assert_eq!((counts.outbox_backlog, counts.parked), (1, 1));
    assert!(counts.oldest_waiting.is_some());
    assert_eq!(minutes.iter().map(|(_, n)| n).sum::<i64>(), 1);
    assert_eq!(
        found.len(),
        1,
        "the wildcard is taken as text, the nick any case"
    );
    assert_eq!(by_number.len(), 1, "the whole number, and no nick");
    assert_eq!(by_number[0].phone, "+7902666");
    assert!(by_digits.is_empty(), "a part of a number finds no one");
    assert_eq!(ann.unwrap().phone, "+7901555");
    assert_eq!(texts[0].text, "R ann");
    assert_eq!(parked_texts[0].id, parked);
    assert_eq!(parked_texts[0].last_error.as_deref(), Some("HTTP 400"));
    assert_eq!(audit[0].actor, "anna");
    assert_eq!(audit[0].address.as_deref(), Some("192.0.2.1"));

    let (retried, again, dropped) = store
        .run(move |tx| {
            let retried = tx.console().requeue_parked(parked, now)?;
            let again = tx.console().requeue_parked(parked, now)?;
            let dropped = tx.console().drop_parked(sent, now)?;
            Ok((retried, again, dropped))
        })
        .await
        .unwrap();
    let retried = retried.expect("it was parked");
    assert_eq!((retried.status, retried.attempts), (TextStatus::Queued, 0));
    assert!(again.is_none(), "no longer parked");
    assert!(
        !dropped,
        "a text waiting to be sent is not parked, so not dropped"
    );
}

#[tokio::test]
async fn a_console_session_lives_until_it_is_closed_or_ends_and_ended_ones_are_cleaned() {
    let (_dir, store, _) = open().await;
    let now = Utc::now();
    let session = |id_hash: &'static str, expires| smsarena::store::NewSession {
        id_hash,
        name: "anna",
        expires,
    };
    let earlier = now - Duration::hours(2);
    store
        .run(move |tx| {
            let old = session("old", now - Duration::hours(1));
            tx.console().open_session(&old, now - Duration::hours(13))
        })
        .await
        .unwrap();
    let (then, later) = store
        .read(move |r| {
            Ok((
                r.console().session("old", earlier)?,
                r.console().session("old", now)?,
            ))
        })
        .await
        .unwrap();
    assert_eq!(then.as_deref(), Some("anna"), "live until it ends");
    assert_eq!(later, None, "an ended session proves nothing");

    store
        .run(move |tx| {
            tx.console()
                .open_session(&session("live", now + Duration::hours(12)), now)?;
            tx.console()
                .open_session(&session("other", now + Duration::hours(12)), now)
        })
        .await
        .unwrap();
    let old = store
        .read(move |r| r.console().session("old", earlier))
        .await
        .unwrap();
    assert_eq!(old, None, "the next login cleaned the ended one away");

    let (closed, again) = store
        .run(|tx| {
            Ok((
                tx.console().close_session("live")?,
                tx.console().close_session("live")?,
            ))
        })
        .await
        .unwrap();
    assert!(closed && !again, "closed once");
    let (live, other) = store
        .read(move |r| {
            Ok((
                r.console().session("live", now)?,
                r.console().session("other", now)?,
            ))
        })
        .await
        .unwrap();
    assert_eq!(live, None, "a closed session is gone");
    assert_eq!(other.as_deref(), Some("anna"), "another login stays open");
}

#[tokio::test]
async fn standings_are_saved_ranked_and_a_players_finished_matches_listed() {
    use smsarena::ratings::Rating;
    use smsarena::store::{RatingChange, StandingRow};
    let (_dir, store, _) = open().await;
    let now = chrono::DateTime::from_timestamp_millis(Utc::now().timestamp_millis()).unwrap();
    let rated = |rating: f64| Rating {
        rating,
        deviation: 90.0,
        volatility: 0.06,
    };
    let (ann, bob, finished) = store
        .run(move |tx| {
            let mut ids = Vec::new();
            for (phone, nick) in [("+7711", "ann"), ("+7712", "bob"), ("+7713", "cid")] {
                let mut p = tx.players().create(phone, now)?;
                p.nick = Some(nick.into());
                tx.players().save(&p, now)?;
                ids.push(p.id);
            }
            let (ann, bob, cid) = (ids[0], ids[1], ids[2]);
            let id = tx.matches().insert(&new_match(vec![ann, bob]), now)?;
            let mut record = tx.matches().by_id(id)?.unwrap();
            record.finished = true;
            record.finished_at = Some(now);
            tx.matches().save(&record)?;
            tx.matches().insert(&new_match(vec![ann, cid]), now)?;
            for (player, rating, games) in [(ann, 1612.4, 12), (bob, 1611.6, 10), (cid, 1700.0, 3)]
            {
                let row = StandingRow {
                    rating: rated(rating),
                    rated_games: games,
                    games: games + 1,
                    wins: games,
                    ..StandingRow::new(player, "TR")
                };
                tx.standings().save(&row, now)?;
            }
            tx.standings().record_change(&RatingChange {
                match_id: id,
                player_id: ann,
                before: 1500.0,
                after: 1612.4,
            })?;
            assert_eq!(tx.standings().of("TR", ann)?.unwrap().rated_games, 12);
            Ok((ann, bob, id))
        })
        .await
        .unwrap();
    let (leaders, place, row, mine, change, none, all, by_nick) = store
        .read(move |r| {
            Ok((
                r.standings().leaders("TR", 5)?,
                r.standings().place("TR", 1612)?,
                r.standings().of("TR", bob)?,
                r.standings().finished_of(ann, 3)?,
                r.standings().change(finished, ann)?,
                r.standings().change(finished, bob)?,
                r.standings().of_player(ann)?,
                r.player_by_nick("ANN")?.map(|p| p.id),
            ))
        })
        .await
        .unwrap();
    // A provisional rating (under ten rated games) is not on the board,
    // however high; ratings that read alike rank by rated games.
    let nicks: Vec<&str> = leaders.iter().map(|l| l.nick.as_str()).collect();
    assert_eq!(nicks, ["ann", "bob"]);
    assert_eq!((leaders[0].points, leaders[1].points), (1612, 1612));
    assert!(!leaders[0].provisional() && !leaders[1].provisional());
    assert_eq!(
        place, 1,
        "no established rating above 1612 (cid's 1700 is provisional)"
    );
    let row = row.unwrap();
    assert_eq!((row.rated_games, row.games, row.wins), (10, 11, 10));
    assert!(
        (row.rating.rating - 1611.6).abs() < 1e-9,
        "a rating keeps its fraction"
    );
    assert_eq!(mine, vec![finished], "the running match is not finished");
    assert_eq!(change.unwrap().points(), 112);
    assert_eq!(none, None);
    assert_eq!(all.len(), 1);
    assert_eq!(all[0].game, "TR");
    assert_eq!(by_nick, Some(ann), "a nick is found whatever its case");
}
