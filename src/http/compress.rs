//! Which responses are compressed (gzip or br, as the client asks): pages, styles, scripts, JSON and SVG, never an event stream.
//!
//! An event stream is held back by a compressor until it has enough to
//! write, so a reply would wait in the server instead of reaching the page:
//! it, and whatever else is not text we wrote, goes as it is.

use axum::http::{Extensions, HeaderMap, StatusCode, Version, header};
use tower_http::compression::CompressionLayer;
use tower_http::compression::predicate::{Predicate, SizeAbove};

/// Bodies shorter than this cost more to compress than they save.
const SMALLEST: u16 = 256;

/// The types worth compressing, as `Content-Type` starts.
const COMPRESSED: &[&str] = &[
    "text/html",
    "text/css",
    "text/javascript",
    "application/javascript",
    "application/json",
    "image/svg+xml",
];

/// The layer every response passes through.
pub fn layer() -> CompressionLayer<impl Predicate> {
    CompressionLayer::new()
        .gzip(true)
        .br(true)
        .compress_when(SizeAbove::new(SMALLEST).and(of_compressed_type))
}

fn of_compressed_type(_: StatusCode, _: Version, headers: &HeaderMap, _: &Extensions) -> bool {
    headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(compressed)
}

/// Whether a response of `content_type` is compressed.
pub fn compressed(content_type: &str) -> bool {
    let essence = content_type
        .split(';')
        .next()
        .unwrap_or_default()
        .trim()
        .to_ascii_lowercase();
    COMPRESSED.contains(&essence.as_str())
}

#[cfg(test)]
mod tests {
    use super::compressed;

    #[test]
    fn text_we_write_is_compressed_and_an_event_stream_never() {
        for yes in [
            "text/html; charset=utf-8",
            "text/css; charset=utf-8",
            "text/javascript; charset=utf-8",
            "application/json",
            "image/svg+xml",
        ] {
            assert!(compressed(yes), "{yes}");
        }
        for no in ["text/event-stream", "image/png", "text/plain", ""] {
            assert!(!compressed(no), "{no}");
        }
    }
}
