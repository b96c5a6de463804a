//! What a whole game costs a player in SMS parts: 20 games of every game
//! against level-2 robots, the phone's moves chosen as a level-2 robot
//! would (texted like any player's), every part sent to the phone counted
//! from his `P` to the final board. Prints the median and the range (the
//! figures of `BENCHMARKS.md` and the guides) and holds each median to its
//! budget: a robot's reply and the player's move share one text.

use crate::common;

use common::TestApp;

const PHONE: &str = "+7801";
const GAMES: u64 = 20;

/// Plays one whole game; the parts sent to the phone.
async fn one_game(app: &TestApp, code: &str, options: &str, seed: u64) -> u32 {
    let before = app.texts_to(PHONE).await.len();
    common::whole::play_whole(app, PHONE, code, options, 2, seed).await;
    let texts = app.texts_to(PHONE).await;
    texts[before..].iter().map(|t| t.parts).sum()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_whole_robot_game_of_every_game_costs_its_player_under_300_parts() {
    let app = TestApp::new().await;
    app.register(&[(PHONE, "ann")]).await;
    let mut report = Vec::new();
    let mut medians = Vec::new();
    for (code, options) in common::whole::AGAINST_LEVEL_2 {
        let mut parts = Vec::new();
        for seed in 0..GAMES {
            parts.push(one_game(&app, code, options, seed).await);
        }
        parts.sort_unstable();
        let median = (parts[parts.len() / 2 - 1] + parts[parts.len() / 2]) / 2;
        report.push(format!(
            "{code} {options}: median {median} parts, {} to {}",
            parts[0],
            parts[parts.len() - 1]
        ));
        medians.push((code, median));
    }
    eprintln!(
        "SMS parts a whole game costs its player (20 games each):\n{}",
        report.join("\n")
    );
    for (code, median) in medians {
        assert!(median < 300, "{code}: median {median} parts");
    }
}

/// Intelball against its strongest robot, three whole games: each under 220
/// parts, now that the board's legend comes with the first round only (262
/// with it on every board).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_intelball_game_against_level_3_costs_under_220_parts() {
    let app = TestApp::new().await;
    app.register(&[(PHONE, "ann")]).await;
    let mut parts = Vec::new();
    for seed in 0..3 {
        parts.push(one_game(&app, "IB", "BOT 3", seed).await);
    }
    eprintln!("IB BOT 3, three games: {parts:?} parts");
    assert!(parts.iter().all(|&p| p < 220), "{parts:?}");
}
