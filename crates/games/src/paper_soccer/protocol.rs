//! The engine line protocol (the referee's): `start` or the opponent's turn in kurnik digits in, our turn out.
//!
//! The engine that receives `start` moves first and attacks the top goal
//! (side 0); one that first receives a turn attacks the bottom goal. After
//! a turn that ends the game (either side's), the engine answers nothing;
//! the referee then closes its input. Blank lines are ignored.

use super::field::Field;
use super::moves::{kurnik_string, parse_kurnik};
use super::position::Position;
use super::robot::{self, Eval, Searcher};
use super::state::State;
use crate::{Budget, Level, MatchRng};

use rand::SeedableRng;

/// Why a line was not understood.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum EngineError {
    #[error("bad line {0:?}: {1}")]
    Bad(String, String),
    #[error("illegal turn {0:?}")]
    Illegal(String),
    #[error("{0:?}: the game is already over")]
    Over(String),
    #[error("`start` after the game began")]
    LateStart,
}

pub struct Engine {
    pub level: Level,
    pub ms: u64,
    state: State,
    started: bool,
    searcher: Searcher,
    rng: MatchRng,
    /// What the last search reported (level 2-3).
    pub last: robot::Report,
}

impl Engine {
    /// An engine of `level` answering within `ms` on a `width`x`length` field.
    pub fn new(level: Level, ms: u64, field: (u8, u8)) -> Engine {
        Field::get(field.0, field.1).expect("supported field size");
        let searcher = match level {
            0..=2 => Searcher::new(12, Eval::Simple, 2),
            _ => Searcher::new(20, Eval::tuned(), 64),
        };
        Engine {
            level,
            ms,
            state: State::new(field.0, field.1, 0),
            started: false,
            searcher,
            rng: MatchRng::seed_from_u64(0x5053),
            last: robot::Report::default(),
        }
    }

    /// Seeds the tie-breaks (an engine is otherwise the same in every game).
    pub fn with_seed(mut self, seed: u64) -> Engine {
        self.rng = MatchRng::seed_from_u64(seed);
        self
    }

    pub fn state(&self) -> &State {
        &self.state
    }

    /// Handles one input line: `Some(turn)` to write, `None` when the game is over.
    pub fn respond(
        &mut self,
        line: &str,
        budget: &Budget<'_>,
    ) -> Result<Option<String>, EngineError> {
        let line = line.trim();
        if line.is_empty() {
            return Ok(None);
        }
        if line == "start" {
            if self.started {
                return Err(EngineError::LateStart);
            }
        } else {
            let dirs =
                parse_kurnik(line).map_err(|e| EngineError::Bad(line.into(), e.to_string()))?;
            if self.state.end.is_some() {
                return Err(EngineError::Over(line.into()));
            }
            let before = self.state.turns.len();
            for d in dirs {
                if self.state.end.is_some() || self.state.turns.len() != before {
                    return Err(EngineError::Illegal(line.into()));
                }
                self.state
                    .step(d)
                    .map_err(|_| EngineError::Illegal(line.into()))?;
            }
            if self.state.end.is_none() && self.state.turns.len() == before {
                return Err(EngineError::Illegal(line.into()));
            }
        }
        self.started = true;
        if self.state.end.is_some() {
            return Ok(None);
        }
        let path = self.think(budget);
        for &d in &path {
            self.state.step(d).expect("the robot plays legal steps");
        }
        Ok(Some(kurnik_string(&path)))
    }

    fn think(&mut self, budget: &Budget<'_>) -> Vec<u8> {
        let f = self.state.field();
        let pos: Position = self.state.pos;
        let budget = Budget {
            millis: budget.millis.min(self.ms),
            ..*budget
        };
        if self.level <= 1 {
            return robot::choose(f, &pos, 1, &budget, &mut self.rng);
        }
        let rng = &mut self.rng;
        let report = self.searcher.search(f, &pos, &budget, &mut |m| {
            use rand::seq::SliceRandom;
            m.shuffle(rng)
        });
        let path = if report.path.is_empty() {
            robot::walk(f, &pos, &mut self.rng)
        } else {
            report.path.clone()
        };
        self.last = report;
        path
    }
}
