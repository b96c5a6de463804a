//! `LAST`: the sender's last three finished matches: the game, whom he
//! played, how it came out and what it did to his rating, one SMS.

use super::words::{ParseError, bare};
use crate::platform::ctx::Ctx;
use crate::platform::results::results;
use crate::platform::texts;
use crate::store::{Player, StoreResult};

/// Matches `LAST` tells.
pub const LAST_MATCHES: usize = 3;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Last;

impl Last {
    pub(super) fn parse(rest: &str) -> Result<Last, ParseError> {
        bare(rest, "LAST").map(|()| Last)
    }

    pub(super) fn run(ctx: &mut Ctx<'_>, player: Player, _: Last) -> StoreResult<()> {
        let lines = results(ctx.tx, ctx.catalog, player.id, LAST_MATCHES)?;
        let text = texts::last(player.lang, &lines);
        ctx.reply(&player, text)
    }
}
