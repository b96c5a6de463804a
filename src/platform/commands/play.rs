//! `P [game] [options]`: seeks a match of a game (no game: SMS football), or
//! starts one at once against robots; in a match, the match as it stands
//! (bare `P`) or, asked for a game, that he is in a match and how to leave it.
//! `P` is also how a player comes back from a timeout.

use super::board;
use super::words::split_word;
use crate::platform::catalog::DEFAULT_GAME;
use crate::platform::ctx::Ctx;
use crate::platform::loaded::LoadedMatch;
use crate::platform::seeking;
use crate::platform::texts;
use crate::platform::texts::HelpLine;
use crate::store::{Player, StoreResult};

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Play {
    pub game: Option<String>,
    /// The game's to read, as typed.
    pub options: String,
}

impl Play {
    /// Its line in `HELP`: `P`: play, on the play number.
    pub(super) const HELP: HelpLine = HelpLine::Play;

    pub(super) fn parse(rest: &str) -> Play {
        let (game, options) = split_word(rest);
        Play {
            game: (!game.is_empty()).then(|| game.to_uppercase()),
            options: options.to_string(),
        }
    }

    /// The game and its options, read once; then [`seeking::seek`].
    pub(super) fn idle(ctx: &mut Ctx<'_>, player: Player, play: Play) -> StoreResult<()> {
        let player = come_back(ctx, player)?;
        let lang = player.lang;
        let code = play.game.unwrap_or_else(|| DEFAULT_GAME.to_string());
        let catalog = ctx.catalog;
        let Some(game) = catalog.get(&code) else {
            let list = catalog.list(lang);
            return ctx.reply(&player, texts::unknown_game(lang, &code, &list));
        };
        let options = match game.options(&play.options) {
            Ok(options) => options,
            Err(e) => {
                let reply =
                    texts::bad_game_options(lang, &e.0.text(lang), &game.options_help(lang));
                return ctx.reply(&player, reply);
            }
        };
        seeking::seek(ctx, player, game, options)
    }

    /// A bare `P` is the match as it stands (and the way back from a
    /// timeout); a `P` naming a game would look like a new match starting,
    /// so it is told plainly that this one goes on, and how to leave it.
    pub(super) fn in_match(
        ctx: &mut Ctx<'_>,
        player: Player,
        mut loaded: LoadedMatch<'_>,
        play: Play,
    ) -> StoreResult<()> {
        if play.game.is_none() {
            return back_at_the_table(ctx, player, loaded);
        }
        let player = come_back_to(ctx, player, &mut loaded)?;
        let name = loaded.game.name(player.lang);
        ctx.reply(&player, texts::already_in_match(player.lang, name))
    }
}

/// `P` or `PA` in a match: the answer is the match as it stands; back from
/// a timeout, his missed turns count again from zero.
pub(super) fn back_at_the_table(
    ctx: &mut Ctx<'_>,
    player: Player,
    mut loaded: LoadedMatch<'_>,
) -> StoreResult<()> {
    let player = come_back_to(ctx, player, &mut loaded)?;
    board::show(ctx, &player, &loaded)
}

/// The player is back at his match, if he was on a timeout: his missed
/// turns count again from zero.
fn come_back_to(
    ctx: &mut Ctx<'_>,
    player: Player,
    loaded: &mut LoadedMatch<'_>,
) -> StoreResult<Player> {
    if !player.away {
        return Ok(player);
    }
    let player = come_back(ctx, player)?;
    loaded.set_player(&player);
    for seat in loaded.seats_of(player.id) {
        loaded.seats[seat].missed = 0;
        ctx.tx
            .matches()
            .save_seat(loaded.record.id, &loaded.seats[seat])?;
    }
    Ok(player)
}

/// The player is back from a timeout, if he was on one.
fn come_back(ctx: &mut Ctx<'_>, mut player: Player) -> StoreResult<Player> {
    if player.away {
        player.away = false;
        ctx.tx.players().save(&player, ctx.now)?;
    }
    Ok(player)
}
