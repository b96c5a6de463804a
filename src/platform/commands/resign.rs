//! `Q`: resigns; the game decides what a resignation does (a side loses, a
//! car retires).

use super::words::{ParseError, bare};
use crate::games::Withdrawal;
use crate::platform::ctx::Ctx;
use crate::platform::loaded::{LoadedMatch, Moved};
use crate::platform::texts;
use crate::store::{Player, StoreResult};

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Resign;

impl Resign {
    pub(super) fn parse(rest: &str) -> Result<Resign, ParseError> {
        bare(rest, "Q").map(|()| Resign)
    }

    pub(super) fn in_match(
        ctx: &mut Ctx<'_>,
        player: Player,
        mut loaded: LoadedMatch<'_>,
        _: Resign,
    ) -> StoreResult<()> {
        let Some(seat) = loaded.seat_to_move(player.id) else {
            return Ok(());
        };
        ctx.reply(&player, texts::resigned(player.lang))?;
        loaded.withdraw(ctx, seat, Withdrawal::Resigned)?;
        loaded.settle(ctx, Moved::EVERYONE)
    }
}
