//! `P ?`: the games hosted, one line each.

use crate::platform::ctx::Ctx;
use crate::platform::loaded::LoadedMatch;
use crate::platform::texts;
use crate::platform::texts::HelpLine;
use crate::store::{Player, StoreResult};

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ListGames;

impl ListGames {
    /// Its line in `HELP`: `P ?`: the games.
    pub(super) const HELP: HelpLine = HelpLine::Games;

    /// What follows `P`, when it asks for the list.
    pub(super) fn parse(rest: &str) -> Option<ListGames> {
        (rest == "?").then_some(ListGames)
    }

    pub(super) fn idle(ctx: &mut Ctx<'_>, player: Player, _: ListGames) -> StoreResult<()> {
        let lang = player.lang;
        let list = ctx.catalog.list(lang);
        ctx.reply(&player, texts::games_list(lang, &list))
    }

    pub(super) fn in_match(
        ctx: &mut Ctx<'_>,
        player: Player,
        _: LoadedMatch<'_>,
        list: ListGames,
    ) -> StoreResult<()> {
        ListGames::idle(ctx, player, list)
    }
}
