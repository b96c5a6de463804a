//! Records: one finished match of every game, played whole by SMS (the
//! phone's moves are a level-1 robot's, texted), exported by the admin API,
//! replayed from its seed and compared to the stored final state, in
//! process and by `smsarena replay FILE`; an export altered anywhere does
//! not replay, nor does one whose seats or ending disagree with its
//! replay; the file is read up to a cap and printed without escapes.

use crate::common;

use axum::body::Body;
use axum::http::{Request, StatusCode};
use common::TestApp;
use smsarena::encoding;
use smsarena::platform::export::file::EXPORT_MAX_BYTES;
use smsarena::platform::export::{Export, ExportError, check};

const TOKEN: &str = "an-admin-token-long-enough";
const PHONE: &str = "+7801";

fn admin(path: &str) -> Request<Body> {
    let mut request = Request::get(path)
        .header("authorization", format!("Bearer {TOKEN}"))
        .body(Body::empty())
        .unwrap();
    let peer: std::net::SocketAddr = "127.0.0.1:50000".parse().unwrap();
    request
        .extensions_mut()
        .insert(axum::extract::ConnectInfo(peer));
    request
}

/// Plays `P <code> <options>` to its end, the phone's moves a level-1 robot's.
async fn play_whole(app: &TestApp, code: &str, options: &str) -> i64 {
    common::whole::play_whole(app, PHONE, code, options, 1, 11)
        .await
        .id
}

async fn export_of(app: &TestApp, id: i64) -> Export {
    let reply = app
        .request(admin(&format!("/admin/matches/{id}/export")))
        .await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
    serde_json::from_str(&reply.body).unwrap()
}

#[tokio::test]
async fn a_finished_match_of_every_game_exports_and_replays_to_its_stored_state() {
    let app = TestApp::with_config(|cfg| cfg.admin.token = TOKEN.into()).await;
    app.register(&[(PHONE, "ann")]).await;
    let catalog = app.state.platform().catalog();
    let mut pages = Vec::new();
    for (code, options) in [
        ("FB", "BOT"),
        ("IB", "BOT 1"),
        ("PS", "BOT 1"),
        ("WB", "BOT 1"),
        ("AR", "2 BOT 1"),
    ] {
        let id = play_whole(&app, code, options).await;
        let export = export_of(&app, id).await;
        let (record, _) = app.last_match(PHONE).await.unwrap();
        assert!(export.finished && export.moves.len() > 2, "{code}");
        assert_eq!(export.final_state, record.state, "{code}");
        assert!(!export.notation.is_empty(), "{code}: {}", export.notation);
        assert!(
            export
                .seats
                .iter()
                .any(|s| s.nick.as_deref() == Some("ann")),
            "{code}: players by nick"
        );
        assert!(
            !serde_json::to_string(&export).unwrap().contains(PHONE),
            "no numbers"
        );
        let replayed = check(catalog, &export).unwrap_or_else(|e| panic!("{code}: {e}"));
        assert_eq!(replayed.final_state, record.state, "{code}");
        assert_eq!(replayed.moves, export.moves.len());
        if code == "IB" {
            assert!(
                export.states.len() >= 2,
                "Intelball gives its state strings"
            );
            assert!(export.states[0].starts_with("_S("), "{}", export.states[0]);
        }
        app.inbox(PHONE).await;
        pages.push((code, read_every_page(&app, code).await));
    }
    // A whole game of Intelball, word battle or a race is several pages.
    for (code, n) in &pages {
        assert!(matches!(*code, "FB" | "PS") || *n > 1, "{pages:?}");
    }
}

/// `H` pages the whole record, newest first, each page one SMS saying which
/// of how many it is; a page past the last is answered with how many there are.
async fn read_every_page(app: &TestApp, code: &str) -> usize {
    let page_word = if code == "IB" { "H P" } else { "H " };
    app.sms(PHONE, "H").await;
    let first = app.one_text(PHONE).await;
    let pages: usize = match first.rsplit_once(" (1/") {
        Some((_, tail)) => tail.split([',', ')']).next().unwrap().parse().unwrap(),
        None => 1,
    };
    assert_eq!(encoding::analyse(&first).parts, 1, "{code}: {first}");
    if pages > 1 {
        assert!(
            first.ends_with(&format!("(1/{pages}, ranshe: {page_word}2)")),
            "{code}: {first}"
        );
    }
    for k in 2..=pages {
        app.sms(PHONE, &format!("{page_word}{k}")).await;
        let page = app.one_text(PHONE).await;
        assert_eq!(encoding::analyse(&page).parts, 1, "{code} page {k}: {page}");
        assert!(
            page.contains(&format!("({k}/{pages}")),
            "{code} page {k}: {page}"
        );
    }
    app.sms(PHONE, &format!("{page_word}{}", pages + 1)).await;
    let past = app.one_text(PHONE).await;
    assert!(
        past.starts_with(&format!("Stranicy {} net", pages + 1)),
        "{past}"
    );
    pages
}

#[tokio::test]
async fn smsarena_replay_checks_an_export_file_and_an_altered_one_fails() {
    let app = TestApp::with_config(|cfg| cfg.admin.token = TOKEN.into()).await;
    app.register(&[(PHONE, "ann")]).await;
    let id = play_whole(&app, "PS", "BOT 1").await;
    let export = export_of(&app, id).await;
    let dir = tempfile::tempdir().unwrap();
    let run = |export: &Export, name: &str| {
        let path = dir.path().join(name);
        std::fs::write(&path, serde_json::to_string(export).unwrap()).unwrap();
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_smsarena"))
            .arg("replay")
            .arg(&path)
            .output()
            .unwrap();
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stdout).into_owned(),
        )
    };
    let (code, out) = run(&export, "whole.json");
    assert_eq!(code, Some(0), "{out}");
    assert!(out.contains("replay from seed"), "{out}");

    // A move changed, a final state claimed, a state on the way or the
    // notation altered: each fails.
    let catalog = app.state.platform().catalog();
    let mut moved = export.clone();
    let last = moved.moves.len() - 1;
    moved.moves[last].notation = "1".into();
    let mut claimed = export.clone();
    claimed.final_state = export.initial_state.clone();
    // (Paper soccer draws nothing from its seed: a state on the way instead.)
    let mut restated = export.clone();
    restated.moves[1].state_after = export.initial_state.clone();
    let mut renoted = export.clone();
    renoted.notation.push('1');
    for (name, altered) in [
        ("moved", &moved),
        ("claimed", &claimed),
        ("restated", &restated),
        ("renoted", &renoted),
    ] {
        assert!(check(catalog, altered).is_err(), "{name}");
    }
    let (code, out) = run(&claimed, "claimed.json");
    assert_eq!(code, Some(1), "{out}");
    assert!(out.contains("not to the final state given"), "{out}");

    // What it says of its seats and ending, each forged alone: refused.
    let robot = export.seats.iter().position(|s| s.robot.is_some()).unwrap();
    let player = 1 - robot;
    let forge = |change: &dyn Fn(&mut Export)| {
        let mut forged = export.clone();
        change(&mut forged);
        forged
    };
    let forgeries = [
        (
            "robot made a player",
            forge(&|e| {
                e.seats[robot].robot = None;
                e.seats[robot].nick = Some("mallory".into());
            }),
        ),
        ("robot's level", forge(&|e| e.seats[robot].robot = Some(3))),
        (
            "player made a robot",
            forge(&|e| {
                e.seats[player].nick = None;
                e.seats[player].robot = Some(1);
            }),
        ),
        (
            "nick with an escape",
            forge(&|e| {
                e.seats[player].nick = Some("ann\u{1b}[2J".into());
            }),
        ),
        (
            "places swapped",
            forge(&|e| {
                let (a, b) = (e.seats[0].place, e.seats[1].place);
                e.seats[0].place = b;
                e.seats[1].place = a;
            }),
        ),
        ("a place dropped", forge(&|e| e.seats[player].place = None)),
        (
            "a score given",
            forge(&|e| e.seats[player].score = Some(99)),
        ),
        ("not finished", forge(&|e| e.finished = false)),
        ("seats renumbered", forge(&|e| e.seats[0].seat = 5)),
        ("seats reordered", forge(&|e| e.seats.reverse())),
        (
            "a seat more",
            forge(&|e| {
                let extra = e.seats[player].clone();
                e.seats.push(extra);
            }),
        ),
        (
            "a seat less",
            forge(&|e| {
                e.seats.remove(robot);
            }),
        ),
        ("a move by no seat", forge(&|e| e.moves[0].seat = 99)),
    ];
    for (name, forged) in &forgeries {
        assert_ne!(forged, &export, "{name}");
        let err = check(catalog, forged).expect_err(name);
        assert!(
            matches!(
                err,
                ExportError::Disagrees(_) | ExportError::Malformed(_) | ExportError::Replay(_)
            ),
            "{name}: {err}"
        );
    }
    let (code, out) = run(&forgeries[4].1, "places.json");
    assert_eq!(code, Some(1), "{out}");
    assert!(
        out.contains("disagrees with its own replay: seat 0 finished"),
        "{out}"
    );

    // Escapes in what it prints are shown, not acted on; a file past the
    // cap is refused unread.
    let (code, out) = run(
        &Export {
            game: "\u{1b}]0;owned\u{7}PS".into(),
            ..export.clone()
        },
        "escaped.json",
    );
    assert_eq!(code, Some(1), "{out}");
    assert!(out.contains("\\u{1b}]0;owned\\u{7}PS"), "{out}");
    assert!(!out.contains('\u{1b}') && !out.contains('\u{7}'), "{out:?}");
    let big = dir.path().join("big.json");
    let mut padded = serde_json::to_string(&export).unwrap().into_bytes();
    padded.resize(EXPORT_MAX_BYTES as usize + 1, b' ');
    std::fs::write(&big, padded).unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_smsarena"))
        .arg("replay")
        .arg(&big)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("more than 8 MiB"), "{err}");
    let (code, _) = run(
        &Export {
            format: "other/9".into(),
            ..export
        },
        "other.json",
    );
    assert_eq!(code, Some(1));
}

/// Football's export names its rounds and players (`1. A: ann 3, bot2 06 /
/// D: ...`); an export made before, with the former bare digits, still
/// replays; a notation that is neither is refused.
#[tokio::test]
async fn a_football_export_reads_turn_by_turn_and_one_in_the_former_notation_still_replays() {
    let app = TestApp::with_config(|cfg| cfg.admin.token = TOKEN.into()).await;
    app.register(&[(PHONE, "ann")]).await;
    let catalog = app.state.platform().catalog();
    let id = play_whole(&app, "FB", "BOT").await;
    let export = export_of(&app, id).await;
    assert!(export.notation.starts_with("1. A: "), "{}", export.notation);
    assert!(export.notation.contains("ann "), "{}", export.notation);
    assert!(export.notation.contains("bot"), "{}", export.notation);
    check(catalog, &export).unwrap();

    let mut former = export.clone();
    former.notation = export
        .moves
        .iter()
        .filter(|m| m.kind != "withdrawal")
        .map(|m| m.notation.as_str())
        .collect::<Vec<_>>()
        .join(" ");
    check(catalog, &former).unwrap_or_else(|e| panic!("{e}: {}", former.notation));

    let mut altered = export.clone();
    altered.notation = altered.notation.replace("ann ", "bob ");
    assert!(check(catalog, &altered).is_err());
}
