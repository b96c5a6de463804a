//! `START`, `UNSTOP`: an opted-out number opts back in.

use crate::platform::ctx::Ctx;
use crate::platform::texts;
use crate::store::{Player, StoreResult};

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Start;

impl Start {
    pub(super) const WORDS: [&'static str; 2] = ["START", "UNSTOP"];

    pub(super) fn run(ctx: &mut Ctx<'_>, mut player: Player, _: Start) -> StoreResult<()> {
        player.opted_out = false;
        ctx.tx.players().save(&player, ctx.now)?;
        let text = texts::opted_in(player.lang, ctx.numbers());
        ctx.reply(&player, text)
    }
}
