//! The text the games and the service share: what an SMS text costs and how it is cut
//! (`encoding`), and the reply language a player chose (`lang`).
//!
//! Std only: nothing here reads a file, a socket or a clock.

pub mod encoding;
pub mod lang;
