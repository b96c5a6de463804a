//! What a setting reads: its value, or the text of it, for the
//! configuration and for the games' own settings (`crates/games/src/<game>/settings.rs`).

use std::str::FromStr;

use serde::de::{Error, Unexpected};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// A number, a flag or an address, given as itself (TOML) or as text
/// (an environment variable). A value that is neither is an error naming
/// the type expected, never the value (it may be a misplaced password).
pub fn lenient<'de, D, T>(deserializer: D) -> Result<T, D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de> + FromStr,
{
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Given<T> {
        Value(T),
        Text(String),
    }
    let expected = type_name::<T>();
    match Given::<T>::deserialize(deserializer) {
        Ok(Given::Value(v)) => Ok(v),
        Ok(Given::Text(text)) => text
            .trim()
            .parse()
            .map_err(|_| D::Error::invalid_value(Unexpected::Other("text"), &expected)),
        Err(_) => Err(D::Error::invalid_type(
            Unexpected::Other("value"),
            &expected,
        )),
    }
}

/// `u32`, `SocketAddr`: the type's own name, without its module path.
fn type_name<T>() -> &'static str {
    let full = std::any::type_name::<T>();
    full.rsplit("::").next().unwrap_or(full)
}

/// On, off, or decided by the listener's address.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Switch {
    On,
    Off,
    Auto,
}

impl Switch {
    /// Whether what it switches is on, for a listener that is (or is not)
    /// on a loopback address.
    pub fn on(self, loopback: bool) -> bool {
        match self {
            Switch::On => true,
            Switch::Off => false,
            Switch::Auto => loopback,
        }
    }
}

impl std::str::FromStr for Switch {
    type Err = String;

    fn from_str(s: &str) -> Result<Switch, String> {
        match s.trim().to_ascii_lowercase().as_str() {
            "true" | "on" | "yes" => Ok(Switch::On),
            "false" | "off" | "no" => Ok(Switch::Off),
            "auto" => Ok(Switch::Auto),
            _ => Err("true, false or \"auto\"".into()),
        }
    }
}

impl<'de> Deserialize<'de> for Switch {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Switch, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Given {
            Flag(bool),
            Text(String),
        }
        match Given::deserialize(deserializer)? {
            Given::Flag(true) => Ok(Switch::On),
            Given::Flag(false) => Ok(Switch::Off),
            Given::Text(text) => text.parse().map_err(serde::de::Error::custom),
        }
    }
}

impl Serialize for Switch {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Switch::On => serializer.serialize_bool(true),
            Switch::Off => serializer.serialize_bool(false),
            Switch::Auto => serializer.serialize_str("auto"),
        }
    }
}
