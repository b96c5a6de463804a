//! `HELP`, `?`, `INFO`: the commands a player may send where he is (before
//! registering the table answers with how to register).

use super::{ListGames, Message, Play, PlayAgain, Register, SetLang, Stop, Timeout, Top};
use crate::platform::ctx::Ctx;
use crate::platform::loaded::LoadedMatch;
use crate::platform::texts::{self, HelpLine};
use crate::store::{Player, StoreResult};

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Help;

impl Help {
    pub(super) const WORDS: [&'static str; 3] = ["HELP", "?", "INFO"];

    /// What `HELP` lists outside a match, in this order, each line its
    /// command's own (`HELP` on each command); where the whole would take
    /// two SMS, the last lines are left out, so the ones a player needs
    /// most, and `STOP`, come first.
    const IDLE: [HelpLine; 9] = [
        Play::HELP,
        ListGames::HELP,
        PlayAgain::HELP,
        Timeout::HELP,
        Message::HELP,
        Register::HELP,
        SetLang::HELP,
        Stop::HELP,
        Top::HELP,
    ];

    pub(super) fn idle(ctx: &mut Ctx<'_>, player: Player, _: Help) -> StoreResult<()> {
        let lines: Vec<String> = Self::IDLE
            .iter()
            .map(|&line| texts::help_line(player.lang, line, ctx.numbers()))
            .collect();
        ctx.reply(&player, texts::help_idle(player.lang, &lines))
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
