//! The operator's console at `/console`, behind the admin token: live counts, players and their texts, matches with a replay, parked texts to retry or drop, and the audit of every action; each page also as JSON under `/console/api/`.
//!
//! Pages are built the way the training hall's are (`crate::web`: `maud`,
//! assets compiled in, the same protective headers). Reads go through
//! `Store::read`, off the writer; an action and its audit row are one
//! transaction, so no action goes unrecorded and no record lies. A search
//! is a look at players, and is audited too; it finds a nick by its start
//! or a number whole, never by a part (which would give a number away digit
//! by digit). Whatever changes something is checked against forgery first
//! (`forgery.rs`).

use axum::extract::{Form, FromRequest, Path, Query, Request, State};
use axum::http::{StatusCode, header};
use axum::middleware::from_fn_with_state;
use axum::response::{IntoResponse, Json, Redirect, Response};
use axum::routing::{get, post};
use axum::{Extension, Router};
use serde::Deserialize;

use crate::app::{AppError, AppState, tokens};
use crate::store::{NewAudit, NewSession};

pub mod auth;
pub mod data;
pub mod forgery;
mod pages;

use auth::Operator;

/// Rows a list shows at most.
const LIST: usize = 200;

/// Longest search kept in the audit, in characters.
const SEARCH_AUDITED: usize = 64;

/// The console's routes; 404 throughout while no admin token is configured.
pub fn routes(state: AppState) -> Router<AppState> {
    let guarded = Router::new()
        .route("/console", get(overview))
        .route("/console/players", get(players))
        .route("/console/players/{id}", get(player))
        .route("/console/matches/{id}", get(match_view))
        .route("/console/parked", get(parked))
        .route("/console/parked/{id}/{action}", post(act_on_parked))
        .route("/console/audit", get(audit))
        .route("/console/api/summary", get(api_summary))
        .route("/console/api/players", get(api_players))
        .route("/console/api/players/{id}", get(api_player))
        .route("/console/api/matches/{id}", get(api_match))
        .route("/console/api/parked", get(api_parked))
        .route("/console/api/parked/{id}/{action}", post(api_act_on_parked))
        .route("/console/api/audit", get(api_audit))
        .route("/console/logout", post(logout))
        .route_layer(from_fn_with_state(state.clone(), auth::require));
    Router::new()
        .route("/console/login", get(login_form).post(login))
        .route("/console/console.css", get(pages::style))
        .route("/console/console.js", get(pages::script))
        .merge(guarded)
        .route_layer(from_fn_with_state(state, forgery::refuse))
}

fn off(state: &AppState) -> bool {
    state.config().admin.token.is_empty()
}

async fn login_form(State(state): State<AppState>) -> Response {
    if off(&state) {
        return StatusCode::NOT_FOUND.into_response();
    }
    pages::login(None)
}

#[derive(Deserialize)]
struct Login {
    name: String,
    token: String,
}

/// Trades the admin token for a session (a row in the store, and its
/// cookie), written with its audit row in one transaction. A wrong token is
/// logged and counted against its address's limit; the right one is never
/// held back by that limit.
async fn login(State(state): State<AppState>, request: Request) -> Response {
    if off(&state) {
        return StatusCode::NOT_FOUND.into_response();
    }
    let address = crate::web::client::peer(&request);
    let Ok(Form(form)) = Form::<Login>::from_request(request, &state).await else {
        return refused_login("Give a name and the admin token.");
    };
    let token = state.config().admin.token.expose();
    if !tokens::is(&form.token, token) {
        let given = !form.token.is_empty();
        if let Some(limited) =
            tokens::refuse_wrong(&state, address, "console login", "/console/login", given)
        {
            return limited;
        }
        return refused_login("That is not the admin token.");
    }
    let name = form.name.trim().to_string();
    if !auth::valid_name(&name) {
        return refused_login("A name is 1 to 32 letters, digits, dots, dashes or underscores.");
    }
    let (cookie, id_hash) = auth::new_session(token);
    let now = state.clock().now();
    let expires = now + chrono::Duration::hours(auth::SESSION_HOURS);
    let from = address.map(|ip| ip.to_string());
    let opened = state
        .store()
        .run(move |tx| {
            tx.console().open_session(
                &NewSession {
                    id_hash: &id_hash,
                    name: &name,
                    expires,
                },
                now,
            )?;
            tx.console().audit(
                &NewAudit {
                    actor: &name,
                    action: "login",
                    target: "console",
                    address: from.as_deref(),
                },
                now,
            )
        })
        .await;
    if let Err(e) = opened {
        return AppError::from(e).into_response();
    }
    let mut response = Redirect::to("/console").into_response();
    response
        .headers_mut()
        .insert(header::SET_COOKIE, auth::login_cookie(&cookie));
    response
}

fn refused_login(why: &str) -> Response {
    let mut page = pages::login(Some(why));
    *page.status_mut() = StatusCode::UNAUTHORIZED;
    page
}

/// Ends the session on the server (its row deleted, with an audit row, in
/// one transaction), so the cookie is dead even where a copy of it is kept.
async fn logout(State(state): State<AppState>, Extension(op): Extension<Operator>) -> Response {
    if let Some(id_hash) = op.session.clone() {
        let now = state.clock().now();
        let address = op.address.map(|ip| ip.to_string());
        let closed = state
            .store()
            .run(move |tx| {
                if tx.console().close_session(&id_hash)? {
                    tx.console().audit(
                        &NewAudit {
                            actor: &op.name,
                            action: "logout",
                            target: "console",
                            address: address.as_deref(),
                        },
                        now,
                    )?;
                }
                Ok(())
            })
            .await;
        if let Err(e) = closed {
            return AppError::from(e).into_response();
        }
    }
    let mut response = Redirect::to("/console/login").into_response();
    response
        .headers_mut()
        .insert(header::SET_COOKIE, auth::logout_cookie());
    response
}

/// Writes one audit row in a transaction of its own.
async fn record(
    state: &AppState,
    operator: &Operator,
    action: &'static str,
    target: &str,
) -> Result<(), AppError> {
    let now = state.clock().now();
    let (actor, target) = (operator.name.clone(), target.to_string());
    let address = operator.address.map(|ip| ip.to_string());
    state
        .store()
        .run(move |tx| {
            tx.console().audit(
                &NewAudit {
                    actor: &actor,
                    action,
                    target: &target,
                    address: address.as_deref(),
                },
                now,
            )
        })
        .await?;
    Ok(())
}

async fn summary(state: &AppState) -> Result<data::Summary, AppError> {
    let platform = state.platform().clone();
    let now = state.clock().now();
    Ok(state
        .store()
        .read(move |tx| data::summary(&platform, tx, now))
        .await?)
}

async fn overview(
    State(state): State<AppState>,
    Extension(op): Extension<Operator>,
) -> Result<Response, AppError> {
    Ok(pages::overview(&op, &summary(&state).await?))
}

async fn api_summary(State(state): State<AppState>) -> Result<Json<data::Summary>, AppError> {
    Ok(Json(summary(&state).await?))
}

#[derive(Deserialize, Default)]
struct Search {
    #[serde(default)]
    q: String,
}

/// Players by the start of a nick, or by a whole number in any spelling
/// that reads as it (`numbers.region`'s national form, spaces, dashes);
/// every search but an empty one is audited, whatever it finds.
async fn find(
    state: &AppState,
    op: &Operator,
    query: &str,
) -> Result<Vec<data::PlayerView>, AppError> {
    let query = query.trim();
    if query.is_empty() {
        return Ok(Vec::new());
    }
    let number = state.config().numbers.canonical(query).ok();
    let nick = query.to_string();
    let found = state
        .store()
        .read(move |tx| data::find_players(tx, &nick, number.as_deref()))
        .await?;
    record(state, op, "search", &audited_search(query)).await?;
    Ok(found)
}

/// A search as the audit keeps it: its first [`SEARCH_AUDITED`] characters,
/// without control or invisible ones, quoted.
fn audited_search(query: &str) -> String {
    let kept: String = query
        .chars()
        .filter(|&c| !crate::phone::is_hidden(c))
        .take(SEARCH_AUDITED)
        .collect();
    format!("{kept:?}")
}

async fn players(
    State(state): State<AppState>,
    Extension(op): Extension<Operator>,
    Query(search): Query<Search>,
) -> Result<Response, AppError> {
    let found = find(&state, &op, &search.q).await?;
    Ok(pages::players(&op, &search.q, &found))
}

async fn api_players(
    State(state): State<AppState>,
    Extension(op): Extension<Operator>,
    Query(search): Query<Search>,
) -> Result<Json<Vec<data::PlayerView>>, AppError> {
    Ok(Json(find(&state, &op, &search.q).await?))
}

#[derive(Deserialize, Default)]
struct Numbers {
    numbers: Option<String>,
}

/// One player and his texts: looking at a phone's texts is an action, and
/// is audited (and so is asking for the whole number).
async fn detail(
    state: &AppState,
    op: &Operator,
    id: i64,
    whole: bool,
) -> Result<Option<data::PlayerDetail>, AppError> {
    let found = state
        .store()
        .read(move |tx| data::player_detail(tx, id, whole))
        .await?;
    if found.is_some() {
        let action = if whole {
            "show numbers"
        } else {
            "look at texts"
        };
        record(state, op, action, &format!("player #{id}")).await?;
    }
    Ok(found)
}

async fn player(
    State(state): State<AppState>,
    Extension(op): Extension<Operator>,
    Path(id): Path<i64>,
    Query(numbers): Query<Numbers>,
) -> Result<Response, AppError> {
    let whole = numbers.numbers.as_deref() == Some("full");
    Ok(match detail(&state, &op, id, whole).await? {
        Some(d) => pages::player(&op, &d, whole),
        None => not_found("no such player"),
    })
}

async fn api_player(
    State(state): State<AppState>,
    Extension(op): Extension<Operator>,
    Path(id): Path<i64>,
    Query(numbers): Query<Numbers>,
) -> Result<Response, AppError> {
    let whole = numbers.numbers.as_deref() == Some("full");
    Ok(match detail(&state, &op, id, whole).await? {
        Some(d) => Json(d).into_response(),
        None => not_found("no such player"),
    })
}

fn not_found(what: &'static str) -> Response {
    (
        StatusCode::NOT_FOUND,
        Json(serde_json::json!({ "error": what })),
    )
        .into_response()
}

#[derive(Deserialize, Default)]
struct Step {
    step: Option<usize>,
    seat: Option<usize>,
}

/// A match, its record and one step of its replay, as JSON.
#[derive(serde::Serialize)]
struct MatchJson {
    id: i64,
    game: String,
    finished: bool,
    void_reason: Option<String>,
    seats: Vec<data::SeatView>,
    record: String,
    replay: data::ReplayStep,
}

async fn load_match(state: &AppState, id: i64, step: Step) -> Result<Option<MatchJson>, AppError> {
    let rows = state
        .store()
        .read(move |tx| data::match_rows(tx, id))
        .await?;
    let Some(rows) = rows else {
        return Ok(None);
    };
    let platform = state.platform().clone();
    // Game code runs off the reader, on a blocking thread.
    let view = tokio::task::spawn_blocking(move || {
        let replay = data::replay_step(
            &platform,
            &rows,
            step.step.unwrap_or(rows.moves.len()),
            step.seat.unwrap_or(0),
        );
        let record = platform
            .catalog()
            .get(&rows.record.game)
            .map(|game| {
                crate::platform::record::history_text(
                    game,
                    &rows.record.initial_state,
                    &rows.moves,
                    &crate::platform::record::seat_names(&rows.seats),
                )
            })
            .unwrap_or_default();
        MatchJson {
            id: rows.record.id,
            game: rows.record.game.clone(),
            finished: rows.record.finished,
            void_reason: rows.record.void_reason.clone(),
            seats: data::seat_views(&rows.seats),
            record,
            replay,
        }
    })
    .await
    .map_err(|_| crate::store::StoreError::Panicked)?;
    Ok(Some(view))
}

async fn match_view(
    State(state): State<AppState>,
    Extension(op): Extension<Operator>,
    Path(id): Path<i64>,
    Query(step): Query<Step>,
) -> Result<Response, AppError> {
    let Some(m) = load_match(&state, id, step).await? else {
        return Ok(not_found("no such match"));
    };
    let status = match (&m.void_reason, m.finished) {
        (Some(why), _) => format!("void: {why}"),
        (None, true) => "finished".into(),
        (None, false) => "running".into(),
    };
    Ok(pages::match_view(
        &op,
        &pages::MatchPage {
            id: m.id,
            game: &m.game,
            status,
            seats: &m.seats,
            record: &m.record,
            replay: &m.replay,
        },
    ))
}

async fn api_match(
    State(state): State<AppState>,
    Path(id): Path<i64>,
    Query(step): Query<Step>,
) -> Result<Response, AppError> {
    Ok(match load_match(&state, id, step).await? {
        Some(m) => Json(m).into_response(),
        None => not_found("no such match"),
    })
}

async fn parked_list(state: &AppState) -> Result<Vec<data::ParkedView>, AppError> {
    Ok(state.store().read(|tx| data::parked(tx, LIST)).await?)
}

#[derive(Deserialize, Default)]
struct Done {
    done: Option<String>,
}

async fn parked(
    State(state): State<AppState>,
    Extension(op): Extension<Operator>,
    Query(done): Query<Done>,
) -> Result<Response, AppError> {
    let note = match done.done.as_deref() {
        Some("retry") => Some("The text is queued again."),
        Some("drop") => Some("The text is dropped."),
        Some("gone") => Some("That text is no longer parked."),
        _ => None,
    };
    Ok(pages::parked(&op, &parked_list(&state).await?, note))
}

async fn api_parked(
    State(state): State<AppState>,
) -> Result<Json<Vec<data::ParkedView>>, AppError> {
    Ok(Json(parked_list(&state).await?))
}

/// Retries or drops a parked text, and writes the audit row, in one
/// transaction; whether the text was parked.
async fn act(state: &AppState, op: &Operator, id: i64, action: &str) -> Result<bool, AppError> {
    let action: &'static str = match action {
        "retry" => "retry",
        "drop" => "drop",
        _ => return Err(AppError::NotFound),
    };
    let now = state.clock().now();
    let actor = op.name.clone();
    let address = op.address.map(|ip| ip.to_string());
    let done = state
        .store()
        .run(move |tx| {
            let done = match action {
                "retry" => tx.console().requeue_parked(id, now)?.is_some(),
                _ => tx.console().drop_parked(id, now)?,
            };
            if done {
                tx.console().audit(
                    &NewAudit {
                        actor: &actor,
                        action,
                        target: &format!("text #{id}"),
                        address: address.as_deref(),
                    },
                    now,
                )?;
            }
            Ok(done)
        })
        .await?;
    Ok(done)
}

async fn act_on_parked(
    State(state): State<AppState>,
    Extension(op): Extension<Operator>,
    Path((id, action)): Path<(i64, String)>,
) -> Result<Response, AppError> {
    let done = act(&state, &op, id, &action).await?;
    let note = if done { action.as_str() } else { "gone" };
    Ok(Redirect::to(&format!("/console/parked?done={note}")).into_response())
}

async fn api_act_on_parked(
    State(state): State<AppState>,
    Extension(op): Extension<Operator>,
    Path((id, action)): Path<(i64, String)>,
) -> Result<Response, AppError> {
    Ok(if act(&state, &op, id, &action).await? {
        Json(serde_json::json!({ "id": id, "done": action })).into_response()
    } else {
        (
            StatusCode::CONFLICT,
            Json(serde_json::json!({ "error": "that text is not parked" })),
        )
            .into_response()
    })
}

async fn audit_list(state: &AppState) -> Result<Vec<crate::store::AuditEntry>, AppError> {
    Ok(state.store().read(|tx| data::audit(tx, LIST)).await?)
}

async fn audit(
    State(state): State<AppState>,
    Extension(op): Extension<Operator>,
) -> Result<Response, AppError> {
    Ok(pages::audit(&op, &audit_list(&state).await?))
}

async fn api_audit(
    State(state): State<AppState>,
) -> Result<Json<Vec<crate::store::AuditEntry>>, AppError> {
    Ok(Json(audit_list(&state).await?))
}
