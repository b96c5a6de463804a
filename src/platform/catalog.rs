//! The games this gateway hosts, by the code players use in `P <code>`.
//! Adding a game is a folder under `crates/games/src/` and a line in [`Catalog::new`].

use crate::config::Config;
use crate::games::Game;
use crate::games::any::{AnyGame, Entry};
use crate::games::auto_race::{AutoRace, Track, builtin};
use crate::games::paper_soccer::PaperSoccer;
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
    /// Every game players can ask for, with its settings from the
    /// configuration and the tracks shipped in `config/tracks/` (compiled in).
    pub fn new(cfg: &Config) -> Catalog {
        Catalog::with_tracks(cfg, builtin::tracks().to_vec())
    }

    /// The same, with the tracks of `auto_race.tracks_dir` when it is set: a
    /// broken track file is refused with its name and line.
    pub fn load(cfg: &Config) -> Result<Catalog, String> {
        let dir = &cfg.auto_race.tracks_dir;
        if dir.is_empty() {
            return Ok(Catalog::new(cfg));
        }
        Ok(Catalog::with_tracks(
            cfg,
            read_tracks(std::path::Path::new(dir))?,
        ))
    }

    fn with_tracks(cfg: &Config, tracks: Vec<Track>) -> Catalog {
        Catalog {
            games: vec![
                Box::new(Entry::new(cfg.football.game())),
                Box::new(Entry::new(cfg.intelball.game())),
                Box::new(Entry::new(PaperSoccer)),
                Box::new(Entry::new(WordBattle::new())),
                Box::new(Entry::new(AutoRace::new(tracks))),
            ],
        }
    }

    /// The same, hosting `game` too: the trial game (`TR`) the tests play,
    /// which the shipped gateway does not carry.
    pub fn with_game<G: Game + 'static>(mut self, game: G) -> Catalog {
        self.games.push(Box::new(Entry::new(game)));
        self
    }

    pub fn get(&self, code: &str) -> Option<&dyn AnyGame> {
        self.games
            .iter()
            .find(|g| g.code().eq_ignore_ascii_case(code))
            .map(|g| g.as_ref())
    }

    /// Every game hosted, in the order `P ?` lists them.
    pub fn games(&self) -> impl Iterator<Item = &dyn AnyGame> {
        self.games.iter().map(|g| g.as_ref())
    }

    /// `(code, name)` of every game, for `P ?`.
    pub fn list(&self, lang: Lang) -> Vec<(&'static str, &'static str)> {
        self.games
            .iter()
            .map(|g| (g.code(), g.name(lang)))
            .collect()
    }
}

/// Every `*.txt` track file of `dir`, in name order (the first is the default;
/// a file named `ring.txt` goes first when there is one).
pub fn read_tracks(dir: &std::path::Path) -> Result<Vec<Track>, String> {
    let entries = std::fs::read_dir(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let mut files: Vec<std::path::PathBuf> = entries
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "txt"))
        .collect();
    files.sort_by_key(|p| (p.file_name().is_none_or(|n| n != "ring.txt"), p.clone()));
    if files.is_empty() {
        return Err(format!("{}: no track files (*.txt)", dir.display()));
    }
    files
        .iter()
        .map(|path| {
            let text =
                std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
            text.parse::<Track>()
                .map_err(|e| format!("{}: {e}", path.display()))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use rand::SeedableRng;

    use crate::ratings::robot_rating;

    use super::*;
    use crate::games::MatchRng;
    use crate::games::trial::Trial;

    /// Every game offers a practice match at each of its robot levels: its
    /// options read back as themselves and seat one phone against robots.
    #[test]
    fn every_game_offers_a_practice_match_at_each_robot_level() {
        let catalog = Catalog::new(&Config::default()).with_game(Trial);
        for game in catalog.games() {
            assert!(!game.robot_levels().is_empty(), "{}", game.code());
            assert!(
                game.guide().starts_with("# "),
                "{} has a guide",
                game.code()
            );
            for level in game.robot_levels() {
                let text = game.practice(level);
                let options = game
                    .options(&text)
                    .unwrap_or_else(|e| panic!("P {} {text}: {e}", game.code()));
                assert_eq!(options.canonical, text, "P {} {text}", game.code());
                assert_eq!(
                    options.lineup.phones_needed(),
                    1,
                    "P {} {text}",
                    game.code()
                );
                assert!(options.lineup.seats() > 1, "P {} {text}", game.code());
            }
        }
    }

    /// `U` is every game's: kept at the end of the canonical form (so a
    /// `U` lobby is its own), read back as itself, given once only.
    #[test]
    fn every_game_takes_u_for_an_unrated_match() {
        let catalog = Catalog::new(&Config::default()).with_game(Trial);
        for game in catalog.games() {
            let code = game.code();
            let rated = game.options("").unwrap();
            assert!(rated.rated, "P {code}");
            let unrated = game.options("u").unwrap();
            assert!(!unrated.rated, "P {code} u");
            assert_ne!(unrated.canonical, rated.canonical, "P {code} U");
            assert!(crate::games::any::is_unrated(&unrated.canonical));
            let again = game.options(&unrated.canonical).unwrap();
            assert_eq!(again.canonical, unrated.canonical, "P {code} U");
            assert!(!again.rated);
            assert!(game.options("U U").is_err(), "P {code} U U");
            let practice = game.options(&format!("U {}", game.practice(1))).unwrap();
            assert!(!practice.rated && practice.lineup.phones_needed() == 1);
            assert!(!practice.with_phones(1).rated, "kept with more phones");
        }
    }

    /// Options are read once; what the platform asks of them later (a new
    /// match, the robots' lobby, more phones) agrees with their lineup.
    #[test]
    fn a_new_match_holds_the_seats_of_its_options() {
        let catalog = Catalog::new(&Config::default()).with_game(Trial);
        let cases = [
            ("FB", ""),
            ("FB", "BOT"),
            ("IB", ""),
            ("IB", "BOT 2"),
            ("IB", "HOT"),
            ("PS", "BOT 3"),
            ("WB", "6"),
            ("AR", "4"),
            ("AR", "3 BOT 1"),
            ("TR", "3"),
            ("TR", "HOT"),
        ];
        for (code, text) in cases {
            let game = catalog.get(code).unwrap();
            let options = game.options(text).unwrap();
            let mut rng = MatchRng::seed_from_u64(7);
            let state = options.start(&mut rng);
            assert_eq!(state.seats(), options.lineup.seats(), "P {code} {text}");
            let again = game.options(&options.canonical).unwrap();
            assert_eq!(again.canonical, options.canonical, "P {code} {text}");
        }
        let race = catalog.get("AR").unwrap().options("4 BOT 2").unwrap();
        let base = race
            .robots_fill()
            .expect("a race's robots take seats of its lobby");
        assert_eq!(
            base.canonical,
            catalog.get("AR").unwrap().options("4").unwrap().canonical
        );
        let filled = race.with_phones(2);
        assert_eq!(filled.lineup.seats(), 4);
        assert_eq!(filled.lineup.phones_needed(), 2);
    }

    /// Every game's levels rate in their order.
    #[test]
    fn every_games_levels_rate_in_order() {
        let catalog = Catalog::new(&Config::default());
        for game in catalog.games() {
            let levels = game.robot_levels();
            let ratings: Vec<f64> = levels
                .clone()
                .map(|l| robot_rating(game.level_results(), levels.clone(), l).rating)
                .collect();
            assert!(
                ratings.windows(2).all(|w| w[0] < w[1]),
                "{}: {ratings:?}",
                game.code()
            );
        }
    }

    /// Each guide gives its robots' ratings as the code computes them (and
    /// `TOP` shows them, rounded): `level 1 at 1138, level 2 at 1500, ...`.
    #[test]
    fn the_guides_give_the_ratings_the_robots_play_at() {
        let catalog = Catalog::new(&Config::default());
        for game in catalog.games() {
            let points: Vec<String> = game
                .robot_levels()
                .map(|l| {
                    let p = robot_rating(game.level_results(), game.robot_levels(), l).points();
                    format!("level {l} at {p}")
                })
                .collect();
            if points.len() < 2 {
                continue; // one level: no ladder to give
            }
            let said = format!("{}.", points.join(", "));
            assert!(
                game.guide().replace('\n', " ").contains(&said),
                "{}'s guide does not say {said:?}",
                game.code()
            );
        }
    }
}
