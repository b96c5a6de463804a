//! The HTTP face: `app(state)` builds the whole router, so tests drive it without a socket.

use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::body::Body;
use axum::extract::{DefaultBodyLimit, State};
use axum::http::Request;
use axum::http::StatusCode;
use axum::response::IntoResponse;
use axum::routing::get;
use tower::ServiceBuilder;
use tower_http::body::Limited;
use tower_http::limit::RequestBodyLimitLayer;
use tower_http::timeout::TimeoutLayer;
use tower_http::trace::TraceLayer;

use crate::app::{AppError, AppState};
use crate::providers::hall::Hall;

mod admin;
pub mod compress;
pub mod listener;
pub mod observe;

/// The whole HTTP surface: the training hall's routes too when `hall` is
/// served (its handlers read it as an extension, so the application's state
/// knows nothing of it).
pub fn app(state: AppState, hall: Option<Arc<Hall>>) -> Router {
    let http = &state.config().http;
    let body_limit = http.max_body_bytes;
    let timeout = Duration::from_millis(http.request_timeout_ms);
    let routes = Router::new()
        .route("/healthz", get(healthz))
        .route("/ping", get(|| async { "pong" }))
        .route("/metrics", get(observe::metrics))
        .route("/assets/page.css", get(crate::web::page_css))
        .route("/favicon.ico", get(crate::web::favicon))
        .route("/favicon.svg", get(crate::web::favicon))
        .merge(crate::providers::webhook::routes(&state, state.config()))
        .merge(admin::routes(state.clone()))
        .merge(crate::player_pages::routes(state.config()).unwrap_or_default())
        .merge(crate::console::routes(state.clone()))
        .with_state(state);
    let routes = match hall {
        Some(hall) => routes.layer(axum::Extension(hall)),
        None => routes,
    };
    // Every request's layers, stacked once around the routes. Added with
    // `Router::layer`, each would wrap every route in a boxed route of its
    // own, which each request clones and whose future it boxes, a layer
    // at a time (BENCHMARKS.md, issue 30).
    let stack = ServiceBuilder::new()
        .layer(TraceLayer::new_for_http().make_span_with(request_span))
        .layer(compress::layer())
        .layer(TimeoutLayer::with_status_code(
            StatusCode::SERVICE_UNAVAILABLE,
            timeout,
        ))
        .map_response(IntoResponse::into_response)
        .layer(RequestBodyLimitLayer::new(body_limit))
        .map_request(|request: Request<Limited<Body>>| request.map(Body::new))
        .layer(DefaultBodyLimit::disable())
        .service(routes);
    Router::new().fallback_service(stack)
}

/// A request's span: its method and path. Not its query, which carries
/// Kannel's `secret=` (and a caller's wrong guesses at it), nor its headers.
fn request_span<B>(request: &axum::http::Request<B>) -> tracing::Span {
    tracing::debug_span!(
        "request",
        method = %request.method(),
        path = %request.uri().path(),
        version = ?request.version(),
    )
}

/// 200 when the database answers, 503 when it does not.
async fn healthz(State(state): State<AppState>) -> Result<&'static str, AppError> {
    state.store().ping().await?;
    Ok("ok")
}
