//! SMS football's settings: the `[football]` section of the configuration.

use serde::{Deserialize, Serialize};

use super::Football;
use super::state::{DEFAULT_MAX_ROUNDS, DEFAULT_RICOCHET};
use crate::settings::lenient;

#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(default, deny_unknown_fields)]
pub struct Settings {
    /// Chance that a fight for the ball sends it two cells away.
    #[serde(deserialize_with = "lenient")]
    pub ricochet: f64,
    /// Moves per team before the ten-move rule decides.
    #[serde(deserialize_with = "lenient")]
    pub max_rounds: u32,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            ricochet: DEFAULT_RICOCHET,
            max_rounds: DEFAULT_MAX_ROUNDS,
        }
    }
}

impl Settings {
    /// The game these settings make.
    pub fn game(&self) -> Football {
        Football {
            ricochet: self.ricochet,
            max_rounds: self.max_rounds,
        }
    }
}
