//! `B`: the sender's board again.

use super::words::{ParseError, bare};
use crate::platform::ctx::Ctx;
use crate::platform::table::Table;
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
        table: Table<'_>,
        _: Board,
    ) -> StoreResult<()> {
        show(ctx, &player, &table)
    }
}

/// The board of the seat he is to move for, else of his first.
pub(super) fn show(ctx: &mut Ctx<'_>, player: &Player, table: &Table<'_>) -> StoreResult<()> {
    let seat = table.seat_to_move(player.id).unwrap_or_default();
    let board = table.render(seat);
    ctx.reply(player, board)
}
