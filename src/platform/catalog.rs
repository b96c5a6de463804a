//! The games this gateway hosts, by the code players use in `P <code>`.
//! Adding a game is a folder under `src/games/` and a line in [`Catalog::new`].

use crate::config::Config;
use crate::games::any::{AnyGame, Entry};
use crate::games::football::Football;
use crate::games::intelball::Intelball;
use crate::games::trial::Trial;
use crate::games::word_battle::WordBattle;
use crate::lang::Lang;

/// The game `P` without a code joins.
pub const DEFAULT_GAME: &str = "FB";

pub struct Catalog {
    games: Vec<Box<dyn AnyGame>>,
}

impl std::fmt::Debug for Catalog {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list()
            .entries(self.games.iter().map(|g| g.code()))
            .finish()
    }
}

impl Catalog {
    /// Every game players can ask for, with its settings from the configuration.
    pub fn new(cfg: &Config) -> Catalog {
        let football = Football {
            ricochet: cfg.football.ricochet,
            max_rounds: cfg.football.max_rounds,
        };
        Catalog {
            games: vec![
                Box::new(Entry::new(football)),
                Box::new(Entry::new(Intelball {
                    limit: cfg.intelball.time_limit,
                })),
                Box::new(Entry::new(WordBattle::new())),
            ],
        }
    }

    /// The same, with the trial game (`TR`) the platform's tests play.
    pub fn with_trial(mut self) -> Catalog {
        self.games.push(Box::new(Entry::new(Trial)));
        self
    }

    pub fn get(&self, code: &str) -> Option<&dyn AnyGame> {
        self.games
            .iter()
            .find(|g| g.code().eq_ignore_ascii_case(code))
            .map(|g| g.as_ref())
    }

    /// `(code, name)` of every game, for `P ?`.
    pub fn list(&self, lang: Lang) -> Vec<(&'static str, &'static str)> {
        self.games
            .iter()
            .map(|g| (g.code(), g.name(lang)))
            .collect()
    }
}
