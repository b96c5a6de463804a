//! Nicks `R` refuses because they would pass for staff, a robot or a command on a board, a leaderboard or a relayed `S`.

use super::parse::Command;
use crate::platform::texts::ReservedFor;

/// Words that would pass for the service's own people, compared as the
/// nick's [`stem`].
const STAFF: [&str; 20] = [
    "admin",
    "administrator",
    "administration",
    "root",
    "superuser",
    "sysadmin",
    "sysop",
    "support",
    "helpdesk",
    "operator",
    "moderator",
    "mod",
    "staff",
    "system",
    "service",
    "official",
    "owner",
    "webmaster",
    "smsarena",
    "server",
];

/// What robots are called where players read them (`bot2` in a result,
/// "robot, level 2" on a leaderboard), compared as the nick's [`stem`].
const ROBOT: [&str; 2] = ["bot", "robot"];

/// Why `nick` may not be taken, or `None` when it may. Command words match
/// whole (`STOP`, not `STOP2`, which no parser reads as a command); staff
/// and robot names match in any case with underscores and trailing digits
/// ignored, so `Sys_Admin`, `admin2` and `Robot_3` are refused too.
pub fn reserved(nick: &str) -> Option<ReservedFor> {
    let upper = nick.to_ascii_uppercase();
    if Command::keywords().any(|word| word == upper) {
        return Some(ReservedFor::Commands);
    }
    let stem = stem(nick);
    if STAFF.contains(&stem.as_str()) {
        Some(ReservedFor::Staff)
    } else if ROBOT.contains(&stem.as_str()) {
        Some(ReservedFor::Robots)
    } else {
        None
    }
}

/// The nick in lower case without its underscores and trailing digits.
fn stem(nick: &str) -> String {
    let letters: String = nick
        .chars()
        .filter(|&c| c != '_')
        .map(|c| c.to_ascii_lowercase())
        .collect();
    letters
        .trim_end_matches(|c: char| c.is_ascii_digit())
        .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn staff_robots_and_commands_are_reserved_in_any_case() {
        for (nick, why) in [
            ("ADMIN", ReservedFor::Staff),
            ("admin2", ReservedFor::Staff),
            ("Sys_Admin", ReservedFor::Staff),
            ("support", ReservedFor::Staff),
            ("Moderator", ReservedFor::Staff),
            ("_root_", ReservedFor::Staff),
            ("Robot3", ReservedFor::Robots),
            ("bot1", ReservedFor::Robots),
            ("ROBOT_12", ReservedFor::Robots),
            ("STOP", ReservedFor::Commands),
            ("help", ReservedFor::Commands),
            ("Info", ReservedFor::Commands),
            ("unsubscribe", ReservedFor::Commands),
            ("Top", ReservedFor::Commands),
            ("last", ReservedFor::Commands),
            ("PA", ReservedFor::Commands),
        ] {
            assert_eq!(reserved(nick), Some(why), "{nick}");
        }
    }

    #[test]
    fn names_that_only_begin_like_one_are_free() {
        for nick in [
            "ronaldo",
            "Robotnik",
            "botanik",
            "adminka_fan",
            "stop2",
            "Helper",
            "root_beer",
            "Ann_2",
            "mods_rule",
        ] {
            assert_eq!(reserved(nick), None, "{nick}");
        }
    }
}
