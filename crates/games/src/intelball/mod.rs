//! Intelball (`IB`): chess-like football on a 7x12 field, six players a side,
//! a turn is a combination of codes (`B(4,6)>L(4,5)B~L(4,5)>L(6,5)B~L(6,5)>F(1,10)`).
//!
//! Files, one job each: [`board`] cells, zones and the field, [`code`] the
//! move codes, [`moves`] what a text holds, [`rules`] what a code does,
//! [`why`] refusal texts, [`position`] the public state string, [`check`]
//! which positions are possible, [`state`] the stored state with undo
//! history, [`turn`] playing a text and `U`, [`options`] `P IB ...`,
//! [`history`] `H` and `H n`, [`render`] the board text, [`robot`] the three
//! robot levels.
//!
//! Seats: 0 and 1. Side 0 is Blue (`L`, moves first), side 1 Red (`R`). No
//! randomness in the rules: `rng` draws only the sides of a two-phone match
//! (in [`Intelball::start`]) and the robots' choices among equals.

pub mod board;
pub mod check;
pub mod code;
pub mod history;
pub mod moves;
pub mod options;
pub mod position;
pub mod reader;
pub mod render;
pub mod robot;
pub mod rules;
pub mod settings;
pub mod state;
pub mod svg;
pub mod turn;
pub mod why;

#[cfg(test)]
mod tests;

pub use board::{BLUE, RED};
pub use moves::Move;
pub use options::{Kind, Options};
pub use position::Position;
pub use settings::Settings;
pub use state::{Mode, State};
pub use why::Refusal;

use std::sync::OnceLock;

use rand::Rng;

use crate::{
    Budget, Game, HistoryEntry, Lang, Level, LevelResult, MatchRng, PlayResult, Seat, Standing,
    Status, Withdrawal, tr,
};

/// Intelball with its one setting, copied into each match at start.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Intelball {
    /// The time `T` at which a match ends (rounds).
    pub limit: u32,
}

impl Default for Intelball {
    fn default() -> Self {
        Intelball {
            limit: state::DEFAULT_LIMIT,
        }
    }
}

impl Intelball {
    /// A match on `pos` for `kind`; a position already at or past the time
    /// limit gets one more round.
    fn new_match(&self, kind: Kind, pos: Position, seat0: usize) -> State {
        let mode = match kind {
            Kind::Duel => Mode::Duel { seat0 },
            Kind::Bot(_) => Mode::Bot,
            Kind::Hot => Mode::Hot,
        };
        let limit = self.limit.max(pos.time + 1);
        State::new(pos, mode, limit)
    }
}

impl Game for Intelball {
    type State = State;
    type Move = Move;
    type Refusal = Refusal;
    type Options = Options;

    const CODE: &'static str = "IB";
    /// `ib_levels`: each level won all 100 games against the one below.
    const LEVEL_RESULTS: &'static [LevelResult] = &[
        LevelResult {
            stronger: Some(2),
            weaker: Some(1),
            score: 1.0,
            games: 100,
        },
        LevelResult {
            stronger: Some(3),
            weaker: Some(2),
            score: 1.0,
            games: 100,
        },
    ];
    const GUIDE: &'static str = include_str!("../../../../docs/games/intelball.md");

    /// The catalog's `ib-name`, read once per language: the trait lends
    /// the name for the program's life, and the catalog is installed once.
    fn name(&self, lang: Lang) -> &'static str {
        static NAMES: OnceLock<Vec<(Lang, String)>> = OnceLock::new();
        NAMES
            .get_or_init(|| Lang::ALL.iter().map(|&l| (l, tr!(l, "ib-name"))).collect())
            .iter()
            .find(|(l, _)| *l == lang)
            .map_or("IB", |(_, name)| name.as_str())
    }

    fn practice(&self, level: Level) -> Options {
        Options {
            kind: options::Kind::Bot(level),
            start: None,
        }
    }

    fn options_help(&self, lang: Lang) -> String {
        tr!(lang, "ib-options-help")
    }

    /// Two phones draw who plays Blue; the robot's opponent and a single
    /// phone's seat 0 play Blue.
    fn start(&self, options: &Options, rng: &mut MatchRng) -> State {
        let seat0 = match options.kind {
            Kind::Duel => usize::from(rng.gen_bool(0.5)),
            _ => BLUE,
        };
        let pos = options.start.clone().unwrap_or_else(Position::opening);
        self.new_match(options.kind, pos, seat0)
    }

    /// Two phones swap colours; otherwise the seats stay. The finished
    /// match's time limit carries over.
    fn rematch(&self, finished: &State, options: &Options, _rng: &mut MatchRng) -> State {
        let seat0 = board::other(finished.side_of(0));
        let pos = options.start.clone().unwrap_or_else(Position::opening);
        let game = Intelball {
            limit: finished.limit(),
        };
        game.new_match(
            options.kind,
            pos,
            if options.kind == Kind::Duel {
                seat0
            } else {
                BLUE
            },
        )
    }

    fn seats(&self, _state: &State) -> usize {
        2
    }

    fn status(&self, state: &State) -> Status {
        if !state.finished() {
            return Status::Awaiting(vec![state.seat_of(state.position().turn)]);
        }
        let score = state.position().score;
        let winner = match state.left() {
            Some(left) => left.loser().map(board::other),
            None if score[BLUE] > score[RED] => Some(BLUE),
            None if score[RED] > score[BLUE] => Some(RED),
            None => None,
        };
        let standings = (0..2)
            .map(|seat| {
                let side = state.side_of(seat);
                let place = match winner {
                    Some(w) if w != side => 2,
                    _ => 1,
                };
                Standing {
                    place,
                    score: Some(i64::from(score[side])),
                }
            })
            .collect();
        Status::Finished(standings)
    }

    fn play(&self, state: State, seat: Seat, mv: &Move, _rng: &mut MatchRng) -> PlayResult<Self> {
        turn::play(state, seat, mv)
    }

    /// Single codes the seat may send now, `-`, and `U` when it would be
    /// accepted (on two phones also from the seat not on turn: a takeback).
    fn legal_moves(&self, state: &State, seat: Seat) -> Vec<Move> {
        if state.finished() || seat > 1 {
            return Vec::new();
        }
        let mut moves = Vec::new();
        let on_turn = state.mode() == Mode::Hot || state.side_of(seat) == state.position().turn;
        if on_turn {
            let pos = state.position();
            moves.extend(
                robot::combos::legal_codes(&pos.field, pos.turn)
                    .into_iter()
                    .map(|c| Move::codes(vec![c])),
            );
        }
        if turn::play(state.clone(), seat, &Move::Undo).is_ok() {
            moves.push(Move::Undo);
        }
        moves
    }

    /// `-`: the turn passes as it stands.
    fn null_move(&self, _state: &State, _seat: Seat) -> Option<Move> {
        Some(Move::pass())
    }

    /// Resigning or going away loses the match for the seat's side.
    fn withdraw(&self, state: State, seat: Seat, why: Withdrawal, _absent: &[bool]) -> State {
        turn::withdraw(state, seat, why)
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

    fn robot_move(
        &self,
        state: &State,
        seat: Seat,
        level: Level,
        budget: &Budget<'_>,
        rng: &mut MatchRng,
    ) -> Move {
        let _ = seat;
        robot::choose(state.position(), state.limit(), level, budget, rng)
    }

    fn history(&self, opening: &State, entries: &[HistoryEntry<'_, Self>], _lang: Lang) -> String {
        history::history(&history::line(opening, entries))
    }

    fn state_steps(&self, opening: &State, entries: &[HistoryEntry<'_, Self>]) -> Vec<String> {
        history::steps(&history::line(opening, entries))
    }

    fn has_state_steps(&self) -> bool {
        true
    }
}
