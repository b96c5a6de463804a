//! Seeking a match: waiting in a lobby (`P`) and asking for a rematch (`PA`)
//! are one state. A player seeks one match at a time: joining a lobby
//! withdraws his rematch request, and `T`, `STOP` and a new `P` withdraw both.
//!
//! Lobbies are per game and per option set (`P WB 6` waits for another
//! `P WB 6`); options whose lineup needs one phone (`P FB BOT`) start at once.
//! A rematch request is for the player's most recent match, within its
//! window: the window opens when the match ends and, once the first `PA` is
//! in, lasts `rematch_window_secs` from that `PA`. When it closes, pending
//! requests join the lobby with the time of their `PA`.
//!
//! The training hall's virtual phones and real phones wait in the same
//! lobbies but are seated apart ([`super::pools`]): a matchmaker reads one
//! pool of a queue at a time.

use chrono::{DateTime, Duration, Utc};

use super::ctx::{BusyQueue, Ctx};
use super::loaded::LoadedMatch;
use super::opening::{Opening, start_match};
use super::pools::{self, pool_of};
use super::texts;
use crate::games::any::{AnyGame, AnyOptions};
use crate::store::{MatchRow, Player, Pool, Queue, StoreResult};

/// Seeks a match of `options`: his rematch request goes; the match starts at
/// once when its lineup needs no one else, else he waits in its lobby.
pub(super) fn seek<'g>(
    ctx: &mut Ctx<'g>,
    player: Player,
    game: &'g dyn AnyGame,
    options: AnyOptions,
) -> StoreResult<()> {
    let lang = player.lang;
    let pool = pool_of(ctx.cfg, &player);
    withdraw_rematch(ctx, &player)?;
    if options.lineup.phones_needed() <= 1 {
        return start_now(ctx, game, player, options);
    }
    let joined = ctx
        .tx
        .lobby()
        .join(player.id, game.code(), &options.canonical, ctx.now)?;
    if !joined {
        return ctx.reply(&player, texts::already_waiting(lang));
    }
    match matchmake(ctx, game, &options, pool)? {
        // Seated in a match that started: its opening texts answer him.
        Queue::Waiting(waiting) if !waiting.iter().any(|p| p.id == player.id) => Ok(()),
        Queue::Waiting(_) => ctx.reply(&player, texts::waiting_for_players(lang)),
        // The second look answers him: the board, or "wait".
        Queue::Busy => {
            let unanswered = (player.phone.clone(), ctx.reply_from.to_string());
            BusyQueue {
                game: game.code().to_string(),
                options: options.canonical.clone(),
                pool,
                unanswered: vec![unanswered],
            }
            .mark_in(&mut ctx.queues_to_match);
            Ok(())
        }
    }
}

/// Options that need no one else: the match starts at once. Where the game
/// lets them, players waiting for the same match without robots take robots'
/// seats first, longest-waiting first, from his own pool.
fn start_now<'g>(
    ctx: &mut Ctx<'g>,
    game: &'g dyn AnyGame,
    player: Player,
    options: AnyOptions,
) -> StoreResult<()> {
    ctx.tx.lobby().leave(player.id)?;
    let pool = pool_of(ctx.cfg, &player);
    let robots = options
        .lineup
        .0
        .iter()
        .filter(|o| matches!(o, crate::games::Occupant::Robot(_)))
        .count();
    let mut players = vec![player];
    let mut options = options;
    if let Some(base) = options.robots_fill().filter(|_| robots > 0) {
        // A queue another instance is matching keeps its players: the robots play.
        let waiting = ctx
            .tx
            .lobby()
            .queue(game.code(), &base.canonical, pool, robots)?
            .into_players();
        if !waiting.is_empty() {
            players.extend(waiting);
            options = options.with_phones(players.len());
        }
    }
    players.truncate(options.lineup.phones_needed().max(1));
    let opening = Opening::New {
        options: &options,
        players: &players,
    };
    start_match(ctx, game, opening).map(|_| ())
}

/// Starts matches of `options` while enough players of `pool` wait in
/// their queue, longest-waiting first, and gives who of the pool is left:
/// fewer than a match needs, oldest first. A queue another instance is matching now is
/// [`Queue::Busy`], and matched again once this unit of work commits
/// ([`Ctx::queues_to_match`]): neither sees who the other just queued.
pub(super) fn matchmake<'g>(
    ctx: &mut Ctx<'g>,
    game: &'g dyn AnyGame,
    options: &AnyOptions,
    pool: Pool,
) -> StoreResult<Queue> {
    let needed = options.lineup.phones_needed();
    loop {
        let queue = match ctx
            .tx
            .lobby()
            .queue(game.code(), &options.canonical, pool, needed)?
        {
            // A match started before this look is this text's; what is
            // left waits for the second look all the same.
            Queue::Busy => {
                BusyQueue {
                    game: game.code().to_string(),
                    options: options.canonical.clone(),
                    pool,
                    unanswered: Vec::new(),
                }
                .mark_in(&mut ctx.queues_to_match);
                return Ok(Queue::Busy);
            }
            // Read up to `needed`, so a shorter queue is all of it.
            Queue::Waiting(players) if players.len() < needed => {
                return Ok(Queue::Waiting(players));
            }
            Queue::Waiting(players) => players,
        };
        let opening = Opening::New {
            options,
            players: &queue,
        };
        start_match(ctx, game, opening)?;
    }
}

/// A queue matched again after the commit that found it busy; whoever
/// joined it then and still waits in it is told to wait, as the look left
/// the queue: no read of each of them again. A game or option set no longer
/// hosted has no queue to match.
pub(super) fn match_queue(ctx: &mut Ctx<'_>, busy: &BusyQueue) -> StoreResult<()> {
    let catalog = ctx.catalog;
    let Some(game) = catalog.get(&busy.game) else {
        return Ok(());
    };
    let Ok(options) = game.options(&busy.options) else {
        return Ok(());
    };
    let waiting = match matchmake(ctx, game, &options, busy.pool)? {
        Queue::Waiting(waiting) => waiting,
        // A look that waits its turn finds no queue busy; should one, the
        // next look answers them.
        Queue::Busy => {
            busy.clone().mark_in(&mut ctx.queues_to_match);
            return Ok(());
        }
    };
    for (phone, texted) in &busy.unanswered {
        if let Some(player) = waiting.iter().find(|p| &p.phone == phone) {
            ctx.reply_later(player, texted, texts::waiting_for_players(player.lang))?;
        }
    }
    Ok(())
}

/// The sender's most recent match, if it is finished.
pub(super) fn last_finished(ctx: &mut Ctx<'_>, player: &Player) -> StoreResult<Option<MatchRow>> {
    Ok(ctx.tx.matches().last_of(player.id)?.filter(|m| m.finished))
}

/// Whether a rematch of `m` may still be asked for at `now`.
pub(super) fn window_open(ctx: &Ctx<'_>, m: &MatchRow, now: DateTime<Utc>) -> bool {
    let window = Duration::seconds(ctx.cfg.game.rematch_window_secs as i64);
    match m.rematch_deadline_at {
        Some(closes) => now < closes,
        None => m.finished_at.is_some_and(|end| now <= end + window),
    }
}

/// Everyone asked: the same seats play again. A player who is meanwhile in
/// another match is never seated twice, and players who may no longer meet
/// ([`pools::all_meet`]) are not seated together again; the rematch then
/// does not start.
pub(super) fn start_rematch<'g>(ctx: &mut Ctx<'g>, mut loaded: LoadedMatch<'g>) -> StoreResult<()> {
    if !pools::all_meet(ctx.cfg, &loaded.phones()) {
        return expire_rematch(ctx, loaded.record.id);
    }
    for player in loaded.phones() {
        if ctx.tx.matches().active_of(player.id)?.is_some() {
            // As if the window closed: the others' requests go to the lobby.
            return expire_rematch(ctx, loaded.record.id);
        }
    }
    loaded.record.rematch_deadline_at = None;
    ctx.tx.matches().save(&loaded.record)?;
    // Everyone is back, so nobody stays on a timeout.
    for seat in &mut loaded.seats {
        if let Some(p) = seat.player_mut()
            && p.away
        {
            p.away = false;
            ctx.tx.players().save(p, ctx.now)?;
        }
    }
    start_match(ctx, loaded.game, Opening::Rematch(&loaded)).map(|_| ())
}

/// The player stops seeking: out of every lobby, and his rematch request withdrawn.
pub(super) fn withdraw(ctx: &mut Ctx<'_>, player: &Player) -> StoreResult<()> {
    ctx.tx.lobby().leave(player.id)?;
    withdraw_rematch(ctx, player)
}

/// A pending `PA` of the player's, withdrawn.
fn withdraw_rematch(ctx: &mut Ctx<'_>, player: &Player) -> StoreResult<()> {
    let Some(last) = last_finished(ctx, player)? else {
        return Ok(());
    };
    if last.rematch_deadline_at.is_none() {
        return Ok(());
    }
    for mut seat in ctx.tx.matches().seats(last.id)? {
        if seat.is(player.id) && seat.rematch_at.is_some() {
            seat.rematch_at = None;
            ctx.tx.matches().save_seat(last.id, &seat)?;
        }
    }
    Ok(())
}

/// The rematch window closed: every pending `PA` becomes an ordinary `P`,
/// keeping the time of the `PA` as the player's place in the queue.
pub(super) fn expire_rematch(ctx: &mut Ctx<'_>, match_id: i64) -> StoreResult<()> {
    let Some(mut record) = ctx.tx.matches().by_id(match_id)? else {
        return Ok(());
    };
    if record.rematch_deadline_at.take().is_none() {
        return Ok(());
    }
    ctx.tx.matches().save(&record)?;
    let catalog = ctx.catalog;
    let Some(game) = catalog.get(&record.game) else {
        return Ok(());
    };
    let Ok(options) = game.options(&record.options) else {
        return Ok(());
    };
    let lineup = &options.lineup;
    let mut joined = Vec::new();
    let mut joined_pools = Vec::new();
    for mut seat in ctx.tx.matches().seats(match_id)? {
        let Some(asked_at) = seat.rematch_at.take() else {
            continue;
        };
        ctx.tx.matches().save_seat(match_id, &seat)?;
        let Some(player) = seat.player().cloned() else {
            continue;
        };
        if joined.contains(&player.id) {
            continue;
        }
        let busy = ctx.tx.matches().active_of(player.id)?.is_some();
        if busy || player.opted_out || player.away {
            continue;
        }
        joined.push(player.id);
        let pool = pool_of(ctx.cfg, &player);
        if !joined_pools.contains(&pool) {
            joined_pools.push(pool);
        }
        // A game whose match needs no one else has no lobby to join.
        if lineup.phones_needed() > 1 {
            ctx.tx
                .lobby()
                .join(player.id, game.code(), &options.canonical, asked_at)?;
        }
        ctx.notify(&player, texts::rematch_expired(player.lang))?;
    }
    if lineup.phones_needed() > 1 {
        for pool in joined_pools {
            matchmake(ctx, game, &options, pool)?;
        }
    }
    Ok(())
}
