//! A new match, or a rematch of a finished one: its seed drawn, its state
//! opened by the game, its seats taken, and its opening settled (deadline,
//! robots' turns, every phone's board).

use rand::SeedableRng;

use super::ctx::Ctx;
use super::loaded::{LoadedMatch, Moved, corrupt};
use crate::games::MatchRng;
use crate::games::any::{AnyGame, AnyOptions};
use crate::store::{Holder, NewMatch, NewSeat, Player, StoreResult};

/// What a new match opens from.
pub(crate) enum Opening<'o, 'g> {
    /// These options, the lobby's players on its phones' seats, robots on the rest.
    New {
        options: &'o AnyOptions,
        players: &'o [Player],
    },
    /// A finished match played again: its options, the same seats.
    Rematch(&'o LoadedMatch<'g>),
}

/// Starts a match of `game`; every phone gets its opening board.
pub(crate) fn start_match<'g>(
    ctx: &mut Ctx<'g>,
    game: &'g dyn AnyGame,
    opening: Opening<'_, '_>,
) -> StoreResult<LoadedMatch<'g>> {
    // The platform may draw its seeds from the OS; only the game's own draws must replay.
    let seed: u64 = rand::random();
    let mut rng = MatchRng::seed_from_u64(seed);
    let (state, options, seats): (_, &str, Vec<NewSeat>) = match opening {
        Opening::New { options, players } => {
            let seats = options
                .lineup
                .0
                .iter()
                .map(|o| match *o {
                    crate::games::Occupant::Phone(n) => NewSeat::Player(players[n].id),
                    crate::games::Occupant::Robot(level) => NewSeat::Robot(level),
                })
                .collect();
            (options.start(&mut rng), &options.canonical, seats)
        }
        Opening::Rematch(previous) => {
            let options = previous.record.options.as_str();
            let state = previous
                .state()
                .rematch(options, &mut rng)
                .map_err(corrupt)?;
            let seats = previous
                .seats
                .iter()
                .map(|s| match &s.holder {
                    Holder::Player(p) => NewSeat::Player(p.id),
                    Holder::Robot(level) => NewSeat::Robot(*level),
                })
                .collect();
            (state, options, seats)
        }
    };
    let rematch_of = match opening {
        Opening::Rematch(previous) => Some(previous.record.id),
        Opening::New { .. } => None,
    };
    for seat in &seats {
        if let NewSeat::Player(id) = seat {
            ctx.tx.lobby().leave(*id)?;
        }
    }
    ctx.tally.started.push(game.code().to_string());
    let new = NewMatch {
        game: game.code().to_string(),
        options: options.to_string(),
        state: state.state(),
        seed,
        rng_pos: rng.get_word_pos(),
        deadline_at: None,
        rematch_of,
        seats,
    };
    let id = ctx.tx.matches().insert(&new, ctx.now)?;
    let record = ctx
        .tx
        .matches()
        .by_id(id)?
        .ok_or_else(|| corrupt("a match vanished as it was created"))?;
    let seats = ctx.tx.matches().seats(id)?;
    let mut loaded = LoadedMatch::new(game, record, seats, state);
    // The opening is a turn that moved on: deadline, robots, boards.
    loaded.settle(ctx, Moved::EVERYONE)?;
    Ok(loaded)
}
