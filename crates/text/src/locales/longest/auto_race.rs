//! Auto race's variables (`locales/*/auto-race.ftl`) at their longest.

pub const AUTO_RACE: &[(&str, &str)] = &[];
