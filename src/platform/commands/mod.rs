//! What players text: one module per command, each reading its own words,
//! and one table of what each state lets each command do.
//!
//! `parse.rs` text -> [`Command`] (the first word picks the command, whose
//! module reads the rest); `words.rs` the words of a text and
//! [`ParseError`]; `states.rs` the table, state x command -> act, reply or
//! nothing; `row.rs` what a row is and how a text runs through it. One
//! module per command: `register.rs` (`R`, with `reserved.rs` the nicks
//! it refuses), `stop.rs`, `start.rs`,
//! `lang.rs`, `help.rs`, `play.rs` (`P`), `list_games.rs` (`P ?`),
//! `play_again.rs` (`PA`), `timeout.rs` (`T`), `message.rs` (`S`),
//! `board.rs` (`B`), `resign.rs` (`Q`), `history.rs` (`H`), `top.rs`,
//! `stat.rs` and `last.rs` (a player's standing), `text.rs`
//! (anything else: a move).

mod board;
mod help;
mod history;
mod lang;
mod last;
mod list_games;
mod message;
mod parse;
mod play;
mod play_again;
mod register;
mod reserved;
mod resign;
mod row;
mod start;
mod stat;
mod states;
mod stop;
mod text;
mod timeout;
mod top;
mod words;

pub use board::Board;
pub use help::Help;
pub use history::History;
pub use lang::SetLang;
pub use last::{LAST_MATCHES, Last};
pub use list_games::ListGames;
pub use message::{Message, RELAY_MAX_PARTS};
pub use parse::Command;
pub use play::Play;
pub use play_again::PlayAgain;
pub use register::{NICK_MAX, NICK_MIN, Register, valid_nick};
pub use resign::Resign;
pub(super) use row::Who;
pub use start::Start;
pub use stat::Stat;
pub(super) use states::route;
pub use stop::Stop;
pub use text::Text;
pub use timeout::Timeout;
pub use top::{TOP_LINES, Top};
pub use words::{ParseError, first_word};
