//! The reply language a player has chosen; shared vocabulary of games and platform.

use std::fmt;
use std::str::FromStr;

/// Reply language. `Ru` is Russian in Latin transliteration (the original
/// service's wording, GSM-7: 160 characters an SMS); `Cyr` is Russian in
/// Cyrillic (UCS-2: 70 characters an SMS, so its texts are shorter and
/// its boards stay in Latin letters); `En` is English.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Lang {
    #[default]
    Ru,
    En,
    Cyr,
}

impl Lang {
    /// Every language `LANG` offers, in the order a page lists them.
    pub const ALL: [Lang; 3] = [Lang::En, Lang::Ru, Lang::Cyr];

    /// `RU`, `EN` or `CYR`, as players write it and the store keeps it.
    pub fn code(self) -> &'static str {
        match self {
            Lang::Ru => "RU",
            Lang::En => "EN",
            Lang::Cyr => "CYR",
        }
    }

    /// The catalog's folder under `locales/` (a BCP 47 tag).
    pub fn locale(self) -> &'static str {
        match self {
            Lang::Ru => "ru-Latn",
            Lang::En => "en",
            Lang::Cyr => "ru",
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
        } else if s.eq_ignore_ascii_case("cyr") {
            Ok(Lang::Cyr)
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
        f.write_str("unknown language (expected EN, RU or CYR)")
    }
}

impl std::error::Error for UnknownLang {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn display_round_trips_through_from_str() {
        for lang in Lang::ALL {
            assert_eq!(lang.to_string().parse::<Lang>(), Ok(lang));
        }
        assert_eq!("Cyr".parse::<Lang>(), Ok(Lang::Cyr));
        assert_eq!("en".parse::<Lang>(), Ok(Lang::En));
        assert_eq!("de".parse::<Lang>(), Err(UnknownLang));
        assert_eq!(
            UnknownLang.to_string(),
            "unknown language (expected EN, RU or CYR)"
        );
    }
}
