//! `STOP` and its synonyms (carrier rules; only ever the whole text): one
//! confirmation, then silence until `START`.

use crate::platform::away;
use crate::platform::ctx::Ctx;
use crate::platform::loaded::LoadedMatch;
use crate::platform::texts;
use crate::platform::texts::HelpLine;
use crate::store::{Player, StoreResult};

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Stop;

impl Stop {
    /// Its line in `HELP`: `STOP`: opt out (never left out of `HELP`).
    pub(super) const HELP: HelpLine = HelpLine::Stop;

    /// Words that opt a number out.
    pub(super) const WORDS: [&'static str; 6] =
        ["STOP", "STOPALL", "UNSUBSCRIBE", "CANCEL", "END", "QUIT"];

    /// Texts not yet handed to the provider are cancelled, the player stops
    /// seeking a match (as with `T`), and in a match he is away: the game
    /// decides what becomes of his seat.
    pub(super) fn run(ctx: &mut Ctx<'_>, mut player: Player, _: Stop) -> StoreResult<()> {
        ctx.tx.outbox().cancel_to(&player.phone, ctx.now)?;
        player.opted_out = true;
        let player = away::set_away(ctx, player)?;
        // The one text an opted-out number still receives.
        ctx.reply_to_phone(&player.phone, texts::opted_out(player.lang))?;
        match ctx.tx.matches().active_of(player.id)? {
            Some(record) => match LoadedMatch::load(ctx, record)? {
                Some(loaded) => away::step_away(ctx, &player, loaded),
                None => Ok(()),
            },
            None => Ok(()),
        }
    }
}
