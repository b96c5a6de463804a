//! The capturing provider: the gateway's `generic` sender posts every text
//! here (`{"id","from","to","text"}`), and the phone it is for answers it.

use std::net::SocketAddr;
use std::sync::Arc;

use anyhow::Context;
use axum::Router;
use axum::body::Bytes;
use axum::extract::State;
use axum::http::StatusCode;
use axum::routing::post;
use serde::Deserialize;

use super::deep::DeepPhones;
use super::driver::Driver;

/// Whom the captured texts are for: the measured phones, and the deep
/// robots' phones (on numbers of their own).
#[derive(Clone)]
pub struct Phones {
    pub driver: Arc<Driver>,
    pub deep: Option<Arc<DeepPhones>>,
}

#[derive(Deserialize)]
struct Outgoing<'a> {
    #[serde(borrow)]
    id: std::borrow::Cow<'a, str>,
    #[serde(borrow)]
    to: std::borrow::Cow<'a, str>,
    #[serde(borrow)]
    text: std::borrow::Cow<'a, str>,
}

async fn capture(State(phones): State<Phones>, body: Bytes) -> StatusCode {
    match serde_json::from_slice::<Outgoing<'_>>(&body) {
        Ok(t) => {
            match phones.deep.as_ref().and_then(|d| Some((d, d.owns(&t.to)?))) {
                Some((deep, index)) => {
                    phones.driver.on_background_text(&t.id);
                    deep.on_text(index, &t.text);
                }
                None => phones.driver.on_text(&t.id, &t.to, &t.text),
            }
            StatusCode::OK
        }
        Err(_) => StatusCode::BAD_REQUEST,
    }
}

/// Binds `listen` and serves `POST /capture` until the process ends; returns the bound address.
pub async fn start(listen: SocketAddr, phones: Phones) -> anyhow::Result<SocketAddr> {
    let listener = tokio::net::TcpListener::bind(listen)
        .await
        .with_context(|| format!("binding the capture server on {listen}"))?;
    let addr = listener.local_addr()?;
    let app = Router::new()
        .route("/capture", post(capture))
        .with_state(phones);
    tokio::spawn(async move {
        if let Err(e) = axum::serve(listener, app).await {
            eprintln!("bench: capture server stopped: {e}");
        }
    });
    Ok(addr)
}
