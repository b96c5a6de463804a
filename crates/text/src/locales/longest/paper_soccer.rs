//! Paper soccer's variables (`locales/*/paper-soccer.ftl`) at their longest.

pub const PAPER_SOCCER: &[(&str, &str)] = &[];
