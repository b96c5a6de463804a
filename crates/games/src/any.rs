//! Every [`Game`] behind one object-safe face, so the platform can hold all
//! games in one catalogue: [`AnyGame`] for the game (reading options,
//! loading a stored state), [`AnyOptions`] for options read into the game's
//! own type (lineup, lobby key, new matches), and [`AnyMatch`] for one
//! match's typed state, which the platform holds while it works on a text:
//! options and a stored state are each parsed once, and a state is written
//! once when it is saved.

use std::sync::Arc;

use super::{
    Budget, Contest, Effect, Game, GameOptions, HistoryEntry, Lang, Level, LevelResult, Lineup,
    MatchRng, NotationError, OptionsError, Reason, Recorded, Seat, Side, Status, Withdrawal,
};

/// The option every game takes: `U`, an unrated match (`P FB U`). It is
/// the platform's, read before the game reads the rest, and kept at the end
/// of the canonical form, so that `P FB U` waits only for another `P FB U`.
pub const UNRATED: &str = "U";

/// Whether a match's stored options (their canonical form) say `U`.
pub fn is_unrated(canonical: &str) -> bool {
    canonical.split_whitespace().any(|w| w == UNRATED)
}

/// `text` without its `U` (Latin or Cyrillic, any case), and whether it was there.
fn take_unrated(text: &str) -> Result<(String, bool), OptionsError> {
    let is_unrated = |w: &str| matches!(w, "U" | "u" | "\u{423}" | "\u{443}");
    let words: Vec<&str> = text.split_whitespace().collect();
    let unrated = words.iter().filter(|w| is_unrated(w)).count();
    if unrated > 1 {
        return Err(OptionsError::given_twice(UNRATED));
    }
    let rest: Vec<&str> = words.into_iter().filter(|w| !is_unrated(w)).collect();
    Ok((rest.join(" "), unrated == 1))
}

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

/// Options after `P <code>`, read once into the game's own type: what the
/// platform asks of them later (their robots' lobby, a new match) needs no
/// second reading.
pub struct AnyOptions {
    /// The canonical form: the lobby's key, and what the match stores.
    pub canonical: String,
    pub lineup: Lineup,
    /// Whether the match counts for ratings (`U` says not).
    pub rated: bool,
    typed: Box<dyn OptionsOf>,
}

impl std::fmt::Debug for AnyOptions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AnyOptions")
            .field("canonical", &self.canonical)
            .field("lineup", &self.lineup)
            .finish()
    }
}

impl AnyOptions {
    fn of<G: Game>(game: &Arc<G>, options: G::Options, rated: bool) -> AnyOptions {
        let own = options.to_string();
        let canonical = match (rated, own.is_empty()) {
            (true, _) => own,
            (false, true) => UNRATED.to_string(),
            (false, false) => format!("{own} {UNRATED}"),
        };
        AnyOptions {
            canonical,
            lineup: options.lineup(),
            rated,
            typed: Box::new(TypedOptions {
                game: game.clone(),
                options,
                rated,
            }),
        }
    }

    /// For options that start at once with robots: the options of the
    /// lobby whose waiting players take robots' seats first (`Game::robots_fill`).
    pub fn robots_fill(&self) -> Option<AnyOptions> {
        self.typed.robots_fill()
    }

    /// These options (robots' options whose [`AnyOptions::robots_fill`]
    /// lobby had players waiting) for `phones` phones in all.
    pub fn with_phones(&self, phones: usize) -> AnyOptions {
        self.typed.with_phones(phones)
    }

    /// A new match.
    pub fn start(&self, rng: &mut MatchRng) -> Box<dyn AnyMatch> {
        self.typed.start(rng)
    }
}

/// The typed side of [`AnyOptions`].
trait OptionsOf: Send + Sync {
    fn robots_fill(&self) -> Option<AnyOptions>;
    fn with_phones(&self, phones: usize) -> AnyOptions;
    fn start(&self, rng: &mut MatchRng) -> Box<dyn AnyMatch>;
}

struct TypedOptions<G: Game> {
    game: Arc<G>,
    options: G::Options,
    rated: bool,
}

impl<G: Game> OptionsOf for TypedOptions<G> {
    fn robots_fill(&self) -> Option<AnyOptions> {
        let base = self.game.robots_fill(&self.options)?;
        Some(AnyOptions::of(&self.game, base, self.rated))
    }

    fn with_phones(&self, phones: usize) -> AnyOptions {
        AnyOptions::of(
            &self.game,
            self.game.with_phones(&self.options, phones),
            self.rated,
        )
    }

    fn start(&self, rng: &mut MatchRng) -> Box<dyn AnyMatch> {
        Typed::boxed(&self.game, self.game.start(&self.options, rng))
    }
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
    /// The player's guide, Markdown.
    fn guide(&self) -> &'static str;
    /// What follows `P <code>` for a practice match against robots of
    /// `level`, in the options' canonical form.
    fn practice(&self, level: Level) -> String;
    /// The levels its robots play at.
    fn robot_levels(&self) -> std::ops::RangeInclusive<Level>;
    /// How results set players against each other (for ratings).
    fn contest(&self) -> Contest;
    /// The robots' levels measured against each other.
    fn level_results(&self) -> &'static [LevelResult];
    /// Reads what follows `P <code>`, or a match's stored options.
    fn options(&self, text: &str) -> Result<AnyOptions, OptionsError>;
    /// A stored match, parsed.
    fn load(&self, state: &str) -> Result<Box<dyn AnyMatch>, NotationError>;
    fn move_help(&self, lang: Lang) -> String;
    fn turn_deadline_secs(&self) -> Option<u64>;
    fn has_state_steps(&self) -> bool;
    fn yields_word(&self, word: &str) -> bool;
    /// Whether the game's parser reads `text` as one of its moves (whatever
    /// the position): a move texted after the match ended is told so.
    fn reads_as_move(&self, text: &str) -> bool;
    /// `H`: the record so far in the game's notation, the seats' holders
    /// named by `names` (by seat) where the game names them.
    fn history(
        &self,
        opening: &str,
        entries: &[StoredEntry<'_>],
        names: &[String],
        lang: Lang,
    ) -> Result<String, NotationError>;
    /// The record in the game's former notation, where it changed
    /// ([`Game::former_history`]).
    fn former_history(
        &self,
        opening: &str,
        entries: &[StoredEntry<'_>],
        names: &[String],
        lang: Lang,
    ) -> Result<Option<String>, NotationError>;
    /// `H n`: the public state string after every step, if the game has one.
    fn state_steps(
        &self,
        opening: &str,
        entries: &[StoredEntry<'_>],
    ) -> Result<Vec<String>, NotationError>;
}

/// One match's state, typed, with the game it belongs to.
pub trait AnyMatch: Send {
    /// The state string to store.
    fn state(&self) -> String;
    /// How many seats the state holds.
    fn seats(&self) -> usize;
    /// The side (team) a seat plays for.
    fn side(&self, seat: Seat) -> Side;
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
    /// The board `seat` sees, as SVG, where the game draws one.
    fn picture(&self, seat: Seat) -> Option<String>;
    /// Who sees the board after `mover`'s move moved the turn on; `None`: everyone.
    fn audience(&self, mover: Seat) -> Option<Vec<Seat>>;
    fn robot_move(
        &self,
        seat: Seat,
        level: Level,
        budget: &Budget<'_>,
        rng: &mut MatchRng,
    ) -> String;
    /// A rematch of this (finished) match, whose stored options are `options`.
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

fn history_entries<'a, G: Game>(
    parsed: &'a [ParsedEntry<G>],
    names: &'a [String],
) -> Vec<HistoryEntry<'a, G>> {
    parsed
        .iter()
        .map(|(seat, what, after)| HistoryEntry {
            seat: *seat,
            name: names.get(*seat).map_or("", String::as_str),
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

    fn guide(&self) -> &'static str {
        G::GUIDE
    }

    fn practice(&self, level: Level) -> String {
        self.0.practice(level).to_string()
    }

    fn robot_levels(&self) -> std::ops::RangeInclusive<Level> {
        self.0.robot_levels()
    }

    fn contest(&self) -> Contest {
        G::CONTEST
    }

    fn level_results(&self) -> &'static [LevelResult] {
        G::LEVEL_RESULTS
    }

    fn options(&self, text: &str) -> Result<AnyOptions, OptionsError> {
        let (own, unrated) = take_unrated(text)?;
        Ok(AnyOptions::of(
            &self.0,
            self.0.parse_options(&own)?,
            !unrated,
        ))
    }

    fn load(&self, state: &str) -> Result<Box<dyn AnyMatch>, NotationError> {
        Ok(Typed::boxed(&self.0, state.parse()?))
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

    fn reads_as_move(&self, text: &str) -> bool {
        text.parse::<G::Move>().is_ok()
    }

    fn history(
        &self,
        opening: &str,
        entries: &[StoredEntry<'_>],
        names: &[String],
        lang: Lang,
    ) -> Result<String, NotationError> {
        let opening: G::State = opening.parse()?;
        let parsed = Self::parse_entries(entries)?;
        Ok(self
            .0
            .history(&opening, &history_entries(&parsed, names), lang))
    }

    fn former_history(
        &self,
        opening: &str,
        entries: &[StoredEntry<'_>],
        names: &[String],
        lang: Lang,
    ) -> Result<Option<String>, NotationError> {
        let opening: G::State = opening.parse()?;
        let parsed = Self::parse_entries(entries)?;
        Ok(self
            .0
            .former_history(&opening, &history_entries(&parsed, names), lang))
    }

    fn state_steps(
        &self,
        opening: &str,
        entries: &[StoredEntry<'_>],
    ) -> Result<Vec<String>, NotationError> {
        let opening: G::State = opening.parse()?;
        let parsed = Self::parse_entries(entries)?;
        Ok(self.0.state_steps(&opening, &history_entries(&parsed, &[])))
    }
}

struct Typed<G: Game> {
    game: Arc<G>,
    /// Empty only inside [`Typed::step`], while the game holds the state.
    state: Option<G::State>,
}

impl<G: Game> Typed<G> {
    fn boxed(game: &Arc<G>, state: G::State) -> Box<dyn AnyMatch> {
        Box::new(Typed {
            game: game.clone(),
            state: Some(state),
        })
    }

    fn current(&self) -> &G::State {
        // `step` puts it back before it returns; a panic inside it drops
        // the whole match (the store runs a failed text again from the row).
        self.state
            .as_ref()
            .expect("the state is back after every step")
    }

    /// Hands the state to the game by value, as `Game::play` and
    /// `Game::withdraw` take it, and keeps the state that comes back:
    /// `play` returns it unchanged inside a refusal, so no move copies it.
    fn step<R>(&mut self, f: impl FnOnce(&G, G::State) -> (G::State, R)) -> R {
        let state = self
            .state
            .take()
            .expect("the state is back after every step");
        let (state, out) = f(&self.game, state);
        self.state = Some(state);
        out
    }

    /// Plays a parsed move, keeping the state as it was on a refusal.
    fn play_move(
        &mut self,
        seat: Seat,
        mv: &G::Move,
        rng: &mut MatchRng,
    ) -> Result<AnyPlayed, AnyRefusal> {
        self.step(|game, state| match game.play(state, seat, mv, rng) {
            Ok(played) => {
                let notation = mv.to_string();
                let effect = played.effect;
                (played.state, Ok(AnyPlayed { effect, notation }))
            }
            Err(refused) => {
                let reason = AnyRefusal::Illegal(Box::new(refused.reason));
                (refused.state, Err(reason))
            }
        })
    }
}

impl<G: Game> AnyMatch for Typed<G> {
    fn state(&self) -> String {
        self.current().to_string()
    }

    fn seats(&self) -> usize {
        self.game.seats(self.current())
    }

    fn side(&self, seat: Seat) -> Side {
        self.game.side(self.current(), seat)
    }

    fn status(&self) -> Status {
        self.game.status(self.current())
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
        let mv = self.game.null_move(self.current(), seat)?;
        Some(self.play_move(seat, &mv, rng))
    }

    fn withdraw(&mut self, seat: Seat, why: Withdrawal, absent: &[bool]) {
        self.step(|game, state| (game.withdraw(state, seat, why, absent), ()));
    }

    fn render(&self, seat: Seat, lang: Lang) -> String {
        self.game.render(self.current(), seat, lang)
    }

    fn picture(&self, seat: Seat) -> Option<String> {
        self.game.picture(self.current(), seat)
    }

    fn audience(&self, mover: Seat) -> Option<Vec<Seat>> {
        self.game.audience(self.current(), mover)
    }

    fn robot_move(
        &self,
        seat: Seat,
        level: Level,
        budget: &Budget<'_>,
        rng: &mut MatchRng,
    ) -> String {
        self.game
            .robot_move(self.current(), seat, level, budget, rng)
            .to_string()
    }

    fn rematch(
        &self,
        options: &str,
        rng: &mut MatchRng,
    ) -> Result<Box<dyn AnyMatch>, NotationError> {
        let options = take_unrated(options)
            .and_then(|(own, _)| self.game.parse_options(&own))
            .map_err(|e| NotationError::new(e.to_string()))?;
        let state = self.game.rematch(self.current(), &options, rng);
        Ok(Typed::boxed(&self.game, state))
    }
}
