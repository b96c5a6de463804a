//! Taking one seat's move into the turn: refusals, pending moves, resolution,
//! the end check, and resignation.

use super::end::{self, Outcome};
use super::moves::Move;
use super::resolve::resolve;
use super::state::State;
use super::validate::{Intent, Refusal, intent};
use crate::{Effect, MatchRng, Played, Refused, Seat};

/// One seat's move. Refusals leave the state (and the generator) untouched,
/// including a seat's earlier pending move. A legal move replaces the seat's
/// pending move; the second teammate's move resolves the turn.
pub fn play(
    mut state: State,
    seat: Seat,
    mv: Move,
    rng: &mut MatchRng,
) -> Result<Played<State>, Refused<State, Refusal>> {
    if let Err(reason) = admit(&state, seat, mv) {
        return Err(Refused { state, reason });
    }
    let previous = state.pending[seat].replace(mv);
    let [a, b] = state.seats_of(state.turn());
    let (Some(ma), Some(mb)) = (state.pending[a], state.pending[b]) else {
        return Ok(Played {
            state,
            effect: Effect::Pending,
        });
    };
    match both_intents(&state, [(a, ma), (b, mb)]) {
        Ok(intents) => {
            finish_turn(&mut state, intents, rng);
            Ok(Played {
                state,
                effect: Effect::Resolved,
            })
        }
        // Unreachable: both moves were checked against this very board. Kept
        // so that a corrupt state is refused rather than panicking.
        Err(reason) => {
            state.pending[seat] = previous;
            Err(Refused { state, reason })
        }
    }
}

/// The intents of the two pending moves.
fn both_intents(state: &State, moves: [(Seat, Move); 2]) -> Result<[(Seat, Intent); 2], Refusal> {
    let [(a, ma), (b, mb)] = moves;
    Ok([
        (a, intent(&state.board, a, ma)?),
        (b, intent(&state.board, b, mb)?),
    ])
}

/// Why `seat` may not send `mv` now, if it may not.
pub(super) fn admit(state: &State, seat: Seat, mv: Move) -> Result<(), Refusal> {
    let side = *state.sides.get(seat).ok_or(Refusal::NotInMatch)?;
    if state.result.is_some() {
        return Err(Refusal::MatchOver);
    }
    if side != state.turn() {
        return Err(Refusal::NotYourTurn);
    }
    intent(&state.board, seat, mv).map(|_| ())
}

/// Resolves the turn, counts it, clears the pending moves and ends the match
/// if the rules say so.
fn finish_turn(state: &mut State, intents: [(Seat, Intent); 2], rng: &mut MatchRng) {
    let side = state.turn();
    state.board = resolve(&state.board, intents, state.ricochet, rng);
    state.moved[side] += 1;
    state.pending = [None; 4];
    state.result = end::verdict(&state.board, &state.sides, state.moved, state.max_rounds);
}

/// `seat`'s side gives up: the other side wins at once, even mid-turn (the
/// pending moves are dropped). A finished match, or a seat not in the match,
/// leaves the state as it is.
pub fn resign(state: State, seat: Seat) -> State {
    let Some(&side) = state.sides.get(seat) else {
        return state;
    };
    if state.result.is_some() {
        return state;
    }
    let mut state = state;
    state.pending = [None; 4];
    state.result = Some(Outcome::Won(1 - side));
    state
}
