//! A conversation through the real router over a real SQLite file: accounts, opt-out, help, unknown text.

use crate::common;

use common::{GAME, PLAY, TestApp};
use smsarena::clock::Clock;

const ALICE: &str = "+79001110001";
const BOB: &str = "+79001110002";

#[tokio::test]
async fn register_rename_and_refuse_a_taken_nick() {
    let app = TestApp::new().await;
    app.sms(ALICE, "R ronaldo").await;
    assert_eq!(
        app.one_text(ALICE).await,
        "Vy zaregistrirovany kak ronaldo. Dlya nachala igry otpravte P na 002227."
    );

    app.sms(BOB, "r RONALDO").await;
    assert_eq!(
        app.one_text(BOB).await,
        "Nik RONALDO uzhe zanyat. Vyberite drugoi: R nik"
    );

    app.sms(ALICE, "R Ronaldo9").await;
    assert_eq!(
        app.one_text(ALICE).await,
        "Vash nik izmenen: ronaldo -> Ronaldo9."
    );
    // The old nick is free again.
    app.sms(BOB, "R ronaldo").await;
    assert!(
        app.one_text(BOB)
            .await
            .starts_with("Vy zaregistrirovany kak ronaldo.")
    );

    app.sms(ALICE, "R Ronaldo9").await;
    assert_eq!(
        app.one_text(ALICE).await,
        "Vy uzhe zaregistrirovany kak Ronaldo9."
    );
    // Changing only the case of one's own nick is a rename, not a clash.
    app.sms(ALICE, "R RONALDO9").await;
    assert_eq!(
        app.one_text(ALICE).await,
        "Vash nik izmenen: Ronaldo9 -> RONALDO9."
    );

    app.sms(ALICE, "R x").await;
    assert_eq!(
        app.one_text(ALICE).await,
        "Nik: 2-16 latinskih bukv, cifr ili _. Primer: R ronaldo"
    );
    assert_eq!(app.count("players").await, 2);
}

/// Staff words, robots' names and command words are no nicks, in any case;
/// a player who already holds one keeps it.
#[tokio::test]
async fn reserved_nicks_are_refused_with_a_reason() {
    let app = TestApp::new().await;
    for (nick, why) in [
        ("ADMIN", "dlya administracii"),
        ("support", "dlya administracii"),
        ("Robot3", "dlya robotov"),
        ("bot_2", "dlya robotov"),
        ("STOP", "kak komanda"),
        ("HELP", "kak komanda"),
        ("stat", "kak komanda"),
    ] {
        app.sms(ALICE, &format!("R {nick}")).await;
        assert_eq!(
            app.one_text(ALICE).await,
            format!("Nik {nick} zarezervirovan {why}. Vyberite drugoi: R nik")
        );
    }
    app.sms(ALICE, "LANG EN").await;
    app.inbox(ALICE).await;
    app.sms(ALICE, "R Moderator").await;
    assert_eq!(
        app.one_text(ALICE).await,
        "The nick Moderator is reserved for staff. Choose another: R nick"
    );
    let store = app.state.store().clone();
    let nick_of = |phone: &'static str| {
        let store = store.clone();
        async move {
            store
                .read(move |r| r.player_by_phone(phone))
                .await
                .unwrap()
                .and_then(|p| p.nick)
        }
    };
    assert_eq!(nick_of(ALICE).await, None, "nothing reserved was taken");

    // One who held such a nick before it was reserved keeps it.
    app.register(&[(BOB, "grandpa")]).await;
    let now = app.clock.now();
    store
        .run(move |tx| {
            let mut bob = tx.players().by_nick("grandpa")?.unwrap();
            bob.nick = Some("Admin".into());
            tx.players().save(&bob, now)
        })
        .await
        .unwrap();
    app.sms(BOB, "R Admin").await;
    assert_eq!(
        app.one_text(BOB).await,
        "Vy uzhe zaregistrirovany kak Admin."
    );
    app.sms(BOB, "STAT Admin").await;
    assert!(app.one_text(BOB).await.contains("Admin"));
    assert_eq!(nick_of(BOB).await.as_deref(), Some("Admin"));
}

#[tokio::test]
async fn replies_come_from_the_number_the_player_texted() {
    let app = TestApp::new().await;
    app.sms_to(ALICE, PLAY, "HELP").await;
    app.sms_to(ALICE, GAME, "HELP").await;
    let texts = app.texts_to(ALICE).await;
    assert_eq!(texts[0].from, PLAY);
    assert_eq!(texts[1].from, GAME);
}

#[tokio::test]
async fn a_stranger_gets_help_and_is_told_how_to_register() {
    let app = TestApp::new().await;
    app.sms(ALICE, "HELP").await;
    assert!(app.one_text(ALICE).await.contains("otpravte R nik"));
    app.sms(ALICE, "P").await;
    assert_eq!(
        app.one_text(ALICE).await,
        "Snachala zaregistriruites: otpravte R nik na 002220. HELP - pomoshch."
    );
    app.sms(ALICE, "what is this").await;
    assert!(
        app.one_text(ALICE)
            .await
            .starts_with("Snachala zaregistriruites")
    );
    // Strangers who only ask leave no account behind.
    assert_eq!(app.count("players").await, 0);
}

#[tokio::test]
async fn stop_silences_everything_until_start() {
    let app = TestApp::new().await;
    app.sms(ALICE, "R alice").await;
    app.inbox(ALICE).await;

    // Not an opt-out: only the single word is.
    app.sms(ALICE, "stop please").await;
    assert_eq!(
        app.one_text(ALICE).await,
        "Neizvestnaya komanda. HELP - spisok komand."
    );

    app.sms(ALICE, "STOP").await;
    assert!(
        app.one_text(ALICE)
            .await
            .starts_with("Vy otpisalis ot vseh soobshchenii.")
    );
    for text in ["HELP", "P", "R alice2", "3", "LANG EN", "STOP", "hello"] {
        app.sms(ALICE, text).await;
    }
    assert!(
        app.inbox(ALICE).await.is_empty(),
        "an opted-out number receives nothing"
    );

    app.sms(ALICE, "START").await;
    assert!(
        app.one_text(ALICE)
            .await
            .starts_with("Podpiska vozobnovlena.")
    );
    app.sms(ALICE, "HELP").await;
    assert!(app.one_text(ALICE).await.starts_with("P - igra"));
    // The nick survived the opt-out, and the texts sent while opted out changed nothing.
    app.sms(ALICE, "R alice").await;
    assert_eq!(
        app.one_text(ALICE).await,
        "Vy uzhe zaregistrirovany kak alice."
    );
}

#[tokio::test]
async fn a_stranger_can_opt_out_before_registering() {
    let app = TestApp::new().await;
    for word in ["unsubscribe"] {
        app.sms(ALICE, word).await;
    }
    assert!(app.one_text(ALICE).await.starts_with("Vy otpisalis"));
    app.sms(ALICE, "HELP").await;
    assert!(app.inbox(ALICE).await.is_empty());
    app.sms(ALICE, "UNSTOP").await;
    assert!(
        app.one_text(ALICE)
            .await
            .starts_with("Podpiska vozobnovlena.")
    );
    app.sms(ALICE, "P").await;
    assert!(
        app.one_text(ALICE)
            .await
            .starts_with("Snachala zaregistriruites")
    );
}

#[tokio::test]
async fn language_switches_replies_to_english() {
    let app = TestApp::new().await;
    app.sms(ALICE, "R alice").await;
    app.sms(ALICE, "LANG EN").await;
    app.inbox(ALICE).await;
    app.sms(ALICE, "blah").await;
    assert_eq!(
        app.one_text(ALICE).await,
        "Unknown command. Text HELP for the list."
    );
    app.sms(ALICE, "LANG XX").await;
    assert_eq!(
        app.one_text(ALICE).await,
        "Format: LANG EN, LANG RU or LANG CYR (Russian in Cyrillic)"
    );
    app.sms(ALICE, "lang ru").await;
    assert_eq!(app.one_text(ALICE).await, "Yazyk: russkii (latinicei).");
}

#[tokio::test]
async fn unknown_text_and_junk_after_a_command_get_a_hint() {
    let app = TestApp::new().await;
    app.sms(ALICE, "R alice").await;
    app.inbox(ALICE).await;
    app.sms(ALICE, "xyzzy").await;
    assert_eq!(
        app.one_text(ALICE).await,
        "Neizvestnaya komanda. HELP - spisok komand."
    );
    app.sms(ALICE, "T now").await;
    assert_eq!(
        app.one_text(ALICE).await,
        "Komanda T otpravlyaetsya bez dopolnitelnogo teksta."
    );
    app.sms(ALICE, "S bob").await;
    assert_eq!(app.one_text(ALICE).await, "Format: S nik tekst");
    app.sms(ALICE, "").await;
    assert_eq!(
        app.one_text(ALICE).await,
        "Neizvestnaya komanda. HELP - spisok komand."
    );
}

#[tokio::test]
async fn timeout_is_confirmed() {
    let app = TestApp::new().await;
    app.sms(ALICE, "R alice").await;
    app.inbox(ALICE).await;
    app.sms(ALICE, "Т").await; // Cyrillic Т
    assert!(app.one_text(ALICE).await.starts_with("Vy vzyali taim-aut"));
}

#[tokio::test]
async fn texts_are_stored_with_encoding_and_parts() {
    let app = TestApp::new().await;
    app.sms(ALICE, "R alice").await;
    let text = &app.texts_to(ALICE).await[0];
    assert_eq!(text.encoding, "gsm7");
    assert_eq!(text.parts, 1);
    assert_eq!(text.status, smsarena::store::TextStatus::Queued);
}
