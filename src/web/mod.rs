//! How the gateway's pages are built (the training hall; the operator's console next): one layout through `maud`, assets compiled into the binary, guides rendered from Markdown, safe headers on every page.
//!
//! No build step and nothing to install: templates are Rust (`maud`
//! checks them when the binary is built), and every asset is
//! `include_str!`'d, so `cargo run --release` serves the pages as they are.

pub mod client;
use axum::http::{HeaderValue, header};
use axum::response::{IntoResponse, Response};
use maud::{DOCTYPE, Markup, PreEscaped, html};

/// The stylesheet every page shares.
pub const PAGE_CSS: &str = include_str!("assets/page.css");

/// A page: the shared head, the site's bar, then `body`. `assets` are the
/// page's own stylesheets and scripts, by URL.
pub fn page(title: &str, styles: &[&str], scripts: &[&str], body: Markup) -> Response {
    let markup = html! {
        (DOCTYPE)
        html lang="en" {
            head {
                meta charset="utf-8";
                meta name="viewport" content="width=device-width, initial-scale=1";
                title { (title) " · smsarena" }
                link rel="icon" href="/favicon.svg" type="image/svg+xml";
                link rel="stylesheet" href="/assets/page.css";
                @for style in styles { link rel="stylesheet" href=(style); }
            }
            body {
                (body)
                @for script in scripts { script src=(script) defer {} }
            }
        }
    };
    let mut response = axum::response::Html(markup.into_string()).into_response();
    protect(&mut response);
    response
}

/// The headers every page carries: its own scripts only (no inline
/// script, no other origin), no framing, no sniffing, no referrer.
pub fn protect(response: &mut Response) {
    let headers = response.headers_mut();
    headers.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(
            "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; \
             connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'",
        ),
    );
    headers.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    headers.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    headers.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("no-referrer"),
    );
}

/// An asset compiled into the binary, with its type. Assets change only
/// with the binary, so a browser may keep them for an hour.
pub fn asset(content_type: &'static str, body: &'static str) -> Response {
    let mut response = (
        [
            (header::CONTENT_TYPE, HeaderValue::from_static(content_type)),
            (
                header::CACHE_CONTROL,
                HeaderValue::from_static("public, max-age=3600"),
            ),
        ],
        body,
    )
        .into_response();
    protect(&mut response);
    response
}

/// `/assets/page.css`.
pub async fn page_css() -> Response {
    asset("text/css; charset=utf-8", PAGE_CSS)
}

/// `/favicon.svg`, and `/favicon.ico` for the browsers and crawlers that
/// ask for it whatever a page links: a handset, drawn.
pub async fn favicon() -> Response {
    asset("image/svg+xml", include_str!("assets/favicon.svg"))
}

/// A player's guide (`docs/games/*.md`) as HTML. The guides are ours, but
/// raw HTML in them is shown as text all the same: a page never runs what a
/// document carries.
pub fn guide(markdown: &str) -> Markup {
    use pulldown_cmark::{Event, Options, Parser};
    let events = Parser::new_ext(markdown, Options::ENABLE_TABLES).map(|event| match event {
        Event::Html(raw) | Event::InlineHtml(raw) => Event::Text(raw),
        other => other,
    });
    let mut out = String::new();
    pulldown_cmark::html::push_html(&mut out, events);
    PreEscaped(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_guide_renders_its_markdown_and_shows_raw_html_as_text() {
        let html = guide("# Title\n\nText `R nick` <script>alert(1)</script>\n\n| a | b |\n|---|---|\n| 1 | 2 |\n").into_string();
        assert!(html.contains("<h1>Title</h1>"), "{html}");
        assert!(html.contains("<code>R nick</code>"), "{html}");
        assert!(html.contains("&lt;script&gt;"), "{html}");
        assert!(!html.contains("<script>"), "{html}");
        assert!(html.contains("<table>"), "{html}");
    }

    #[test]
    fn every_page_carries_its_protections() {
        let response = page("t", &[], &["/x.js"], html! { p { "hi" } });
        let headers = response.headers();
        assert!(
            headers[header::CONTENT_SECURITY_POLICY]
                .to_str()
                .unwrap()
                .contains("script-src 'self'")
        );
        assert_eq!(headers[header::X_FRAME_OPTIONS], "DENY");
    }
}
