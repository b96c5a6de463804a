//! `[texts]`: where an operator's own wording is read from.

use std::path::PathBuf;

use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, Default, Deserialize, Serialize)]
#[serde(default, deny_unknown_fields)]
pub struct TextsConfig {
    /// A folder of Fluent files laid over the built-in catalogs, one
    /// subfolder a language as `locales/` has them (`en/`, `ru-Latn/`):
    /// each message in them replaces the built-in one of the same name.
    /// Read and checked once at start; a broken one stops the start. Unset:
    /// the built-in texts only.
    pub overrides: Option<PathBuf>,
}
