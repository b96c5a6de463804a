//! The reply language a player has chosen; shared vocabulary of games and platform.

use std::fmt;
use std::str::FromStr;

/// Reply language. `Ru` is Russian in Latin transliteration (the original
/// service's wording, GSM-7 only); `En` is English.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Lang {
    #[default]
    Ru,
    En,
}

impl Lang {
    /// Every language `LANG` offers, in the order a page lists them.
    pub const ALL: [Lang; 2] = [Lang::En, Lang::Ru];

    /// `RU` or `EN`, as players write it and the store keeps it.
    pub fn code(self) -> &'static str {
        match self {
            Lang::Ru => "RU",
            Lang::En => "EN",
        }
    }

    /// The catalog's folder under `locales/` (a BCP 47 tag).
    pub fn locale(self) -> &'static str {
        match self {
            Lang::Ru => "ru-Latn",
            Lang::En => "en",
        }
    }

    /// Picks the text for this language.
    pub fn pick<'a>(self, ru: &'a str, en: &'a str) -> &'a str {
        match self {
            Lang::Ru => ru,
            Lang::En => en,
        }
    }
}

impl fmt::Display for Lang {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

impl FromStr for Lang {
    type Err = UnknownLang;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        if s.eq_ignore_ascii_case("ru") {
            Ok(Lang::Ru)
        } else if s.eq_ignore_ascii_case("en") {
            Ok(Lang::En)
        } else {
            Err(UnknownLang)
        }
    }
}

/// The text named no language we speak.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct UnknownLang;

impl fmt::Display for UnknownLang {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("unknown language (expected EN or RU)")
    }
}

impl std::error::Error for UnknownLang {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn display_round_trips_through_from_str() {
        for lang in [Lang::Ru, Lang::En] {
            assert_eq!(lang.to_string().parse::<Lang>(), Ok(lang));
        }
        assert_eq!("en".parse::<Lang>(), Ok(Lang::En));
        assert_eq!("de".parse::<Lang>(), Err(UnknownLang));
        assert_eq!(
            UnknownLang.to_string(),
            "unknown language (expected EN or RU)"
        );
    }
}
