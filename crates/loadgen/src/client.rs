//! A plain HTTP/1.1 client on one kept-alive connection, built on hyper directly:
//! the generator shares the machine with the gateway, so it should spend as
//! little CPU per request as it can (no pool bookkeeping, no redirects, no TLS).

use std::net::SocketAddr;

use anyhow::Context;
use axum::body::Bytes;
use http_body_util::{BodyExt, Full};
use hyper::client::conn::http1::SendRequest;
use hyper::header::{CONTENT_TYPE, HOST};
use hyper::{Method, Request, StatusCode};
use hyper_util::rt::TokioIo;
use tokio::net::TcpStream;

/// One connection to the gateway; reconnects after an error.
pub struct Conn {
    addr: SocketAddr,
    host: String,
    sender: Option<SendRequest<Full<Bytes>>>,
}

impl Conn {
    pub fn new(addr: SocketAddr) -> Conn {
        Conn {
            addr,
            host: addr.to_string(),
            sender: None,
        }
    }

    async fn connect(&mut self) -> anyhow::Result<&mut SendRequest<Full<Bytes>>> {
        if self.sender.as_ref().is_none_or(|s| s.is_closed()) {
            let stream = TcpStream::connect(self.addr)
                .await
                .with_context(|| format!("connecting to {}", self.addr))?;
            stream.set_nodelay(true)?;
            let (sender, conn) =
                hyper::client::conn::http1::handshake(TokioIo::new(stream)).await?;
            tokio::spawn(async move {
                let _ = conn.await;
            });
            self.sender = Some(sender);
        }
        Ok(self.sender.as_mut().expect("just connected"))
    }

    /// Sends one request and reads the whole answer. On any error the
    /// connection is dropped, and the next call opens a new one.
    pub async fn request(
        &mut self,
        method: Method,
        path: &str,
        json: Option<Bytes>,
    ) -> anyhow::Result<(StatusCode, Bytes)> {
        let result = self.try_request(method, path, json).await;
        if result.is_err() {
            self.sender = None;
        }
        result
    }

    async fn try_request(
        &mut self,
        method: Method,
        path: &str,
        json: Option<Bytes>,
    ) -> anyhow::Result<(StatusCode, Bytes)> {
        let mut builder = Request::builder()
            .method(method)
            .uri(path)
            .header(HOST, &self.host);
        if json.is_some() {
            builder = builder.header(CONTENT_TYPE, "application/json");
        }
        let request = builder.body(Full::new(json.unwrap_or_default()))?;
        let sender = self.connect().await?;
        sender.ready().await?;
        let response = sender.send_request(request).await?;
        let status = response.status();
        let body = response.into_body().collect().await?.to_bytes();
        Ok((status, body))
    }
}
