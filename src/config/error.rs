//! A configuration error names the key, where it came from and what kind of problem it has: never the value, nor the source line around it.
//!
//! figment's own messages quote what they could not read (`found signed int
//! 12345`, the TOML line with an unclosed quote on it), and a value in a
//! configuration is often a password; so each of figment's errors is read
//! for its key, source and kind only, and a TOML syntax error is located by
//! parsing the file again for its line number.

use std::fmt;
use std::path::Path;

use figment::Source;
use figment::error::{Kind, OneOf};

use super::EnvStrings;

/// Why the configuration could not be loaded: one or more problems.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConfigError {
    problems: Vec<Problem>,
}

/// One key (or one source) that could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    /// The key as its source spells it: `sms.max_attempts` in a file,
    /// `SMSARENA_SMS__MAX_ATTEMPTS` in the environment; `None` when the
    /// source as a whole is at fault (a file that is not TOML).
    pub key: Option<String>,
    /// Where the value came from: a file's path, the environment, the defaults.
    pub source: Option<String>,
    /// What is wrong, in words that never quote the value.
    pub what: String,
}

impl ConfigError {
    pub fn problems(&self) -> &[Problem] {
        &self.problems
    }
}

impl From<figment::Error> for ConfigError {
    fn from(error: figment::Error) -> ConfigError {
        ConfigError {
            problems: error.into_iter().map(|e| problem(&e)).collect(),
        }
    }
}

fn problem(e: &figment::Error) -> Problem {
    let mut path = e.path.clone();
    let whole_source = path.is_empty() && matches!(e.kind, Kind::Message(_));
    let what = match &e.kind {
        Kind::InvalidType(_, expected) => format!("wrong type, expected {expected}"),
        Kind::InvalidValue(_, expected) => format!("invalid value, expected {expected}"),
        Kind::InvalidLength(_, expected) => format!("wrong length, expected {expected}"),
        Kind::UnknownVariant(_, expected) => format!("unknown value, expected {}", OneOf(expected)),
        // figment's path of an unknown key ends in the key already.
        Kind::UnknownField(..) => "unknown key".to_string(),
        Kind::MissingField(name) => {
            path.push(name.to_string());
            "missing".to_string()
        }
        Kind::DuplicateField(name) => {
            path.push(name.to_string());
            "given twice".to_string()
        }
        Kind::ISizeOutOfRange(_) | Kind::USizeOutOfRange(_) => "number out of range".to_string(),
        Kind::Unsupported(_) => "unsupported type".to_string(),
        Kind::UnsupportedKey(_, expected) => format!("unsupported key type, expected {expected}"),
        // A message may quote the value; figment's TOML errors show the line.
        Kind::Message(_) => match e.metadata.as_ref().and_then(|md| md.source.as_ref()) {
            Some(Source::File(file)) if whole_source => unreadable(file),
            _ => "invalid value".to_string(),
        },
    };
    let metadata = e.metadata.as_ref();
    let from_env = metadata.is_some_and(|md| md.name == EnvStrings::NAME);
    let key = (!path.is_empty()).then(|| match (metadata, &e.profile) {
        (Some(md), Some(profile)) if from_env => md.interpolate(profile, &path),
        _ => path.join("."),
    });
    let source = metadata.map(|md| match &md.source {
        _ if from_env => "the environment".to_string(),
        Some(Source::File(file)) => file.display().to_string(),
        Some(Source::Code(_)) => "the built-in defaults".to_string(),
        Some(Source::Custom(custom)) => custom.clone(),
        Some(_) | None => md.name.to_string(),
    });
    Problem { key, source, what }
}

/// Why a configuration file as a whole could not be read: the I/O error, or
/// the line of its first TOML syntax error.
fn unreadable(file: &Path) -> String {
    match std::fs::read_to_string(file) {
        Err(e) => format!("cannot be read: {e}"),
        Ok(text) => match toml::from_str::<toml::Table>(&text) {
            Err(e) => match e.span() {
                Some(span) => format!(
                    "not valid TOML (line {})",
                    text[..span.start].matches('\n').count() + 1
                ),
                None => "not valid TOML".to_string(),
            },
            // It parses now: it changed since figment read it.
            Ok(_) => "could not be read as TOML".to_string(),
        },
    }
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (&self.key, &self.source) {
            (Some(key), Some(source)) => write!(f, "{key}: {} (in {source})", self.what),
            (Some(key), None) => write!(f, "{key}: {}", self.what),
            (None, Some(source)) => write!(f, "{source}: {}", self.what),
            (None, None) => f.write_str(&self.what),
        }
    }
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, problem) in self.problems.iter().enumerate() {
            if i > 0 {
                f.write_str("; ")?;
            }
            write!(f, "{problem}")?;
        }
        Ok(())
    }
}

impl std::error::Error for ConfigError {}
