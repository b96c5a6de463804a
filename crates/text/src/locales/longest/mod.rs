//! The longest value of each variable a catalog file's messages name, as
//! the code produces them: one table per file, so that each game's is kept
//! beside the others without touching them.

mod auto_race;
mod football;
mod games;
mod intelball;
mod paper_soccer;
mod platform;
mod word_battle;

pub use auto_race::AUTO_RACE;
pub use football::FOOTBALL;
pub use games::GAMES;
pub use intelball::INTELBALL;
pub use paper_soccer::PAPER_SOCCER;
pub use platform::PLATFORM;
pub use word_battle::WORD_BATTLE;
