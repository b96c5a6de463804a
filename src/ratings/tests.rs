//! Published vectors and the rules around them.

use super::*;
use crate::games::LevelResult;
use skillratings::weng_lin::WengLinRating;

fn glicko(rating: f64, deviation: f64) -> Rating {
    Rating {
        rating,
        deviation,
        volatility: 0.06,
    }
}

/// Glickman's worked example ("Example of the Glicko-2 system", 2013): a
/// 1500 / 200 / 0.06 player beats a 1400 / 30 one and loses to 1550 / 100
/// and 1700 / 300.
#[test]
fn glickmans_example_gives_his_figures() {
    let after = glicko2_period(
        glicko(1500.0, 200.0),
        &[
            (glicko(1400.0, 30.0), Outcome::Win),
            (glicko(1550.0, 100.0), Outcome::Loss),
            (glicko(1700.0, 300.0), Outcome::Loss),
        ],
    );
    assert!((after.rating - 1464.06).abs() < 0.01, "{after:?}");
    assert!((after.deviation - 151.52).abs() < 0.01, "{after:?}");
    assert!((after.volatility - 0.05999).abs() < 0.00001, "{after:?}");
}

/// The crate's own three-team vector, through our scale and back.
#[test]
fn weng_lin_three_teams_give_the_crates_figures() {
    let config = skillratings::weng_lin::WengLinConfig::new();
    let wl = |rating: f64, uncertainty: f64| WengLinRating {
        rating,
        uncertainty,
    };
    let fresh = WengLinRating::new();
    let teams = [
        [fresh, wl(30.0, 1.2), wl(21.0, 6.5)],
        [fresh, wl(41.0, 1.4), wl(19.2, 4.3)],
        [fresh, wl(29.4, 1.6), wl(17.2, 2.1)],
    ];
    let places = [2u8, 1, 3];
    let entrants: Vec<Entrant> = teams
        .iter()
        .zip(places)
        .enumerate()
        .flat_map(|(side, (team, place))| {
            team.iter().map(move |r| Entrant {
                side,
                place,
                rating: scale::from_weng_lin(r, 0.06, &config),
                fixed: false,
            })
        })
        .collect();
    let after: Vec<f64> = rate(Contest::Field, &entrants)
        .iter()
        .map(|r| (scale::to_weng_lin(r, &config).rating * 100.0).round())
        .collect();
    assert_eq!(
        after,
        [
            2538.0, 3001.0, 2123.0, 2796.0, 4108.0, 1999.0, 2166.0, 2928.0, 1699.0
        ]
    );
}

/// The scale: Weng-Lin's 25 is 1500, and a gap means the same chance.
#[test]
fn weng_lin_ratings_read_on_glickos_scale() {
    let config = skillratings::weng_lin::WengLinConfig::new();
    let middle = scale::to_weng_lin(&Rating::new_player(), &config);
    assert!((middle.rating - 25.0).abs() < 1e-9);
    let back = scale::from_weng_lin(&middle, 0.06, &config);
    assert!((back.rating - 1500.0).abs() < 1e-9 && (back.deviation - 350.0).abs() < 1e-9);
}

fn seat(side: usize, place: u8, rating: Rating, fixed: bool) -> Entrant {
    Entrant {
        side,
        place,
        rating,
        fixed,
    }
}

#[test]
fn a_win_raises_a_loss_lowers_and_a_robot_stays_fixed() {
    let robot = glicko(1900.0, 50.0);
    let after = rate(
        Contest::OneOnOne,
        &[
            seat(0, 1, Rating::new_player(), false),
            seat(1, 2, robot, true),
        ],
    );
    assert!(after[0].rating > 1500.0);
    assert_eq!(after[1], robot);
    let after = rate(
        Contest::OneOnOne,
        &[
            seat(0, 2, Rating::new_player(), false),
            seat(1, 1, Rating::new_player(), false),
        ],
    );
    assert!(after[0].rating < 1500.0 && after[1].rating > 1500.0);
    assert!((after[0].rating + after[1].rating - 3000.0).abs() < 1e-6);
}

#[test]
fn a_draw_between_equals_moves_no_rating_and_teammates_share_the_result() {
    let after = rate(
        Contest::OneOnOne,
        &[
            seat(0, 1, Rating::new_player(), false),
            seat(1, 1, Rating::new_player(), false),
        ],
    );
    assert!((after[0].rating - 1500.0).abs() < 1e-6);
    // SMS football: seats 0 and 2 one team, 1 and 3 the other.
    let fresh = Rating::new_player();
    let after = rate(
        Contest::Field,
        &[
            seat(0, 1, fresh, false),
            seat(1, 2, fresh, false),
            seat(0, 1, fresh, false),
            seat(1, 2, fresh, false),
        ],
    );
    assert!(after[0].rating > 1500.0 && after[2].rating > 1500.0);
    assert!(after[1].rating < 1500.0 && after[3].rating < 1500.0);
    let drawn = rate(
        Contest::Field,
        &[
            seat(0, 1, fresh, false),
            seat(1, 1, fresh, false),
            seat(0, 1, fresh, false),
            seat(1, 1, fresh, false),
        ],
    );
    assert!(drawn.iter().all(|r| (r.rating - 1500.0).abs() < 1e-6));
    assert!(drawn.iter().all(|r| r.deviation < 350.0));
}

#[test]
fn outcomes_read_off_places() {
    assert_eq!(Outcome::of(1, &[1, 2]), Outcome::Win);
    assert_eq!(Outcome::of(2, &[1, 2]), Outcome::Loss);
    assert_eq!(Outcome::of(1, &[1, 1]), Outcome::Draw);
    assert_eq!(Outcome::of(2, &[1, 2, 3]), Outcome::Loss);
}

fn measured(stronger: Option<u8>, weaker: Option<u8>, score: f64) -> LevelResult {
    LevelResult {
        stronger,
        weaker,
        score,
        games: 100,
    }
}

/// Level 2 is 1500; a 93 % score is 400 log10(93/7) = 449, capped at 400;
/// a 75 % one is 191.
#[test]
fn robots_are_rated_from_their_measured_scores() {
    let results = [
        measured(Some(2), Some(1), 0.75),
        measured(Some(3), Some(2), 0.93),
    ];
    let at = |level| robot_rating(&results, 1..=3, level).rating;
    assert!((at(2) - 1500.0).abs() < 1e-9);
    assert!((at(1) - (1500.0 - 190.85)).abs() < 0.01, "{}", at(1));
    assert!((at(3) - 1900.0).abs() < 1e-9);
    // Through a yardstick (auto race): both levels measured against it.
    let yardstick = [
        measured(Some(3), None, 0.896),
        measured(Some(2), None, 0.825),
    ];
    let at = |level| robot_rating(&yardstick, 1..=3, level).rating;
    assert!(at(3) > at(2) && at(2) == 1500.0);
    // Nothing measured: the middle.
    assert_eq!(robot_rating(&[], 1..=1, 1).rating, 1500.0);
}
