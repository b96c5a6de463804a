//! Players' standing over HTTP, on the trial game (`TR`, count to 21): a
//! rated match moves both ratings once and `STAT`, `LAST` and `TOP` tell it;
//! hot-seat, `U` and abandoned matches move no rating; a seeded population's
//! leaderboard (ties, provisional players, a player with no games, a place
//! beyond the top five), every answer one SMS in both languages.

use crate::common;

use common::{PLAY, TestApp};
use smsarena::encoding;
use smsarena::ratings::Rating;
use smsarena::store::StandingRow;

const A: &str = "+7801";
const B: &str = "+7802";
const C: &str = "+7803";

async fn three() -> TestApp {
    let app = TestApp::new().await;
    app.register(&[(A, "ann"), (B, "bob"), (C, "cid")]).await;
    for phone in [A, B] {
        app.sms(phone, "LANG EN").await;
        app.inbox(phone).await;
    }
    app
}

async fn play(app: &TestApp, phone: &str, text: &str) {
    app.sms_to(phone, PLAY, text).await;
}

/// One SMS, read off the phone.
async fn one_sms(app: &TestApp, phone: &str) -> String {
    let text = app.one_text(phone).await;
    assert_eq!(encoding::analyse(&text).parts, 1, "one SMS: {text:?}");
    text
}

/// Ann and Bob play `P TR <options>`; Ann counts to 21 by threes and wins.
async fn ann_beats_bob(app: &TestApp, options: &str) {
    play(app, A, &format!("P TR {options}")).await;
    play(app, B, &format!("P TR {options}")).await;
    for turn in 0..7 {
        app.sms(if turn % 2 == 0 { A } else { B }, "3").await;
    }
    let (record, _) = app.last_match(A).await.unwrap();
    assert!(record.finished, "Ann counted to 21");
    app.inbox(A).await;
    app.inbox(B).await;
}

async fn standing(app: &TestApp, phone: &str) -> Option<StandingRow> {
    let phone = phone.to_string();
    app.state
        .store()
        .read(move |r| {
            let p = r.player_by_phone(&phone)?.unwrap();
            r.standings().of("TR", p.id)
        })
        .await
        .unwrap()
}

#[tokio::test]
async fn a_rated_match_moves_both_ratings_once_and_stat_last_and_top_tell_it() {
    let app = three().await;
    ann_beats_bob(&app, "").await;
    let ann = standing(&app, A).await.unwrap();
    let bob = standing(&app, B).await.unwrap();
    assert_eq!((ann.games, ann.wins, ann.rated_games), (1, 1, 1));
    assert_eq!((bob.games, bob.losses, bob.rated_games), (1, 1, 1));
    assert!(ann.rating.rating > 1500.0 && bob.rating.rating < 1500.0);
    let gain = ann.rating.points() - 1500;
    assert_eq!(app.count("rating_changes").await, 2);

    app.sms(A, "STAT").await;
    assert_eq!(
        one_sms(&app, A).await,
        format!(
            "ann (won-drawn-lost, rating): TR 1-0-0 {}?. ? = under 10 rated games.",
            1500 + gain
        )
    );
    app.sms(A, "STAT bob").await;
    assert!(
        one_sms(&app, A)
            .await
            .starts_with("bob (won-drawn-lost, rating): TR 0-0-1 ")
    );
    app.sms(A, "LAST").await;
    assert_eq!(
        one_sms(&app, A).await,
        format!("Last: TR v bob: won, +{gain}.")
    );
    app.sms(B, "LAST").await;
    assert_eq!(
        one_sms(&app, B).await,
        format!("Last: TR v ann: lost, -{gain}.")
    );
    // Without a game, TOP is of his last match's game. One game makes no
    // leader: the board lists established ratings only, and says how far
    // the sender's is from one.
    app.sms(A, "TOP").await;
    assert_eq!(
        one_sms(&app, A).await,
        format!(
            "TOP TR: no rating rests on 10 rated games yet. You: {}?, listed after 10 rated games (1 so far).",
            1500 + gain,
        )
    );
    // In Russian too, and for a player with no games.
    app.sms(C, "TOP TR").await;
    assert_eq!(
        one_sms(&app, C).await,
        "TOP TR: ni u kogo eshche net 10 reitingovyh igr. U vas eshche net reitinga."
    );
    app.sms(C, "STAT").await;
    assert_eq!(one_sms(&app, C).await, "U cid eshche net zavershennyh igr.");
    app.sms(C, "LAST").await;
    assert_eq!(
        one_sms(&app, C).await,
        "U vas eshche net zavershennyh igr. Igrat: P"
    );
}

#[tokio::test]
async fn bad_words_after_the_standing_commands_are_answered_with_their_form() {
    let app = three().await;
    let before = app.count("ratings").await;
    for (text, reply) in [
        (
            "TOP TR now",
            "TOP - the best of your game, TOP PS - of the game PS.",
        ),
        ("TOP XX", "No game XX here."),
        ("STAT a b", "STAT - your record, STAT nick - a player's."),
        ("STAT !!", "STAT - your record, STAT nick - a player's."),
        ("STAT nobody", "No player called nobody."),
        ("LAST 3", "Send LAST on its own"),
    ] {
        app.sms(A, text).await;
        let got = one_sms(&app, A).await;
        assert!(got.starts_with(reply), "{text}: {got}");
    }
    assert_eq!(app.count("ratings").await, before, "nothing changed");
    // A stranger is told to register first.
    app.sms("+7809", "TOP").await;
    assert!(app.one_text("+7809").await.contains("R "));
}

#[tokio::test]
async fn hot_seat_unrated_and_abandoned_matches_move_no_rating() {
    let app = three().await;
    // One phone holding both seats: nothing at all.
    play(&app, C, "P TR HOT").await;
    for _ in 0..7 {
        app.sms(C, "3").await;
    }
    assert!(app.last_match(C).await.unwrap().0.finished);
    assert_eq!(
        standing(&app, C).await,
        None,
        "a hot-seat game counts for nothing"
    );

    // `U` waits only for another `U`, then counts in the record, not the rating.
    play(&app, A, "P TR U").await;
    play(&app, B, "P TR").await;
    assert_eq!(app.matches().await, 1, "U and rated players are not paired");
    play(&app, B, "P TR U").await;
    for turn in 0..7 {
        app.sms(if turn % 2 == 0 { A } else { B }, "3").await;
    }
    let ann = standing(&app, A).await.unwrap();
    assert_eq!((ann.games, ann.wins, ann.rated_games), (1, 1, 0));
    assert_eq!(ann.rating, Rating::new_player());
    app.inbox(A).await;
    app.sms(A, "LAST").await;
    assert_eq!(one_sms(&app, A).await, "Last: TR v bob: won, unrated.");
    app.sms(A, "STAT").await;
    assert_eq!(
        one_sms(&app, A).await,
        "ann (won-drawn-lost, rating): TR 1-0-0 unrated."
    );

    // Over in its second turn: a resignation straight after the first move.
    play(&app, A, "P TR").await;
    play(&app, B, "P TR").await;
    app.sms(A, "3").await;
    app.sms(B, "Q").await;
    assert!(app.last_match(A).await.unwrap().0.finished);
    let ann = standing(&app, A).await.unwrap();
    assert_eq!((ann.games, ann.wins, ann.rated_games), (2, 2, 0));
    assert_eq!(app.count("rating_changes").await, 0);
}

#[tokio::test]
async fn a_robot_plays_at_its_fixed_rating() {
    let app = three().await;
    play(&app, A, "P TR BOT 2").await;
    for _ in 0..20 {
        if app.last_match(A).await.unwrap().0.finished {
            break;
        }
        app.robots().await;
        if !app.last_match(A).await.unwrap().0.finished {
            app.sms(A, "1").await;
        }
    }
    let (record, _) = app.last_match(A).await.unwrap();
    assert!(record.finished);
    let ann = standing(&app, A).await.unwrap();
    assert_eq!(ann.rated_games, 1);
    assert_ne!(ann.rating.points(), 1500, "the match moved her rating");
    app.inbox(A).await;
    app.sms(A, "LAST").await;
    assert!(one_sms(&app, A).await.starts_with("Last: TR v bot2: "));
}

/// Seeds `nick`'s standing in TR directly.
async fn seed(app: &TestApp, phone: &str, points: f64, rated_games: i64) {
    let phone = phone.to_string();
    let id = app
        .state
        .store()
        .read({
            let phone = phone.clone();
            move |r| Ok(r.player_by_phone(&phone)?.unwrap().id)
        })
        .await
        .unwrap();
    let row = StandingRow {
        rating: Rating {
            rating: points,
            deviation: 80.0,
            volatility: 0.06,
        },
        rated_games,
        games: rated_games,
        wins: rated_games,
        ..StandingRow::new(id, "TR")
    };
    let now = chrono::Utc::now();
    app.state
        .store()
        .run(move |tx| tx.standings().save(&row, now))
        .await
        .unwrap();
}

/// TOP lists established ratings only (ten rated games or more), however
/// high a one-game player's rating: he is told how far he is from the list.
#[tokio::test]
async fn a_seeded_leaderboard_lists_established_ratings_shares_places_and_fits_one_sms() {
    let app = TestApp::new().await;
    // Nicks as long as they may be.
    let players: Vec<(String, String)> = (0..9)
        .map(|i| (format!("+78{i:02}"), format!("player_number_{i:02}")))
        .collect();
    let pairs: Vec<(&str, &str)> = players
        .iter()
        .map(|(p, n)| (p.as_str(), n.as_str()))
        .collect();
    app.register(&pairs).await;
    let phone = |i: usize| players[i].0.as_str();
    // Two tied at the top, one-game players above the rest (number 2 and
    // 8, the highest of all), the rest below; number 7 has none.
    for (i, points, games) in [
        (0, 1712.4, 30),
        (1, 1711.6, 12),
        (2, 1650.0, 4),
        (3, 1600.0, 40),
        (4, 1580.0, 25),
        (5, 1500.0, 10),
        (6, 1499.0, 11),
        (8, 1970.0, 1),
    ] {
        seed(&app, phone(i), points, games).await;
    }
    app.sms(phone(8), "LANG EN").await;
    app.inbox(phone(8)).await;
    app.sms(phone(8), "TOP TR").await;
    let top = one_sms(&app, phone(8)).await;
    assert!(
        top.starts_with(
            "TOP TR: 1 player_number_00 1712, 1 player_number_01 1712, 3 player_number_03 1600"
        ),
        "{top}"
    );
    let listed = top.split("You:").next().unwrap();
    assert!(!listed.contains('?'), "no provisional rating listed: {top}");
    assert!(
        top.ends_with("You: 1970?, listed after 10 rated games (1 so far)."),
        "{top}"
    );
    app.sms(phone(7), "TOP TR").await;
    let top = one_sms(&app, phone(7)).await;
    assert!(top.contains("U vas eshche net reitinga."), "{top}");
    app.sms(phone(3), "TOP TR").await;
    let top = one_sms(&app, phone(3)).await;
    assert!(top.contains("Vy: 3 mesto, 1600."), "{top}");
    // Established at ten games exactly: listed, and placed among the listed.
    app.sms(phone(5), "TOP TR").await;
    let top = one_sms(&app, phone(5)).await;
    assert!(top.contains("Vy: 5 mesto, 1500."), "{top}");
    app.sms(phone(0), "STAT player_number_02").await;
    assert!(one_sms(&app, phone(0)).await.contains("TR 4-0-0 1650?"));
}

/// On PostgreSQL, two gateways end the same match at once: one takes Bob's
/// winning move while the other times him out. Whichever ends it, the
/// ratings move once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_match_ended_by_a_move_and_a_timeout_at_once_on_postgres_is_rated_once() {
    let Some(admin) = common::postgres_admin_url().await else {
        common::missing_external("PostgreSQL for two gateways on one database");
        return;
    };
    let url = common::fresh_postgres_database(&admin).await;
    let open = || {
        let url = url.clone();
        TestApp::with_config(move |cfg| {
            cfg.database.url = url;
            cfg.game.max_missed_turns = 1;
        })
    };
    let (first, second) = (open().await, open().await);
    first.register(&[(A, "ann"), (B, "bob")]).await;
    const ROUNDS: i64 = 6;
    let mut ends = std::collections::HashSet::new();
    for round in 1..=ROUNDS {
        play(&first, A, "P TR").await;
        play(&first, B, "P TR").await;
        // To 18 with Bob on turn: his 3 wins, and his deadline is passing.
        for (phone, add) in [(A, 3), (B, 3), (A, 3), (B, 3), (A, 3), (B, 2), (A, 1)] {
            first.sms(phone, &add.to_string()).await;
        }
        tokio::join!(
            first.sms(B, "3"),
            second.advance(chrono::Duration::hours(round))
        );
        let (record, seats) = first.last_match(A).await.unwrap();
        assert!(record.finished);
        ends.insert(seats[1].place);
        assert_eq!(
            first.count("rating_changes").await,
            2 * round,
            "round {round}"
        );
        let ann = standing(&first, A).await.unwrap();
        let bob = standing(&first, B).await.unwrap();
        assert_eq!((ann.rated_games, bob.rated_games), (round, round));
        assert_eq!((ann.games, bob.games), (round, round));
        first.inbox(A).await;
        first.inbox(B).await;
    }
    eprintln!("Bob's places over {ROUNDS} races of a move and a timeout: {ends:?}");
}

/// Four-car races against robots until the player has finished in every
/// place: `STAT` counts his finishes by place (a first also a win, no place
/// a loss), and agrees with what `LAST` told him after each race.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_four_car_races_stat_counts_each_place() {
    let app = TestApp::new().await;
    app.register(&[(A, "ann")]).await;
    app.sms(A, "LANG EN").await;
    let mut counts = [0i64; 4];
    // The player drives as a robot would; against weaker and stronger
    // robots in turn, so that he finishes first and last as well.
    let fields = [("4 BOT 1 L1", 2), ("4 BOT 2 L1", 1), ("4 BOT 3 L1", 1)];
    for seed in 0..80 {
        let (options, level) = fields[seed as usize % fields.len()];
        common::whole::play_whole(&app, A, "AR", options, level, seed).await;
        app.inbox(A).await;
        app.sms(A, "LAST").await;
        let last = one_sms(&app, A).await;
        let place: usize = last
            .split_once("place ")
            .and_then(|(_, rest)| rest.split_once(" of 4"))
            .and_then(|(p, _)| p.parse().ok())
            .unwrap_or_else(|| panic!("a place of four: {last}"));
        counts[place - 1] += 1;
        app.sms(A, "STAT").await;
        let stat = one_sms(&app, A).await;
        let shown = counts.iter().rposition(|&n| n > 0).map_or(0, |at| at + 1);
        let expected: Vec<String> = counts[..shown].iter().map(i64::to_string).collect();
        assert!(
            stat.contains(&format!("AR places 1-{shown}: {} ", expected.join("-"))),
            "after {counts:?}: {stat}"
        );
        assert!(
            !stat.contains("AR 0-0-"),
            "no place counted as a loss: {stat}"
        );
        if counts.iter().all(|&n| n > 0) {
            eprintln!("every place after {} races: {stat}", seed + 1);
            return;
        }
    }
    panic!("80 races and not every place: {counts:?}");
}
