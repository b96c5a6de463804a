//! Tests that read what the gateway logs: the first installs a process-wide
//! subscriber at `trace` (`common::logs`), so they share a binary of their
//! own rather than slow every other test with trace logging.

#[path = "../common/mod.rs"]
mod common;

mod admin;
mod metrics;
mod poison;
mod redaction;
