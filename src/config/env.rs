//! Configuration from `SMSARENA_*` variables, each kept as the text it is.

use figment::error::{Actual, Kind};
use figment::value::{Dict, Map, Value};
use figment::{Metadata, Profile, Provider};

/// `SMSARENA_<SECTION>__<KEY>` variables, each kept as the string it is.
/// figment's own `Env` provider reads `20261201` as a number and `002227` as
/// 2227, so a digits-only secret stopped the service and a short number lost
/// its zeros; here every value is text, and the fields that are not
/// ([`crate::settings::lenient`]) parse it.
#[derive(Clone, Debug, Default)]
pub struct EnvStrings(Vec<(String, String)>);

impl EnvStrings {
    /// The prefix every configuration variable has.
    pub const PREFIX: &'static str = "SMSARENA_";
    /// The name of this source in figment's metadata.
    pub const NAME: &'static str = "`SMSARENA_` environment variable(s)";

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
        // A key is named in errors as the variable that set it.
        Metadata::named(Self::NAME).interpolater(|_: &Profile, keys: &[&str]| {
            format!("{}{}", EnvStrings::PREFIX, keys.join("__").to_uppercase())
        })
    }

    fn data(&self) -> Result<Map<Profile, Dict>, figment::Error> {
        let mut root = Dict::new();
        for (key, value) in &self.0 {
            let path: Vec<&str> = key.split("__").collect();
            let (leaf, sections) = path.split_last().expect("split yields one part at least");
            let mut dict = &mut root;
            for (depth, section) in sections.iter().enumerate() {
                let entry = dict
                    .entry(section.to_string())
                    .or_insert_with(|| Value::from(Dict::new()));
                dict = match entry {
                    Value::Dict(_, inner) => inner,
                    _ => {
                        let mut error = figment::Error::from(Kind::InvalidType(
                            Actual::Other("a value".into()),
                            "a section of keys".into(),
                        ));
                        error.path = path[..=depth].iter().map(|s| s.to_string()).collect();
                        return Err(error);
                    }
                };
            }
            dict.insert(leaf.to_string(), Value::from(value.clone()));
        }
        Ok(Profile::Default.collect(root))
    }
}
