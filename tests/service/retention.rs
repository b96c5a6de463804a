//! Inbound texts past `database.inbound_retention_days` keep only their
//! provider ids: the scheduler trims their bodies and numbers, and a
//! provider's late retry of one is still acknowledged, not applied again.

use crate::common;

use chrono::Duration;
use common::{GAME, TestApp};
use smsarena::scheduler::trim_inbound;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn old_texts_are_trimmed_to_their_ids_and_their_retries_still_known() {
    let app = TestApp::with_config(|cfg| cfg.database.inbound_retention_days = 30).await;
    let url = app.state.config().database.url.clone();
    app.post_sms("old", "+79001234567", GAME, "R ann").await;
    app.clock.advance(Duration::days(20));
    app.post_sms("newer", "+79001234567", GAME, "HELP").await;
    let mut mark = 0;
    assert_eq!(
        trim_inbound(&app.state, &mut mark).await,
        0,
        "none is old enough"
    );
    app.clock.advance(Duration::days(11));
    assert_eq!(trim_inbound(&app.state, &mut mark).await, 1);
    let rows: Vec<[String; 3]> = common::raw_rows(
        &url,
        "SELECT provider_id, body, from_phone FROM inbound ORDER BY id",
    )
    .await;
    assert_eq!(
        rows,
        [
            ["old".to_string(), String::new(), String::new()],
            ["newer".into(), "HELP".into(), "+79001234567".into()],
        ]
    );
    let retry = app.post_sms("old", "+79001234567", GAME, "R ann").await;
    assert_eq!(retry.body, r#"{"status":"duplicate"}"#);
    assert_eq!(
        trim_inbound(&app.state, &mut mark).await,
        0,
        "nothing more yet"
    );

    let kept = TestApp::with_config(|cfg| cfg.database.inbound_retention_days = 0).await;
    kept.post_sms("x", "+79001234567", GAME, "R ann").await;
    kept.clock.advance(Duration::days(3650));
    assert_eq!(
        trim_inbound(&kept.state, &mut 0).await,
        0,
        "0 keeps them for ever"
    );
}
