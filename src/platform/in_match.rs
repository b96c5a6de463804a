//! What a player in a match can text, and in which order a text is read.
//!
//! Precedence, first match wins:
//! 1. `STOP`, `START`, `LANG`, `R`: the account's (see `Platform::dispatch`).
//! 2. `HELP` (and `?`): the game's move syntax and the match commands.
//! 3. A platform command (`B`, `Q`, `T`, `H`, `H n`, `P ...`, `PA`, `S ...`,
//!    `P ?`), when the game lets its first word through
//!    (`Game::yields_word`: word battle keeps the Cyrillic look-alikes `В`,
//!    `С`, `Р`, `Т`, `А` as letters of words).
//! 4. Anything else is a move, read by the game's own parser: refused with
//!    the game's reason, or with its move syntax when it is no move at all.

use super::table::{Moved, Table, refusal_text};
use super::{Ctx, account, history, texts};
use crate::command::{Command, ParseError, first_word};
use crate::games::{Effect, Withdrawal};
use crate::store::{MatchRecord, Player, StoreResult};

/// A registered player's text while he sits in an unfinished match.
pub(super) fn handle(
    ctx: &mut Ctx<'_>,
    player: Player,
    record: MatchRecord,
    text: &str,
    command: Result<Command, ParseError>,
) -> StoreResult<()> {
    let lang = player.lang;
    let Some(table) = Table::load(ctx, record)? else {
        // A match that would not load was just ended as void; he was told.
        return Ok(());
    };
    let yields = table.game.yields_word(first_word(text));
    let command = match command {
        Ok(Command::Help) => return help(ctx, &player, &table),
        Ok(c) if c.game_may_claim() && !yields => Command::Text(text.trim().to_string()),
        Err(_) if !yields => Command::Text(text.trim().to_string()),
        Ok(c) => c,
        Err(e) => return ctx.reply(&player, texts::usage(lang, &e)),
    };
    match command {
        // P (also coming back from a timeout) and PA answer with the match as it stands.
        Command::Play { .. } | Command::PlayAgain => super::seeking::play(ctx, player, None, ""),
        Command::Board => {
            let seat = table.seat_to_move(player.id).unwrap_or_default();
            let board = table.render(seat);
            ctx.reply(&player, board)
        }
        Command::Resign => resign(ctx, player, table),
        Command::Timeout => {
            let player = account::take_timeout(ctx, player)?;
            step_away(ctx, &player, table)
        }
        Command::History(step) => history::reply(ctx, &player, &table.record, step),
        Command::ListGames => {
            let list = ctx.platform.catalog.list(lang);
            ctx.reply(&player, texts::games_list(lang, &list))
        }
        Command::Send { .. } => ctx.reply(&player, texts::message_not_allowed(lang)),
        Command::Text(_) if player.away => {
            ctx.reply(&player, texts::timeout_taken(lang, ctx.platform.numbers()))
        }
        Command::Text(text) => play_move(ctx, player, table, &text),
        _ => ctx.reply(&player, texts::unknown_text(lang)),
    }
}

/// A move, for whichever of the player's seats the game awaits.
fn play_move(
    ctx: &mut Ctx<'_>,
    player: Player,
    mut table: Table<'_>,
    text: &str,
) -> StoreResult<()> {
    let Some(seat) = table.seat_to_move(player.id) else {
        return Ok(());
    };
    let lang = player.lang;
    match table.play(ctx, seat, text)? {
        Ok(effect) => {
            let mut me = table.seats[seat].clone();
            if me.missed != 0 {
                me.missed = 0;
                ctx.tx.matches().save_seat(table.record.id, &me)?;
                table.seats[seat] = me;
            }
            if effect == Effect::Pending {
                ctx.reply(&player, texts::move_accepted(lang, text))?;
            }
            table.settle(ctx, Moved::from_effect(effect, seat))
        }
        Err(refusal) => {
            let reply = refusal_text(table.game, &refusal, lang);
            ctx.reply(&player, reply)
        }
    }
}

/// `Q`: the game decides what a resignation does (a side loses, a car retires).
fn resign(ctx: &mut Ctx<'_>, player: Player, mut table: Table<'_>) -> StoreResult<()> {
    let Some(seat) = table.seat_to_move(player.id) else {
        return Ok(());
    };
    ctx.reply(&player, texts::resigned(player.lang))?;
    table.withdraw(ctx, seat, Withdrawal::Resigned)?;
    table.settle(ctx, Moved::EVERYONE)
}

/// `HELP` in a match: the game's move syntax and the match commands, one SMS.
fn help(ctx: &mut Ctx<'_>, player: &Player, table: &Table<'_>) -> StoreResult<()> {
    let move_help = table.game.move_help(player.lang);
    let steps = table.game.has_state_steps();
    ctx.reply(player, texts::help_in_match(player.lang, &move_help, steps))
}

/// The player went away (`T`, `STOP`): each of his seats withdraws as absent,
/// and the game decides what follows (his piece stands in for him, or his
/// side loses, or his car leaves the race).
pub(super) fn step_away(
    ctx: &mut Ctx<'_>,
    player: &Player,
    mut table: Table<'_>,
) -> StoreResult<()> {
    table.set_player(player);
    let before = table.state.status();
    for seat in table.seats_of(player.id) {
        table.withdraw(ctx, seat, Withdrawal::Absent)?;
    }
    // A piece that plays on by null moves changes nothing until it is awaited.
    let moved = if table.state.status() == before {
        Moved::Nothing
    } else {
        Moved::EVERYONE
    };
    table.settle(ctx, moved)
}
