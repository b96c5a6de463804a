//! SMS football's variables (`locales/*/football.ftl`) at their longest.

pub const FOOTBALL: &[(&str, &str)] = &[];
