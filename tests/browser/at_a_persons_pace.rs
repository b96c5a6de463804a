//! A person's pace in the training hall: a text a second for a minute from
//! the page, under the shipped flood limits, never dropped.
//!
//! A module of its own, named to sort first: libtest starts tests in the
//! order of their names, so this minute of mostly waiting begins at once
//! and the other browser tests run beside it rather than after it.

use crate::common;
use crate::hall_browser::{a_legal_move, new_phone, not_sent, seat_of, text, type_and_send};

use std::time::{Duration, Instant};

use common::GAME;
use common::browser::{Browser, NARROW};
use common::hall_page::hall_with;

/// A person's pace is never a flood: a text a second for a minute, with a
/// burst of five every fifteen seconds, played from the page against a
/// robot under the shipped limits; every text is read and none is refused.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_text_a_second_for_a_minute_is_never_dropped() {
    let Some(browser) = Browser::start(NARROW).await else {
        return;
    };
    let shipped = smsarena::config::LimitsConfig::default();
    let hall = hall_with(|cfg| cfg.limits = shipped).await;
    browser.goto(&format!("{}/hall", hall.base)).await;
    let me = new_phone(&browser).await;
    text(&browser, GAME, "R pace").await;

    let started = tokio::time::Instant::now();
    let mut sent = 1;
    for second in 0..60u64 {
        tokio::time::sleep_until(started + Duration::from_secs(second)).await;
        let burst = if second % 15 == 14 { 5 } else { 1 };
        for _ in 0..burst {
            let in_match = seat_of(&hall.state, &me).await;
            let mv = in_match
                .as_ref()
                .and_then(|(game, s, seat)| a_legal_move(game, s, *seat));
            match (in_match, mv) {
                (Some(_), Some(mv)) => type_and_send(&browser, GAME, &mv).await,
                // The robot still thinking: the board asked for, as a
                // player waiting would.
                (Some(_), None) => type_and_send(&browser, GAME, "B").await,
                (None, _) => browser.click("button.practice[data-game='PS']").await,
            }
            sent += 1;
        }
    }
    let settled = "return Array.from(document.querySelectorAll('#thread li.out'))
        .filter(li => !li.querySelector('.meta').textContent.includes('sending')).length";
    let deadline = Instant::now() + Duration::from_secs(20);
    while browser.eval(settled).await.as_u64().unwrap() < sent as u64 {
        assert!(Instant::now() < deadline, "texts still sending");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let refused = browser
        .eval("return document.querySelectorAll('#thread .refused').length")
        .await;
    assert_eq!(not_sent(&browser).await, Vec::<String>::new());
    let took = started.elapsed();
    eprintln!("{sent} texts in {took:?} from the page, {refused} refused");
    assert_eq!(refused, 0, "a person's pace met the flood limit");
    let read = hall
        .state
        .store()
        .read(|r| r.count_rows("inbound"))
        .await
        .unwrap();
    assert_eq!(read, sent as i64, "every text was read");
    browser.screenshot("hall-pace-390").await;
    browser.close().await;
}
