//! `T`: a timeout. The player stops seeking a match (lobby and rematch) and
//! gets no invitations and no game texts until the next `P`; in a match the
//! game decides what becomes of his seat.

use super::words::{ParseError, bare};
use crate::platform::away;
use crate::platform::ctx::Ctx;
use crate::platform::loaded::LoadedMatch;
use crate::platform::texts;
use crate::platform::texts::HelpLine;
use crate::store::{Player, StoreResult};

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Timeout;

impl Timeout {
    /// Its line in `HELP`: `T`: a pause.
    pub(super) const HELP: HelpLine = HelpLine::Pause;

    pub(super) fn parse(rest: &str) -> Result<Timeout, ParseError> {
        bare(rest, "T").map(|()| Timeout)
    }

    pub(super) fn idle(ctx: &mut Ctx<'_>, player: Player, _: Timeout) -> StoreResult<()> {
        take(ctx, player).map(|_| ())
    }

    pub(super) fn in_match(
        ctx: &mut Ctx<'_>,
        player: Player,
        loaded: LoadedMatch<'_>,
        _: Timeout,
    ) -> StoreResult<()> {
        let player = take(ctx, player)?;
        away::step_away(ctx, &player, loaded)
    }
}

/// The confirmation goes out before the timeout silences him.
fn take(ctx: &mut Ctx<'_>, player: Player) -> StoreResult<Player> {
    let text = texts::timeout_taken(player.lang, ctx.numbers());
    ctx.reply(&player, text)?;
    away::set_away(ctx, player)
}
