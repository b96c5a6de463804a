//! Auto race (`AR`, "Avtogonki"): 2 to 8 players, two cars each, on a ring of
//! sectors with 4 lanes; the rules are the original's 1-17.
//!
//! Files, one job each: [`track`] tracks as data and their file format,
//! [`builtin`] the shipped track files, [`car`] a car and its letter,
//! [`moves`] the move notation, [`options`] what follows `P AR`, [`state`]
//! the state and its invariants, [`notation`] the state string, [`path`]
//! driving one path step by step, [`refusal`] the refusals' texts, [`reach`]
//! every distinct move, [`round`] a move's consequences and the round's end,
//! [`result`] placings, points and series, [`setup`] the lot and rematches,
//! [`render`] the texts, [`robot`] the drivers.
//!
//! Seat `s` drives cars `A`+s and `a`+s (one car, `A`+s, in the team
//! variant). Randomness is drawn only in [`setup::start`].

pub mod builtin;
pub mod car;
pub mod moves;
pub mod notation;
pub mod options;
pub mod path;
pub mod reach;
pub mod refusal;
pub mod render;
pub mod result;
pub mod robot;
pub mod round;
pub mod settings;
pub mod setup;
pub mod state;
pub mod svg;
pub mod track;

#[cfg(test)]
mod tests;

use std::sync::{Arc, OnceLock};

pub use car::CarId;
pub use moves::{Move, Step};
pub use options::Options;
pub use refusal::Refusal;
pub use settings::Settings;
pub use state::State;
pub use track::{Track, TrackError};

use crate::{
    Budget, Contest, Effect, Game, GameOptions, HistoryEntry, Lang, Level, LevelResult, MatchRng,
    Occupant, OptionsError, PlayResult, Played, Recorded, Refused, Seat, Side, Status, Withdrawal,
    said, tr,
};

/// Auto race with its settings: the tracks the platform loaded (the first is
/// the default) and the race distance by number of players (rule 11). A race
/// copies its track and laps into its state at `start`.
#[derive(Clone, Debug, PartialEq)]
pub struct AutoRace {
    pub tracks: Vec<Track>,
    /// Laps with 2 players (rule 11: 2).
    pub laps_two: u8,
    /// Laps with 3 or more players (rule 11: 6).
    pub laps_more: u8,
}

impl Default for AutoRace {
    /// The shipped tracks and the rules' distances.
    fn default() -> Self {
        AutoRace::new(builtin::tracks().to_vec())
    }
}

impl AutoRace {
    /// The game on these tracks (the first is the default; none: the 30-sector ring).
    pub fn new(tracks: Vec<Track>) -> AutoRace {
        AutoRace {
            tracks,
            laps_two: 2,
            laps_more: 6,
        }
    }

    /// The track a race with `options` is run on: the named one, else the default.
    pub fn track_for(&self, options: &Options) -> Arc<Track> {
        let named = options
            .track
            .as_deref()
            .and_then(|name| self.tracks.iter().find(|t| t.name() == name));
        let track = named
            .or(self.tracks.first())
            .cloned()
            .unwrap_or_else(|| Track::ring(30));
        Arc::new(track)
    }

    /// Laps for a race with `options` (its `L` option, else rule 11), 1-9.
    pub fn laps_for(&self, options: &Options) -> u8 {
        let setting = if options.players <= 2 {
            self.laps_two
        } else {
            self.laps_more
        };
        options.laps.unwrap_or(setting).clamp(1, 9)
    }

    fn effect(state: &State, seat: Seat) -> Effect {
        match state.to_move() {
            Some(car) if state.owner(car) == seat => Effect::Continues,
            _ => Effect::Resolved,
        }
    }
}

impl Game for AutoRace {
    type State = State;
    type Move = Move;
    type Refusal = Refusal;
    type Options = Options;

    const CODE: &'static str = "AR";
    const CONTEST: Contest = Contest::Field;

    fn side(&self, state: &State, seat: Seat) -> Side {
        state.side(seat)
    }

    /// `ar_levels` against the farthest-forward driver: level 3 won 43
    /// of 48 races, level 2 165 of 200, and the yardstick beat level 1
    /// in 126 of 200 (`ar_levels -- 1 naive 200 4 1000`).
    const LEVEL_RESULTS: &'static [LevelResult] = &[
        LevelResult {
            stronger: Some(3),
            weaker: None,
            score: 0.896,
            games: 48,
        },
        LevelResult {
            stronger: Some(2),
            weaker: None,
            score: 0.825,
            games: 200,
        },
        LevelResult {
            stronger: None,
            weaker: Some(1),
            score: 0.63,
            games: 200,
        },
    ];
    const GUIDE: &'static str = include_str!("../../../../docs/games/auto_race.md");

    /// The catalog's name, worded once per language: `Game::name` lends it
    /// for the process's life, and the catalog is installed once, before
    /// any text is made.
    fn name(&self, lang: Lang) -> &'static str {
        static NAMES: [OnceLock<String>; Lang::ALL.len()] =
            [const { OnceLock::new() }; Lang::ALL.len()];
        let slot = Lang::ALL.iter().position(|&l| l == lang).unwrap_or(0);
        NAMES[slot].get_or_init(|| tr!(lang, "ar-name"))
    }

    fn practice(&self, level: Level) -> Options {
        // One car against one robot's: the shortest race that is a race.
        Options {
            players: 2,
            robots: Some(level),
            ..Options::default()
        }
    }

    fn options_help(&self, lang: Lang) -> String {
        let names: Vec<&str> = self.tracks.iter().map(Track::name).collect();
        let tracks = if names.is_empty() {
            String::new()
        } else {
            format!(" [{}]", names.join("|"))
        };
        tr!(lang, "ar-options-help", tracks = tracks)
    }

    fn start(&self, options: &Options, rng: &mut MatchRng) -> State {
        let robots = options
            .lineup()
            .0
            .iter()
            .map(|o| match o {
                Occupant::Robot(level) => Some(*level),
                Occupant::Phone(_) => None,
            })
            .collect();
        let setup = setup::Setup {
            track: self.track_for(options),
            laps: self.laps_for(options),
            team: options.team,
            robots,
        };
        setup::start(setup, rng)
    }

    /// The finished race's seats, teams, track and laps; the lot rotated
    /// (rule 16); the series points carried on. Draws nothing.
    fn rematch(&self, finished: &State, _options: &Options, _rng: &mut MatchRng) -> State {
        setup::rematch(finished)
    }

    fn seats(&self, state: &State) -> usize {
        state.seats()
    }

    fn status(&self, state: &State) -> Status {
        match state.to_move() {
            Some(car) => Status::Awaiting(vec![state.owner(car)]),
            None => Status::Finished(result::standings(state)),
        }
    }

    fn play(&self, state: State, seat: Seat, mv: &Move, _rng: &mut MatchRng) -> PlayResult<Self> {
        let car = match state.to_move() {
            _ if seat >= state.seats() => {
                let reason = Refusal::NotInRace;
                return Err(Refused { state, reason });
            }
            None => {
                let reason = Refusal::Over;
                return Err(Refused { state, reason });
            }
            Some(car) if state.owner(car) != seat => {
                let reason = Refusal::NotYourTurn {
                    car: car::letter(car, state.per()),
                };
                return Err(Refused { state, reason });
            }
            Some(car) => car,
        };
        let steps = mv.steps();
        let mut state = state;
        if steps.is_empty() {
            let example = reach::null(&state, car);
            if example != Move::Zero {
                let reason = Refusal::CanMove { example };
                return Err(Refused { state, reason });
            }
            round::zero(&mut state, car);
        } else {
            match path::drive(&state, car, &steps) {
                Ok(drive) => round::drive(&mut state, car, &drive, mv.clone()),
                Err(reason) => return Err(Refused { state, reason }),
            }
        }
        let effect = AutoRace::effect(&state, seat);
        Ok(Played { state, effect })
    }

    fn legal_moves(&self, state: &State, seat: Seat) -> Vec<Move> {
        match state.to_move() {
            Some(car) if state.owner(car) == seat => reach::legal(state, car),
            _ => Vec::new(),
        }
    }

    /// The shortest move forward, else a sideways one, else the zero move;
    /// `None` for a seat that is not on turn.
    fn null_move(&self, state: &State, seat: Seat) -> Option<Move> {
        let car = state.to_move().filter(|&c| state.owner(c) == seat)?;
        Some(reach::null(state, car))
    }

    /// Either way the seat's cars leave the race and it goes on without
    /// them; with fewer than two sides (or no phone) left racing it stops.
    fn withdraw(&self, state: State, seat: Seat, _why: Withdrawal, _absent: &[bool]) -> State {
        let mut state = state;
        round::withdraw(&mut state, seat);
        state
    }

    fn render(&self, state: &State, seat: Seat, lang: Lang) -> String {
        render::render(state, seat, lang)
    }

    fn picture(&self, state: &State, seat: Seat) -> Option<String> {
        Some(svg::picture(state, seat))
    }

    fn move_help(&self, lang: Lang) -> String {
        render::move_help(lang)
    }

    /// The options, and a track name only if this game has the track.
    fn parse_options(&self, text: &str) -> Result<Options, OptionsError> {
        let options: Options = text.parse()?;
        match &options.track {
            Some(name) if !self.tracks.iter().any(|t| t.name() == name) => {
                let known: Vec<&str> = self.tracks.iter().map(Track::name).collect();
                Err(OptionsError::told(said!(
                    "ar-no-track",
                    track = name,
                    track_list = known.join(", "),
                )))
            }
            _ => Ok(options),
        }
    }

    /// `P AR 4 BOT` seats players waiting for `P AR 4` first.
    fn robots_fill(&self, options: &Options) -> Option<Options> {
        options.robots.map(|_| Options {
            robots: None,
            humans: 1,
            ..options.clone()
        })
    }

    fn with_phones(&self, options: &Options, phones: usize) -> Options {
        Options {
            humans: phones.min(usize::from(options.players) - 1).max(1) as u8,
            ..options.clone()
        }
    }

    /// After a car's move, its player and the player whose car is next: not
    /// all eight players for each of sixteen moves a round.
    fn audience(&self, state: &State, mover: Seat) -> Option<Vec<Seat>> {
        let mut seats = vec![mover];
        seats.extend(state.to_move().map(|car| state.owner(car)));
        Some(seats)
    }

    fn robot_move(
        &self,
        state: &State,
        seat: Seat,
        level: Level,
        budget: &Budget<'_>,
        rng: &mut MatchRng,
    ) -> Move {
        robot::choose(state, seat, level, budget, rng)
    }

    /// The moves round by round (`R1 A:FFIF b:4 R2 B:0 c:F* C:Q`): each
    /// move with its car's letter, a `*` where the platform moved it for an
    /// absent player, `Q` where a player left.
    fn history(&self, opening: &State, entries: &[HistoryEntry<'_, Self>], _lang: Lang) -> String {
        let mut out = Vec::with_capacity(entries.len() + 8);
        let mut round = None;
        let mut before = opening;
        for e in entries {
            // A move belongs to the round the race was in when it was made.
            if round != Some(before.round()) {
                round = Some(before.round());
                out.push(format!("R{}", before.round()));
            }
            out.push(match &e.what {
                Recorded::Move(m) | Recorded::Null(m) => {
                    let who = e
                        .after
                        .last()
                        .map_or('?', |(car, _)| car::letter(*car, e.after.per()));
                    let star = if matches!(e.what, Recorded::Null(_)) {
                        "*"
                    } else {
                        ""
                    };
                    format!("{who}:{m}{star}")
                }
                Recorded::Withdrawal(_) => format!("{}:Q", car::seat_letter(e.seat)),
            });
            before = e.after;
        }
        out.join(" ")
    }
}
