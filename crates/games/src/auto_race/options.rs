//! What players text after `P AR`: `4`, `4 BOT`, `3 BOT 3`, `6 TEAM`, `L2`, a track name.

use std::fmt;
use std::str::FromStr;

use crate::{GameOptions, LEVELS, Level, Lineup, Occupant, OptionsError, said};

/// Players when the options do not say.
pub const DEFAULT_PLAYERS: u8 = 2;
/// Robots' level when `BOT` names none.
pub const DEFAULT_LEVEL: Level = 2;
/// Players a race takes.
pub const PLAYERS: std::ops::RangeInclusive<u8> = 2..=8;
/// Laps an `L` option may ask for.
pub const LAPS: std::ops::RangeInclusive<u8> = 1..=9;

/// The options of one race. Everything players must agree on to race
/// together is here, so `Display` (the lobby key) names it all.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Options {
    /// Seats: 2-8 players.
    pub players: u8,
    /// `BOT [level]`: the asking phone takes seat 0, robots the rest.
    pub robots: Option<Level>,
    /// With `BOT`: how many seats phones take (the asking one, and players who
    /// were waiting for the same race without robots); written `H<n>` when more than one.
    pub humans: u8,
    /// `TEAM` (or `KOM`): one car each, teams of two players.
    pub team: bool,
    /// `L<n>`: laps; `None` takes the game's setting for this many players (rule 11).
    pub laps: Option<u8>,
    /// A track name (upper case); `None` is the game's default track. Whether
    /// the game has it is only known at `start` (see `DECISIONS.md`).
    pub track: Option<String>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            players: DEFAULT_PLAYERS,
            robots: None,
            humans: 1,
            team: false,
            laps: None,
            track: None,
        }
    }
}

impl GameOptions for Options {
    fn lineup(&self) -> Lineup {
        let seats = usize::from(self.players);
        match self.robots {
            None => Lineup::phones(seats),
            Some(level) => {
                let humans = usize::from(self.humans).clamp(1, seats);
                Lineup(
                    (0..humans)
                        .map(Occupant::Phone)
                        .chain(std::iter::repeat_n(Occupant::Robot(level), seats - humans))
                        .collect(),
                )
            }
        }
    }
}

impl fmt::Display for Options {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.players)?;
        if let Some(level) = self.robots {
            write!(f, " BOT {level}")?;
            if self.humans > 1 {
                write!(f, " H{}", self.humans)?;
            }
        }
        if self.team {
            f.write_str(" TEAM")?;
        }
        if let Some(laps) = self.laps {
            write!(f, " L{laps}")?;
        }
        if let Some(track) = &self.track {
            write!(f, " {track}")?;
        }
        Ok(())
    }
}

/// `L3` or `KR3` (krug, lap): the number of laps.
fn laps_word(word: &str) -> Option<&str> {
    word.strip_prefix("KR")
        .or_else(|| word.strip_prefix('L'))
        .filter(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
}

fn is_track_name(word: &str) -> bool {
    (2..=12).contains(&word.len())
        && word.as_bytes()[0].is_ascii_alphabetic()
        && word.bytes().all(|b| b.is_ascii_alphanumeric())
}

impl FromStr for Options {
    type Err = OptionsError;

    /// Words in any order and case; a number straight after `BOT` is the
    /// robots' level, any other number the count of players.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let mut options = Options::default();
        let mut players: Option<u8> = None;
        let mut after_bot = false;
        for raw in s.split_whitespace() {
            let word = raw.to_uppercase();
            let just_after_bot = std::mem::take(&mut after_bot);
            if word.bytes().all(|b| b.is_ascii_digit()) {
                let n: Option<u8> = word.parse().ok();
                if just_after_bot {
                    options.robots = n
                        .filter(|l| LEVELS.contains(l))
                        .map(Some)
                        .ok_or_else(|| OptionsError::told(said!("ar-robot-level", word = raw)))?;
                    continue;
                }
                if players.is_some() {
                    return Err(OptionsError::told(said!("ar-players-given", word = raw)));
                }
                players =
                    Some(n.filter(|n| PLAYERS.contains(n)).ok_or_else(|| {
                        OptionsError::told(said!("ar-players-range", word = raw))
                    })?);
            } else if word == "BOT" {
                if options.robots.is_some() {
                    return Err(OptionsError::told(said!("ar-bot-twice", word = raw)));
                }
                options.robots = Some(DEFAULT_LEVEL);
                after_bot = true;
            } else if matches!(word.as_str(), "TEAM" | "KOM" | "KOMANDA") {
                if options.team {
                    return Err(OptionsError::told(said!("ar-team-twice", word = raw)));
                }
                options.team = true;
            } else if let Some(n) = word
                .strip_prefix('H')
                .filter(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
            {
                options.humans = n
                    .parse()
                    .ok()
                    .filter(|h| (2..=8).contains(h))
                    .ok_or_else(|| OptionsError::told(said!("ar-humans-range", word = raw)))?;
            } else if let Some(n) = laps_word(&word) {
                if options.laps.is_some() {
                    return Err(OptionsError::told(said!("ar-laps-twice", word = raw)));
                }
                let laps = n.parse().ok().filter(|l| LAPS.contains(l));
                options.laps = Some(
                    laps.ok_or_else(|| OptionsError::told(said!("ar-laps-range", word = raw)))?,
                );
            } else if is_track_name(&word) && word.is_ascii() {
                if options.track.is_some() {
                    return Err(OptionsError::told(said!("ar-track-twice", word = raw)));
                }
                options.track = Some(word);
            } else {
                return Err(OptionsError::unknown_word(raw));
            }
        }
        options.players = players.unwrap_or(DEFAULT_PLAYERS);
        if options.humans > 1 && (options.robots.is_none() || options.humans >= options.players) {
            return Err(OptionsError::told(said!("ar-humans-need-bot")));
        }
        if options.team && !(options.players.is_multiple_of(2) && options.players >= 4) {
            return Err(OptionsError::told(said!("ar-team-needs-pairs")));
        }
        Ok(options)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Lang;

    fn parse(text: &str) -> Options {
        text.parse()
            .unwrap_or_else(|e: OptionsError| panic!("{text}: {}", e.english()))
    }

    #[test]
    fn examples_and_canonical_forms() {
        for (text, canonical) in [
            ("", "2"),
            ("4", "4"),
            ("  4   bot ", "4 BOT 2"),
            ("4 BOT 3", "4 BOT 3"),
            ("bot 1 5", "5 BOT 1"),
            ("bot", "2 BOT 2"),
            ("6 kom", "6 TEAM"),
            ("l3 3", "3 L3"),
            ("kr1", "2 L1"),
            ("zigzag 4 team bot", "4 BOT 2 TEAM ZIGZAG"),
            ("3 bot h2", "3 BOT 2 H2"),
        ] {
            let options = parse(text);
            assert_eq!(options.to_string(), canonical, "{text}");
            assert_eq!(parse(canonical), options);
        }
    }

    #[test]
    fn lineups() {
        assert_eq!(parse("4").lineup(), Lineup::phones(4));
        assert_eq!(
            parse("3 BOT 3").lineup(),
            Lineup(vec![
                Occupant::Phone(0),
                Occupant::Robot(3),
                Occupant::Robot(3)
            ])
        );
        assert_eq!(parse("BOT").lineup().phones_needed(), 1);
        assert_eq!(
            parse("3 BOT 1 H2").lineup(),
            Lineup(vec![
                Occupant::Phone(0),
                Occupant::Phone(1),
                Occupant::Robot(1)
            ])
        );
        assert!("3 H2".parse::<Options>().is_err());
        assert!("3 BOT H3".parse::<Options>().is_err());
        assert_eq!(parse("8").lineup().phones_needed(), 8);
    }

    #[test]
    fn bad_words_are_named() {
        for (text, word) in [
            ("9", "9"),
            ("1", "1"),
            ("4 5", "5"),
            ("BOT 4", "4"),
            ("BOT BOT", "BOT"),
            ("L0", "L0"),
            ("L10", "L10"),
            ("L2 L3", "L3"),
            ("RING OVAL", "OVAL"),
            ("4 ?", "?"),
            ("4 x", "x"),
            ("team team 4", "team"),
        ] {
            let err = text.parse::<Options>().unwrap_err();
            assert!(err.english().contains(word), "{text}: {}", err.english());
            let ru = err.0.text(Lang::Ru);
            assert!(ru.contains(word), "{text}: {ru}");
        }
        for text in ["TEAM", "3 TEAM", "5 KOM"] {
            assert!(text.parse::<Options>().is_err(), "{text}");
        }
    }
}
