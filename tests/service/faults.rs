//! The database on a bad day: locked by another program past the writer's
//! wait, unreachable (PostgreSQL behind a link that is cut), out of disk
//! (SQLite on a small file system that fills up). Each time the webhook
//! answers 503, nothing is half-applied, and the provider's retry of the same
//! text is applied once when the database is back.

use crate::common;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use axum::http::StatusCode;
use common::lock::WriteLock;
use common::{GAME, TestApp, sms_request};
use tokio::task::JoinSet;
use tower::ServiceExt;

/// Posts text `id` from `phone` until it is acknowledged, at most `within`.
async fn retry_until_ok(app: &TestApp, id: &str, phone: &str, within: Duration) {
    let deadline = Instant::now() + within;
    loop {
        let reply = app.post_sms(id, phone, GAME, "HELP").await;
        if reply.status == StatusCode::OK {
            return;
        }
        assert_eq!(
            reply.status,
            StatusCode::SERVICE_UNAVAILABLE,
            "{}",
            reply.body
        );
        assert!(Instant::now() < deadline, "text {id} never went through");
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

/// Every phone of `phones` got exactly one answer, and the inbound table holds one row each.
async fn applied_once(app: &TestApp, phones: &[String], inbound_before: i64) {
    assert_eq!(
        app.count("inbound").await - inbound_before,
        phones.len() as i64,
        "one inbound row per text"
    );
    for phone in phones {
        assert_eq!(app.texts_to(phone).await.len(), 1, "one answer to {phone}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_database_locked_past_the_writers_wait_answers_503_and_the_retry_applies_once() {
    let app = TestApp::with_config(|cfg| cfg.http.request_timeout_ms = 8_000).await;
    let url = app.state.config().database.url.clone();
    let inbound_before = app.count("inbound").await;
    let lock = WriteLock::take(&url);
    let phones: Vec<String> = (0..3).map(|i| format!("+7970{i}")).collect();
    let mut sent = JoinSet::new();
    for (i, phone) in phones.iter().enumerate() {
        let (router, phone) = (app.router.clone(), phone.clone());
        sent.spawn(async move {
            let request = sms_request(&format!("lock{i}"), &phone, GAME, "HELP");
            router.oneshot(request).await.unwrap().status()
        });
    }
    // SQLite gives up after its busy timeout (5 s), PostgreSQL after its lock
    // timeout and the writer's re-runs; the request timeout bounds either.
    while let Some(status) = sent.join_next().await {
        assert_eq!(status.unwrap(), StatusCode::SERVICE_UNAVAILABLE);
    }
    drop(lock);
    for (i, phone) in phones.iter().enumerate() {
        retry_until_ok(&app, &format!("lock{i}"), phone, Duration::from_secs(20)).await;
    }
    applied_once(&app, &phones, inbound_before).await;
}

/// A TCP relay to PostgreSQL that the test can cut: every open connection
/// dropped and new ones refused, as a network partition or a server crash
/// looks to the gateway.
struct Link {
    port: u16,
    up: Arc<AtomicBool>,
    cut: Arc<tokio::sync::Notify>,
}

impl Link {
    async fn to(upstream: &str) -> Link {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let port = listener.local_addr().unwrap().port();
        let up = Arc::new(AtomicBool::new(true));
        let cut = Arc::new(tokio::sync::Notify::new());
        let upstream = upstream.to_string();
        let (is_up, cuts) = (up.clone(), cut.clone());
        tokio::spawn(async move {
            loop {
                let Ok((mut client, _)) = listener.accept().await else {
                    return;
                };
                if !is_up.load(Ordering::SeqCst) {
                    drop(client);
                    continue;
                }
                let (upstream, cuts) = (upstream.clone(), cuts.clone());
                tokio::spawn(async move {
                    let Ok(mut server) = tokio::net::TcpStream::connect(&upstream).await else {
                        return;
                    };
                    tokio::select! {
                        _ = tokio::io::copy_bidirectional(&mut client, &mut server) => {}
                        _ = cuts.notified() => {}
                    }
                });
            }
        });
        Link { port, up, cut }
    }

    fn cut(&self) {
        self.up.store(false, Ordering::SeqCst);
        self.cut.notify_waiters();
    }

    fn restore(&self) {
        self.up.store(true, Ordering::SeqCst);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_out_of_reach_answers_503_and_the_retry_applies_once_when_it_is_back() {
    let Some(admin) = common::postgres_admin_url().await else {
        return;
    };
    let direct = common::fresh_postgres_database(&admin).await;
    let (server, rest) = {
        let after_at = direct.rsplit_once('@').unwrap().1;
        let (host, name) = after_at.split_once('/').unwrap();
        (host.to_string(), name.to_string())
    };
    let link = Link::to(&server).await;
    let via_link = format!(
        "{}@127.0.0.1:{}/{rest}",
        direct.rsplit_once('@').unwrap().0,
        link.port
    );
    let app = TestApp::with_config(|cfg| {
        cfg.database.url = via_link;
        cfg.http.request_timeout_ms = 3_000;
    })
    .await;
    let inbound_before = app.count("inbound").await;
    link.cut();
    let phones: Vec<String> = (0..3).map(|i| format!("+7971{i}")).collect();
    for (i, phone) in phones.iter().enumerate() {
        let reply = app.post_sms(&format!("cut{i}"), phone, GAME, "HELP").await;
        assert_eq!(
            reply.status,
            StatusCode::SERVICE_UNAVAILABLE,
            "{}",
            reply.body
        );
    }
    let health = app
        .request(
            axum::http::Request::get("/healthz")
                .body(axum::body::Body::empty())
                .unwrap(),
        )
        .await;
    assert_eq!(health.status, StatusCode::SERVICE_UNAVAILABLE);
    link.restore();
    for (i, phone) in phones.iter().enumerate() {
        retry_until_ok(&app, &format!("cut{i}"), phone, Duration::from_secs(30)).await;
    }
    applied_once(&app, &phones, inbound_before).await;
}

/// A small tmpfs, unmounted when dropped.
struct SmallDisk {
    dir: tempfile::TempDir,
}

impl SmallDisk {
    fn mount(kib: u32) -> Option<SmallDisk> {
        let dir = tempfile::tempdir().ok()?;
        let status = std::process::Command::new("mount")
            .args(["-t", "tmpfs", "-o", &format!("size={kib}k"), "tmpfs"])
            .arg(dir.path())
            .stderr(std::process::Stdio::null())
            .status()
            .ok()?;
        status.success().then_some(SmallDisk { dir })
    }

    fn path(&self) -> &std::path::Path {
        self.dir.path()
    }

    /// Writes a filler file until the file system is full.
    fn fill(&self) -> std::path::PathBuf {
        use std::io::Write;
        let filler = self.path().join("filler");
        let mut file = std::fs::File::create(&filler).unwrap();
        let chunk = vec![0u8; 4096];
        while file.write_all(&chunk).and_then(|_| file.flush()).is_ok() {}
        filler
    }
}

impl Drop for SmallDisk {
    fn drop(&mut self) {
        let _ = std::process::Command::new("umount")
            .arg("-l")
            .arg(self.dir.path())
            .status();
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_full_disk_answers_503_and_the_service_recovers_when_space_returns() {
    let Some(disk) = SmallDisk::mount(4096) else {
        common::missing_external("cannot mount a small tmpfs here (needs root and mount)");
        return;
    };
    let url = format!("sqlite://{}", disk.path().join("full.db").display());
    let app = TestApp::with_config(|cfg| cfg.database.url = url).await;
    let inbound_before = app.count("inbound").await;
    let filler = disk.fill();
    // The write-ahead log reuses the pages it has, so the first texts may
    // still fit: send until one does not.
    let mut refused = Vec::new();
    let mut accepted = Vec::new();
    for i in 0..2000 {
        let phone = format!("+7972{i:04}");
        let reply = app
            .post_sms(&format!("full{i}"), &phone, GAME, "HELP")
            .await;
        match reply.status {
            StatusCode::OK => accepted.push(phone),
            StatusCode::SERVICE_UNAVAILABLE => refused.push((i, phone)),
            other => panic!("text {i}: {other} {}", reply.body),
        }
        if refused.len() >= 5 {
            break;
        }
    }
    assert!(!refused.is_empty(), "the disk never filled");
    let inbound_full = app.count("inbound").await;
    assert_eq!(
        inbound_full - inbound_before,
        accepted.len() as i64,
        "nothing refused was stored"
    );
    std::fs::remove_file(filler).unwrap();
    for (i, phone) in &refused {
        retry_until_ok(&app, &format!("full{i}"), phone, Duration::from_secs(20)).await;
    }
    let mut phones = accepted;
    phones.extend(refused.into_iter().map(|(_, p)| p));
    applied_once(&app, &phones, inbound_before).await;
}
