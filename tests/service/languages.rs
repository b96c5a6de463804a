//! Every game played to its end in every language, every text from that
//! language's catalog: no message missing (a bare id), no sentence of
//! another language, and Cyrillic where the player asked for it.

use crate::common;

use common::TestApp;
use smsarena::lang::Lang;

/// Words that only the one language's texts have.
fn marks(lang: Lang) -> &'static [&'static str] {
    match lang {
        Lang::En => &["Your move", "You won", "You lost", "rematch"],
        Lang::Ru => &["Vash xod", "Vi pobedili", "Vi proigrali", "revansh"],
        // Whole phrases: a word battle board holds Russian words (`ход`).
        Lang::Cyr => &["Неизвестная команда", "P - игра"],
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_game_plays_to_its_end_in_every_language_from_its_catalog() {
    let app = TestApp::new().await;
    let ids: Vec<String> = Lang::ALL
        .iter()
        .flat_map(|&l| smsarena_text::locales::installed().ids(l))
        .filter(|id| id.contains('-'))
        .collect();
    for (n, lang) in Lang::ALL.into_iter().enumerate() {
        let phone = format!("+7802{n}");
        app.register(&[(&*phone, &*format!("lang{n}"))]).await;
        app.sms(&phone, &format!("LANG {lang}")).await;
        for (code, options) in common::whole::AGAINST_LEVEL_2 {
            let before = app.texts_to(&phone).await.len();
            common::whole::play_whole(&app, &phone, code, options, 2, 7).await;
            // After the end: the help, and a text no command reads.
            app.sms(&phone, "HELP").await;
            app.sms(&phone, "ZZZ").await;
            let texts: Vec<String> = app.texts_to(&phone).await[before..]
                .iter()
                .map(|t| t.body.clone())
                .collect();
            assert!(texts.len() >= 3, "{lang} {code}: {texts:?}");
            let all = texts.join("\n");
            for id in &ids {
                assert!(
                    !all.contains(id.as_str()),
                    "{lang} {code}: the bare id {id}:\n{all}"
                );
            }
            for other in Lang::ALL.into_iter().filter(|&o| o != lang) {
                for mark in marks(other) {
                    // Cyrillic boards keep the transliterated lines.
                    if lang == Lang::Cyr && other == Lang::Ru {
                        continue;
                    }
                    assert!(
                        !all.contains(mark),
                        "{lang} {code}: {other}'s {mark:?} in:\n{all}"
                    );
                }
            }
            assert!(
                marks(lang).iter().any(|m| all.contains(m)),
                "{lang} {code}: none of {:?} in:\n{all}",
                marks(lang)
            );
            if lang == Lang::Cyr {
                let cyrillic = texts
                    .iter()
                    .filter(|t| t.chars().any(|c| ('а'..='я').contains(&c)))
                    .count();
                assert!(cyrillic >= 2, "{code}: {cyrillic} Cyrillic texts:\n{all}");
            }
        }
    }
}
