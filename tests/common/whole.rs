//! Playing a whole match by SMS as a robot would: the phone's moves are a
//! robot's of `level` for its seat, texted like any player's; the robots'
//! turns run when only they are to move.

use rand::SeedableRng;
use smsarena::games::{Budget, MatchRng, Status};
use smsarena::store::{Holder, MatchRow};

use super::{PLAY, TestApp};

/// Every game against level-2 robots: its code and the options of `P`.
pub const AGAINST_LEVEL_2: [(&str, &str); 5] = [
    ("FB", "BOT"),
    ("IB", "BOT 2"),
    ("PS", "BOT 2"),
    ("WB", "BOT 2"),
    ("AR", "2 BOT 2"),
];

/// Texts `P <code> <options>` from `phone` and plays the match to its end;
/// the finished match.
pub async fn play_whole(
    app: &TestApp,
    phone: &str,
    code: &str,
    options: &str,
    level: u8,
    seed: u64,
) -> MatchRow {
    app.sms_to(phone, PLAY, &format!("P {code} {options}"))
        .await;
    let game = app.state.platform().catalog().get(code).unwrap();
    let mut rng = MatchRng::seed_from_u64(seed);
    for _ in 0..5_000 {
        let (record, seats) = app.last_match(phone).await.unwrap();
        if record.finished {
            return record;
        }
        let state = game.load(&record.state).unwrap();
        let Status::Awaiting(awaiting) = state.status() else {
            panic!("an unfinished match awaits someone");
        };
        let mine = awaiting
            .iter()
            .find(|&&s| matches!(seats[s].holder, Holder::Player(_)));
        match mine {
            Some(&seat) => {
                let mv = state.robot_move(seat, level, &Budget::nodes(5_000), &mut rng);
                app.sms(phone, &mv).await;
            }
            None => {
                app.robots().await;
            }
        }
    }
    panic!("P {code} {options} did not finish");
}
