//! Configuration from `SMSARENA_*` variables, and fields that read either a value or its text.

use std::str::FromStr;

use figment::value::{Dict, Map, Value};
use figment::{Metadata, Profile, Provider};
use serde::{Deserialize, Deserializer};

/// `SMSARENA_<SECTION>__<KEY>` variables, each kept as the string it is.
/// figment's own `Env` provider reads `20261201` as a number and `002227` as
/// 2227, so a digits-only secret stopped the service and a short number lost
/// its zeros; here every value is text, and the fields that are not
/// ([`lenient`]) parse it.
#[derive(Clone, Debug, Default)]
pub struct EnvStrings(Vec<(String, String)>);

impl EnvStrings {
    /// The prefix every configuration variable has.
    pub const PREFIX: &'static str = "SMSARENA_";

    pub fn from_process() -> EnvStrings {
        EnvStrings::from_vars(std::env::vars())
    }

    pub fn from_vars(vars: impl IntoIterator<Item = (String, String)>) -> EnvStrings {
        EnvStrings(
            vars.into_iter()
                .filter_map(|(k, v)| Some((k.strip_prefix(Self::PREFIX)?.to_lowercase(), v)))
                .collect(),
        )
    }
}

impl Provider for EnvStrings {
    fn metadata(&self) -> Metadata {
        Metadata::named(format!("`{}` environment variable(s)", Self::PREFIX))
    }

    fn data(&self) -> Result<Map<Profile, Dict>, figment::Error> {
        let mut root = Dict::new();
        for (key, value) in &self.0 {
            let path: Vec<&str> = key.split("__").collect();
            let (leaf, sections) = path.split_last().expect("split yields one part at least");
            let mut dict = &mut root;
            for section in sections {
                let entry = dict
                    .entry(section.to_string())
                    .or_insert_with(|| Value::from(Dict::new()));
                dict = match entry {
                    Value::Dict(_, inner) => inner,
                    _ => {
                        return Err(figment::Error::from(format!(
                            "{}{key}: {section} is a value, not a section",
                            Self::PREFIX
                        )));
                    }
                };
            }
            dict.insert(leaf.to_string(), Value::from(value.clone()));
        }
        Ok(Profile::Default.collect(root))
    }
}

/// A number, a flag or an address, given as itself (TOML) or as text
/// (an environment variable).
pub(super) fn lenient<'de, D, T>(deserializer: D) -> Result<T, D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de> + FromStr,
    T::Err: std::fmt::Display,
{
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Given<T> {
        Value(T),
        Text(String),
    }
    match Given::<T>::deserialize(deserializer)? {
        Given::Value(v) => Ok(v),
        Given::Text(text) => text
            .trim()
            .parse()
            .map_err(|e| serde::de::Error::custom(format!("{text:?}: {e}"))),
    }
}
