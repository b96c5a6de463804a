//! What an export says beyond its moves (who sat where, whether and how it ended) checked against its options and its own replay.

use super::{Export, ExportError, ExportSeat};
use crate::games::any::{AnyGame, AnyMatch};
use crate::games::{Occupant, Status};
use crate::platform::commands::valid_nick;

/// The seats against the lineup the export's options give: one entry per
/// seat in seat order, a robot of the options' level where they put a
/// robot and nowhere else, a well-formed nick on a phone's seat, the same
/// nick on every seat one phone plays and a different one for each phone.
/// Checked before the replay, which trusts the seat count.
pub fn check_seats(game: &dyn AnyGame, export: &Export) -> Result<(), ExportError> {
    let options = game
        .options(&export.options)
        .map_err(|e| ExportError::Malformed(format!("options {:?}: {e}", export.options)))?;
    let lineup = &options.lineup.0;
    if lineup.len() != export.seats.len() {
        return Err(disagrees(format!(
            "its options seat {}, and it lists {} seats",
            lineup.len(),
            export.seats.len()
        )));
    }
    let mut phones: Vec<(usize, Option<&str>)> = Vec::new();
    for (index, (seat, occupant)) in export.seats.iter().zip(lineup).enumerate() {
        if seat.seat != index {
            return Err(disagrees(format!(
                "seat {index} is listed as seat {}",
                seat.seat
            )));
        }
        match *occupant {
            Occupant::Robot(level) => {
                if seat.robot != Some(level) || seat.nick.is_some() {
                    return Err(disagrees(format!(
                        "seat {index} is a level-{level} robot's by its options, not {}",
                        who(seat)
                    )));
                }
            }
            Occupant::Phone(phone) => {
                if seat.robot.is_some() {
                    return Err(disagrees(format!(
                        "seat {index} is a player's by its options, not {}",
                        who(seat)
                    )));
                }
                let nick = seat.nick.as_deref();
                if let Some(bad) = nick.filter(|n| !valid_nick(n)) {
                    return Err(disagrees(format!(
                        "seat {index}'s nick {bad:?} is none a player can hold"
                    )));
                }
                check_phone(&mut phones, phone, nick, index)?;
            }
        }
    }
    Ok(())
}

/// One phone's seats carry one nick, and no two phones share one.
fn check_phone<'e>(
    phones: &mut Vec<(usize, Option<&'e str>)>,
    phone: usize,
    nick: Option<&'e str>,
    seat: usize,
) -> Result<(), ExportError> {
    let same_nick = |other: Option<&str>| match (nick, other) {
        (Some(a), Some(b)) => a.eq_ignore_ascii_case(b),
        _ => false,
    };
    match phones.iter().find(|(p, _)| *p == phone) {
        Some((_, held)) if *held != nick => Err(disagrees(format!(
            "seat {seat} is played by the same phone as an earlier seat, under another nick"
        ))),
        Some(_) => Ok(()),
        None if phones.iter().any(|(_, other)| same_nick(*other)) => Err(disagrees(format!(
            "seat {seat} gives the nick of another player"
        ))),
        None => {
            phones.push((phone, nick));
            Ok(())
        }
    }
}

/// Whether it ended, and each seat's place and score, against the state
/// the moves replay to: a match the game finished is finished with the
/// game's standings; one it did not has neither places nor scores. (A void
/// match, ended because its state would not load, does not replay at all.)
pub fn check_ending(final_state: &dyn AnyMatch, export: &Export) -> Result<(), ExportError> {
    if final_state.seats() != export.seats.len() {
        return Err(disagrees(format!(
            "the game holds {} seats, and it lists {}",
            final_state.seats(),
            export.seats.len()
        )));
    }
    match final_state.status() {
        Status::Finished(standings) => {
            if !export.finished {
                return Err(disagrees(
                    "the game is over, and it says the match is not finished".into(),
                ));
            }
            for (seat, standing) in export.seats.iter().zip(&standings) {
                if seat.place != Some(standing.place) || seat.score != standing.score {
                    return Err(disagrees(format!(
                        "seat {} finished {} with score {:?}, not {:?} with score {:?}",
                        seat.seat, standing.place, standing.score, seat.place, seat.score
                    )));
                }
            }
            Ok(())
        }
        Status::Awaiting(_) => {
            if export.finished {
                return Err(disagrees(
                    "it says the match is finished, and the game is not over".into(),
                ));
            }
            match export
                .seats
                .iter()
                .find(|s| s.place.is_some() || s.score.is_some())
            {
                Some(seat) => Err(disagrees(format!(
                    "seat {} has a place or score in a match not over",
                    seat.seat
                ))),
                None => Ok(()),
            }
        }
    }
}

/// A seat as the export gives it, for a reason (nicks quoted, so that
/// nothing in one reaches a terminal raw).
fn who(seat: &ExportSeat) -> String {
    match (&seat.nick, seat.robot) {
        (Some(nick), None) => format!("player {nick:?}"),
        (None, Some(level)) => format!("a level-{level} robot's"),
        (None, None) => "a player without a nick".into(),
        (Some(nick), Some(level)) => format!("both player {nick:?} and a level-{level} robot"),
    }
}

fn disagrees(reason: String) -> ExportError {
    ExportError::Disagrees(reason)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::Config;
    use crate::platform::catalog::Catalog;
    use crate::platform::export::FORMAT;

    /// An Intelball export with these options and seats (nick, robot level);
    /// nothing else matters to the seats' check.
    fn export(options: &str, seats: &[(Option<&str>, Option<u8>)]) -> Export {
        Export {
            format: FORMAT.into(),
            id: 1,
            game: "IB".into(),
            options: options.into(),
            seed: "1".into(),
            rematch_of_state: None,
            initial_state: String::new(),
            final_state: String::new(),
            finished: false,
            seats: seats
                .iter()
                .enumerate()
                .map(|(seat, (nick, robot))| ExportSeat {
                    seat,
                    nick: nick.map(str::to_string),
                    robot: *robot,
                    place: None,
                    score: None,
                })
                .collect(),
            moves: Vec::new(),
            notation: String::new(),
            states: Vec::new(),
        }
    }

    fn seats_check(options: &str, seats: &[(Option<&str>, Option<u8>)]) -> Result<(), String> {
        let catalog = Catalog::new(&Config::default());
        let game = catalog.get("IB").unwrap();
        check_seats(game, &export(options, seats)).map_err(|e| e.to_string())
    }

    #[test]
    fn each_phone_has_one_nick_and_no_two_phones_share_one() {
        let (ann, bob) = (Some("ann"), Some("bob"));
        assert_eq!(seats_check("", &[(ann, None), (bob, None)]), Ok(()));
        assert_eq!(seats_check("HOT", &[(ann, None), (ann, None)]), Ok(()));
        for (options, seats, reason) in [
            (
                "",
                [(ann, None), (Some("ANN"), None)],
                "the nick of another player",
            ),
            (
                "HOT",
                [(ann, None), (bob, None)],
                "the same phone as an earlier seat",
            ),
            (
                "BOT 2",
                [(ann, None), (None, Some(1))],
                "level-2 robot's by its options",
            ),
            (
                "BOT 2",
                [(ann, None), (bob, None)],
                "level-2 robot's by its options",
            ),
            (
                "",
                [(ann, None), (None, Some(2))],
                "is a player's by its options",
            ),
            (
                "",
                [(ann, None), (Some("b\u{1b}b"), None)],
                "\"b\\u{1b}b\" is none",
            ),
        ] {
            let err = seats_check(options, &seats).unwrap_err();
            assert!(err.contains(reason), "{options} {seats:?}: {err}");
        }
        let three = seats_check("", &[(ann, None), (bob, None), (Some("cy"), None)]);
        assert!(three.unwrap_err().contains("options seat 2"));
    }
}
