//! Playing a text: codes of a combination, `U` (undo, takeback), resignation.

// The trait's `PlayResult` hands the state back by value in the refusal too;
// boxing it here would only move the allocation.
#![allow(clippy::result_large_err)]

use super::moves::Move;
use super::rules::Stepped;
use super::state::{Left, Mode, State};
use super::why::{Refusal, Why};
use crate::{Effect, Played, Refused, Seat, Withdrawal};

type Outcome = Result<Played<State>, Refused<State, Refusal>>;

fn refuse(state: State, reason: Refusal) -> Outcome {
    Err(Refused { state, reason })
}

fn played(state: State, effect: Effect) -> Outcome {
    Ok(Played { state, effect })
}

/// Applies `seat`'s move. On one phone a seat acts for the side on turn.
pub fn play(state: State, seat: Seat, mv: &Move) -> Outcome {
    if seat > 1 {
        return refuse(state, Refusal::NotInMatch);
    }
    if state.finished() {
        return refuse(state, Refusal::MatchOver);
    }
    match mv {
        Move::Undo => undo(state, seat),
        Move::Codes(combo) => {
            let on_turn = state.mode == Mode::Hot || state.side_of(seat) == state.pos.turn;
            if !on_turn {
                return refuse(state, Refusal::NotYourTurn);
            }
            let mut pos = state.pos.clone();
            let mut ended = None;
            for (i, code) in combo.codes().iter().enumerate() {
                let result = match ended {
                    Some(n) => Err(Why::AfterEnd(n)),
                    None => pos.play(code),
                };
                match result {
                    Ok(Stepped::Continues) => {}
                    Ok(Stepped::Ends(_)) => ended = Some(i + 1),
                    Err(why) => {
                        let reason = Refusal::Code {
                            index: i + 1,
                            typed: combo.typed(i),
                            why,
                        };
                        return refuse(state, reason);
                    }
                }
            }
            Ok(finish_codes(state, pos, ended.is_some()))
        }
    }
}

/// The state after accepted codes: a finished turn joins the undo history
/// (which keeps two turns), and any takeback request lapses.
fn finish_codes(mut state: State, pos: super::position::Position, ended: bool) -> Played<State> {
    state.asked = None;
    if ended {
        let mut codes = state.tail().to_vec();
        let new_since = pos.step - state.pos.step;
        // The codes of this text that finished the turn follow the tail.
        let start = pos.last.len() - new_since as usize;
        codes.extend_from_slice(&pos.last[start.min(pos.last.len())..]);
        state.done.push(codes);
        if state.done.len() > 2 {
            let first = state.done.remove(0);
            for code in &first {
                // Replaying a turn already played cannot fail.
                let _ = state.base.play(code);
            }
        }
    }
    state.pos = pos;
    Played {
        state,
        effect: if ended {
            Effect::Resolved
        } else {
            Effect::Continues
        },
    }
}

/// `U`: the last code of the combination in progress; else the last round
/// (against the robot), the last turn (one phone, which plays both sides),
/// or a takeback asked and granted (two phones).
fn undo(state: State, seat: Seat) -> Outcome {
    let me = if state.mode == Mode::Hot {
        state.pos.turn
    } else {
        state.side_of(seat)
    };
    if let (Mode::Duel { .. }, Some(asker)) = (state.mode, state.asked) {
        if asker == seat {
            return refuse(state, Refusal::AlreadyAsked);
        }
        let turns = state.takeback_turns(asker).unwrap_or(0);
        return rewind(state, turns, Effect::Resolved);
    }
    if me == state.pos.turn && !state.tail().is_empty() {
        let tail = state.tail();
        let extra = tail[..tail.len() - 1].to_vec();
        return rewind_to(state, extra, Effect::Continues);
    }
    match state.mode {
        Mode::Duel { .. } => match state.takeback_turns(seat) {
            Some(_) => {
                let mut state = state;
                state.asked = Some(seat);
                played(state, Effect::Resolved)
            }
            None => refuse(state, Refusal::NothingToUndo),
        },
        // One phone plays both sides: the last combination, whichever side's,
        // and that side is to move again.
        Mode::Hot if state.pos.current().is_empty() && !state.done.is_empty() => {
            rewind(state, 1, Effect::Resolved)
        }
        Mode::Hot => refuse(state, Refusal::NothingToUndo),
        Mode::Bot if me != state.pos.turn => refuse(state, Refusal::NotYourTurn),
        Mode::Bot if state.done.len() == 2 && state.pos.current().is_empty() => {
            rewind(state, 2, Effect::Continues)
        }
        Mode::Bot => refuse(state, Refusal::NothingToUndo),
    }
}

/// Takes back the last `turns` turns of the history.
fn rewind(mut state: State, turns: usize, effect: Effect) -> Outcome {
    if turns == 0 || turns > state.done.len() {
        return refuse(state, Refusal::NothingToUndo);
    }
    let keep = state.done.len() - turns;
    match state.replay(keep, &[]) {
        Ok(pos) => {
            state.pos = pos;
            state.done.truncate(keep);
            state.asked = None;
            played(state, effect)
        }
        Err(_) => refuse(state, Refusal::NothingToUndo),
    }
}

/// Replays the history and then `extra` of the current combination.
fn rewind_to(mut state: State, extra: Vec<super::code::Code>, effect: Effect) -> Outcome {
    match state.replay(state.done.len(), &extra) {
        Ok(pos) => {
            state.pos = pos;
            played(state, effect)
        }
        Err(_) => refuse(state, Refusal::NothingToUndo),
    }
}

/// `seat` leaves: his side loses (on one phone, the side of that seat).
pub fn withdraw(mut state: State, seat: Seat, why: Withdrawal) -> State {
    if !state.finished() && seat <= 1 {
        let side = state.side_of(seat);
        state.left = Some(match (state.mode, why) {
            (Mode::Hot, _) => Left::Stopped,
            (_, Withdrawal::Resigned) => Left::Resigned(side),
            (_, Withdrawal::Absent) => Left::TimedOut(side),
        });
        state.asked = None;
    }
    state
}
