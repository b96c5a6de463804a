//! The service's tests that need no outside program, in one binary (one link
//! of the crate instead of one per file): each module is one area, driven
//! through `app(state)` or the real binary, on SQLite or, with
//! `TEST_DATABASE_URL`, on PostgreSQL.

#[path = "../common/mod.rs"]
mod common;

mod auto_race;
mod connections;
mod console;
mod conversation;
mod crash;
mod exposure;
mod faults;
mod flood;
mod football;
mod hall;
mod hostile;
mod intelball;
mod languages;
mod long_texts;
mod multi_instance;
mod numbers;
mod outbound;
mod paper_soccer;
mod paper_soccer_engine;
mod platform;
mod player_pages;
mod public_pages;
mod records;
mod retention;
mod schema;
mod senders;
mod sms_cost;
mod standing;
mod store;
mod texts;
mod tidy;
mod webhooks;
mod word_battle;
