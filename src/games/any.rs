//! [`AnyGame`]: every [`Game`] behind one object-safe face that speaks state strings,
//! so the platform can hold all games in one catalogue and store any match as text.

use std::ops::RangeInclusive;

use super::{Effect, Game, Lang, MatchRng, NotationError, Reason, Seat, Side, Status};

/// A move the platform could not play.
#[derive(Debug)]
pub enum AnyRefusal {
    /// The text is no move of this game.
    Unreadable(NotationError),
    /// A move, but illegal now; the game says why.
    Illegal(Box<dyn Reason + Send>),
    /// The stored state does not parse: a bug or a corrupted row, never the player's fault.
    CorruptState(NotationError),
}

/// An accepted move, as state strings.
#[derive(Clone, Debug, PartialEq)]
pub struct AnyPlayed {
    pub state: String,
    pub effect: Effect,
    /// The move in its canonical notation, for the record.
    pub notation: String,
}

pub trait AnyGame: Send + Sync {
    fn code(&self) -> &'static str;
    fn seat_range(&self) -> RangeInclusive<usize>;
    fn start(&self, seats: usize, rng: &mut MatchRng) -> String;
    fn rematch(&self, finished: &str, rng: &mut MatchRng) -> Result<String, NotationError>;
    fn status(&self, state: &str) -> Result<Status, NotationError>;
    fn side_of(&self, state: &str, seat: Seat) -> Result<Side, NotationError>;
    /// The side of each of the first `seats` seats, from one parse of the state.
    fn sides(&self, state: &str, seats: usize) -> Result<Vec<Side>, NotationError>;
    fn play(
        &self,
        state: &str,
        seat: Seat,
        text: &str,
        rng: &mut MatchRng,
    ) -> Result<AnyPlayed, AnyRefusal>;
    fn null_move(&self, state: &str, seat: Seat) -> Result<String, NotationError>;
    fn resign(&self, state: &str, seat: Seat) -> Result<String, NotationError>;
    fn render(&self, state: &str, seat: Seat, lang: Lang) -> Result<String, NotationError>;
    /// Every seat's view, seat `i` in `langs[i]`, from one parse of the state.
    fn render_each(&self, state: &str, langs: &[Lang]) -> Result<Vec<String>, NotationError>;
    fn move_help(&self, lang: Lang) -> String;
}

impl<G> AnyGame for G
where
    G: Game,
    G::Refusal: Send + 'static,
{
    fn code(&self) -> &'static str {
        G::CODE
    }

    fn seat_range(&self) -> RangeInclusive<usize> {
        Game::seat_range(self)
    }

    fn start(&self, seats: usize, rng: &mut MatchRng) -> String {
        Game::start(self, seats, rng).to_string()
    }

    fn rematch(&self, finished: &str, rng: &mut MatchRng) -> Result<String, NotationError> {
        Ok(Game::rematch(self, &finished.parse()?, rng).to_string())
    }

    fn status(&self, state: &str) -> Result<Status, NotationError> {
        Ok(Game::status(self, &state.parse()?))
    }

    fn side_of(&self, state: &str, seat: Seat) -> Result<Side, NotationError> {
        Ok(Game::side_of(self, &state.parse()?, seat))
    }

    fn sides(&self, state: &str, seats: usize) -> Result<Vec<Side>, NotationError> {
        let state = state.parse()?;
        Ok((0..seats)
            .map(|seat| Game::side_of(self, &state, seat))
            .collect())
    }

    fn play(
        &self,
        state: &str,
        seat: Seat,
        text: &str,
        rng: &mut MatchRng,
    ) -> Result<AnyPlayed, AnyRefusal> {
        let state: G::State = state.parse().map_err(AnyRefusal::CorruptState)?;
        let mv: G::Move = text.parse().map_err(AnyRefusal::Unreadable)?;
        match Game::play(self, state, seat, &mv, rng) {
            Ok(played) => Ok(AnyPlayed {
                state: played.state.to_string(),
                effect: played.effect,
                notation: mv.to_string(),
            }),
            Err(refused) => Err(AnyRefusal::Illegal(Box::new(refused.reason))),
        }
    }

    fn null_move(&self, state: &str, seat: Seat) -> Result<String, NotationError> {
        Ok(Game::null_move(self, &state.parse()?, seat).to_string())
    }

    fn resign(&self, state: &str, seat: Seat) -> Result<String, NotationError> {
        Ok(Game::resign(self, state.parse()?, seat).to_string())
    }

    fn render(&self, state: &str, seat: Seat, lang: Lang) -> Result<String, NotationError> {
        Ok(Game::render(self, &state.parse()?, seat, lang))
    }

    fn render_each(&self, state: &str, langs: &[Lang]) -> Result<Vec<String>, NotationError> {
        let state = state.parse()?;
        Ok(langs
            .iter()
            .enumerate()
            .map(|(seat, &lang)| Game::render(self, &state, seat, lang))
            .collect())
    }

    fn move_help(&self, lang: Lang) -> String {
        Game::move_help(self, lang)
    }
}
