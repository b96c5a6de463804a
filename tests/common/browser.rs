//! A real headless Chromium, driven through `chromedriver` with fantoccini, against a gateway served on a loopback port: what the browser tests share.
//!
//! Each browser gets its own `chromedriver` on a free port and its own
//! profile folder, both gone when it is dropped. Screenshots go to
//! `target/tmp/screenshots/` (the test's artefacts, not committed).

use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use fantoccini::{Client, ClientBuilder, Locator};

const CHROMIUM: &str = "/usr/bin/chromium";
const CHROMEDRIVER: &str = "/usr/bin/chromedriver";

/// A phone's screen and a desktop's.
pub const NARROW: (u32, u32) = (390, 844);
pub const WIDE: (u32, u32) = (1280, 900);

pub struct Browser {
    pub client: Client,
    driver: Child,
    _profile: tempfile::TempDir,
}

/// Serves `router` on a free loopback port, with the peer's address known
/// to the handlers (as `serve` does); the base URL.
pub async fn serve(router: axum::Router) -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move {
        axum::serve(
            listener,
            router.into_make_service_with_connect_info::<SocketAddr>(),
        )
        .await
        .unwrap()
    });
    format!("http://{addr}")
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

impl Browser {
    /// A headless Chromium with a window of `size`; none (the test skips,
    /// or fails under `CI_REQUIRE_EXTERNAL=1`) when Chromium or its driver
    /// is not installed.
    pub async fn start(size: (u32, u32)) -> Option<Browser> {
        for program in [CHROMIUM, CHROMEDRIVER] {
            if !std::path::Path::new(program).exists() {
                super::missing_external(&format!(
                    "{program} is not installed (Debian's chromium and chromium-driver)"
                ));
                return None;
            }
        }
        let port = free_port();
        let driver = Command::new(CHROMEDRIVER)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("start chromedriver");
        let profile = tempfile::tempdir().unwrap();
        let mut caps = serde_json::Map::new();
        caps.insert(
            "goog:chromeOptions".into(),
            serde_json::json!({
                "binary": CHROMIUM,
                "args": [
                    "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic",
                    "--no-first-run", "--disable-background-networking",
                    "--disable-component-update", "--disable-sync",
                    "--disable-dev-shm-usage", "--hide-scrollbars",
                    format!("--user-data-dir={}", profile.path().display()),
                    format!("--window-size={},{}", size.0, size.1),
                ],
            }),
        );
        let url = format!("http://127.0.0.1:{port}");
        let mut last = None;
        for _ in 0..100 {
            let connector = hyper_util::client::legacy::connect::HttpConnector::new();
            match ClientBuilder::new(connector)
                .capabilities(caps.clone())
                .connect(&url)
                .await
            {
                Ok(client) => {
                    let browser = Browser {
                        client,
                        driver,
                        _profile: profile,
                    };
                    browser.resize(size).await;
                    return Some(browser);
                }
                Err(e) => last = Some(e),
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        panic!("chromedriver never took a session: {last:?}");
    }

    /// The viewport as `size` (the window's outer size is larger by its frame).
    pub async fn resize(&self, size: (u32, u32)) {
        self.client.set_window_size(size.0, size.1).await.unwrap();
    }

    /// Runs `script` in the page (its `return` value as JSON).
    pub async fn eval(&self, script: &str) -> serde_json::Value {
        self.client.execute(script, Vec::new()).await.unwrap()
    }

    pub async fn goto(&self, url: &str) {
        self.client.goto(url).await.unwrap();
    }

    /// The first element `css` finds, waiting for it a while.
    pub async fn find(&self, css: &str) -> fantoccini::elements::Element {
        self.client
            .wait()
            .at_most(Duration::from_secs(10))
            .for_element(Locator::Css(css))
            .await
            .unwrap_or_else(|e| panic!("no {css} on the page: {e}"))
    }

    /// The page's text once it contains `needle`, or what it holds after
    /// ten seconds: read by a script, not through an element, so a page
    /// that a form's answer is replacing is read again, not found stale.
    pub async fn page_text_with(&self, needle: &str) -> String {
        let script = "return document.body ? document.body.innerText : '';";
        let mut last = String::new();
        for _ in 0..100 {
            if let Ok(serde_json::Value::String(text)) =
                self.client.execute(script, Vec::new()).await
            {
                if text.contains(needle) {
                    return text;
                }
                last = text;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        last
    }

    pub async fn text(&self, css: &str) -> String {
        self.find(css).await.text().await.unwrap()
    }

    /// Clicks the first element `css` finds; found again if the page drew
    /// it anew meanwhile (a thread that a reply just redrew).
    pub async fn click(&self, css: &str) {
        for _ in 0..20 {
            match self.find(css).await.click().await {
                Ok(()) => return,
                Err(e) if e.to_string().contains("stale element") => {
                    tokio::time::sleep(Duration::from_millis(25)).await;
                }
                Err(e) => panic!("cannot click {css}: {e}"),
            }
        }
        panic!("{css} went stale twenty times");
    }

    pub async fn type_in(&self, css: &str, text: &str) {
        self.find(css).await.send_keys(text).await.unwrap();
    }

    /// Saves what the window shows as `<name>.png` under `target/tmp/screenshots/`.
    pub async fn screenshot(&self, name: &str) -> PathBuf {
        let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("screenshots");
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join(format!("{name}.png"));
        let png = self.client.screenshot().await.unwrap();
        std::fs::write(&path, png).unwrap();
        path
    }

    pub async fn close(mut self) {
        let _ = self.client.clone().close().await;
        let _ = self.driver.kill();
        let _ = self.driver.wait();
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        let _ = self.driver.kill();
        let _ = self.driver.wait();
    }
}
