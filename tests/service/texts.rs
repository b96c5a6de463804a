//! The operator's own wording: a folder of Fluent files named in
//! `[texts] overrides` changes a reply of the running service after a
//! restart, and a broken one stops the start, naming the message.

use crate::common;

use std::process::Command;
use std::time::Duration;

use common::cluster::{launch, wait_healthy};

const WELCOME: &str = "welcome-stranger = Privet! Zaregistriruites: R nik na { $game_number }.\n";

/// The next text the capturing provider receives for `to`.
async fn next_text(cluster: &mut common::cluster::Cluster, to: &str) -> String {
    loop {
        let (_, number, text) = tokio::time::timeout(Duration::from_secs(20), cluster.texts.recv())
            .await
            .expect("a reply within 20 s")
            .expect("the provider is up");
        if number == to {
            return text;
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_override_folder_changes_one_reply_after_a_restart() {
    let dir = tempfile::tempdir().unwrap();
    let overrides = dir.path().join("texts");
    std::fs::create_dir_all(overrides.join("ru-Latn")).unwrap();
    std::fs::write(overrides.join("ru-Latn/welcome.ftl"), WELCOME).unwrap();
    let db = common::fresh_database(dir.path()).await;
    let mut cluster = launch(&db, 1, &[]).await;

    cluster
        .driver
        .sms("+79001110001", common::GAME, "HELP")
        .await;
    let before = next_text(&mut cluster, "+79001110001").await;
    assert!(before.starts_with("SMS-igry. Dlya registracii"), "{before}");

    let http = reqwest::Client::new();
    let instance = &mut cluster.instances[0];
    instance.kill();
    instance.env.push((
        "SMSARENA_TEXTS__OVERRIDES".into(),
        overrides.display().to_string(),
    ));
    instance.start();
    wait_healthy(&http, &instance.url()).await;

    cluster
        .driver
        .sms("+79001110002", common::GAME, "HELP")
        .await;
    let after = next_text(&mut cluster, "+79001110002").await;
    assert_eq!(
        after,
        format!("Privet! Zaregistriruites: R nik na {}.", common::GAME)
    );
    // The other language keeps its built-in wording.
    cluster
        .driver
        .sms("+79001110002", common::GAME, "R ann")
        .await;
    let registered = next_text(&mut cluster, "+79001110002").await;
    assert!(
        registered.starts_with("Vy zaregistrirovany kak ann."),
        "{registered}"
    );
}

#[test]
fn a_broken_override_stops_the_start_naming_the_message() {
    let cases = [
        (
            "en/typo.ftl",
            "registred = Hi { $nick }.\n",
            "message registred: no such message",
        ),
        (
            "en/vars.ftl",
            "registered = Hi { $name }.\n",
            "message registered: names $name",
        ),
        (
            "ru-Latn/long.ftl",
            &*format!("resigned = {}\n", "Vy sdalis. ".repeat(20)),
            "message resigned: takes 2 SMS parts",
        ),
        (
            "fr/x.ftl",
            "resigned = Abandon.\n",
            "fr/ is no language of ours",
        ),
    ];
    for (file, text, expected) in cases {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(file);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, text).unwrap();
        let out = Command::new(env!("CARGO_BIN_EXE_smsarena"))
            .args(["serve", "--config", "/dev/null"])
            .env("SMSARENA_TEXTS__OVERRIDES", dir.path())
            .env("SMSARENA_HTTP__LISTEN", "127.0.0.1:0")
            .env(
                "SMSARENA_DATABASE__URL",
                format!("sqlite://{}", dir.path().join("never.db").display()),
            )
            .output()
            .unwrap();
        let said = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{file}: {said}");
        assert!(
            said.contains("bad configuration: texts.overrides"),
            "{file}: {said}"
        );
        assert!(said.contains(expected), "{file}: {said}");
        assert!(
            !dir.path().join("never.db").exists(),
            "{file}: refused before the database was opened"
        );
    }
}
