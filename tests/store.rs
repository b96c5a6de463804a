//! The store's contract, on SQLite or (with `TEST_DATABASE_URL`) PostgreSQL:
//! what one caller's closure writes it reads back, a failing caller undoes
//! only its own writes though it shares a transaction with others, and
//! inbound messages are taken once.

mod common;

use chrono::Utc;
use smsarena::inbound::InboundMessage;
use smsarena::store::{Arrival, NewMatch, NewText, Store, StoreError};

async fn open() -> (tempfile::TempDir, Store) {
    let dir = tempfile::tempdir().unwrap();
    let url = common::fresh_database(dir.path()).await;
    let store = Store::open(&url, 64).await.expect("open the store");
    (dir, store)
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
    let (_dir, store) = open().await;
    let now = Utc::now();
    store
        .run(move |tx| {
            let mut alice = tx.create_player("+7001", now)?;
            let bob = tx.create_player("+7002", now)?;
            alice.nick = Some("Alice".into());
            tx.save_player(&alice, now)?;
            assert_eq!(tx.player_by_nick("alice")?.map(|p| p.id), Some(alice.id));
            alice.away = true;
            tx.save_player(&alice, now)?;
            assert!(
                tx.player_by_phone("+7001")?.unwrap().away,
                "the last write wins"
            );

            let id = tx.insert_match(
                &NewMatch {
                    game: "fb".into(),
                    state: "start".into(),
                    seed: 7,
                    rng_pos: 0,
                    deadline_at: None,
                    rematch_of: None,
                    players: vec![alice.id, bob.id],
                },
                now,
            )?;
            let mut record = tx.match_by_id(id)?.unwrap();
            for (i, state) in ["one", "two", "three"].into_iter().enumerate() {
                record.state = state.into();
                tx.record_move(id, i % 2, &format!("m{i}"), false, state, now)?;
                tx.save_match(&record)?;
            }
            assert_eq!(tx.match_by_id(id)?.unwrap().state, "three");
            let plies: Vec<(u32, String)> = tx
                .moves(id)?
                .into_iter()
                .map(|m| (m.ply, m.notation))
                .collect();
            assert_eq!(
                plies,
                vec![(1, "m0".into()), (2, "m1".into()), (3, "m2".into())]
            );
            let mut seats = tx.seats(id)?;
            assert_eq!(seats.len(), 2);
            assert!(seats[0].player.away, "a seat shows its player as saved");
            seats[1].missed = 1;
            tx.save_seat(id, &seats[1])?;
            seats[1].missed = 2;
            tx.save_seat(id, &seats[1])?;
            assert_eq!(tx.seats(id)?[1].missed, 2);
            assert_eq!(tx.active_match_of(bob.id)?.map(|m| m.id), Some(id));

            tx.lobby_join(bob.id, "fb", now)?;
            tx.lobby_leave(bob.id)?;
            assert_eq!(tx.lobby_game_of(bob.id)?, None);
            tx.lobby_join(bob.id, "fb", now)?;
            assert_eq!(tx.lobby_game_of(bob.id)?, Some("fb".into()));

            for body in ["a", "b", "c"] {
                tx.enqueue_text(&text("+7001", body), now)?;
            }
            let bodies: Vec<String> = tx.texts_to("+7001")?.into_iter().map(|t| t.body).collect();
            assert_eq!(bodies, ["a", "b", "c"]);
            Ok(())
        })
        .await
        .unwrap();
    // and all of it committed
    let bodies: Vec<String> = store
        .run(|tx| Ok(tx.texts_to("+7001")?.into_iter().map(|t| t.body).collect()))
        .await
        .unwrap();
    assert_eq!(bodies, ["a", "b", "c"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_failing_caller_undoes_only_its_own_writes() {
    let (_dir, store) = open().await;
    let jobs = (0..60).map(|i| {
        let store = store.clone();
        async move {
            store
                .run(move |tx| {
                    tx.enqueue_text(&text(&format!("+{i}"), "hi"), Utc::now())?;
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
        .run(|tx| Ok(tx.pending_texts()?.into_iter().map(|(t, _)| t.to).collect()))
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
    let (_dir, store) = open().await;
    let now = Utc::now();
    let id = store
        .run(move |tx| {
            let p = tx.create_player("+7001", now)?;
            tx.insert_match(
                &NewMatch {
                    game: "fb".into(),
                    state: "s".into(),
                    seed: 1,
                    rng_pos: 0,
                    deadline_at: None,
                    rematch_of: None,
                    players: vec![p.id],
                },
                now,
            )
        })
        .await
        .unwrap();
    let jobs = (0..40).map(|i| {
        let store = store.clone();
        async move {
            store
                .run(move |tx| {
                    let mut m = tx.match_by_id(id)?.unwrap();
                    m.state = format!("{}+{i}", m.state);
                    tx.record_move(id, 0, &format!("{i}"), false, &m.state, Utc::now())?;
                    tx.save_match(&m)
                })
                .await
        }
    });
    for result in run_all_spawned(jobs).await {
        result.unwrap();
    }
    let (moves, state) = store
        .run(move |tx| Ok((tx.moves(id)?, tx.match_by_id(id)?.unwrap().state)))
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
    let (_dir, store) = open().await;
    let arrivals = store
        .run(|tx| {
            let first = tx.accept_inbound(&inbound("m1", "+7001", "hello"))?;
            tx.create_player("+7001", Utc::now())?;
            let again = tx.accept_inbound(&inbound("m1", "+7001", "hello"))?;
            let second = tx.accept_inbound(&inbound("m2", "+7001", "P"))?;
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
    assert_eq!(store.run(|tx| tx.count_rows("inbound")).await.unwrap(), 2);
}
