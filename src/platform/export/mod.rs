//! A finished match as one self-contained document: what replays it exactly
//! (seed, options, where it opened from, every move with the state after
//! it) and its record in the game's own notation (paper soccer's kurnik
//! digits, word battle's words with their cells, a race's moves, Intelball's
//! codes and its state string at every step). The admin API serves it;
//! `smsarena replay FILE` replays it and checks it ends where it says and
//! that its seats and standings are the ones the replay gives
//! (`claims.rs`), reading the file up to a cap (`file.rs`).

mod claims;
pub mod file;

use serde::{Deserialize, Serialize};

use super::catalog::Catalog;
use super::record::{former_history_text, history_text, seat_names, stored_entries};
use super::replay::{Opening, ReplayError, replay_from};
use crate::games::any::AnyGame;
use crate::store::{Holder, MatchRow, MoveKind, MoveRow, SeatRow};
use claims::{check_ending, check_seats};

/// The export's format and version: a reader refuses any other.
pub const FORMAT: &str = "smsarena-match/1";

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Export {
    pub format: String,
    pub id: i64,
    pub game: String,
    pub options: String,
    /// The seed, as text: JSON numbers do not hold every `u64`.
    pub seed: String,
    /// For a rematch: the final state of the match it plays again, which
    /// its opening follows from.
    pub rematch_of_state: Option<String>,
    pub initial_state: String,
    pub final_state: String,
    pub finished: bool,
    pub seats: Vec<ExportSeat>,
    pub moves: Vec<ExportMove>,
    /// The record in the game's own notation.
    pub notation: String,
    /// The public state string after each step, for games whose rules
    /// define one (Intelball), from the opening on; else empty.
    pub states: Vec<String>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ExportSeat {
    pub seat: usize,
    /// A player's nick (never his number), or none for a robot.
    pub nick: Option<String>,
    pub robot: Option<u8>,
    pub place: Option<u8>,
    pub score: Option<i64>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ExportMove {
    pub seat: usize,
    /// `move`, `null` or `withdrawal`.
    pub kind: String,
    #[serde(rename = "move")]
    pub notation: String,
    pub state_after: String,
    /// The seeded generator's position after the move, as text.
    pub rng_pos: Option<String>,
}

/// The export of a stored match (`previous`: the match it is a rematch of).
pub fn export(
    game: &dyn AnyGame,
    record: &MatchRow,
    previous: Option<&MatchRow>,
    seats: &[SeatRow],
    moves: &[MoveRow],
) -> Export {
    Export {
        format: FORMAT.to_string(),
        id: record.id,
        game: record.game.clone(),
        options: record.options.clone(),
        seed: record.seed.to_string(),
        rematch_of_state: previous.map(|p| p.state.clone()),
        initial_state: record.initial_state.clone(),
        final_state: record.state.clone(),
        finished: record.finished,
        seats: seats
            .iter()
            .map(|s| ExportSeat {
                seat: s.seat,
                nick: s.player().and_then(|p| p.nick.clone()),
                robot: match s.holder {
                    Holder::Robot(level) => Some(level),
                    Holder::Player(_) => None,
                },
                place: s.place,
                score: s.score,
            })
            .collect(),
        moves: moves
            .iter()
            .map(|m| ExportMove {
                seat: m.seat,
                kind: m.kind.as_str().to_string(),
                notation: m.notation.clone(),
                state_after: m.state_after.clone(),
                rng_pos: m.rng_pos.map(|p| p.to_string()),
            })
            .collect(),
        notation: history_text(game, &record.initial_state, moves, &seat_names(seats)),
        states: states(game, &record.initial_state, moves, seats.len()),
    }
}

/// Every step's state string, where the game has them.
fn states(game: &dyn AnyGame, initial_state: &str, moves: &[MoveRow], seats: usize) -> Vec<String> {
    if !game.has_state_steps() {
        return Vec::new();
    }
    stored_entries(moves, seats)
        .and_then(|entries| game.state_steps(initial_state, &entries))
        .unwrap_or_default()
}

/// What a replayed export came to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Replayed {
    pub moves: usize,
    pub final_state: String,
}

/// Why an export does not replay to what it says.
#[derive(Debug, thiserror::Error)]
pub enum ExportError {
    #[error("not an export of this format (expected {FORMAT}, found {0:?})")]
    Format(String),
    #[error("no game {0} here")]
    UnknownGame(String),
    #[error("the export is malformed: {0}")]
    Malformed(String),
    #[error(transparent)]
    Replay(#[from] ReplayError),
    #[error("the moves replay to {replayed:?}, not to the final state given, {given:?}")]
    FinalState { replayed: String, given: String },
    #[error("the record in the game's notation differs from the one the moves give")]
    Notation,
    #[error("the document disagrees with its own replay: {0}")]
    Disagrees(String),
}

/// Replays an export from its seed through its moves, checking every state
/// on the way, the final state, the record in the game's notation, and
/// what it says of its seats and its ending (`claims.rs`).
pub fn check(catalog: &Catalog, export: &Export) -> Result<Replayed, ExportError> {
    if export.format != FORMAT {
        return Err(ExportError::Format(export.format.clone()));
    }
    let game = catalog
        .get(&export.game)
        .ok_or_else(|| ExportError::UnknownGame(export.game.clone()))?;
    let seed: u64 = export
        .seed
        .parse()
        .map_err(|_| ExportError::Malformed(format!("seed {:?}", export.seed)))?;
    let moves = export
        .moves
        .iter()
        .enumerate()
        .map(|(i, m)| {
            let bad = |what: &str| ExportError::Malformed(format!("move {}: {what}", i + 1));
            if m.seat >= export.seats.len() {
                return Err(bad("no such seat"));
            }
            Ok(MoveRow {
                ply: u32::try_from(i + 1).map_err(|_| bad("too many moves"))?,
                seat: m.seat,
                kind: m.kind.parse::<MoveKind>().map_err(|_| bad("kind"))?,
                notation: m.notation.clone(),
                automatic: false,
                state_after: m.state_after.clone(),
                rng_pos: match &m.rng_pos {
                    Some(pos) => Some(pos.parse().map_err(|_| bad("rng_pos"))?),
                    None => None,
                },
            })
        })
        .collect::<Result<Vec<_>, ExportError>>()?;
    check_seats(game, export)?;
    let opening = Opening {
        seed,
        options: &export.options,
        initial_state: &export.initial_state,
        rematch_of_state: export.rematch_of_state.as_deref(),
    };
    let seats = export.seats.len();
    let replayed = replay_from(game, opening, &moves, seats)?;
    if replayed != export.final_state {
        return Err(ExportError::FinalState {
            replayed,
            given: export.final_state.clone(),
        });
    }
    let final_state = game
        .load(&replayed)
        .map_err(|e| ExportError::Malformed(format!("its final state does not load: {e}")))?;
    check_ending(&*final_state, export)?;
    let names: Vec<String> = export
        .seats
        .iter()
        .map(|s| match (&s.nick, s.robot) {
            (Some(nick), _) => nick.clone(),
            (None, Some(level)) => format!("bot{level}"),
            (None, None) => String::new(),
        })
        .collect();
    let notation = history_text(game, &export.initial_state, &moves, &names);
    // An export made before the game's notation changed gives the former one.
    let former = || former_history_text(game, &export.initial_state, &moves, &names);
    if (notation != export.notation && former().as_deref() != Some(export.notation.as_str()))
        || states(game, &export.initial_state, &moves, seats) != export.states
    {
        return Err(ExportError::Notation);
    }
    Ok(Replayed {
        moves: moves.len(),
        final_state: replayed,
    })
}
