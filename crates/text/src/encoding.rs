//! GSM 03.38 / UCS-2 analysis of outgoing texts: the data coding a text needs, the units it
//! costs and how it is cut into concatenated parts.
//!
//! Part limits assume a 6-byte concatenation UDH (8-bit reference): 160 septets or 70 UTF-16
//! code units fit in a single SMS, and once a UDH is needed 153 septets or 67 code units fit in
//! each part. Parts are cut where the handset will reassemble them cleanly: a GSM escape pair
//! (ESC + extension char) or a UTF-16 surrogate pair is never divided, so a part may hold one
//! unit less than its limit. Counting parts and splitting share one routine so that the count
//! billed always equals the number of parts sent.

use std::borrow::Cow;
use std::fmt;
use std::str::FromStr;

/// Data coding of a text on the air interface.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Encoding {
    /// GSM 03.38 default alphabet plus its extension table, 7 bits per septet.
    Gsm7,
    /// UCS-2 / UTF-16BE; emoji outside the BMP are sent as surrogate pairs.
    Ucs2,
}

impl Encoding {
    pub fn as_str(self) -> &'static str {
        match self {
            Encoding::Gsm7 => "gsm7",
            Encoding::Ucs2 => "ucs2",
        }
    }
}

impl fmt::Display for Encoding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Returned when a string names no [`Encoding`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseEncodingError(String);

impl fmt::Display for ParseEncodingError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown encoding {:?} (expected \"gsm7\" or \"ucs2\")",
            self.0
        )
    }
}

impl std::error::Error for ParseEncodingError {}

impl FromStr for Encoding {
    type Err = ParseEncodingError;

    /// Case-insensitive, since the value usually comes from configuration or a database column.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        if s.eq_ignore_ascii_case("gsm7") {
            Ok(Encoding::Gsm7)
        } else if s.eq_ignore_ascii_case("ucs2") {
            Ok(Encoding::Ucs2)
        } else {
            Err(ParseEncodingError(s.to_owned()))
        }
    }
}

/// Result of [`analyse`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Analysis {
    pub encoding: Encoding,
    /// Septets for GSM-7 (an extension char counts 2), UTF-16 code units for UCS-2.
    pub units: usize,
    /// Number of SMS parts; at least 1, even for an empty text.
    pub parts: u32,
}

/// Single-SMS and per-part capacity in units, by encoding.
const GSM7_SINGLE: usize = 160;
const GSM7_PART: usize = 153;
const UCS2_SINGLE: usize = 70;
const UCS2_PART: usize = 67;

/// Position of ESC in the default alphabet; it is a prefix, never a character of the text.
const ESC: usize = 0x1B;

/// The GSM 03.38 default alphabet, indexed by septet value, kept in code order so it can be
/// checked against the spec line by line (and reused if septet packing is ever done here).
#[rustfmt::skip]
const BASIC: [char; 128] = [
    // 0x00
    '@', '£', '$', '¥', 'è', 'é', 'ù', 'ì', 'ò', 'Ç', '\n', 'Ø', 'ø', '\r', 'Å', 'å',
    // 0x10; 0x1B is ESC, a placeholder that ascii_classes() skips
    'Δ', '_', 'Φ', 'Γ', 'Λ', 'Ω', 'Π', 'Ψ', 'Σ', 'Θ', 'Ξ', '\u{1B}', 'Æ', 'æ', 'ß', 'É',
    // 0x20; 0x24 is the currency sign, not '$'
    ' ', '!', '"', '#', '¤', '%', '&', '\'', '(', ')', '*', '+', ',', '-', '.', '/',
    // 0x30
    '0', '1', '2', '3', '4', '5', '6', '7', '8', '9', ':', ';', '<', '=', '>', '?',
    // 0x40
    '¡', 'A', 'B', 'C', 'D', 'E', 'F', 'G', 'H', 'I', 'J', 'K', 'L', 'M', 'N', 'O',
    // 0x50
    'P', 'Q', 'R', 'S', 'T', 'U', 'V', 'W', 'X', 'Y', 'Z', 'Ä', 'Ö', 'Ñ', 'Ü', '§',
    // 0x60; 0x60 is '¿', so the backtick is not GSM
    '¿', 'a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j', 'k', 'l', 'm', 'n', 'o',
    // 0x70
    'p', 'q', 'r', 's', 't', 'u', 'v', 'w', 'x', 'y', 'z', 'ä', 'ö', 'ñ', 'ü', 'à',
];

/// The extension table; each entry is sent as ESC + its code, hence 2 septets.
/// Codes after ESC: 0x0A form feed, 0x14 ^, 0x28 {, 0x29 }, 0x2F \, 0x3C [, 0x3D ~, 0x3E ],
/// 0x40 |, 0x65 €.
const EXTENSION: [char; 10] = ['\u{0C}', '^', '{', '}', '\\', '[', '~', ']', '|', '€'];

/// Septet cost of every ASCII char (0 = not GSM), so the common case is one array lookup.
const ASCII_COST: [u8; 128] = ascii_costs();

const fn ascii_costs() -> [u8; 128] {
    let mut table = [0u8; 128];
    let mut i = 0;
    while i < BASIC.len() {
        let c = BASIC[i] as u32;
        if i != ESC && c < 128 {
            table[c as usize] = 1;
        }
        i += 1;
    }
    let mut j = 0;
    while j < EXTENSION.len() {
        let c = EXTENSION[j] as u32;
        if c < 128 {
            table[c as usize] = 2;
        }
        j += 1;
    }
    table
}

/// Septets needed for `c`, or None if GSM-7 cannot carry it.
fn gsm_cost(c: char) -> Option<usize> {
    if c.is_ascii() {
        match ASCII_COST[c as usize] {
            0 => None,
            n => Some(usize::from(n)),
        }
    } else if BASIC.contains(&c) {
        Some(1)
    } else if EXTENSION.contains(&c) {
        Some(2)
    } else {
        None
    }
}

/// GSM-7 length of `text` in septets (extension chars count 2), or None if any char is outside
/// the default alphabet and its extension table.
pub fn septets(text: &str) -> Option<usize> {
    if text.is_ascii() {
        return ascii_septets(text.as_bytes());
    }
    text.chars()
        .try_fold(0usize, |sum, c| Some(sum + gsm_cost(c)?))
}

/// [`septets`] of ASCII bytes: a table lookup a byte, with no char decoded
/// and no early exit, because nearly every text the games send is ASCII and
/// GSM (BENCHMARKS.md, issue 30).
fn ascii_septets(ascii: &[u8]) -> Option<usize> {
    let mut sum = 0usize;
    let mut all_gsm = true;
    for &b in ascii {
        let cost = ASCII_COST[usize::from(b & 0x7F)];
        sum += usize::from(cost);
        all_gsm &= cost != 0;
    }
    all_gsm.then_some(sum)
}

fn unit_cost(encoding: Encoding, c: char) -> usize {
    match encoding {
        // Only reached for texts that analyse() found fully GSM; the fallback is the larger cost
        // so a part could never overflow even if that ever stopped holding.
        Encoding::Gsm7 => gsm_cost(c).unwrap_or(2),
        Encoding::Ucs2 => c.len_utf16(),
    }
}

/// Calls `on_cut` with the byte offset at which each new part starts (none for a single part).
/// Cutting before a char that does not fit whole is what keeps escape and surrogate pairs
/// together.
fn for_each_cut(text: &str, encoding: Encoding, units: usize, mut on_cut: impl FnMut(usize)) {
    let (single, per_part) = match encoding {
        Encoding::Gsm7 => (GSM7_SINGLE, GSM7_PART),
        Encoding::Ucs2 => (UCS2_SINGLE, UCS2_PART),
    };
    if units <= single {
        return;
    }
    let mut used = 0;
    let mut cut_before = |offset: usize, cost: usize| {
        if used + cost > per_part {
            on_cut(offset);
            used = 0;
        }
        used += cost;
    };
    if encoding == Encoding::Gsm7 && text.is_ascii() {
        // A byte is a char: its cost is one lookup.
        for (offset, &b) in text.as_bytes().iter().enumerate() {
            let cost = match ASCII_COST[usize::from(b & 0x7F)] {
                0 => 2,
                n => usize::from(n),
            };
            cut_before(offset, cost);
        }
        return;
    }
    for (offset, c) in text.char_indices() {
        cut_before(offset, unit_cost(encoding, c));
    }
}

fn encoding_and_units(text: &str) -> (Encoding, usize) {
    match septets(text) {
        Some(n) => (Encoding::Gsm7, n),
        None => (Encoding::Ucs2, text.encode_utf16().count()),
    }
}

/// Units (septets, or UTF-16 code units) that fit in `parts` SMS parts.
pub fn capacity(encoding: Encoding, parts: u32) -> usize {
    let parts = parts.max(1) as usize;
    match (encoding, parts) {
        (Encoding::Gsm7, 1) => GSM7_SINGLE,
        (Encoding::Ucs2, 1) => UCS2_SINGLE,
        (Encoding::Gsm7, n) => n * GSM7_PART,
        (Encoding::Ucs2, n) => n * UCS2_PART,
    }
}

/// `text` cut to what `max_parts` parts carry, ending in `...` when cut:
/// the last resort against a text nothing else held to its size.
pub fn cut_to_parts(text: &str, max_parts: u32) -> Cow<'_, str> {
    let max_parts = max_parts.max(1);
    if analyse(text).parts <= max_parts {
        return Cow::Borrowed(text);
    }
    let mut kept: String = split(text).into_iter().take(max_parts as usize).collect();
    // Room for the dots, then as much less as it takes: a character that
    // costs two units can move a cut.
    for _ in 0..3 {
        kept.pop();
    }
    while analyse(&format!("{kept}...")).parts > max_parts {
        kept.pop();
    }
    Cow::Owned(format!("{kept}..."))
}

/// Chooses GSM-7 when every char is in the default alphabet or extension table, else UCS-2,
/// and counts units and parts exactly as [`split`] would cut them.
pub fn analyse(text: &str) -> Analysis {
    let (encoding, units) = encoding_and_units(text);
    let mut parts: u32 = 1;
    for_each_cut(text, encoding, units, |_| parts = parts.saturating_add(1));
    Analysis {
        encoding,
        units,
        parts,
    }
}

/// Whether `text` goes as GSM-7 in at most `parts` parts, cut as [`split`]
/// cuts it. A count of septets is not enough: an extension character never
/// leaves its escape, so a part may end a septet short, and `parts * 153`
/// septets can take a part more.
pub fn fits_gsm7(text: &str, parts: u32) -> bool {
    let a = analyse(text);
    a.encoding == Encoding::Gsm7 && a.parts <= parts
}

/// The texts of the parts [`analyse`] counts; concatenated they give `text` back. An empty text
/// yields one empty part, matching its part count of 1.
pub fn split(text: &str) -> Vec<String> {
    let (encoding, units) = encoding_and_units(text);
    let mut parts = Vec::new();
    let mut start = 0;
    for_each_cut(text, encoding, units, |cut| {
        parts.push(text[start..cut].to_owned());
        start = cut;
    });
    parts.push(text[start..].to_owned());
    parts
}

/// Replacement for a char that GSM-7 lacks but has a close look-alike for.
fn substitute(c: char) -> Option<&'static str> {
    Some(match c {
        '\u{2018}' | '\u{2019}' | '\u{201A}' | '\u{201B}' | '\u{2032}' | '\u{00B4}' => "'",
        '\u{201C}' | '\u{201D}' | '\u{201E}' | '\u{201F}' | '\u{2033}' | '«' | '»' => "\"",
        '\u{2010}'..='\u{2015}' | '\u{2212}' => "-",
        '\u{00A0}' | '\u{2000}'..='\u{200A}' | '\u{202F}' | '\u{205F}' | '\u{3000}' => " ",
        '\u{2026}' => "...",
        'á' | 'â' | 'ã' => "a",
        'Á' | 'À' | 'Â' | 'Ã' => "A",
        'ê' | 'ë' => "e",
        'È' | 'Ê' | 'Ë' => "E",
        'í' | 'î' | 'ï' => "i",
        'Í' | 'Ì' | 'Î' | 'Ï' => "I",
        'ó' | 'ô' | 'õ' => "o",
        'Ó' | 'Ò' | 'Ô' | 'Õ' => "O",
        'ú' | 'û' => "u",
        'Ú' | 'Ù' | 'Û' => "U",
        'ç' => "Ç",
        _ => return None,
    })
}

/// Replaces look-alike chars so that a text that would otherwise need UCS-2 fits GSM-7.
///
/// | from | to |
/// | --- | --- |
/// | ‘ ’ ‚ ‛ ′ ´ | `'` |
/// | “ ” „ ‟ ″ « » | `"` |
/// | U+2010–U+2015 (hyphens, en/em dash, bar), − minus | `-` |
/// | no-break space, U+2000–U+200A, U+202F, U+205F, U+3000 | space |
/// | … | `...` |
/// | á â ã / Á À Â Ã | a / A |
/// | ê ë / È Ê Ë | e / E |
/// | í î ï / Í Ì Î Ï | i / I |
/// | ó ô õ / Ó Ò Ô Õ | o / O |
/// | ú û / Ú Ù Û | u / U |
/// | ç | Ç (GSM has only the capital, at 0x09) |
///
/// Accented letters that GSM-7 already has (à è é ì ò ù ä ö ü ñ É Ä Ö Ü Ñ Ç …) are kept.
///
/// All or nothing: the substituted text is returned only if it is entirely GSM-7. If anything
/// else (Cyrillic, emoji, …) would force UCS-2 anyway, the original is returned, because UCS-2
/// carries the original chars faithfully and "..." would cost 3 units instead of 1.
pub fn gsm_friendly(text: &str) -> Cow<'_, str> {
    if septets(text).is_some() {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match substitute(c) {
            Some(s) => out.push_str(s),
            None => {
                if gsm_cost(c).is_none() {
                    return Cow::Borrowed(text);
                }
                out.push(c);
            }
        }
    }
    Cow::Owned(out)
}

/// UTF-16BE bytes of `text`, as Kannel expects for `coding=2`; chars beyond the BMP become
/// surrogate pairs.
pub fn to_ucs2_be(text: &str) -> Vec<u8> {
    text.encode_utf16().flat_map(u16::to_be_bytes).collect()
}

#[cfg(test)]
mod cut_tests {
    use super::*;

    #[test]
    fn a_text_too_long_is_cut_to_its_parts_with_dots() {
        assert_eq!(cut_to_parts("short", 1), "short");
        for (text, max) in [
            ("x".repeat(1000), 2),
            ("я".repeat(1000), 2),
            ("{".repeat(500), 1),
            ("a{".repeat(400), 3),
        ] {
            let cut = cut_to_parts(&text, max);
            assert!(analyse(&cut).parts <= max, "{max}: {cut}");
            assert!(cut.ends_with("..."));
            assert!(analyse(&format!("{cut}{cut}")).parts > max, "not cut short");
        }
        assert_eq!(capacity(Encoding::Gsm7, 2), 306);
        assert_eq!(capacity(Encoding::Ucs2, 1), 70);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// 459 septets are three parts' worth, but a `|` across the first cut
    /// moves it, and the text takes four.
    #[test]
    fn three_parts_of_septets_may_not_fit_three_parts() {
        let text = format!("{}|{}", "a".repeat(152), "a".repeat(305));
        assert_eq!(septets(&text), Some(459));
        assert_eq!(analyse(&text).parts, 4);
        assert!(!fits_gsm7(&text, 3));
        assert!(fits_gsm7(&text, 4));
        assert!(fits_gsm7(&"a".repeat(459), 3));
        assert!(!fits_gsm7("Привет", 3), "UCS-2 is not GSM-7");
    }

    fn parts(text: &str) -> u32 {
        analyse(text).parts
    }

    #[test]
    fn encoding_round_trips_through_str() {
        for e in [Encoding::Gsm7, Encoding::Ucs2] {
            assert_eq!(e.as_str().parse::<Encoding>(), Ok(e));
            assert_eq!(e.to_string(), e.as_str());
        }
        assert_eq!("UCS2".parse::<Encoding>(), Ok(Encoding::Ucs2));
        assert!("utf8".parse::<Encoding>().is_err());
    }

    #[test]
    fn alphabet_has_127_distinct_chars_besides_esc() {
        let mut chars: Vec<char> = BASIC
            .iter()
            .enumerate()
            .filter(|&(i, _)| i != ESC)
            .map(|(_, &c)| c)
            .collect();
        chars.sort_unstable();
        chars.dedup();
        assert_eq!(chars.len(), 127);
        for c in chars {
            assert_eq!(gsm_cost(c), Some(1), "{c:?}");
            assert!(!EXTENSION.contains(&c), "{c:?}");
        }
    }

    #[test]
    fn listed_specials_are_one_septet() {
        let specials = "@£$¥èéùìòÇØøÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ¤¡ÄÖÑÜ§¿äöñüà\n\r";
        assert_eq!(septets(specials), Some(specials.chars().count()));
    }

    #[test]
    fn extension_chars_are_two_septets() {
        for c in "^{}\\[~]|€\u{0C}".chars() {
            assert_eq!(septets(&c.to_string()), Some(2), "{c:?}");
        }
        assert_eq!(septets("a{b€"), Some(6));
    }

    #[test]
    fn chars_outside_gsm() {
        for c in ['`', '\u{1B}', '\t', 'á', 'ç', 'ж', '😀', '\u{2126}'] {
            assert_eq!(septets(&c.to_string()), None, "{c:?}");
        }
    }

    #[test]
    fn plain_ascii_is_gsm7() {
        let a = analyse("Hello, world! Your code is 1234.");
        assert_eq!(
            a,
            Analysis {
                encoding: Encoding::Gsm7,
                units: 32,
                parts: 1
            }
        );
    }

    #[test]
    fn empty_text_is_one_part() {
        let a = analyse("");
        assert_eq!((a.encoding, a.units, a.parts), (Encoding::Gsm7, 0, 1));
        assert_eq!(split(""), vec![String::new()]);
    }

    #[test]
    fn cyrillic_is_ucs2() {
        let a = analyse("Привет, мир");
        assert_eq!((a.encoding, a.units, a.parts), (Encoding::Ucs2, 11, 1));
    }

    #[test]
    fn emoji_counts_two_units() {
        let a = analyse("ok 😀");
        assert_eq!((a.encoding, a.units), (Encoding::Ucs2, 5));
    }

    #[test]
    fn gsm_part_counts() {
        for (len, expected) in [(160, 1), (161, 2), (306, 2), (307, 3), (459, 3), (460, 4)] {
            assert_eq!(parts(&"a".repeat(len)), expected, "{len} chars");
        }
    }

    #[test]
    fn extension_char_at_position_153_moves_to_next_part() {
        let text = format!("{}{{{}", "a".repeat(152), "b".repeat(20));
        let parts = split(&text);
        assert_eq!(parts.len(), 2);
        assert_eq!(parts[0], "a".repeat(152));
        assert!(parts[1].starts_with('{'));
        assert_eq!(analyse(&text).parts, 2);
    }

    #[test]
    fn escape_pairs_reduce_part_capacity() {
        // 306 septets would be 2 parts at 153 each, but 76 pairs (152 septets) is all a part holds.
        let text = "{".repeat(153);
        assert_eq!(analyse(&text).units, 306);
        assert_eq!(parts(&text), 3);
        assert_eq!(parts(&"{".repeat(80)), 1);
    }

    #[test]
    fn ucs2_part_counts() {
        for (len, expected) in [(70, 1), (71, 2), (134, 2), (135, 3)] {
            let text = "ж".repeat(len);
            let a = analyse(&text);
            assert_eq!(
                (a.encoding, a.units, a.parts),
                (Encoding::Ucs2, len, expected)
            );
        }
    }

    #[test]
    fn surrogate_pair_is_never_split() {
        let text = format!("{}😀{}", "ж".repeat(66), "ж".repeat(10));
        let parts = split(&text);
        assert_eq!(parts.len(), 2);
        assert_eq!(parts[0], "ж".repeat(66));
        assert!(parts[1].starts_with('😀'));
        assert_eq!(parts.concat(), text);
    }

    #[test]
    fn gsm_friendly_makes_curly_text_gsm7() {
        let text = "“curly” — it\u{2019}s\u{00A0}fine…";
        assert_eq!(analyse(text).encoding, Encoding::Ucs2);
        let friendly = gsm_friendly(text);
        assert_eq!(friendly, "\"curly\" - it's fine...");
        assert_eq!(analyse(&friendly).encoding, Encoding::Gsm7);
        assert_eq!(gsm_friendly("façade olá"), "faÇade ola");
    }

    #[test]
    fn gsm_friendly_leaves_gsm_and_hopeless_texts_alone() {
        assert!(matches!(gsm_friendly("plain é"), Cow::Borrowed("plain é")));
        for text in ["“Привет”…", "nice — 😀"] {
            assert!(matches!(gsm_friendly(text), Cow::Borrowed(t) if t == text));
        }
    }

    #[test]
    fn ucs2_bytes_of_cyrillic() {
        assert_eq!(
            to_ucs2_be("Привет"),
            [
                0x04, 0x1F, 0x04, 0x40, 0x04, 0x38, 0x04, 0x32, 0x04, 0x35, 0x04, 0x42
            ]
        );
    }

    #[test]
    fn ucs2_bytes_of_emoji_are_a_surrogate_pair() {
        assert_eq!(to_ucs2_be("😀"), [0xD8, 0x3D, 0xDE, 0x00]);
    }

    /// Checks the invariants every split must keep.
    fn check_split(text: &str) -> Result<(), TestCaseError> {
        let a = analyse(text);
        let parts = split(text);
        prop_assert_eq!(parts.concat(), text);
        prop_assert_eq!(parts.len(), a.parts as usize);
        let (single, per_part) = match a.encoding {
            Encoding::Gsm7 => (GSM7_SINGLE, GSM7_PART),
            Encoding::Ucs2 => (UCS2_SINGLE, UCS2_PART),
        };
        let cost = |p: &str| p.chars().map(|c| unit_cost(a.encoding, c)).sum::<usize>();
        prop_assert_eq!(parts.iter().map(|p| cost(p)).sum::<usize>(), a.units);
        let limit = if parts.len() == 1 { single } else { per_part };
        for p in &parts {
            prop_assert!(cost(p) <= limit);
            prop_assert!(parts.len() == 1 || !p.is_empty());
        }
        Ok(())
    }

    proptest! {
        #[test]
        fn split_agrees_with_analyse(chars in prop::collection::vec(any::<char>(), 0..400)) {
            check_split(&chars.into_iter().collect::<String>())?;
        }

        #[test]
        fn split_agrees_with_analyse_gsm_only(
            chars in prop::collection::vec(
                prop_oneof![
                    3 => prop::sample::select(vec!['a', ' ', 'é', '\n', 'Δ', '0']),
                    1 => prop::sample::select(vec!['{', '€', '\\', '\u{0C}']),
                ],
                0..700,
            )
        ) {
            check_split(&chars.into_iter().collect::<String>())?;
        }

        #[test]
        fn split_agrees_with_analyse_with_surrogates(
            chars in prop::collection::vec(prop::sample::select(vec!['a', 'ж', '😀', '{']), 0..300)
        ) {
            check_split(&chars.into_iter().collect::<String>())?;
        }
    }
}
