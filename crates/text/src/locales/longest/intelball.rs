//! Intelball's variables (`locales/*/intelball.ftl`) at their longest.

pub const INTELBALL: &[(&str, &str)] = &[];
