//! What a setting reads: its value, or the text of it, for the
//! configuration and for the games' own settings (`src/games/<game>/settings.rs`).

use std::str::FromStr;

use serde::de::{Error, Unexpected};
use serde::{Deserialize, Deserializer};

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
