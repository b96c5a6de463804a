//! The operator's console at `/console`, behind the admin token: live counts, players and their texts, matches with a replay, parked texts to retry or drop, and the audit of every action; each page also as JSON under `/console/api/`.
//!
//! Pages are built the way the training hall's are (`crate::web`: `maud`,
//! assets compiled in, the same protective headers). Reads go through
//! `Store::read`, off the writer; an action and its audit row are one
//! transaction, so no action goes unrecorded and no record lies.

use axum::extract::{Form, FromRequest, Path, Query, Request, State};
use axum::http::{StatusCode, header};
use axum::middleware::from_fn_with_state;
use axum::response::{IntoResponse, Json, Redirect, Response};
use axum::routing::{get, post};
use axum::{Extension, Router};
use serde::Deserialize;
use subtle::ConstantTimeEq;

use crate::http::{AppError, AppState, flood};
use crate::store::NewAudit;

pub mod auth;
pub mod data;
mod pages;

use auth::Operator;

/// Rows a list shows at most.
const LIST: usize = 200;

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
        .route_layer(from_fn_with_state(state, auth::require));
    Router::new()
        .route("/console/login", get(login_form).post(login))
        .route("/console/console.css", get(pages::style))
        .route("/console/console.js", get(pages::script))
        .merge(guarded)
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

/// Trades the admin token for a session cookie; wrong tokens are limited
/// per address like the admin API's and each is logged.
async fn login(State(state): State<AppState>, request: Request) -> Response {
    if off(&state) {
        return StatusCode::NOT_FOUND.into_response();
    }
    let address = flood::peer(&request);
    if let Some(ip) = address
        && !state.flood().admin(ip)
    {
        return flood::too_many_requests();
    }
    let Ok(Form(form)) = Form::<Login>::from_request(request, &state).await else {
        return refused_login("Give a name and the admin token.");
    };
    let token = state.config().admin.token.expose();
    if !bool::from(form.token.as_bytes().ct_eq(token.as_bytes())) {
        let peer = address.map_or_else(|| "unknown".to_string(), |ip| ip.to_string());
        tracing::warn!(%peer, "console login refused: wrong token");
        return refused_login("That is not the admin token.");
    }
    let name = form.name.trim();
    if !auth::valid_name(name) {
        return refused_login("A name is 1 to 32 letters, digits, dots, dashes or underscores.");
    }
    let operator = Operator {
        name: name.to_string(),
        address,
    };
    if let Err(e) = record(&state, &operator, "login", "console").await {
        return e.into_response();
    }
    let mut response = Redirect::to("/console").into_response();
    response.headers_mut().insert(
        header::SET_COOKIE,
        auth::login_cookie(token, name, state.clock().now()),
    );
    response
}

fn refused_login(why: &str) -> Response {
    let mut page = pages::login(Some(why));
    *page.status_mut() = StatusCode::UNAUTHORIZED;
    page
}

async fn logout() -> Response {
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

async fn find(state: &AppState, query: String) -> Result<Vec<data::PlayerView>, AppError> {
    Ok(state
        .store()
        .read(move |tx| data::find_players(tx, &query))
        .await?)
}

async fn players(
    State(state): State<AppState>,
    Extension(op): Extension<Operator>,
    Query(search): Query<Search>,
) -> Result<Response, AppError> {
    let found = find(&state, search.q.clone()).await?;
    Ok(pages::players(&op, &search.q, &found))
}

async fn api_players(
    State(state): State<AppState>,
    Query(search): Query<Search>,
) -> Result<Json<Vec<data::PlayerView>>, AppError> {
    Ok(Json(find(&state, search.q).await?))
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
                    rows.seats.len(),
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
