//! `HELP`, `?`, `INFO`: the commands a player may send where he is (before
//! registering the table answers with how to register).

use crate::platform::ctx::Ctx;
use crate::platform::loaded::LoadedMatch;
use crate::platform::texts;
use crate::store::{Player, StoreResult};

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Help;

impl Help {
    pub(super) const WORDS: [&'static str; 3] = ["HELP", "?", "INFO"];

    pub(super) fn idle(ctx: &mut Ctx<'_>, player: Player, _: Help) -> StoreResult<()> {
        let text = texts::help_idle(player.lang, ctx.numbers());
        ctx.reply(&player, text)
    }

    /// In a match: the game's move syntax and the match commands, one SMS.
    pub(super) fn in_match(
        ctx: &mut Ctx<'_>,
        player: Player,
        loaded: LoadedMatch<'_>,
        _: Help,
    ) -> StoreResult<()> {
        let move_help = loaded.game.move_help(player.lang);
        let steps = loaded.game.has_state_steps();
        ctx.reply(
            &player,
            texts::help_in_match(player.lang, &move_help, steps),
        )
    }
}
