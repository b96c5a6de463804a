//! SMS football (`FB`): two teams of two on a 5x5 field, moves by phone keypad.
//!
//! The rules as players see them: `docs/games/football.md`. Files, one job each:
//! [`board`] the field, [`moves`] the move notation, [`validate`] legality and
//! refusal texts, [`resolve`] a turn's outcome, [`end`] goals and the clock,
//! [`setup`] new matches, [`turn`] pending moves and resignation, [`state`]
//! the state and its state string, [`render`] what each seat reads, [`dice`]
//! every random draw, [`options`] `P FB` and `P FB BOT`, [`robot`] the robot.
//!
//! Seats 0-3 are the four players in lobby order; side 0 is Attack, side 1
//! Defense. Randomness is drawn only in [`setup`] and [`resolve`], in the
//! order documented there, from the `MatchRng` the platform passes in.

pub mod board;
pub mod dice;
pub mod end;
pub mod moves;
pub mod options;
pub mod render;
pub mod resolve;
pub mod robot;
pub mod settings;
pub mod setup;
pub mod state;
pub mod svg;
pub mod turn;
pub mod validate;

#[cfg(test)]
mod tests;

pub use board::{Board, Cell, Dir};
pub use end::Outcome;
pub use moves::{Key, Move};
pub use options::Options;
pub use settings::Settings;
pub use state::State;
pub use validate::Refusal;

use std::sync::OnceLock;

use crate::{
    Budget, Contest, Game, HistoryEntry, Lang, Level, MatchRng, Played, Recorded, Refused, Seat,
    Side, Standing, Status, Withdrawal, tr,
};

/// The side that moves first and scores on row 1.
pub const ATTACK: Side = 0;
/// The side that starts on row 1 and scores on row 5.
pub const DEFENSE: Side = 1;

/// SMS football with its two settings. A match copies them into its state at
/// `start`, so later changes to the config never alter a running match or
/// its replay; a rematch keeps the settings of the match it follows.
#[derive(Clone, Debug, PartialEq)]
pub struct Football {
    /// Chance that a fight for the ball sends it two cells away, `0.0..=1.0`
    /// (values outside are clamped, NaN means the default).
    pub ricochet: f64,
    /// Turns per team before the ten-move rule decides (at least 1).
    pub max_rounds: u32,
}

impl Default for Football {
    fn default() -> Self {
        Football {
            ricochet: state::DEFAULT_RICOCHET,
            max_rounds: state::DEFAULT_MAX_ROUNDS,
        }
    }
}

impl Football {
    /// The settings a new match gets: the config, made safe to play with.
    fn settings(&self) -> (f64, u32) {
        let ricochet = if self.ricochet.is_nan() {
            state::DEFAULT_RICOCHET
        } else {
            self.ricochet.clamp(0.0, 1.0)
        };
        (ricochet, self.max_rounds.max(1))
    }
}

impl Football {
    /// Draws the teams, then the opening positions (see [`setup`] for the
    /// order of draws).
    pub fn opening(&self, rng: &mut MatchRng) -> State {
        let (ricochet, max_rounds) = self.settings();
        let sides = setup::draw_sides(rng);
        setup::place(sides, ricochet, max_rounds, rng)
    }

    /// The side a seat plays for.
    pub fn side_of(state: &State, seat: Seat) -> Side {
        state.sides()[seat]
    }
}

impl Game for Football {
    type State = State;
    type Move = Move;
    type Refusal = Refusal;
    type Options = Options;

    const CODE: &'static str = "FB";
    const CONTEST: Contest = Contest::Field;

    fn side(&self, state: &State, seat: Seat) -> Side {
        Football::side_of(state, seat)
    }
    const GUIDE: &'static str = include_str!("../../../../docs/games/football.md");

    /// The catalog's `fb-name`, read once per language: the trait lends
    /// the name for the program's life, and the installed catalog is set
    /// once, before any text is made, and never changes.
    fn name(&self, lang: Lang) -> &'static str {
        static NAMES: [OnceLock<String>; Lang::ALL.len()] =
            [const { OnceLock::new() }; Lang::ALL.len()];
        let slot = Lang::ALL.iter().position(|&l| l == lang).unwrap_or(0);
        NAMES[slot].get_or_init(|| tr!(lang, "fb-name"))
    }

    fn practice(&self, _level: Level) -> Options {
        Options::Robots
    }

    fn robot_levels(&self) -> std::ops::RangeInclusive<Level> {
        options::ROBOT_LEVEL..=options::ROBOT_LEVEL
    }

    fn options_help(&self, lang: Lang) -> String {
        tr!(lang, "fb-options-help")
    }

    /// A new match: with robots, the player is seat 0 and the draw of sides
    /// puts him in either team.
    fn start(&self, _options: &Options, rng: &mut MatchRng) -> State {
        self.opening(rng)
    }

    /// Same teams with sides swapped (the old Attack pair defends), fresh
    /// positions, Attack first, and the finished match's settings.
    fn rematch(&self, finished: &State, _options: &Options, rng: &mut MatchRng) -> State {
        let sides = finished.sides().map(|side| 1 - side);
        setup::place(sides, finished.ricochet(), finished.max_rounds(), rng)
    }

    fn seats(&self, state: &State) -> usize {
        state.sides().len()
    }

    fn status(&self, state: &State) -> Status {
        match state.result() {
            Some(outcome) => {
                Status::Finished(state.sides().map(|side| standing(outcome, side)).to_vec())
            }
            None => {
                let waiting = state
                    .seats_of(state.turn())
                    .into_iter()
                    .filter(|&s| state.pending(s).is_none());
                Status::Awaiting(waiting.collect())
            }
        }
    }

    fn play(
        &self,
        state: State,
        seat: Seat,
        mv: &Move,
        rng: &mut MatchRng,
    ) -> Result<Played<State>, Refused<State, Refusal>> {
        turn::play(state, seat, *mv, rng)
    }

    fn legal_moves(&self, state: &State, seat: Seat) -> Vec<Move> {
        Move::all()
            .filter(|&m| turn::admit(state, seat, m).is_ok())
            .collect()
    }

    /// Standing still (`5`), always legal.
    fn null_move(&self, _state: &State, _seat: Seat) -> Option<Move> {
        Some(Move::Stand)
    }

    /// `Q` resigns for the seat's team. An absent player's piece stands
    /// while his partner plays on; a team with both away loses.
    fn withdraw(&self, state: State, seat: Seat, why: Withdrawal, absent: &[bool]) -> State {
        let Some(&side) = state.sides().get(seat) else {
            return state;
        };
        let team_gone = state
            .seats_of(side)
            .iter()
            .all(|&s| absent.get(s).copied().unwrap_or(false));
        match why {
            Withdrawal::Resigned => turn::resign(state, seat),
            Withdrawal::Absent if team_gone => turn::resign(state, seat),
            Withdrawal::Absent => state,
        }
    }

    /// See [`render::render`]. Panics if `seat` is not 0-3.
    fn render(&self, state: &State, seat: Seat, lang: Lang) -> String {
        render::render(state, seat, lang)
    }

    /// The match turn by turn, a line a round: each side's players with
    /// their moves (`1. A: ann 3, bob 06 / D: cid 4, dan 2`); `*` marks a
    /// move the platform made for an absent player, `Q` a player who left.
    /// A round is the attack's turn and then the defence's.
    fn history(&self, opening: &State, entries: &[HistoryEntry<'_, Self>], _lang: Lang) -> String {
        let mut rounds: Vec<[Vec<String>; 2]> = Vec::new();
        let mut before = opening;
        for e in entries {
            let side = Football::side_of(before, e.seat);
            let round = before.moved()[side] as usize;
            if rounds.len() <= round {
                rounds.resize_with(round + 1, Default::default);
            }
            let seat_name;
            let name = if e.name.is_empty() {
                seat_name = format!("P{}", e.seat + 1);
                seat_name.as_str()
            } else {
                e.name
            };
            rounds[round][side].push(match &e.what {
                Recorded::Move(m) => format!("{name} {m}"),
                Recorded::Null(m) => format!("{name} {m}*"),
                Recorded::Withdrawal(_) => format!("{name} Q"),
            });
            before = e.after;
        }
        let line = |(i, [attack, defence]): (usize, &[Vec<String>; 2])| {
            let mut line = format!("{}.", i + 1);
            if !attack.is_empty() {
                line.push_str(&format!(" A: {}", attack.join(", ")));
            }
            if !defence.is_empty() {
                let sep = if attack.is_empty() { "" } else { " /" };
                line.push_str(&format!("{sep} D: {}", defence.join(", ")));
            }
            line
        };
        rounds
            .iter()
            .enumerate()
            .map(line)
            .collect::<Vec<_>>()
            .join("\n")
    }

    /// Before the record named its turns and players: the moves' digits,
    /// null moves included, separated by spaces.
    fn former_history(
        &self,
        _opening: &State,
        entries: &[HistoryEntry<'_, Self>],
        _lang: Lang,
    ) -> Option<String> {
        Some(crate::plain_history(entries))
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
        _level: Level,
        _budget: &Budget<'_>,
        rng: &mut MatchRng,
    ) -> Move {
        robot::choose(state, seat, rng)
    }
}

/// How `outcome` ended for a seat on `side`: winners first, a draw shared.
fn standing(outcome: Outcome, side: Side) -> Standing {
    match outcome {
        Outcome::Won(winner) if winner != side => Standing::place(2),
        _ => Standing::place(1),
    }
}
