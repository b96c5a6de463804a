//! Phone numbers in one canonical form: E.164 where the number is one, else a short code or an alphanumeric sender.
//!
//! The number is the player's identity, so `+79001234567`, `79001234567`,
//! `89001234567` and `+7 900 123-45-67` must be one player, and a number
//! that hides control or bidirectional characters, or is longer than any
//! phone number, must be no player at all. Providers disagree on the form:
//! Twilio sends `+E.164`, Vonage E.164 without its `+`, Kannel whatever the
//! operator's SMSC gives, national forms included. Numbers already in
//! `+E.164` are read by hand (the common case, and the cheap one); a bare
//! run of digits goes through libphonenumber's metadata (`phonenumber`),
//! which knows each country's national forms and trunk prefixes.

use phonenumber::country;

/// Longest E.164 number, in digits (ITU-T E.164 section 6).
pub const E164_MAX_DIGITS: usize = 15;
/// Fewest digits taken as an international number after a `+`. E.164 sets
/// no useful minimum; three keeps `+7` alone out and test ranges in.
const E164_MIN_DIGITS: usize = 3;
/// Longest short code: a run of at most this many digits is a short code
/// (the service's own `002227` included), kept as it is, leading zeros and all.
pub const SHORT_CODE_MAX_DIGITS: usize = 8;
/// Longest alphanumeric sender (GSM 03.40's address field).
const ALPHANUMERIC_MAX: usize = 11;
/// Longer than any spelling of a real number with its spaces and dashes:
/// refused before it is looked at.
const RAW_MAX: usize = 32;

/// Where the training hall's virtual phones live: `+999` is the country code
/// ITU-T holds in reserve, which no real phone has, and the `0` after it
/// leaves the rest of the reserve alone. A provider's text from such a
/// number is refused: a virtual phone is the hall's alone.
pub const VIRTUAL_PREFIX: &str = "+9990";

/// Digits after [`VIRTUAL_PREFIX`] in a virtual number (`+99901234567`).
pub const VIRTUAL_DIGITS: usize = 7;

/// Is this canonical number one of the training hall's virtual phones?
pub fn is_virtual(number: &str) -> bool {
    number.len() == VIRTUAL_PREFIX.len() + VIRTUAL_DIGITS
        && number.starts_with(VIRTUAL_PREFIX)
        && number[VIRTUAL_PREFIX.len()..]
            .bytes()
            .all(|b| b.is_ascii_digit())
}

/// Why a text in an address field is no phone number.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NumberError {
    #[error("is empty")]
    Empty,
    #[error("is longer than any phone number")]
    TooLong,
    #[error("holds a control or invisible character")]
    Hidden,
    #[error("holds characters no phone number has")]
    BadCharacters,
    #[error("is no international number (a country code never starts with 0)")]
    NotInternational,
    #[error("is no alphanumeric sender (at most 11 Latin letters, digits and spaces)")]
    BadSender,
    #[error("is a national number, and no country is set to read it in (numbers.region)")]
    NationalWithoutCountry,
}

/// How bare digits are read: as E.164 without its `+`, or as a national
/// number of `region` (ISO 3166 code, e.g. `RU`) when that reads and the
/// other does not.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct NumberPlan {
    region: Option<country::Id>,
}

impl NumberPlan {
    /// The plan of a region code; empty means none (bare digits are E.164).
    pub fn new(region: &str) -> Result<NumberPlan, String> {
        let region = region.trim();
        if region.is_empty() {
            return Ok(NumberPlan { region: None });
        }
        region
            .to_ascii_uppercase()
            .parse::<country::Id>()
            .map(|id| NumberPlan { region: Some(id) })
            .map_err(|_| format!("{region:?} is no ISO 3166 country code"))
    }

    /// The canonical form of a number as a provider or a configuration spelled it.
    pub fn canonical(&self, raw: &str) -> Result<String, NumberError> {
        let raw = raw.trim();
        if raw.is_empty() {
            return Err(NumberError::Empty);
        }
        if raw.chars().any(is_hidden) {
            return Err(NumberError::Hidden);
        }
        if raw.chars().count() > RAW_MAX {
            return Err(NumberError::TooLong);
        }
        if raw.bytes().any(|b| b.is_ascii_alphabetic()) {
            return alphanumeric(raw);
        }
        let (plus, digits) = digits_of(raw)?;
        if plus {
            return international(&digits);
        }
        if digits.len() <= SHORT_CODE_MAX_DIGITS {
            return Ok(digits);
        }
        if let Some(rest) = digits.strip_prefix("00") {
            return international(rest);
        }
        self.bare(&digits)
    }

    /// A run of digits too long for a short code: E.164 without its `+`
    /// when libphonenumber knows it as a number, else a national number of
    /// the region when it reads as one, else E.164 all the same (ranges the
    /// metadata does not list yet are still numbers).
    fn bare(&self, digits: &str) -> Result<String, NumberError> {
        if digits.len() > E164_MAX_DIGITS + 2 {
            return Err(NumberError::TooLong);
        }
        let as_international = format!("+{digits}");
        let known = |number: &phonenumber::PhoneNumber| phonenumber::is_valid(number);
        if digits.len() <= E164_MAX_DIGITS
            && phonenumber::parse(None, &as_international).is_ok_and(|n| known(&n))
        {
            return Ok(as_international);
        }
        if let Some(region) = self.region
            && let Ok(number) = phonenumber::parse(Some(region), digits)
            && known(&number)
        {
            return Ok(number.format().mode(phonenumber::Mode::E164).to_string());
        }
        if digits.starts_with('0') {
            return Err(if self.region.is_some() {
                NumberError::NotInternational
            } else {
                NumberError::NationalWithoutCountry
            });
        }
        international(digits)
    }
}

/// A number with its middle hidden, for whoever needs to tell numbers
/// apart without holding them: `+79001234567` is `+790*****567`.
pub fn mask(number: &str) -> String {
    let chars: Vec<char> = number.chars().collect();
    let (head, tail) = match chars.len() {
        0..=3 => (0, 0),
        4..=6 => (1, 1),
        _ => (4.min(chars.len() / 3), 3),
    };
    let hidden = chars.len() - head - tail;
    chars[..head]
        .iter()
        .chain(std::iter::repeat_n(&'*', hidden))
        .chain(&chars[chars.len() - tail..])
        .collect()
}

/// Characters that would make two numbers look alike or change how the
/// text around them is shown: what Unicode lets a renderer draw as nothing
/// (the Default_Ignorable_Code_Point property: tag characters, which carry
/// hidden text, variation selectors, the combining grapheme joiner, the
/// Hangul fillers, zero-width marks), the format characters (general
/// category Cf: bidirectional marks and overrides, the soft hyphen) and
/// the controls (Cc). Read from Unicode's own tables, so that a character
/// no list of ranges named yet is not let through.
pub fn is_hidden(c: char) -> bool {
    use icu_properties::props::{DefaultIgnorableCodePoint, GeneralCategory};
    use icu_properties::{CodePointMapData, CodePointSetData};
    // Nearly every character is ASCII, where only the controls hide.
    if c.is_ascii() {
        return c.is_ascii_control();
    }
    CodePointSetData::new::<DefaultIgnorableCodePoint>().contains(c)
        || matches!(
            CodePointMapData::<GeneralCategory>::new().get(c),
            GeneralCategory::Format | GeneralCategory::Control
        )
}

/// The digits, and whether a `+` led them; the separators people and
/// gateways write (spaces, `-`, `.`, `/`, brackets) are dropped.
fn digits_of(raw: &str) -> Result<(bool, String), NumberError> {
    let mut digits = String::with_capacity(raw.len());
    let mut plus = false;
    for (i, c) in raw.chars().enumerate() {
        match c {
            '0'..='9' => digits.push(c),
            '+' if i == 0 => plus = true,
            ' ' | '-' | '.' | '/' | '(' | ')' => {}
            _ => return Err(NumberError::BadCharacters),
        }
    }
    if digits.is_empty() {
        return Err(NumberError::BadCharacters);
    }
    Ok((plus, digits))
}

fn international(digits: &str) -> Result<String, NumberError> {
    if digits.len() > E164_MAX_DIGITS {
        return Err(NumberError::TooLong);
    }
    if digits.len() < E164_MIN_DIGITS || digits.starts_with('0') {
        return Err(NumberError::NotInternational);
    }
    let mut e164 = String::with_capacity(1 + digits.len());
    e164.push('+');
    e164.push_str(digits);
    Ok(e164)
}

fn alphanumeric(raw: &str) -> Result<String, NumberError> {
    let fits = raw.len() <= ALPHANUMERIC_MAX
        && raw.bytes().all(|b| b.is_ascii_alphanumeric() || b == b' ');
    if fits {
        Ok(raw.split_whitespace().collect::<Vec<_>>().join(" "))
    } else {
        Err(NumberError::BadSender)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn russia() -> NumberPlan {
        NumberPlan::new("RU").unwrap()
    }

    #[test]
    fn the_spellings_of_one_number_are_one_number() {
        for spelling in [
            "+79001234567",
            "79001234567",
            "89001234567",
            "+7 900 123-45-67",
            "+7 (900) 123 45 67",
            "0079001234567",
            " +79001234567 ",
        ] {
            assert_eq!(
                russia().canonical(spelling).as_deref(),
                Ok("+79001234567"),
                "{spelling}"
            );
        }
    }

    #[test]
    fn another_country_keeps_its_code_whatever_the_region() {
        // Vonage sends E.164 without its plus.
        assert_eq!(
            russia().canonical("447911123456").as_deref(),
            Ok("+447911123456")
        );
        let uk = NumberPlan::new("gb").unwrap();
        assert_eq!(uk.canonical("07911 123456").as_deref(), Ok("+447911123456"));
        assert_eq!(
            uk.canonical("+447911123456").as_deref(),
            Ok("+447911123456")
        );
    }

    #[test]
    fn short_codes_and_senders_stay_as_they_are() {
        let plan = russia();
        assert_eq!(plan.canonical("002227").as_deref(), Ok("002227"));
        assert_eq!(plan.canonical("00 22 20").as_deref(), Ok("002220"));
        assert_eq!(plan.canonical("79004").as_deref(), Ok("79004"));
        assert_eq!(plan.canonical("BANK").as_deref(), Ok("BANK"));
        assert_eq!(plan.canonical("My  Shop").as_deref(), Ok("My Shop"));
    }

    #[test]
    fn what_is_no_number_is_refused_with_its_reason() {
        let plan = russia();
        let long = "7".repeat(2000);
        for (raw, why) in [
            ("", NumberError::Empty),
            ("   ", NumberError::Empty),
            (long.as_str(), NumberError::TooLong),
            ("+7900123456789012", NumberError::TooLong),
            ("+7900\u{1b}1234567", NumberError::Hidden),
            ("+7900\u{202e}1234567", NumberError::Hidden),
            ("\u{200b}+79001234567", NumberError::Hidden),
            ("+7900\n1234567", NumberError::Hidden),
            ("+7900*1234567", NumberError::BadCharacters),
            ("79+001234567", NumberError::BadCharacters),
            ("+", NumberError::BadCharacters),
            ("+0123456789", NumberError::NotInternational),
            ("+7", NumberError::NotInternational),
            ("TWELVE CHARS", NumberError::BadSender),
            ("shop@example", NumberError::BadSender),
            ("бaнк", NumberError::BadSender),
        ] {
            assert_eq!(plan.canonical(raw), Err(why), "{raw:?}");
        }
    }

    #[test]
    fn virtual_numbers_are_the_reserved_range_and_only_it() {
        assert!(is_virtual("+99901234567"));
        for real in [
            "+79001234567",
            "+9990123456",
            "+999012345678",
            "+99911234567",
            "+9990123456x",
        ] {
            assert!(!is_virtual(real), "{real}");
        }
        assert_eq!(
            russia().canonical("+999 0123 4567").as_deref(),
            Ok("+99901234567"),
            "a spelling of a virtual number is that number"
        );
    }

    #[test]
    fn a_masked_number_keeps_its_ends() {
        assert_eq!(mask("+79001234567"), "+790*****567");
        assert_eq!(mask("002220"), "0****0");
        assert_eq!(mask("BANK"), "B**K");
        assert_eq!(mask("+79"), "***");
        assert_eq!(mask(""), "");
    }

    #[test]
    fn without_a_region_bare_digits_are_international() {
        let plan = NumberPlan::default();
        assert_eq!(plan.canonical("79001234567").as_deref(), Ok("+79001234567"));
        assert_eq!(
            plan.canonical("09001234567"),
            Err(NumberError::NationalWithoutCountry)
        );
        assert!(NumberPlan::new("XX").is_err());
        assert_eq!(NumberPlan::new(" ").unwrap(), plan);
    }
}
