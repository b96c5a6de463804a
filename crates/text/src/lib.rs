//! The text the games and the service share: what an SMS text costs and how it is cut
//! (`encoding`), the reply language a player chose (`lang`), and every text
//! a player reads in each language (`locales`).
//!
//! Nothing here reads a file, a socket or a clock: beyond std, only Fluent's
//! parser and formatter (with its plural rules), which do neither.

pub mod encoding;
pub mod lang;
pub mod locales;
