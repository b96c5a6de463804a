//! `B`: the sender's board again.

use super::words::{ParseError, bare};
use crate::platform::ctx::Ctx;
use crate::platform::loaded::LoadedMatch;
use crate::store::{Player, StoreResult};

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Board;

impl Board {
    pub(super) fn parse(rest: &str) -> Result<Board, ParseError> {
        bare(rest, "B").map(|()| Board)
    }

    pub(super) fn in_match(
        ctx: &mut Ctx<'_>,
        player: Player,
        loaded: LoadedMatch<'_>,
        _: Board,
    ) -> StoreResult<()> {
        show(ctx, &player, &loaded)
    }
}

/// The board of the seat he is to move for, else of his first.
pub(super) fn show(
    ctx: &mut Ctx<'_>,
    player: &Player,
    loaded: &LoadedMatch<'_>,
) -> StoreResult<()> {
    let seat = loaded.seat_to_move(player.id).unwrap_or_default();
    let board = loaded.render(seat);
    ctx.reply(player, board)
}
