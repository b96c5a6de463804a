//! What `P FB ...` may say: nothing (four players from the lobby) or `BOT`
//! (one player and three robots, at once).

use std::fmt;
use std::str::FromStr;

use crate::{GameOptions, Lineup, Occupant, OptionsError, said};

/// The robots' one level: SMS football's robot plays sensibly, not deeply.
pub const ROBOT_LEVEL: u8 = 1;

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Options {
    /// Four players from the lobby.
    #[default]
    Players,
    /// The player who asked, and robots in the three other seats.
    Robots,
}

impl GameOptions for Options {
    fn lineup(&self) -> Lineup {
        match self {
            Options::Players => Lineup::phones(4),
            Options::Robots => Lineup(vec![
                Occupant::Phone(0),
                Occupant::Robot(ROBOT_LEVEL),
                Occupant::Robot(ROBOT_LEVEL),
                Occupant::Robot(ROBOT_LEVEL),
            ]),
        }
    }
}

impl fmt::Display for Options {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Options::Players => Ok(()),
            Options::Robots => f.write_str("BOT"),
        }
    }
}

impl FromStr for Options {
    type Err = OptionsError;

    fn from_str(s: &str) -> Result<Options, OptionsError> {
        let words: Vec<String> = s.split_whitespace().map(str::to_uppercase).collect();
        match words.iter().map(String::as_str).collect::<Vec<_>>()[..] {
            [] => Ok(Options::Players),
            ["BOT"] | ["BOT", "1"] => Ok(Options::Robots),
            ["BOT", level] if level.parse::<u8>().is_ok() => {
                Err(OptionsError::told(said!("fb-bot-level-one")))
            }
            [.., word] if words.len() > 1 && words[0] == "BOT" => {
                Err(OptionsError::unknown_word(word))
            }
            [word, ..] => Err(OptionsError::unknown_word(word)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn options_parse_case_and_spaces_aside_and_print_canonically() {
        assert_eq!("".parse(), Ok(Options::Players));
        for text in ["BOT", " bot ", "Bot 1"] {
            assert_eq!(text.parse(), Ok(Options::Robots), "{text}");
        }
        for options in [Options::Players, Options::Robots] {
            assert_eq!(options.to_string().parse(), Ok(options));
        }
        assert!("BOT 3".parse::<Options>().is_err());
        assert!(
            "HOT"
                .parse::<Options>()
                .unwrap_err()
                .to_string()
                .contains("HOT")
        );
        assert!(
            "BOT 1 X"
                .parse::<Options>()
                .unwrap_err()
                .to_string()
                .contains('X')
        );
        assert_eq!(Options::Robots.lineup().phones_needed(), 1);
        assert_eq!(Options::Players.lineup().phones_needed(), 4);
    }
}
