//! What `P PS ...` may say: a robot (`BOT [1-3]`) and the field size (`WxL`, e.g. `10x12`).

use std::fmt;
use std::str::FromStr;

use super::field::check_size;
use crate::{GameOptions, LEVELS, Level, Lineup, OptionsError, said};

/// The robot's level when `BOT` names none.
pub const DEFAULT_LEVEL: Level = 2;
pub const DEFAULT_WIDTH: u8 = 8;
pub const DEFAULT_LENGTH: u8 = 10;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Options {
    pub width: u8,
    pub length: u8,
    /// `Some(level)`: the phone (seat 0) plays the robot (seat 1).
    pub robot: Option<Level>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            width: DEFAULT_WIDTH,
            length: DEFAULT_LENGTH,
            robot: None,
        }
    }
}

impl GameOptions for Options {
    fn lineup(&self) -> Lineup {
        Lineup::phone_or_robot(self.robot)
    }
}

/// Canonical: the size if not 8x10, then `BOT n` (`10x12 BOT 3`); default: empty.
impl fmt::Display for Options {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut words = Vec::new();
        if (self.width, self.length) != (DEFAULT_WIDTH, DEFAULT_LENGTH) {
            words.push(format!("{}x{}", self.width, self.length));
        }
        if let Some(level) = self.robot {
            words.push(format!("BOT {level}"));
        }
        f.write_str(&words.join(" "))
    }
}

fn parse_size(word: &str) -> Option<(u8, u8)> {
    let (w, l) = word.split_once('X')?;
    if w.len() > 2 || l.len() > 2 {
        return None;
    }
    Some((w.parse().ok()?, l.parse().ok()?))
}

impl FromStr for Options {
    type Err = OptionsError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let mut options = Options::default();
        let mut size_set = false;
        let original: Vec<&str> = s.split_whitespace().collect();
        let words: Vec<String> = original.iter().map(|w| w.to_uppercase()).collect();
        let mut i = 0;
        while i < words.len() {
            let word = words[i].as_str();
            if word == "BOT" {
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
            } else if let Some((w, l)) = parse_size(word) {
                if size_set {
                    return Err(OptionsError::given_twice("WxL"));
                }
                check_size(w, l).map_err(|_| {
                    // The width is named first when both are wrong.
                    let bad = if check_size(w, DEFAULT_LENGTH).is_err() {
                        "width"
                    } else {
                        "length"
                    };
                    OptionsError::told(said!("ps-bad-size", width = w, length = l, bad = bad))
                })?;
                size_set = true;
                options.width = w;
                options.length = l;
            } else {
                return Err(OptionsError::unknown_word(original[i]));
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

    #[test]
    fn options_round_trip_and_refuse() {
        for (text, canonical) in [
            ("", ""),
            ("bot", "BOT 2"),
            ("BOT 3", "BOT 3"),
            ("8x10 bot 1", "BOT 1"),
            ("  10X12  ", "10x12"),
            ("bot 2 6x8", "6x8 BOT 2"),
        ] {
            let o: Options = text.parse().unwrap();
            assert_eq!(o.to_string(), canonical, "{text:?}");
            assert_eq!(canonical.parse::<Options>().unwrap(), o);
        }
        assert_eq!(
            "bot 1".parse::<Options>().unwrap().lineup(),
            Lineup(vec![Occupant::Phone(0), Occupant::Robot(1)])
        );
        for (bad, word) in [
            ("bot 4", "4"),
            ("9x10", "9x10"),
            ("8x16", "8x16"),
            ("bot bot", "BOT"),
            ("hot", "hot"),
            ("8x10 8x10", "WxL"),
        ] {
            let e = bad.parse::<Options>().unwrap_err();
            assert!(e.english().contains(word), "{bad}: {}", e.english());
        }
    }
}
