//! Trial (`TR`): a tiny counting game that the platform's tests play, so that
//! they need neither four football players nor a real game's rules. It is
//! injected through the catalogue (`Catalog::with_trial`) and never offered
//! to players.
//!
//! Two or three seats take turns adding 1, 2 or 3 to a counter; whoever
//! brings it to 21 wins. Options: `3` (three seats), `BOT [1-3]` (robots in
//! the other seats), `HOT` (one phone plays every seat), `CHAIN` (a turn is
//! two texts, so it spans texts). A seat that withdraws drops out and the
//! others play on; the last one left wins.

use std::fmt;
use std::str::FromStr;
use std::sync::OnceLock;

use rand::Rng;

use crate::{
    Budget, Effect, Game, GameOptions, HistoryEntry, Lang, Level, Lineup, MatchRng, NotationError,
    Occupant, OptionsError, PlayResult, Played, Recorded, Refused, Said, Seat, Standing, Status,
    Withdrawal, said, tr,
};

#[cfg(test)]
mod tests;

/// The count that wins.
pub const TARGET: u32 = 21;

/// The trial game; it has no settings.
#[derive(Clone, Copy, Debug, Default)]
pub struct Trial;

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Options {
    pub three: bool,
    pub robots: Option<Level>,
    pub hot: bool,
    pub chain: bool,
}

impl GameOptions for Options {
    fn lineup(&self) -> Lineup {
        let seats = if self.three { 3 } else { 2 };
        Lineup(
            (0..seats)
                .map(|seat| match (seat, self.robots, self.hot) {
                    (0, _, _) | (_, None, true) => Occupant::Phone(0),
                    (_, Some(level), _) => Occupant::Robot(level),
                    (n, None, false) => Occupant::Phone(n),
                })
                .collect(),
        )
    }
}

impl fmt::Display for Options {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut words = Vec::new();
        if self.three {
            words.push("3".to_string());
        }
        if let Some(level) = self.robots {
            words.push(format!("BOT {level}"));
        }
        if self.hot {
            words.push("HOT".into());
        }
        if self.chain {
            words.push("CHAIN".into());
        }
        f.write_str(&words.join(" "))
    }
}

impl FromStr for Options {
    type Err = OptionsError;

    fn from_str(s: &str) -> Result<Options, OptionsError> {
        let mut options = Options::default();
        let words: Vec<String> = s.split_whitespace().map(str::to_uppercase).collect();
        let mut i = 0;
        while i < words.len() {
            match words[i].as_str() {
                "3" => options.three = true,
                "HOT" => options.hot = true,
                "CHAIN" => options.chain = true,
                "BOT" => {
                    let level = words.get(i + 1).and_then(|w| w.parse::<Level>().ok());
                    if level.is_some() {
                        i += 1;
                    }
                    let level = level.unwrap_or(1);
                    if !(1..=3).contains(&level) {
                        return Err(OptionsError::told(said!("trial-levels")));
                    }
                    options.robots = Some(level);
                }
                word => return Err(OptionsError::unknown_word(word)),
            }
            i += 1;
        }
        if options.hot && options.robots.is_some() {
            return Err(OptionsError::told(said!("trial-hot-or-bot")));
        }
        Ok(options)
    }
}

/// A trial match.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct State {
    pub count: u32,
    /// Seat on turn.
    pub turn: Seat,
    /// What each seat added in all.
    pub scores: Vec<u32>,
    /// Seats that dropped out, in order.
    pub out: Vec<Seat>,
    pub chain: bool,
    /// Texts of the current turn already in (0 or 1 in a chained game).
    pub part: u8,
    pub winner: Option<Seat>,
}

impl State {
    fn seats(&self) -> usize {
        self.scores.len()
    }

    fn next_seat(&self, from: Seat) -> Seat {
        (1..=self.seats())
            .map(|k| (from + k) % self.seats())
            .find(|s| !self.out.contains(s))
            .unwrap_or(from)
    }

    /// Ends the match if one seat is left.
    fn last_one_standing(&mut self) {
        let left: Vec<Seat> = (0..self.seats())
            .filter(|s| !self.out.contains(s))
            .collect();
        if let [only] = left[..] {
            self.winner = Some(only);
        }
    }
}

impl fmt::Display for State {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let list = |v: Vec<String>| {
            if v.is_empty() {
                "-".to_string()
            } else {
                v.join(",")
            }
        };
        write!(
            f,
            "TR1 count={} turn={} scores={} out={} chain={} part={} winner={}",
            self.count,
            self.turn,
            list(self.scores.iter().map(u32::to_string).collect()),
            list(self.out.iter().map(usize::to_string).collect()),
            u8::from(self.chain),
            self.part,
            self.winner.map_or("-".to_string(), |w| w.to_string()),
        )
    }
}

impl FromStr for State {
    type Err = NotationError;

    fn from_str(s: &str) -> Result<State, NotationError> {
        let bad = || NotationError::new(format!("not a trial state: {s:?}"));
        let mut fields = s.split(' ');
        if fields.next() != Some("TR1") {
            return Err(bad());
        }
        let mut value = |key: &str| -> Result<String, NotationError> {
            fields
                .next()
                .and_then(|f| f.strip_prefix(key))
                .and_then(|f| f.strip_prefix('='))
                .map(str::to_string)
                .ok_or_else(bad)
        };
        let number = |v: String| v.parse::<u32>().map_err(|_| bad());
        let list = |v: String| -> Result<Vec<u32>, NotationError> {
            if v == "-" {
                return Ok(Vec::new());
            }
            v.split(',').map(|x| x.parse().map_err(|_| bad())).collect()
        };
        let count = number(value("count")?)?;
        let turn = number(value("turn")?)? as Seat;
        let scores = list(value("scores")?)?;
        let out: Vec<Seat> = list(value("out")?)?
            .into_iter()
            .map(|s| s as Seat)
            .collect();
        let chain = number(value("chain")?)? == 1;
        let part = number(value("part")?)? as u8;
        let winner = match value("winner")?.as_str() {
            "-" => None,
            w => Some(w.parse::<Seat>().map_err(|_| bad())?),
        };
        let state = State {
            count,
            turn,
            scores,
            out,
            chain,
            part,
            winner,
        };
        let seats = state.seats();
        let in_range = |s: &Seat| *s < seats;
        if !(2..=3).contains(&seats)
            || !in_range(&state.turn)
            || !state.out.iter().all(in_range)
            || !state.winner.iter().all(in_range)
            || state.part > 1
            || state.to_string() != s
        {
            return Err(bad());
        }
        Ok(state)
    }
}

/// A move: add 1, 2 or 3.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Add(pub u32);

impl fmt::Display for Add {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

impl FromStr for Add {
    type Err = NotationError;

    fn from_str(s: &str) -> Result<Add, NotationError> {
        match s.trim() {
            "1" => Ok(Add(1)),
            "2" => Ok(Add(2)),
            "3" => Ok(Add(3)),
            _ => Err(NotationError::told(said!(
                "trial-not-a-move",
                sent = format!("{s:?}")
            ))),
        }
    }
}

fn refused(state: State, reason: Said) -> PlayResult<Trial> {
    Err(Refused { state, reason })
}

impl Game for Trial {
    type State = State;
    type Move = Add;
    type Refusal = Said;
    type Options = Options;

    const CODE: &'static str = "TR";
    const GUIDE: &'static str =
        "# The trial game\n\nThe platform's tests play it; players are never offered it.\n";

    /// The catalog's name, worded once per language: `Game::name` lends it
    /// for the process's life, and the catalog is installed once, before
    /// any text is made.
    fn name(&self, lang: Lang) -> &'static str {
        static NAMES: [OnceLock<String>; Lang::ALL.len()] =
            [const { OnceLock::new() }; Lang::ALL.len()];
        let slot = Lang::ALL.iter().position(|&l| l == lang).unwrap_or(0);
        NAMES[slot].get_or_init(|| tr!(lang, "trial-name"))
    }

    fn practice(&self, level: Level) -> Options {
        Options {
            robots: Some(level),
            ..Options::default()
        }
    }

    /// Notation only, the same in every language.
    fn options_help(&self, _lang: Lang) -> String {
        "P TR [3] [BOT [1-3]|HOT] [CHAIN]".to_string()
    }

    fn start(&self, options: &Options, _rng: &mut MatchRng) -> State {
        State {
            count: 0,
            turn: 0,
            scores: vec![0; options.lineup().seats()],
            out: Vec::new(),
            chain: options.chain,
            part: 0,
            winner: None,
        }
    }

    /// The same seats; the seat after the last winner starts.
    fn rematch(&self, finished: &State, options: &Options, rng: &mut MatchRng) -> State {
        let mut state = self.start(options, rng);
        state.turn = (finished.winner.unwrap_or(0) + 1) % state.seats();
        state
    }

    fn seats(&self, state: &State) -> usize {
        state.seats()
    }

    fn status(&self, state: &State) -> Status {
        match state.winner {
            None => Status::Awaiting(vec![state.turn]),
            Some(winner) => Status::Finished(
                (0..state.seats())
                    .map(|seat| Standing {
                        place: if seat == winner {
                            1
                        } else if state.out.contains(&seat) {
                            3
                        } else {
                            2
                        },
                        score: Some(i64::from(state.scores[seat])),
                    })
                    .collect(),
            ),
        }
    }

    fn play(&self, state: State, seat: Seat, mv: &Add, _rng: &mut MatchRng) -> PlayResult<Self> {
        if state.winner.is_some() {
            return refused(state, said!("trial-over"));
        }
        if seat != state.turn {
            return refused(state, said!("trial-not-your-turn"));
        }
        let mut state = state;
        state.count += mv.0;
        state.scores[seat] += mv.0;
        if state.count >= TARGET {
            state.winner = Some(seat);
            return Ok(Played {
                state,
                effect: Effect::Resolved,
            });
        }
        if state.chain && state.part == 0 {
            state.part = 1;
            return Ok(Played {
                state,
                effect: Effect::Continues,
            });
        }
        state.part = 0;
        state.turn = state.next_seat(seat);
        Ok(Played {
            state,
            effect: Effect::Resolved,
        })
    }

    fn legal_moves(&self, state: &State, seat: Seat) -> Vec<Add> {
        if state.winner.is_some() || seat != state.turn {
            return Vec::new();
        }
        (1..=3).map(Add).collect()
    }

    fn null_move(&self, _state: &State, _seat: Seat) -> Option<Add> {
        Some(Add(1))
    }

    fn withdraw(&self, state: State, seat: Seat, _why: Withdrawal, _absent: &[bool]) -> State {
        if state.winner.is_some() || seat >= state.seats() || state.out.contains(&seat) {
            return state;
        }
        let mut state = state;
        state.out.push(seat);
        if state.turn == seat {
            state.turn = state.next_seat(seat);
            state.part = 0;
        }
        state.last_one_standing();
        state
    }

    fn render(&self, state: &State, seat: Seat, lang: Lang) -> String {
        let status = match state.winner {
            Some(w) if w == seat => "won",
            Some(_) => "lost",
            None if state.turn == seat => "turn",
            None => "waiting",
        };
        tr!(
            lang,
            "trial-count",
            count = state.count,
            target = TARGET,
            status = status,
        )
    }

    fn move_help(&self, lang: Lang) -> String {
        tr!(lang, "trial-move-help")
    }

    /// Level 1 adds at random; higher levels leave the others a count that
    /// is 1 below a multiple of 4 from the target when they can (the winning
    /// line against one opponent).
    fn robot_move(
        &self,
        state: &State,
        _seat: Seat,
        level: Level,
        _budget: &Budget<'_>,
        rng: &mut MatchRng,
    ) -> Add {
        let random = Add(rng.gen_range(1..=3));
        if level == 1 {
            return random;
        }
        let left = TARGET - state.count.min(TARGET);
        match left % 4 {
            0 => random,
            k => Add(k),
        }
    }

    fn has_state_steps(&self) -> bool {
        true
    }

    /// `H n`: the state string after the `n`-th entry of the record.
    fn state_steps(&self, opening: &State, entries: &[HistoryEntry<'_, Self>]) -> Vec<String> {
        std::iter::once(opening.to_string())
            .chain(entries.iter().map(|e| e.after.to_string()))
            .collect()
    }

    fn history(&self, _opening: &State, entries: &[HistoryEntry<'_, Self>], _lang: Lang) -> String {
        entries
            .iter()
            .map(|e| match &e.what {
                Recorded::Move(m) | Recorded::Null(m) => format!("{}:+{m}", e.seat + 1),
                Recorded::Withdrawal(_) => format!("{}:out", e.seat + 1),
            })
            .collect::<Vec<_>>()
            .join(" ")
    }
}
