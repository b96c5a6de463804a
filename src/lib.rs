//! smsarena: an SMS game gateway. Players text short codes; providers call our
//! webhooks; the platform runs lobbies and matches; the outbox texts the results back.
//!
//! See `docs/ARCHITECTURE.md` for the code map and the invariants.

pub mod alloc;
pub mod app;
pub mod clock;
pub mod config;
pub(crate) mod console;
pub mod dispatcher;
pub mod gateway;
pub(crate) mod http;
pub mod inbound;
pub mod locales;
pub(crate) mod metrics;
pub mod phone;
pub mod platform;
pub(crate) mod player_pages;
pub mod providers;
pub mod ratings;
pub(crate) mod robot_pool;
pub mod scheduler;
pub mod server;
pub mod store;
pub(crate) mod web;

// The games, their settings' readers and the reply language live below the
// service (crates/games, crates/text); their old paths still hold.
pub use smsarena_games as games;
pub use smsarena_games::settings;
pub use smsarena_text::{encoding, lang};
