//! The pages in a real headless Chromium through `chromedriver` (skipped
//! with a printed reason when it is absent, failed under
//! `CI_REQUIRE_EXTERNAL=1`): the training hall and the operator's console.

#[path = "../common/mod.rs"]
mod common;

mod at_a_persons_pace;
mod console_browser;
mod hall_browser;
mod hall_live_browser;
