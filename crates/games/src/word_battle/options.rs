//! What `P WB ...` may say: the longest word (`5|6|7`), a robot (`BOT [1-3]`), English (`EN`).

use std::fmt;
use std::str::FromStr;

use super::alphabet::Variant;
use super::state::{DEFAULT_MAX_LEN, MAX_LENS};
use crate::{GameOptions, LEVELS, Level, Lineup, OptionsError};

/// The robot's level when `BOT` names none: the middle one, a fair opponent
/// for a first game (level 1 is for beginners, 3 for the strong).
pub const DEFAULT_LEVEL: Level = 2;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Options {
    pub max_len: u8,
    /// `Some(level)`: the phone plays Red against a robot.
    pub robot: Option<Level>,
    pub variant: Variant,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            max_len: DEFAULT_MAX_LEN,
            robot: None,
            variant: Variant::Ru,
        }
    }
}

impl GameOptions for Options {
    /// Two phones (sides drawn at `start`), or the phone on seat 0 (Red) and
    /// the robot on seat 1.
    fn lineup(&self) -> Lineup {
        Lineup::phone_or_robot(self.robot)
    }
}

/// Canonical: the words that differ from the default, in the order
/// length, robot, language (`5 BOT 2 EN`); the default is the empty text.
impl fmt::Display for Options {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut words = Vec::new();
        if self.max_len != DEFAULT_MAX_LEN {
            words.push(self.max_len.to_string());
        }
        if let Some(level) = self.robot {
            words.push(format!("BOT {level}"));
        }
        if self.variant == Variant::En {
            words.push("EN".into());
        }
        f.write_str(&words.join(" "))
    }
}

impl FromStr for Options {
    type Err = OptionsError;

    /// Words in any order and case; a digit 1-3 right after `BOT` is its
    /// level (lengths are 5-7, so the two never meet).
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let mut options = Options::default();
        let (mut len_set, mut lang_set) = (false, false);
        let words: Vec<String> = s.split_whitespace().map(str::to_uppercase).collect();
        let mut i = 0;
        while i < words.len() {
            let word = words[i].as_str();
            match word {
                "BOT" => {
                    if options.robot.is_some() {
                        return Err(OptionsError::given_twice("BOT"));
                    }
                    let level = words
                        .get(i + 1)
                        .and_then(|w| w.parse::<Level>().ok())
                        .filter(|l| LEVELS.contains(l));
                    if level.is_some() {
                        i += 1;
                    }
                    options.robot = Some(level.unwrap_or(DEFAULT_LEVEL));
                }
                "EN" | "RU" => {
                    if lang_set {
                        return Err(OptionsError::given_twice("EN/RU"));
                    }
                    lang_set = true;
                    options.variant = if word == "EN" {
                        Variant::En
                    } else {
                        Variant::Ru
                    };
                }
                _ => match word.parse::<u8>() {
                    Ok(n) if MAX_LENS.contains(&n) && word.len() == 1 => {
                        if len_set {
                            return Err(OptionsError::given_twice("5|6|7"));
                        }
                        len_set = true;
                        options.max_len = n;
                    }
                    _ => {
                        return Err(OptionsError::unknown_word(
                            s.split_whitespace().nth(i).unwrap_or(word),
                        ));
                    }
                },
            }
            i += 1;
        }
        Ok(options)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Occupant;

    fn parse(s: &str) -> Options {
        s.parse().unwrap_or_else(|e| panic!("{s:?}: {e}"))
    }

    #[test]
    fn examples_parse_to_their_canonical_form() {
        let cases = [
            ("", ""),
            ("6", ""),
            ("  ", ""),
            ("5", "5"),
            ("bot", "BOT 2"),
            ("BOT 1 EN", "BOT 1 EN"),
            ("6 BOT 2", "BOT 2"),
            ("en 7 bot 3", "7 BOT 3 EN"),
            ("bot 5", "5 BOT 2"),
            ("BOT   3 7", "7 BOT 3"),
            ("ru", ""),
            ("EN", "EN"),
        ];
        for (text, canonical) in cases {
            let options = parse(text);
            assert_eq!(options.to_string(), canonical, "{text:?}");
            assert_eq!(parse(canonical), options);
        }
        assert_eq!(
            parse("bot 1").lineup(),
            Lineup(vec![Occupant::Phone(0), Occupant::Robot(1)])
        );
        assert_eq!(parse("").lineup(), Lineup::phones(2));
        assert_eq!(parse("bot").robot, Some(DEFAULT_LEVEL));
    }

    #[test]
    fn bad_options_name_the_word() {
        for (text, word) in [
            ("8", "8"),
            ("BOT 4", "4"),
            ("HOT", "HOT"),
            ("bot 1 bot 2", "BOT"),
            ("5 6", "5|6|7"),
            ("en ru", "EN/RU"),
            ("05", "05"),
            ("6x", "6x"),
        ] {
            let err = text.parse::<Options>().unwrap_err();
            assert!(err.english().contains(word), "{text:?}: {}", err.english());
        }
    }
}
