//! Secrets in the configuration: a type whose `Debug` never shows them, and a scrubber that takes them out of text in every spelling.

use std::borrow::Cow;

use aho_corasick::{AhoCorasick, MatchKind};
use percent_encoding::{AsciiSet, NON_ALPHANUMERIC, utf8_percent_encode};
use serde::{Deserialize, Serialize};

/// A password, token or shared secret from the configuration: used as the
/// text it is, never shown. Its `Debug` says `[redacted]` (or `""` when it is
/// not set), so a configuration printed in a log or an error leaks nothing;
/// [`Config::secrets`](super::Config::secrets) lists the values a
/// [`Scrubber`] takes out of what providers answer.
#[derive(Clone, Default, PartialEq, Eq, Deserialize, Serialize)]
#[serde(transparent)]
pub struct Secret(String);

impl Secret {
    /// The value itself, for the one place that must use it.
    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl std::ops::Deref for Secret {
    type Target = str;

    fn deref(&self) -> &str {
        &self.0
    }
}

impl From<&str> for Secret {
    fn from(s: &str) -> Secret {
        Secret(s.to_string())
    }
}

impl From<String> for Secret {
    fn from(s: String) -> Secret {
        Secret(s)
    }
}

impl std::fmt::Debug for Secret {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.0.is_empty() {
            f.write_str("\"\"")
        } else {
            f.write_str("[redacted]")
        }
    }
}

/// What a secret is replaced with.
const REDACTED: &str = "[redacted]";

/// RFC 3986's unreserved characters stay as they are: what most URL
/// encoders other than ours (and `percent-encoding`'s `NON_ALPHANUMERIC`) do.
const KEEP_UNRESERVED: &AsciiSet = &NON_ALPHANUMERIC
    .remove(b'-')
    .remove(b'.')
    .remove(b'_')
    .remove(b'~');

/// Takes every configured secret out of a text, in every spelling it can
/// have on the wire: as it is, percent-encoded (every non-alphanumeric or
/// RFC 3986's reserved only, hex in upper or lower case), form-encoded
/// (`application/x-www-form-urlencoded`: space as `+`), and escaped inside a
/// JSON or Rust string. Built once from the whole configuration
/// ([`Config::scrubber`](super::Config::scrubber)).
///
/// Every non-empty secret counts, however short: a one-character secret
/// turns every such character of a scrubbed text into `[redacted]`, which
/// makes the text hard to read but leaks nothing. One pass over the text
/// finds the leftmost, longest spelling at each place, so a secret that
/// holds another is replaced whole, and the `[redacted]` put in is never
/// searched again.
#[derive(Clone, Default)]
pub struct Scrubber {
    /// `None`: nothing configured, nothing to scrub.
    spellings: Option<AhoCorasick>,
}

impl Scrubber {
    /// A scrubber of `secrets` (empty ones are ignored).
    pub fn new<I, S>(secrets: I) -> Scrubber
    where
        I: IntoIterator<Item = S>,
        S: AsRef<str>,
    {
        let mut needles: Vec<String> = secrets
            .into_iter()
            .filter(|s| !s.as_ref().is_empty())
            .flat_map(|s| spellings(s.as_ref()))
            .collect();
        needles.sort();
        needles.dedup();
        if needles.is_empty() {
            return Scrubber::default();
        }
        let spellings = AhoCorasick::builder()
            .match_kind(MatchKind::LeftmostLongest)
            .build(&needles)
            .expect("a few secrets' spellings fit an automaton");
        Scrubber {
            spellings: Some(spellings),
        }
    }

    /// `text` with every spelling of every secret replaced by `[redacted]`.
    pub fn scrub<'a>(&self, text: &'a str) -> Cow<'a, str> {
        match &self.spellings {
            Some(spellings) if spellings.is_match(text) => {
                let mut out = String::with_capacity(text.len());
                spellings.replace_all_with(text, &mut out, |_, _, out| {
                    out.push_str(REDACTED);
                    true
                });
                Cow::Owned(out)
            }
            _ => Cow::Borrowed(text),
        }
    }

    /// Scrubs `text` whole, then cuts it to at most `max_chars` characters:
    /// in this order, so that a secret across the cut is not left half.
    pub fn scrub_and_cut(&self, text: &str, max_chars: usize) -> String {
        let clean = self.scrub(text);
        match clean.char_indices().nth(max_chars) {
            Some((end, _)) => clean[..end].to_string(),
            None => clean.into_owned(),
        }
    }
}

impl std::fmt::Debug for Scrubber {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let count = self.spellings.as_ref().map_or(0, |s| s.patterns_len());
        write!(f, "Scrubber({count} spellings)")
    }
}

/// Every way `secret` may stand in a URL, a form, a JSON body or a log line.
fn spellings(secret: &str) -> Vec<String> {
    let percent = utf8_percent_encode(secret, NON_ALPHANUMERIC).to_string();
    let unreserved = utf8_percent_encode(secret, KEEP_UNRESERVED).to_string();
    let form: String = form_urlencoded::byte_serialize(secret.as_bytes()).collect();
    let json = serde_json::to_string(secret).expect("a string serializes");
    let debug = format!("{secret:?}");
    let mut all = vec![
        secret.to_string(),
        lower_hex(&percent),
        lower_hex(&unreserved),
        lower_hex(&form),
        percent,
        unreserved,
        form,
        unquote(&json).to_string(),
        unquote(&debug).to_string(),
    ];
    all.retain(|s| !s.is_empty());
    all
}

/// The same percent-encoding with its hex digits in lower case (`%c3%a9`),
/// as some encoders write it.
fn lower_hex(encoded: &str) -> String {
    let mut out = String::with_capacity(encoded.len());
    let mut digits_left = 0;
    for c in encoded.chars() {
        if digits_left > 0 {
            out.push(c.to_ascii_lowercase());
            digits_left -= 1;
        } else {
            out.push(c);
            if c == '%' {
                digits_left = 2;
            }
        }
    }
    out
}

fn unquote(quoted: &str) -> &str {
    quoted
        .strip_prefix('"')
        .and_then(|s| s.strip_suffix('"'))
        .unwrap_or(quoted)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_spelling_of_a_secret_is_scrubbed() {
        let scrubber = Scrubber::new(["Vg secret*~x\"é"]);
        for spelled in [
            "Vg secret*~x\"é",
            "Vg%20secret%2A%7Ex%22%C3%A9",
            "Vg%20secret%2a%7ex%22%c3%a9",
            "Vg%20secret%2A~x%22%C3%A9",
            "Vg+secret*%7Ex%22%C3%A9",
            "Vg+secret*%7ex%22%c3%a9",
            "Vg secret*~x\\\"é",
        ] {
            let text = format!("answer: api_secret={spelled}&to=1");
            assert_eq!(
                scrubber.scrub(&text),
                "answer: api_secret=[redacted]&to=1",
                "{spelled}"
            );
        }
    }

    #[test]
    fn a_secret_inside_another_is_replaced_with_the_longer_one_whole() {
        let scrubber = Scrubber::new(["abc", "xxabcyy"]);
        assert_eq!(
            scrubber.scrub("1 xxabcyy 2 abc"),
            "1 [redacted] 2 [redacted]"
        );
    }

    #[test]
    fn a_one_character_secret_redacts_every_such_character_and_never_the_marker() {
        let scrubber = Scrubber::new(["e", ""]);
        assert_eq!(
            scrubber.scrub("see here"),
            "s[redacted][redacted] h[redacted]r[redacted]"
        );
        let none = Scrubber::new([""]);
        assert_eq!(none.scrub("see here"), "see here");
        assert_eq!(format!("{none:?}"), "Scrubber(0 spellings)");
    }

    #[test]
    fn a_secret_across_the_cut_is_scrubbed_before_the_cut() {
        let scrubber = Scrubber::new(["s3cr3t-value"]);
        let text = format!("{}s3cr3t-value and more", "é".repeat(195));
        let cut = scrubber.scrub_and_cut(&text, 200);
        assert_eq!(cut.chars().count(), 200);
        assert!(!cut.contains("s3cr3"), "{cut}");
        assert!(cut.ends_with("[reda"), "{cut}");
        assert_eq!(scrubber.scrub_and_cut("short", 200), "short");
    }
}
