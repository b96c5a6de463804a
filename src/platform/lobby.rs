//! `P`: joining a game's queue, and the matchmaker that starts a match when enough players wait.

use crate::store::{Player, StoreResult};

use super::catalog::DEFAULT_GAME;
use super::table::{Table, start_match};
use super::{Ctx, texts};

/// `P [game] [options]`.
pub(super) fn play(
    ctx: &mut Ctx<'_>,
    mut player: Player,
    game: Option<String>,
    options: Vec<String>,
) -> StoreResult<()> {
    let lang = player.lang;
    if player.away {
        // `P` is also how a player comes back from a timeout.
        player.away = false;
        ctx.tx.players().save(&player, ctx.now)?;
    }
    if let Some(record) = ctx.tx.matches().active_of(player.id)? {
        // Already playing: the answer is the match as it stands.
        let mut table = Table::load(ctx, record)?;
        table.set_player(&player);
        let seat = table.seat_of(player.id).unwrap_or_default();
        let board = table.render(seat)?;
        return ctx.reply(&player, board);
    }
    let code = game.unwrap_or_else(|| DEFAULT_GAME.to_string());
    let catalog = &ctx.platform.catalog;
    let Some(game) = catalog.get(&code) else {
        return ctx.reply(&player, texts::unknown_game(lang, &code));
    };
    if !options.is_empty() {
        return ctx.reply(&player, texts::bad_game_options(lang, game.code()));
    }
    super::after_match::withdraw_rematch(ctx, &player)?;
    if ctx.tx.lobby().game_of(player.id)?.as_deref() == Some(game.code()) {
        return ctx.reply(&player, texts::already_waiting(lang));
    }
    ctx.tx.lobby().join(player.id, game.code(), ctx.now)?;
    if !matchmake(ctx, game.code())? {
        ctx.reply(&player, texts::waiting_for_players(lang))?;
    }
    Ok(())
}

/// Starts matches while enough players wait for `code`, longest-waiting first.
/// Returns whether any match started.
pub(super) fn matchmake(ctx: &mut Ctx<'_>, code: &str) -> StoreResult<bool> {
    let platform = ctx.platform;
    let Some(game) = platform.catalog.get(code) else {
        return Ok(false);
    };
    let seats = *game.seat_range().start();
    let mut started = false;
    loop {
        let queue = ctx.tx.lobby().queue(game.code(), seats)?;
        if queue.len() < seats {
            return Ok(started);
        }
        start_match(ctx, game, &queue, None)?;
        started = true;
    }
}
