//! The two alphabets (Russian, English) and the letter codes the board and the dictionary share.
//!
//! A letter is a code `0..size`: `а`-`я` are 0-31 with `ё` folded onto `е`
//! (code 5), `a`-`z` are 0-25. Whether a Russian letter was written as `ё` is
//! kept beside the code (the board shows a word as it was played), never in
//! it, so `ё` and `е` always match.

use std::fmt;

/// Which dictionary and alphabet a match plays with (`P WB` or `P WB EN`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Variant {
    #[default]
    Ru,
    En,
}

/// A letter code of a variant's alphabet.
pub type Code = u8;

/// The code of `е`, onto which `ё` folds.
pub const YE: Code = 5;

/// One letter as written: its code and, in Russian, whether it was `ё`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Letter {
    pub code: Code,
    pub yo: bool,
}

impl Variant {
    pub const ALL: [Variant; 2] = [Variant::Ru, Variant::En];

    /// How many letter codes the alphabet has (at most 32: a code set fits a `u32`).
    pub fn size(self) -> u8 {
        match self {
            Variant::Ru => 32,
            Variant::En => 26,
        }
    }

    /// The letter `c` (either case), if it belongs to this alphabet.
    pub fn letter(self, c: char) -> Option<Letter> {
        let lower = lower(c);
        match self {
            Variant::Ru if lower == 'ё' => Some(Letter { code: YE, yo: true }),
            Variant::Ru if ('а'..='я').contains(&lower) => Some(Letter {
                code: (lower as u32 - 'а' as u32) as u8,
                yo: false,
            }),
            Variant::En if lower.is_ascii_lowercase() => Some(Letter {
                code: lower as u8 - b'a',
                yo: false,
            }),
            _ => None,
        }
    }

    /// The letters of `word`, or `None` if any character is not of this alphabet.
    pub fn spell(self, word: &str) -> Option<Vec<Letter>> {
        word.chars().map(|c| self.letter(c)).collect()
    }

    /// The character for `letter`, in upper case for Red's letters.
    pub fn char(self, letter: Letter, upper: bool) -> char {
        let c = match self {
            Variant::Ru if letter.yo && letter.code == YE => 'ё',
            Variant::Ru => char::from_u32('а' as u32 + u32::from(letter.code)).unwrap_or('?'),
            Variant::En => char::from(b'a' + letter.code),
        };
        if upper { upper_char(c) } else { c }
    }

    /// The letter a base shows before its side's first word (`Б`; `B` in English).
    pub fn hint(self) -> char {
        match self {
            Variant::Ru => 'б',
            Variant::En => 'b',
        }
    }

    /// How the state string and the options name the variant.
    pub fn tag(self) -> &'static str {
        match self {
            Variant::Ru => "ru",
            Variant::En => "en",
        }
    }

    pub fn from_tag(tag: &str) -> Option<Variant> {
        Variant::ALL.into_iter().find(|v| v.tag() == tag)
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.tag())
    }
}

/// `c` in lower case when it is one of our letters (one char to one char).
pub fn lower(c: char) -> char {
    match c {
        'А'..='Я' => char::from_u32(c as u32 + 32).unwrap_or(c),
        'Ё' => 'ё',
        _ => c.to_ascii_lowercase(),
    }
}

fn upper_char(c: char) -> char {
    match c {
        'а'..='я' => char::from_u32(c as u32 - 32).unwrap_or(c),
        'ё' => 'Ё',
        _ => c.to_ascii_uppercase(),
    }
}

/// Whether `c` is a letter of either alphabet, and which.
pub fn script(c: char) -> Option<Variant> {
    Variant::ALL.into_iter().find(|v| v.letter(c).is_some())
}

/// `word` in lower case with `ё` read as `е`: how words are compared.
pub fn fold(word: &str) -> String {
    word.chars()
        .map(|c| match lower(c) {
            'ё' => 'е',
            l => l,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_code_round_trips_in_both_cases() {
        for v in Variant::ALL {
            for code in 0..v.size() {
                let letter = Letter { code, yo: false };
                for upper in [false, true] {
                    let c = v.char(letter, upper);
                    assert_eq!(v.letter(c), Some(letter), "{v} {code} {c}");
                    assert_eq!(script(c), Some(v));
                }
            }
        }
    }

    #[test]
    fn yo_folds_onto_ye_but_is_shown_as_written() {
        let yo = Variant::Ru.letter('Ё').unwrap();
        assert_eq!(yo, Letter { code: YE, yo: true });
        assert_eq!(Variant::Ru.letter('е').unwrap().code, YE);
        assert_eq!(Variant::Ru.char(yo, false), 'ё');
        assert_eq!(Variant::Ru.char(yo, true), 'Ё');
        assert_eq!(fold("НамЁк"), "намек");
        assert_eq!(Variant::Ru.letter('я').unwrap().code, 31);
    }

    #[test]
    fn foreign_characters_are_no_letters() {
        for c in ['1', ' ', '-', 'ß', 'і', 'ў', 'é'] {
            assert_eq!(script(c), None, "{c}");
        }
        assert_eq!(Variant::Ru.letter('a'), None);
        assert_eq!(Variant::En.letter('а'), None);
        assert_eq!(Variant::En.spell("Cat").unwrap().len(), 3);
        assert!(Variant::En.spell("cät").is_none());
    }
}
