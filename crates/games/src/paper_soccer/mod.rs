//! Paper soccer (`PS`): two players draw the ball's path on a grid; bounces, goals, dead ends.
//!
//! Files, one job each: [`field`] sizes, points and step tables, [`position`]
//! the searchable position (segment bitset, ball, side, Zobrist hash),
//! [`moves`] keypad and kurnik digits, [`state`] the match state and its
//! state string, [`refusal`] the reasons, [`options`] `P PS ...`, [`render`]
//! what a seat reads, [`record`] the kurnik/PlayOK record, [`movegen`] whole
//! moves, [`robot`] levels 1-3, [`protocol`] the engine line protocol.
//!
//! Seats 0 and 1. Side 0 attacks the top goal and moves first. `start` draws
//! the top goal's attacker for two phones (one number in `0..2`); against a
//! robot seat 0 (the phone) attacks the top goal. `rematch` swaps the ends
//! (the other seat attacks the top goal and moves first) and draws nothing.
//! Robots draw from `rng` only to break ties between equal moves.

pub mod field;
pub mod movegen;
pub mod moves;
pub mod options;
pub mod position;
pub mod protocol;
pub mod record;
pub mod refusal;
pub mod render;
pub mod robot;
pub mod state;
pub mod svg;

#[cfg(test)]
mod tests;

pub use moves::Move;
pub use options::Options;
pub use record::Record;
pub use refusal::Refusal;
pub use state::State;

use std::sync::OnceLock;

use rand::Rng;

use crate::{
    Budget, Effect, Game, HistoryEntry, Lang, Level, LevelResult, MatchRng, Played, Refused, Seat,
    Standing, Status, Withdrawal, tr,
};
use state::{End, How, StepError};

#[derive(Clone, Copy, Debug, Default)]
pub struct PaperSoccer;

/// Plays the steps of one text for `seat`: the new state and its effect, or why not.
pub fn play_text(state: &State, seat: Seat, dirs: &[u8]) -> Result<(State, Effect), Refusal> {
    if state.end.is_some() {
        return Err(Refusal::Finished);
    }
    if state.to_move() != seat {
        return Err(Refusal::NotYourTurn);
    }
    let mut trial = state.clone();
    let before = trial.turns.len();
    for (i, &d) in dirs.iter().enumerate() {
        if trial.end.is_some() || trial.turns.len() != before {
            return Err(Refusal::TurnEnded { after: i });
        }
        match trial.step(d) {
            Ok(_) => {}
            Err(StepError::Blocked(why)) => {
                return Err(Refusal::Blocked {
                    step: i + 1,
                    dir: d,
                    why,
                });
            }
            Err(StepError::After) => return Err(Refusal::TurnEnded { after: i }),
        }
    }
    let effect = if trial.end.is_none() && trial.turns.len() == before {
        Effect::Continues
    } else {
        Effect::Resolved
    };
    Ok((trial, effect))
}

impl Game for PaperSoccer {
    type State = State;
    type Move = Move;
    type Refusal = Refusal;
    type Options = Options;

    const CODE: &'static str = "PS";
    /// `measure/paper_soccer.sh`: level 2 beat level 1 99 to 1, level 3
    /// beat level 2 93 to 7 (100 ms a turn).
    const LEVEL_RESULTS: &'static [LevelResult] = &[
        LevelResult {
            stronger: Some(2),
            weaker: Some(1),
            score: 0.99,
            games: 100,
        },
        LevelResult {
            stronger: Some(3),
            weaker: Some(2),
            score: 0.93,
            games: 100,
        },
    ];
    const GUIDE: &'static str = include_str!("../../../../docs/games/paper_soccer.md");

    /// The catalog's `ps-name`, read once per language: the trait lends
    /// the name for the program's life, and the installed catalog is set
    /// once, before any text is made, and never changes.
    fn name(&self, lang: Lang) -> &'static str {
        static NAMES: [OnceLock<String>; Lang::ALL.len()] =
            [const { OnceLock::new() }; Lang::ALL.len()];
        let slot = Lang::ALL.iter().position(|&l| l == lang).unwrap_or(0);
        NAMES[slot].get_or_init(|| tr!(lang, "ps-name"))
    }

    fn practice(&self, level: Level) -> Options {
        Options {
            robot: Some(level),
            ..Options::default()
        }
    }

    fn options_help(&self, lang: Lang) -> String {
        tr!(lang, "ps-options-help")
    }

    fn start(&self, options: &Options, rng: &mut MatchRng) -> State {
        let top = if options.robot.is_some() {
            0
        } else {
            rng.gen_range(0..2)
        };
        State::new(options.width, options.length, top)
    }

    fn rematch(&self, finished: &State, _options: &Options, _rng: &mut MatchRng) -> State {
        State::new(finished.width, finished.length, 1 - finished.top)
    }

    fn seats(&self, _state: &State) -> usize {
        2
    }

    fn status(&self, state: &State) -> Status {
        match state.end {
            Some(End { winner, .. }) => Status::Finished(
                (0..2)
                    .map(|s| Standing::place(if s == winner { 1 } else { 2 }))
                    .collect(),
            ),
            None => Status::Awaiting(vec![state.to_move()]),
        }
    }

    fn play(
        &self,
        state: State,
        seat: Seat,
        mv: &Move,
        _rng: &mut MatchRng,
    ) -> crate::PlayResult<Self> {
        match play_text(&state, seat, &mv.0) {
            Ok((state, effect)) => Ok(Played { state, effect }),
            Err(reason) => Err(Refused { state, reason }),
        }
    }

    fn legal_moves(&self, state: &State, seat: Seat) -> Vec<Move> {
        if state.end.is_some() || state.to_move() != seat {
            return Vec::new();
        }
        let free = state.pos.free(state.field());
        (0..8)
            .filter(|d| free >> d & 1 == 1)
            .map(|d| Move(vec![d]))
            .collect()
    }

    fn null_move(&self, _state: &State, _seat: Seat) -> Option<Move> {
        None
    }

    fn withdraw(&self, mut state: State, seat: Seat, why: Withdrawal, _absent: &[bool]) -> State {
        if state.end.is_none() {
            let how = match why {
                Withdrawal::Resigned => How::Resigned,
                Withdrawal::Absent => How::Absent,
            };
            state.end = Some(End {
                winner: 1 - seat,
                how,
            });
        }
        state
    }

    fn render(&self, state: &State, seat: Seat, lang: Lang) -> String {
        render::render(state, seat, lang)
    }

    fn picture(&self, state: &State, seat: Seat) -> Option<String> {
        Some(svg::picture(state, seat))
    }

    fn move_help(&self, lang: Lang) -> String {
        tr!(lang, "ps-move-help")
    }

    fn robot_move(
        &self,
        state: &State,
        seat: Seat,
        level: Level,
        budget: &Budget<'_>,
        rng: &mut MatchRng,
    ) -> Move {
        debug_assert_eq!(state.to_move(), seat);
        Move(robot::choose(state.field(), &state.pos, level, budget, rng))
    }

    /// While the game runs: the turns in keypad digits, numbered (`1.2 2.36`);
    /// after the end: the kurnik record with its header.
    fn history(&self, opening: &State, entries: &[HistoryEntry<'_, Self>], lang: Lang) -> String {
        let _ = lang;
        let state = entries.last().map_or(opening, |e| e.after);
        if state.end.is_some() {
            return Record::of_state(state, &[]).to_string();
        }
        state
            .tokens()
            .iter()
            .enumerate()
            .map(|(i, t)| format!("{}.{}", i + 1, moves::keypad_string(t)))
            .collect::<Vec<_>>()
            .join(" ")
    }
}
