//! Word battle (`WB`, "Словесный бой"): two sides write words on a 10x10 board and take letters.
//!
//! Files, one job each: [`alphabet`] letters and `ё`, [`dictionary`] the
//! word lists as a trie, [`board`] cells, sides and captures, [`moves`] the
//! move notation, [`rules`] legality and what a move does, [`refusal`] the
//! reasons, [`movegen`] every legal word through the trie, [`state`] the
//! state, [`notation`] its state string, [`options`] `P WB ...`, [`render`]
//! what a seat reads, [`robot`] and [`search`] the three robot levels.
//!
//! Seats 0 and 1; [`start`](Game::start) draws which plays Red (against a
//! robot the phone is Red, seat 0). Randomness: `start` draws one number in
//! `0..2` for two phones; `rematch` draws nothing; robots draw only to break
//! ties.

pub mod alphabet;
pub mod board;
pub mod dictionary;
pub mod movegen;
pub mod moves;
pub mod notation;
pub mod options;
pub mod refusal;
pub mod render;
pub mod robot;
pub mod rules;
pub mod search;
pub mod state;
pub mod svg;

#[cfg(test)]
mod tests;

pub use alphabet::Variant;
pub use board::{Cell, Colour, Dir};
pub use dictionary::Dictionary;
pub use moves::Move;
pub use options::Options;
pub use refusal::Refusal;
pub use state::State;

use std::sync::OnceLock;

use rand::Rng;

use crate::{
    Budget, Effect, Game, GameOptions, HistoryEntry, Lang, Level, LevelResult, MatchRng, Occupant,
    Played, Recorded, Refused, Seat, Status, Withdrawal, tr,
};

/// The original rules' worked example, Red and Blue in turn up to РОКОКО
/// (Red, seat 0, to move next; longest word 6): the test vector of the
/// rules, the refusals, move generation and the benchmarks.
pub const EXAMPLE_OPENING: [&str; 6] = [
    "a1r бамбук",
    "j10l будуар",
    "a1u бордо",
    "j10d бостон",
    "a5r окурок",
    "e10d рококо",
];

/// The game, holding the dictionaries its matches play with: the built-in
/// ones (loaded once per process, on first use) unless a test hands in its own.
#[derive(Clone, Copy, Debug, Default)]
pub struct WordBattle {
    ru: Option<&'static Dictionary>,
    en: Option<&'static Dictionary>,
}

impl WordBattle {
    /// The game with the built-in dictionaries.
    pub fn new() -> WordBattle {
        WordBattle::default()
    }

    /// The game playing `dict` for its variant (the other stays built in).
    pub fn with_dictionary(self, dict: &'static Dictionary) -> WordBattle {
        match dict.variant() {
            Variant::Ru => WordBattle {
                ru: Some(dict),
                ..self
            },
            Variant::En => WordBattle {
                en: Some(dict),
                ..self
            },
        }
    }

    /// The position after [`EXAMPLE_OPENING`], each word played by whoever
    /// is on turn; `None` if this game's dictionary refuses one of them.
    pub fn example_position(&self) -> Option<State> {
        EXAMPLE_OPENING
            .iter()
            .try_fold(State::new(Variant::Ru, 6, 0), |state, text| {
                let mv: Move = text.parse().ok()?;
                let seat = state.seat_of(state.turn());
                let mut rng = <MatchRng as rand::SeedableRng>::seed_from_u64(0);
                self.play(state, seat, &mv, &mut rng).ok().map(|p| p.state)
            })
    }

    /// The dictionary of `variant`.
    pub fn dictionary(&self, variant: Variant) -> &'static Dictionary {
        let chosen = match variant {
            Variant::Ru => self.ru,
            Variant::En => self.en,
        };
        chosen.unwrap_or_else(|| Dictionary::builtin(variant))
    }
}

impl Game for WordBattle {
    type State = State;
    type Move = Move;
    type Refusal = Refusal;
    type Options = Options;

    const CODE: &'static str = "WB";
    /// `wb_levels`: level 2 beat level 1 98 to 2, level 3 beat level 2 94 to 6.
    const LEVEL_RESULTS: &'static [LevelResult] = &[
        LevelResult {
            stronger: Some(2),
            weaker: Some(1),
            score: 0.98,
            games: 100,
        },
        LevelResult {
            stronger: Some(3),
            weaker: Some(2),
            score: 0.94,
            games: 100,
        },
    ];
    const GUIDE: &'static str = include_str!("../../../../docs/games/word_battle.md");

    /// The catalog's name, worded once per language: `Game::name` lends it
    /// for the process's life, and the catalog is installed once, before
    /// any text is made.
    fn name(&self, lang: Lang) -> &'static str {
        static NAMES: [OnceLock<String>; Lang::ALL.len()] =
            [const { OnceLock::new() }; Lang::ALL.len()];
        let slot = Lang::ALL.iter().position(|&l| l == lang).unwrap_or(0);
        NAMES[slot].get_or_init(|| tr!(lang, "wb-name"))
    }

    fn practice(&self, level: Level) -> Options {
        Options {
            robot: Some(level),
            ..Options::default()
        }
    }

    fn options_help(&self, lang: Lang) -> String {
        tr!(lang, "wb-options-help")
    }

    /// Two phones: one draw for who plays Red. Against a robot the phone
    /// (seat 0) is Red.
    fn start(&self, options: &Options, rng: &mut MatchRng) -> State {
        let red_seat = match options.lineup().0.as_slice() {
            [Occupant::Phone(_), Occupant::Phone(_)] => rng.gen_range(0..2),
            _ => 0,
        };
        State::new(options.variant, options.max_len, red_seat)
    }

    /// The finished match's settings; two phones swap colours, a phone
    /// against a robot stays Red.
    fn rematch(&self, finished: &State, options: &Options, _rng: &mut MatchRng) -> State {
        let red_seat = match options.robot {
            Some(_) => 0,
            None => 1 - finished.red_seat(),
        };
        State::new(finished.variant(), finished.max_len(), red_seat)
    }

    fn seats(&self, _state: &State) -> usize {
        2
    }

    fn status(&self, state: &State) -> Status {
        match state.standings() {
            Some(standings) => Status::Finished(standings),
            None => Status::Awaiting(vec![state.seat_of(state.turn())]),
        }
    }

    fn play(
        &self,
        state: State,
        seat: Seat,
        mv: &Move,
        _rng: &mut MatchRng,
    ) -> Result<Played<State>, Refused<State, Refusal>> {
        let dict = self.dictionary(state.variant());
        match rules::check(&state, dict, seat, mv) {
            Err(reason) => Err(Refused { state, reason }),
            Ok(action) => {
                let mut state = state;
                rules::apply(&mut state, action);
                Ok(Played {
                    state,
                    effect: Effect::Resolved,
                })
            }
        }
    }

    /// Every word the seat may play (each with its direction), then the pass.
    fn legal_moves(&self, state: &State, seat: Seat) -> Vec<Move> {
        let Some(side) = state.colour_of(seat) else {
            return Vec::new();
        };
        if state.is_over() || side != state.turn() {
            return Vec::new();
        }
        let dict = self.dictionary(state.variant());
        let played = movegen::played_nodes(state, dict);
        let search = movegen::Search {
            dict,
            side,
            max_len: state.max_len(),
            min_rank: 0,
            played: &played,
        };
        let mut moves: Vec<Move> = movegen::generate(state.board(), &search)
            .iter()
            .map(|c| robot::to_move(dict, c))
            .collect();
        moves.push(Move::Pass);
        moves
    }

    /// A missed deadline passes.
    fn null_move(&self, _state: &State, _seat: Seat) -> Option<Move> {
        Some(Move::Pass)
    }

    /// Resigning or going away loses the match.
    fn withdraw(&self, state: State, seat: Seat, _why: Withdrawal, _absent: &[bool]) -> State {
        let mut state = state;
        rules::withdraw(&mut state, seat);
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

    /// Cyrillic letters are this game's: a text that opens with `В`, `С`,
    /// `Р`, `Т` or `А` is no platform command here (elsewhere they stand in
    /// for `B`, `S`, `P`, `T`, `A` on a Cyrillic keyboard).
    fn yields_word(&self, word: &str) -> bool {
        !word
            .chars()
            .any(|c| alphabet::script(c) == Some(Variant::Ru))
    }

    /// The moves, oldest first, separated by commas (a word move has a
    /// space inside); passes show as `-`.
    fn history(&self, _opening: &State, entries: &[HistoryEntry<'_, Self>], _lang: Lang) -> String {
        let moves: Vec<String> = entries
            .iter()
            .filter_map(|e| match &e.what {
                Recorded::Move(m) | Recorded::Null(m) => Some(m.to_string()),
                Recorded::Withdrawal(_) => None,
            })
            .collect();
        moves.join(", ")
    }

    fn robot_move(
        &self,
        state: &State,
        seat: Seat,
        level: Level,
        budget: &Budget<'_>,
        rng: &mut MatchRng,
    ) -> Move {
        robot::choose(
            self.dictionary(state.variant()),
            state,
            seat,
            level,
            budget,
            rng,
        )
    }
}
