//! The hall's one live connection per browser, in a real headless Chromium: twenty phones across three tabs each send and get their reply, a phone made in one tab survives another tab's save, and a service with a hall page open stops within its drain time.
//!
//! A browser opens six connections per host over HTTP/1.1: a stream per
//! phone hung the page at its sixth phone. Here every tab shares one stream.

#![cfg(unix)]

use crate::common;

use std::io::Read;
use std::net::SocketAddr;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use common::GAME;
use common::browser::{Browser, WIDE};
use common::hall_page::{Hall, hall_with, inbox};

async fn hall() -> Hall {
    hall_with(|_| {}).await
}

/// The phones the current tab shows, by number.
async fn phones(browser: &Browser) -> Vec<String> {
    let tabs = browser
        .eval("return Array.from(document.querySelectorAll('#phone-tabs .tab'), t => t.dataset.number);")
        .await;
    serde_json::from_value(tabs).unwrap()
}

/// Waits until the current tab shows `count` phones or more.
async fn until_phones(browser: &Browser, count: usize) -> Vec<String> {
    let started = Instant::now();
    loop {
        let shown = phones(browser).await;
        if shown.len() >= count {
            return shown;
        }
        assert!(
            started.elapsed() < Duration::from_secs(10),
            "{} phones shown, {count} wanted",
            shown.len()
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

async fn new_phone(browser: &Browser) -> String {
    let before = phones(browser).await;
    browser.click("#new-phone").await;
    let after = until_phones(browser, before.len() + 1).await;
    after
        .into_iter()
        .find(|n| !before.contains(n))
        .expect("a new phone")
}

/// Shows `number` in the current tab, texts `text` to the game number and
/// waits for the reply there.
async fn text_from(browser: &Browser, number: &str, text: &str) -> Vec<String> {
    browser
        .click(&format!("#phone-tabs .tab[data-number='{number}']"))
        .await;
    let seen = inbox(browser).await.len();
    browser
        .find("#compose-to")
        .await
        .select_by_value(GAME)
        .await
        .unwrap();
    browser.type_in("#compose-text", text).await;
    browser.click("#send").await;
    let started = Instant::now();
    loop {
        let texts = inbox(browser).await;
        if texts.len() > seen {
            return texts[seen..].to_vec();
        }
        assert!(
            started.elapsed() < Duration::from_secs(20),
            "{number}: no reply to {text:?}; the page says {:?}",
            browser
                .eval("return document.getElementById('thread').innerText")
                .await
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// Screenshots of what the tab shows at a small phone's width, a phone's
/// and a desktop's, as `<name>-<width>.png`; the window back to [`WIDE`].
async fn screenshots(browser: &Browser, name: &str) {
    for size in [(320, 640), (390, 844), (1440, 900)] {
        browser.resize(size).await;
        let overflow = browser
            .eval("return document.documentElement.scrollWidth > document.documentElement.clientWidth")
            .await;
        assert_eq!(overflow, false, "{name}: wider than {} px", size.0);
        browser.screenshot(&format!("{name}-{}", size.0)).await;
    }
    browser.resize(WIDE).await;
}

/// Opens the hall in a new browser tab and switches to it; its handle.
async fn new_tab(browser: &Browser, url: &str) -> fantoccini::wd::WindowHandle {
    let tab = browser.client.new_window(true).await.unwrap();
    browser
        .client
        .switch_to_window(tab.handle.clone())
        .await
        .unwrap();
    browser.goto(url).await;
    tab.handle
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn twenty_phones_across_three_tabs_each_send_and_get_their_reply() {
    let Some(browser) = Browser::start(WIDE).await else {
        return;
    };
    let hall = hall().await;
    let url = format!("{}/hall", hall.base);
    browser.goto(&url).await;
    let first = browser.client.window().await.unwrap();
    let mut tabs = vec![first];
    tabs.push(new_tab(&browser, &url).await);
    tabs.push(new_tab(&browser, &url).await);

    // Seven phones in each of the first two tabs, six in the third.
    let mut made = Vec::new();
    for (i, tab) in tabs.iter().enumerate() {
        browser.client.switch_to_window(tab.clone()).await.unwrap();
        for _ in 0..(if i < 2 { 7 } else { 6 }) {
            made.push((tab.clone(), new_phone(&browser).await));
        }
    }
    assert_eq!(made.len(), 20);
    for tab in &tabs {
        browser.client.switch_to_window(tab.clone()).await.unwrap();
        let shown = until_phones(&browser, 20).await;
        assert_eq!(shown.len(), 20, "every tab shows every phone");
    }
    for (i, (tab, number)) in made.iter().enumerate() {
        browser.client.switch_to_window(tab.clone()).await.unwrap();
        let reply = text_from(&browser, number, &format!("R twenty{i}")).await;
        assert!(
            reply.iter().any(|t| t.contains(&format!("twenty{i}"))),
            "{number}: its welcome names its nick: {reply:?}"
        );
    }
    // Tabs that wrote the same phones at once lost nothing: in every tab
    // each phone has its nick and no text is left "sending".
    for tab in &tabs {
        browser.client.switch_to_window(tab.clone()).await.unwrap();
        let started = Instant::now();
        loop {
            let labels = browser
                .eval("return Array.from(document.querySelectorAll('#phone-tabs .tab'), t => t.firstChild.textContent);")
                .await;
            let labels: Vec<String> = serde_json::from_value(labels).unwrap();
            let sending = browser
                .eval("return Object.keys(localStorage).filter(k => (localStorage.getItem(k) || '').includes('\"note\":\"sending\"')).length")
                .await;
            if labels.iter().all(|l| l.starts_with("twenty")) && sending == 0 {
                break;
            }
            assert!(
                started.elapsed() < Duration::from_secs(10),
                "a tab's phones lost what another tab wrote: {labels:?}, {sending} phones with a text still sending"
            );
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }
    // Each tab also shows the replies its neighbours' phones got.
    let (_, last) = made.last().unwrap();
    browser
        .client
        .switch_to_window(tabs[0].clone())
        .await
        .unwrap();
    browser
        .click(&format!("#phone-tabs .tab[data-number='{last}']"))
        .await;
    assert!(
        !inbox(&browser).await.is_empty(),
        "the first tab has the third tab's phone's reply"
    );
    screenshots(&browser, "hall-live-twenty-phones").await;
    browser.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_phone_made_in_one_tab_survives_another_tabs_save() {
    let Some(browser) = Browser::start(WIDE).await else {
        return;
    };
    let hall = hall().await;
    let url = format!("{}/hall", hall.base);
    browser.goto(&url).await;
    let one = browser.client.window().await.unwrap();
    let mine = new_phone(&browser).await;
    let two = new_tab(&browser, &url).await;
    let theirs = new_phone(&browser).await;

    // The first tab, which had only its own phone when it loaded, saves.
    browser.client.switch_to_window(one.clone()).await.unwrap();
    text_from(&browser, &mine, "R keeper").await;
    let shown = until_phones(&browser, 2).await;
    assert!(
        shown.contains(&theirs),
        "the other tab's phone appears here"
    );

    for tab in [one, two] {
        browser.client.switch_to_window(tab).await.unwrap();
        browser.client.refresh().await.unwrap();
        let shown = until_phones(&browser, 2).await;
        assert!(
            shown.contains(&mine) && shown.contains(&theirs),
            "after a reload both phones are there: {shown:?}"
        );
    }
    // The phone made in the second tab still has its key: it texts.
    let reply = text_from(&browser, &theirs, "R other").await;
    assert!(!reply.is_empty());
    browser.close().await;
}

/// `smsarena serve` as a child process on a fresh SQLite database; killed
/// when dropped.
struct Served {
    child: Child,
    addr: SocketAddr,
    _dir: tempfile::TempDir,
}

impl Served {
    fn start() -> Served {
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        Served::start_on(port, tempfile::tempdir().unwrap())
    }

    /// The next instance, on the port and database the last one left.
    fn start_on(port: u16, dir: tempfile::TempDir) -> Served {
        let addr: SocketAddr = ([127, 0, 0, 1], port).into();
        let child = Command::new(env!("CARGO_BIN_EXE_smsarena"))
            .args(["serve", "--config", "/dev/null"])
            .env("SMSARENA_HTTP__LISTEN", addr.to_string())
            .env(
                "SMSARENA_HTTP__REQUEST_TIMEOUT_MS",
                DRAIN.as_millis().to_string(),
            )
            .env(
                "SMSARENA_DATABASE__URL",
                format!("sqlite://{}", dir.path().join("stop.db").display()),
            )
            .env("SMSARENA_LOG__FILTER", "warn")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("start smsarena");
        let served = Served {
            child,
            addr,
            _dir: dir,
        };
        let deadline = Instant::now() + Duration::from_secs(60);
        while !served.healthy() {
            assert!(
                Instant::now() < deadline,
                "smsarena never answered /healthz"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
        served
    }

    fn healthy(&self) -> bool {
        use std::io::Write;
        let Ok(mut stream) = std::net::TcpStream::connect(self.addr) else {
            return false;
        };
        let _ = stream.write_all(b"GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
        let mut reply = String::new();
        let _ = stream.read_to_string(&mut reply);
        reply.starts_with("HTTP/1.1 200")
    }
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The longest a request in flight is given (`http.request_timeout_ms`):
/// all a stop may wait.
const DRAIN: Duration = Duration::from_secs(10);

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_service_with_hall_pages_open_stops_within_its_drain_time_and_the_page_says_so() {
    let Some(browser) = Browser::start(WIDE).await else {
        return;
    };
    let mut served = Served::start();
    let port = served.addr.port();
    let url = format!("http://{}/hall", served.addr);
    browser.goto(&url).await;
    let one = browser.client.window().await.unwrap();
    let mine = new_phone(&browser).await;
    text_from(&browser, &mine, "R stopper").await;
    new_tab(&browser, &url).await;
    new_phone(&browser).await;
    browser.client.switch_to_window(one).await.unwrap();

    // SAFETY: a signal to our own child, which has not been reaped yet.
    let sent = unsafe { libc::kill(served.child.id() as libc::pid_t, libc::SIGTERM) };
    assert_eq!(sent, 0);
    let stopping = Instant::now();
    let status = loop {
        if let Some(status) = served.child.try_wait().unwrap() {
            break status;
        }
        assert!(
            stopping.elapsed() < DRAIN,
            "still running {DRAIN:?} after SIGTERM with two hall pages open"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    };
    let took = stopping.elapsed();
    eprintln!("stopped {took:?} after SIGTERM with two hall pages open");
    assert!(status.success(), "{status}");
    assert!(
        took < Duration::from_secs(3),
        "the streams were ended at once, not waited for: {took:?}"
    );

    let started = Instant::now();
    let said = loop {
        let said = browser
            .eval("return document.getElementById('live-status').textContent")
            .await;
        let said = said.as_str().unwrap_or_default().to_string();
        // In the page's language: Russian once it has read that stopper's
        // replies are, English until then.
        let lang = browser.eval("return document.documentElement.lang").await;
        let restarting = if lang == "ru" {
            "перезапускается"
        } else {
            "restarting"
        };
        if said.contains(restarting) {
            break said;
        }
        assert!(
            started.elapsed() < Duration::from_secs(10),
            "the page never said the service went: {said:?}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    eprintln!("the page says: {said}");
    screenshots(&browser, "hall-live-restarting").await;

    // The next instance comes up where the last one was: the page goes on.
    let dir = std::mem::replace(&mut served._dir, tempfile::tempdir().unwrap());
    drop(served);
    let _next = Served::start_on(port, dir);
    let reply = text_from(&browser, &mine, "H").await;
    assert!(!reply.is_empty(), "the page reconnected and got its reply");
    let said = browser
        .eval("return document.getElementById('live-status').textContent")
        .await;
    assert_eq!(said, "", "live again, nothing to say");
    browser.close().await;
}
