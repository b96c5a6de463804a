//! The players' pages, beside the training hall and on the same switch: a
//! leaderboard per game (`/standings/{game}`, all of them at `/standings`),
//! a player's page with his standing and his last matches
//! (`/players/{nick}`), and a finished match's replay, step by step
//! (`/matches/{id}?step=n`). Read beside the writer; nicks only, never a
//! number; a match still running is not shown.

mod pages;

use std::panic::{AssertUnwindSafe, catch_unwind};

use axum::Router;
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::get;

use crate::app::{AppError, AppState};
use crate::config::Config;
use crate::platform::results::{MatchResult, results};
use crate::store::{Leader, MatchRow, MoveRow, SeatRow, StandingRow, StoreError};

/// Lines of a game's leaderboard page.
pub const BOARD_LINES: usize = 50;
/// Matches a player's page lists.
pub const PLAYER_MATCHES: usize = 20;

/// The pages' routes, when the hall is served.
pub fn routes(cfg: &Config) -> Option<Router<AppState>> {
    cfg.hall
        .served(cfg.http.listen.ip().is_loopback())
        .then(|| {
            Router::new()
                .route("/standings", get(all_boards))
                .route("/standings/{game}", get(board))
                .route("/players/{nick}", get(player))
                .route("/matches/{id}", get(replay))
                .route("/standings.css", get(pages::style))
        })
}

async fn all_boards(State(state): State<AppState>) -> Result<Response, AppError> {
    let codes: Vec<&'static str> = state
        .platform()
        .catalog()
        .games()
        .map(|g| g.code())
        .filter(|c| *c != "TR")
        .collect();
    let read = codes.clone();
    let boards = state
        .store()
        .read(move |r| {
            read.iter()
                .map(|code| r.standings().leaders(code, 5))
                .collect::<Result<Vec<Vec<Leader>>, _>>()
        })
        .await?;
    let catalog = state.platform().catalog();
    let named: Vec<(&str, &str, Vec<Leader>)> = codes
        .iter()
        .zip(boards)
        .map(|(code, leaders)| {
            let name = catalog
                .get(code)
                .map_or(*code, |g| g.name(crate::lang::Lang::En));
            (*code, name, leaders)
        })
        .collect();
    Ok(pages::all_boards(&named))
}

async fn board(
    State(state): State<AppState>,
    Path(code): Path<String>,
) -> Result<Response, AppError> {
    let Some(game) = state.platform().catalog().get(&code) else {
        return Ok(not_found("No such game."));
    };
    let code = game.code();
    let leaders = state
        .store()
        .read(move |r| r.standings().leaders(code, BOARD_LINES))
        .await?;
    Ok(pages::board(
        code,
        game.name(crate::lang::Lang::En),
        &leaders,
    ))
}

async fn player(
    State(state): State<AppState>,
    Path(nick): Path<String>,
) -> Result<Response, AppError> {
    let platform = state.platform().clone();
    let found = state
        .store()
        .read(move |r| {
            let Some(player) = r.player_by_nick(&nick)? else {
                return Ok(None);
            };
            let rows: Vec<StandingRow> = r.standings().of_player(player.id)?;
            let matches: Vec<MatchResult> =
                results(r, platform.catalog(), player.id, PLAYER_MATCHES)?;
            Ok(Some((player.nick.unwrap_or_default(), rows, matches)))
        })
        .await?;
    let Some((nick, rows, matches)) = found else {
        return Ok(not_found("No player by that nick."));
    };
    Ok(pages::player(&nick, &rows, &matches))
}

#[derive(serde::Deserialize)]
struct Step {
    step: Option<usize>,
}

async fn replay(
    State(state): State<AppState>,
    Path(id): Path<i64>,
    Query(Step { step }): Query<Step>,
) -> Result<Response, AppError> {
    let rows = state
        .store()
        .read(move |r| {
            let Some(record) = r.match_by_id(id)? else {
                return Ok(None);
            };
            Ok(Some((r.seats(id)?, r.moves(id)?, record)))
        })
        .await?;
    let Some((seats, moves, record)) = rows.filter(|(_, _, m)| shown(m)) else {
        return Ok(not_found("No finished match by that number."));
    };
    let platform = state.platform().clone();
    // The game's code runs off the reader, and a panic in it is a page that says so.
    let page = tokio::task::spawn_blocking(move || {
        catch_unwind(AssertUnwindSafe(|| {
            replay_page(platform.catalog(), &record, &seats, &moves, step)
        }))
        .map_err(|_| StoreError::Corrupt("the game's code panicked on a record".into()))
    })
    .await
    .map_err(|_| StoreError::Panicked)??;
    Ok(page)
}

/// Only finished matches that count are shown.
fn shown(record: &MatchRow) -> bool {
    record.finished && record.void_reason.is_none()
}

fn replay_page(
    catalog: &crate::platform::catalog::Catalog,
    record: &MatchRow,
    seats: &[SeatRow],
    moves: &[MoveRow],
    step: Option<usize>,
) -> Response {
    let Some(game) = catalog.get(&record.game) else {
        return not_found("No finished match by that number.");
    };
    let step = step.unwrap_or(moves.len()).min(moves.len());
    let state = match step {
        0 => &record.initial_state,
        n => &moves[n - 1].state_after,
    };
    let board = game
        .load(state)
        .map(|m| m.render(0, crate::lang::Lang::En))
        .unwrap_or_else(|e| format!("(this state does not read: {e})"));
    let notation = crate::platform::record::history_text(
        game,
        &record.initial_state,
        moves,
        &crate::platform::record::seat_names(seats),
    );
    pages::replay(&pages::Replay {
        record,
        name: game.name(crate::lang::Lang::En),
        seats,
        moves,
        step,
        board: &board,
        notation: &notation,
    })
}

fn not_found(what: &str) -> Response {
    let mut page = pages::missing(what);
    *page.status_mut() = StatusCode::NOT_FOUND;
    page.into_response()
}
