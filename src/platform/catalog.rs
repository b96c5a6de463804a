//! The games this gateway hosts, by the code players use in `P <code>`.
//! Adding a game is a folder under `src/games/` and a line here.

use crate::config::Config;
use crate::games::any::AnyGame;
use crate::games::football::Football;
use crate::lang::Lang;

/// The game `P` without a code joins.
pub const DEFAULT_GAME: &str = "FB";

pub struct Catalog {
    games: Vec<(Box<dyn AnyGame>, &'static str, &'static str)>,
}

impl std::fmt::Debug for Catalog {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list()
            .entries(self.games.iter().map(|(g, _, _)| g.code()))
            .finish()
    }
}

impl Catalog {
    pub fn new(cfg: &Config) -> Catalog {
        let football = Football {
            ricochet: cfg.football.ricochet,
            max_rounds: cfg.football.max_rounds,
        };
        Catalog {
            games: vec![(Box::new(football), "SMS-futbol", "SMS football")],
        }
    }

    pub fn get(&self, code: &str) -> Option<&dyn AnyGame> {
        self.games
            .iter()
            .find(|(g, _, _)| g.code().eq_ignore_ascii_case(code))
            .map(|(g, _, _)| g.as_ref())
    }

    /// `(code, name)` of every game, for `P ?`.
    pub fn list(&self, lang: Lang) -> Vec<(&'static str, &'static str)> {
        self.games
            .iter()
            .map(|(g, ru, en)| (g.code(), lang.pick(ru, en)))
            .collect()
    }
}
