//! Word battle's variables (`locales/*/word-battle.ftl`) at their longest.

pub const WORD_BATTLE: &[(&str, &str)] = &[];
