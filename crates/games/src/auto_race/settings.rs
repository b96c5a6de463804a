//! Auto race's settings: the `[auto_race]` section of the configuration.
//! The platform reads the folder they name (`Catalog::load`); the game gets
//! the tracks.

use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, Default, Deserialize, Serialize)]
#[serde(default, deny_unknown_fields)]
pub struct Settings {
    /// A folder of track files (`*.txt`) to race on; empty: the tracks
    /// shipped in `config/tracks/`, compiled in.
    pub tracks_dir: String,
}
