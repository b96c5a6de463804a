//! Intelball's settings: the `[intelball]` section of the configuration.

use serde::{Deserialize, Serialize};

use super::Intelball;
use super::state::DEFAULT_LIMIT;
use crate::settings::lenient;

#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(default, deny_unknown_fields)]
pub struct Settings {
    /// Completed rounds (`T`) after which a match ends.
    #[serde(deserialize_with = "lenient")]
    pub time_limit: u32,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            time_limit: DEFAULT_LIMIT,
        }
    }
}

impl Settings {
    /// The game these settings make.
    pub fn game(&self) -> Intelball {
        Intelball {
            limit: self.time_limit,
        }
    }
}
