//! What moves a connection's phase from outside its task: bytes read off its socket, a handler waiting on its request's body, and its response's end.

use std::io;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};

use axum::body::{Body, Bytes, HttpBody};
use hyper::body::{Frame, Incoming, SizeHint};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::TcpStream;
use tokio::sync::OwnedSemaphorePermit;

use super::registry::Slot;

/// A connection's socket, telling its slot when bytes arrive: the first
/// byte after an idle spell starts the next head's timeout (hyper itself
/// would count it from the end of the last response, making every idle
/// spell as short as the header timeout).
pub struct Watched {
    stream: TcpStream,
    slot: Arc<Slot>,
}

impl Watched {
    pub fn new(stream: TcpStream, slot: Arc<Slot>) -> Watched {
        Watched { stream, slot }
    }
}

impl AsyncRead for Watched {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let before = buf.filled().len();
        let polled = Pin::new(&mut self.stream).poll_read(cx, buf);
        if matches!(polled, Poll::Ready(Ok(()))) && buf.filled().len() > before {
            self.slot.heard();
        }
        polled
    }
}

impl AsyncWrite for Watched {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.stream).poll_write(cx, buf)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.stream).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.stream.is_write_vectored()
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.stream).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.stream).poll_shutdown(cx)
    }
}

/// A request's body that tells its slot whether the handler is waiting on
/// the client for it: while it is, the body's deadline runs and the
/// connection may give way at the cap.
pub struct Arriving {
    body: Incoming,
    slot: Arc<Slot>,
}

impl Arriving {
    pub fn new(body: Incoming, slot: Arc<Slot>) -> Arriving {
        Arriving { body, slot }
    }
}

impl HttpBody for Arriving {
    type Data = Bytes;
    type Error = hyper::Error;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, hyper::Error>>> {
        let polled = Pin::new(&mut self.body).poll_frame(cx);
        if polled.is_pending() {
            self.slot.body_awaited();
        } else {
            self.slot.body_arrived();
        }
        polled
    }

    fn is_end_stream(&self) -> bool {
        self.body.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.body.size_hint()
    }
}

/// A response body that marks its request done when hyper lets go of it:
/// after its last byte was handed to the socket, or when the connection
/// went away first. A long-lived stream holds its place in the streams'
/// share of the cap as long.
pub struct InFlight {
    body: Body,
    slot: Arc<Slot>,
    _stream: Option<OwnedSemaphorePermit>,
}

impl InFlight {
    pub fn new(body: Body, slot: Arc<Slot>, stream: Option<OwnedSemaphorePermit>) -> InFlight {
        InFlight {
            body,
            slot,
            _stream: stream,
        }
    }
}

impl Drop for InFlight {
    fn drop(&mut self) {
        self.slot.request_ended();
    }
}

impl HttpBody for InFlight {
    type Data = Bytes;
    type Error = axum::Error;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, axum::Error>>> {
        Pin::new(&mut self.body).poll_frame(cx)
    }

    fn is_end_stream(&self) -> bool {
        self.body.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.body.size_hint()
    }
}
