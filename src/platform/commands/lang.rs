//! `LANG EN|RU`: the language of a number's replies.

use super::words::ParseError;
use crate::lang::Lang;
use crate::platform::ctx::Ctx;
use crate::platform::texts;
use crate::platform::texts::HelpLine;
use crate::store::{Player, StoreResult};

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SetLang(pub Lang);

impl SetLang {
    /// Its line in `HELP`: `LANG`: the other language.
    pub(super) const HELP: HelpLine = HelpLine::Lang;

    pub(super) fn parse(rest: &str) -> Result<SetLang, ParseError> {
        rest.parse().map(SetLang).map_err(|_| ParseError::BadLang)
    }

    pub(super) fn run(
        ctx: &mut Ctx<'_>,
        mut player: Player,
        SetLang(lang): SetLang,
    ) -> StoreResult<()> {
        player.lang = lang;
        ctx.tx.players().save(&player, ctx.now)?;
        ctx.reply(&player, texts::language_set(lang))
    }
}
