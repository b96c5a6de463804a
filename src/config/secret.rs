//! Secrets in the configuration: a type whose `Debug` never shows them, and scrubbing them out of text.

use serde::{Deserialize, Serialize};

/// A password, token or shared secret from the configuration: used as the
/// text it is, never shown. Its `Debug` says `[redacted]` (or `""` when it is
/// not set), so a configuration printed in a log or an error leaks nothing;
/// [`SmsConfig::secrets`] lists the values senders must scrub from what
/// providers answer.
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

/// Replaces every one of `secrets` in `text` (as it is, and percent-encoded
/// as it would stand in a URL) with `[redacted]`.
pub fn scrub(text: &str, secrets: &[String]) -> String {
    let mut out = text.to_string();
    for secret in secrets.iter().filter(|s| !s.is_empty()) {
        let encoded =
            percent_encoding::utf8_percent_encode(secret, percent_encoding::NON_ALPHANUMERIC)
                .to_string();
        out = out
            .replace(secret, "[redacted]")
            .replace(&encoded, "[redacted]");
    }
    out
}
