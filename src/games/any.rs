//! Every [`Game`] behind one object-safe face, so the platform can hold all
//! games in one catalogue: [`AnyGame`] for the game (options, new matches,
//! loading a stored state) and [`AnyMatch`] for one match's typed state,
//! which the platform holds while it works on a text: a stored state is
//! parsed once when the match is loaded and written once when it is saved.

use std::sync::Arc;

use super::{
    Budget, Effect, Game, GameOptions, HistoryEntry, Lang, Level, Lineup, MatchRng, NotationError,
    OptionsError, Reason, Recorded, Seat, Status, Withdrawal,
};

/// A move the platform could not play.
#[derive(Debug)]
pub enum AnyRefusal {
    /// The text is no move of this game.
    Unreadable(NotationError),
    /// A move, but illegal now; the game says why.
    Illegal(Box<dyn Reason + Send>),
}

/// An accepted move.
#[derive(Clone, Debug, PartialEq)]
pub struct AnyPlayed {
    pub effect: Effect,
    /// The move in its canonical notation, for the record.
    pub notation: String,
}

/// Options after `P <code>`, understood.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AnyOptions {
    /// The canonical form: the lobby's key, and what the match stores.
    pub canonical: String,
    pub lineup: Lineup,
}

/// One entry of a match's record as stored, for `H` and replays.
#[derive(Clone, Debug)]
pub struct StoredEntry<'a> {
    pub seat: Seat,
    pub what: Recorded<&'a str>,
    pub state_after: &'a str,
}

/// A game, whatever its types.
pub trait AnyGame: Send + Sync {
    fn code(&self) -> &'static str;
    fn name(&self, lang: Lang) -> &'static str;
    fn options_help(&self, lang: Lang) -> String;
    /// Reads what follows `P <code>`.
    fn options(&self, text: &str) -> Result<AnyOptions, OptionsError>;
    /// For options that start at once with robots: the canonical options of
    /// the lobby whose waiting players take robots' seats first.
    fn robots_fill(&self, options: &str) -> Option<String>;
    /// The options (canonical) for a match of `phones` phones in all.
    fn with_phones(&self, options: &str, phones: usize) -> Result<AnyOptions, OptionsError>;
    /// A new match with options in canonical form.
    fn start(&self, options: &str, rng: &mut MatchRng) -> Result<Box<dyn AnyMatch>, NotationError>;
    /// A stored match, parsed.
    fn load(&self, state: &str) -> Result<Box<dyn AnyMatch>, NotationError>;
    fn move_help(&self, lang: Lang) -> String;
    fn turn_deadline_secs(&self) -> Option<u64>;
    fn has_state_steps(&self) -> bool;
    fn yields_word(&self, word: &str) -> bool;
    /// `H`: the record so far in the game's notation.
    fn history(
        &self,
        opening: &str,
        entries: &[StoredEntry<'_>],
        lang: Lang,
    ) -> Result<String, NotationError>;
    /// `H n`: the public state string after step `n`, if the game has one.
    fn state_at_step(
        &self,
        opening: &str,
        entries: &[StoredEntry<'_>],
        step: usize,
    ) -> Result<Option<String>, NotationError>;
}

/// One match's state, typed, with the game it belongs to.
pub trait AnyMatch: Send {
    /// The state string to store.
    fn state(&self) -> String;
    /// How many seats the state holds.
    fn seats(&self) -> usize;
    fn status(&self) -> Status;
    /// Plays a seat's text; on success the state has moved on, on a refusal nothing changed.
    fn play(&mut self, seat: Seat, text: &str, rng: &mut MatchRng)
    -> Result<AnyPlayed, AnyRefusal>;
    /// Plays the game's null move for a seat; `None` when the game has none.
    fn play_null(
        &mut self,
        seat: Seat,
        rng: &mut MatchRng,
    ) -> Option<Result<AnyPlayed, AnyRefusal>>;
    fn withdraw(&mut self, seat: Seat, why: Withdrawal, absent: &[bool]);
    fn render(&self, seat: Seat, lang: Lang) -> String;
    /// Who sees the board after `mover`'s move moved the turn on; `None`: everyone.
    fn audience(&self, mover: Seat) -> Option<Vec<Seat>>;
    fn robot_move(
        &self,
        seat: Seat,
        level: Level,
        budget: &Budget<'_>,
        rng: &mut MatchRng,
    ) -> String;
    /// A rematch of this (finished) match.
    fn rematch(
        &self,
        options: &str,
        rng: &mut MatchRng,
    ) -> Result<Box<dyn AnyMatch>, NotationError>;
}

/// A stored entry, parsed: seat, what was played, the state after it.
type ParsedEntry<G> = (Seat, Recorded<<G as Game>::Move>, <G as Game>::State);

/// A game in the catalogue: the rules with their settings, shared by its matches.
pub struct Entry<G>(pub Arc<G>);

impl<G: Game> Entry<G> {
    pub fn new(game: G) -> Entry<G> {
        Entry(Arc::new(game))
    }

    fn typed(&self, state: G::State) -> Box<dyn AnyMatch> {
        Box::new(Typed {
            game: self.0.clone(),
            state,
        })
    }

    fn parse_entries<'s>(
        entries: &[StoredEntry<'s>],
    ) -> Result<Vec<ParsedEntry<G>>, NotationError> {
        entries
            .iter()
            .map(|e| {
                let what = match e.what {
                    Recorded::Move(m) => Recorded::Move(m.parse()?),
                    Recorded::Null(m) => Recorded::Null(m.parse()?),
                    Recorded::Withdrawal(w) => Recorded::Withdrawal(w),
                };
                Ok((e.seat, what, e.state_after.parse()?))
            })
            .collect()
    }
}

fn history_entries<G: Game>(parsed: &[ParsedEntry<G>]) -> Vec<HistoryEntry<'_, G>> {
    parsed
        .iter()
        .map(|(seat, what, after)| HistoryEntry {
            seat: *seat,
            what: what.clone(),
            after,
        })
        .collect()
}

impl<G: Game> AnyGame for Entry<G> {
    fn code(&self) -> &'static str {
        G::CODE
    }

    fn name(&self, lang: Lang) -> &'static str {
        self.0.name(lang)
    }

    fn options_help(&self, lang: Lang) -> String {
        self.0.options_help(lang)
    }

    fn options(&self, text: &str) -> Result<AnyOptions, OptionsError> {
        let options = self.0.parse_options(text)?;
        Ok(AnyOptions {
            canonical: options.to_string(),
            lineup: options.lineup(),
        })
    }

    fn robots_fill(&self, options: &str) -> Option<String> {
        let options = self.0.parse_options(options).ok()?;
        self.0.robots_fill(&options).map(|base| base.to_string())
    }

    fn with_phones(&self, options: &str, phones: usize) -> Result<AnyOptions, OptionsError> {
        let options = self.0.parse_options(options)?;
        let options = self.0.with_phones(&options, phones);
        Ok(AnyOptions {
            canonical: options.to_string(),
            lineup: options.lineup(),
        })
    }

    fn start(&self, options: &str, rng: &mut MatchRng) -> Result<Box<dyn AnyMatch>, NotationError> {
        let options = self
            .0
            .parse_options(options)
            .map_err(|e| NotationError::new(e.to_string()))?;
        Ok(self.typed(self.0.start(&options, rng)))
    }

    fn load(&self, state: &str) -> Result<Box<dyn AnyMatch>, NotationError> {
        Ok(self.typed(state.parse()?))
    }

    fn move_help(&self, lang: Lang) -> String {
        self.0.move_help(lang)
    }

    fn turn_deadline_secs(&self) -> Option<u64> {
        self.0.turn_deadline_secs()
    }

    fn has_state_steps(&self) -> bool {
        self.0.has_state_steps()
    }

    fn yields_word(&self, word: &str) -> bool {
        self.0.yields_word(word)
    }

    fn history(
        &self,
        opening: &str,
        entries: &[StoredEntry<'_>],
        lang: Lang,
    ) -> Result<String, NotationError> {
        let opening: G::State = opening.parse()?;
        let parsed = Self::parse_entries(entries)?;
        Ok(self.0.history(&opening, &history_entries(&parsed), lang))
    }

    fn state_at_step(
        &self,
        opening: &str,
        entries: &[StoredEntry<'_>],
        step: usize,
    ) -> Result<Option<String>, NotationError> {
        let opening: G::State = opening.parse()?;
        let parsed = Self::parse_entries(entries)?;
        Ok(self
            .0
            .state_at_step(&opening, &history_entries(&parsed), step))
    }
}

struct Typed<G: Game> {
    game: Arc<G>,
    state: G::State,
}

impl<G: Game> Typed<G> {
    /// Plays a parsed move, keeping the state as it was on a refusal.
    fn play_move(
        &mut self,
        seat: Seat,
        mv: &G::Move,
        rng: &mut MatchRng,
    ) -> Result<AnyPlayed, AnyRefusal> {
        // `play` takes the state by value and gives it back either way.
        let state = self.state.clone();
        match self.game.play(state, seat, mv, rng) {
            Ok(played) => {
                self.state = played.state;
                Ok(AnyPlayed {
                    effect: played.effect,
                    notation: mv.to_string(),
                })
            }
            Err(refused) => Err(AnyRefusal::Illegal(Box::new(refused.reason))),
        }
    }
}

impl<G: Game> AnyMatch for Typed<G> {
    fn state(&self) -> String {
        self.state.to_string()
    }

    fn seats(&self) -> usize {
        self.game.seats(&self.state)
    }

    fn status(&self) -> Status {
        self.game.status(&self.state)
    }

    fn play(
        &mut self,
        seat: Seat,
        text: &str,
        rng: &mut MatchRng,
    ) -> Result<AnyPlayed, AnyRefusal> {
        let mv: G::Move = text.parse().map_err(AnyRefusal::Unreadable)?;
        self.play_move(seat, &mv, rng)
    }

    fn play_null(
        &mut self,
        seat: Seat,
        rng: &mut MatchRng,
    ) -> Option<Result<AnyPlayed, AnyRefusal>> {
        let mv = self.game.null_move(&self.state, seat)?;
        Some(self.play_move(seat, &mv, rng))
    }

    fn withdraw(&mut self, seat: Seat, why: Withdrawal, absent: &[bool]) {
        let state = self.state.clone();
        self.state = self.game.withdraw(state, seat, why, absent);
    }

    fn render(&self, seat: Seat, lang: Lang) -> String {
        self.game.render(&self.state, seat, lang)
    }

    fn audience(&self, mover: Seat) -> Option<Vec<Seat>> {
        self.game.audience(&self.state, mover)
    }

    fn robot_move(
        &self,
        seat: Seat,
        level: Level,
        budget: &Budget<'_>,
        rng: &mut MatchRng,
    ) -> String {
        self.game
            .robot_move(&self.state, seat, level, budget, rng)
            .to_string()
    }

    fn rematch(
        &self,
        options: &str,
        rng: &mut MatchRng,
    ) -> Result<Box<dyn AnyMatch>, NotationError> {
        let options = self
            .game
            .parse_options(options)
            .map_err(|e| NotationError::new(e.to_string()))?;
        Ok(Box::new(Typed {
            game: self.game.clone(),
            state: self.game.rematch(&self.state, &options, rng),
        }))
    }
}
