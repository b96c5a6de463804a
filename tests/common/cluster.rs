//! Several gateway processes on one PostgreSQL database, with a capturing
//! provider and a driver that sends every webhook to two instances at once:
//! what the multi-instance tests share.

use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::Json;
use axum::extract::State;
use axum::routing::post;
use rand::Rng;
use tokio::sync::mpsc;

/// A text the capturing provider received: (our id, to, text).
pub type Captured = (String, String, String);

#[derive(Clone)]
pub struct Capture {
    pub all: Arc<Mutex<Vec<Captured>>>,
    pub texts: mpsc::UnboundedSender<Captured>,
}

pub async fn capture(
    State(c): State<Capture>,
    Json(body): Json<serde_json::Value>,
) -> &'static str {
    let field = |k: &str| body[k].as_str().unwrap_or_default().to_string();
    let text = (field("id"), field("to"), field("text"));
    c.all.lock().unwrap().push(text.clone());
    let _ = c.texts.send(text);
    "ok"
}

/// One gateway process.
pub struct Instance {
    pub port: u16,
    pub child: Option<Child>,
    pub env: Vec<(String, String)>,
}

impl Instance {
    pub fn start(&mut self) {
        let child = Command::new(env!("CARGO_BIN_EXE_smsarena"))
            .arg("serve")
            .envs(self.env.iter().cloned())
            .stdout(Stdio::null())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("start smsarena");
        self.child = Some(child);
    }

    /// Starts the instance for the first time and waits until it answers.
    /// The port was found free a moment before the child binds it, and a
    /// parallel test's client socket can take it in between: when the child
    /// exits before it answers, it starts again on another port (up to five
    /// times). Restarts after `kill` keep their port.
    pub async fn start_on_a_free_port(&mut self, http: &reqwest::Client) {
        for _ in 0..5 {
            self.start();
            if self.answers_before_it_exits(http).await {
                return;
            }
            eprintln!(
                "the gateway on port {} exited before it answered; again on another port",
                self.port
            );
            self.port = free_port();
            let listen = self
                .env
                .iter_mut()
                .find(|(k, _)| k == "SMSARENA_HTTP__LISTEN")
                .expect("an instance's environment names its address");
            let host = listen.1.rsplit_once(':').map_or("127.0.0.1", |(h, _)| h);
            listen.1 = format!("{host}:{}", self.port);
        }
        panic!("the gateway exited before it answered, five times");
    }

    /// True once `/healthz` answers; false if the child exits first.
    async fn answers_before_it_exits(&mut self, http: &reqwest::Client) -> bool {
        let url = self.url();
        let child = &mut self.child;
        let answered = answers_unless(http, &url, || {
            child
                .as_mut()
                .is_none_or(|c| c.try_wait().ok().flatten().is_some())
        })
        .await;
        if !answered {
            self.child = None;
        }
        answered
    }

    pub fn kill(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill(); // SIGKILL
            let _ = child.wait();
        }
    }

    pub fn url(&self) -> String {
        format!("http://127.0.0.1:{}", self.port)
    }
}

impl Drop for Instance {
    fn drop(&mut self) {
        self.kill();
    }
}

pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

pub async fn wait_healthy(http: &reqwest::Client, url: &str) {
    answers_unless(http, url, || false).await;
}

/// Polls `{url}/healthz` until it answers (true) or `gone()` says the server
/// went away (false); 30 s without either fails the test.
async fn answers_unless(http: &reqwest::Client, url: &str, mut gone: impl FnMut() -> bool) -> bool {
    let deadline = Instant::now() + Duration::from_secs(30);
    while Instant::now() < deadline {
        if gone() {
            return false;
        }
        if let Ok(r) = http.get(format!("{url}/healthz")).send().await
            && r.status().is_success()
        {
            return true;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("{url} never became healthy");
}

/// Sends inbound texts like a provider that retries: every webhook goes to two
/// different live instances at once, and again elsewhere until one of them says 200.
pub struct Driver {
    pub http: reqwest::Client,
    pub urls: Arc<Mutex<Vec<Option<String>>>>,
    pub next_id: AtomicU64,
    pub sent: AtomicUsize,
}

impl Driver {
    pub async fn sms(&self, from: &str, to: &str, text: &str) {
        let id = format!("m{}", self.next_id.fetch_add(1, Ordering::Relaxed));
        let body = serde_json::json!({ "id": id, "from": from, "to": to, "text": text });
        for attempt in 0..200 {
            let targets = self.two_instances();
            let sends = targets.iter().map(|url| {
                self.http
                    .post(format!("{url}/webhooks/generic"))
                    .json(&body)
                    .send()
            });
            let results = futures_util::future::join_all(sends).await;
            self.sent.fetch_add(results.len(), Ordering::Relaxed);
            if results
                .iter()
                .any(|r| r.as_ref().is_ok_and(|r| r.status().is_success()))
            {
                return;
            }
            tokio::time::sleep(Duration::from_millis(20 * (attempt + 1).min(10))).await;
        }
        panic!("no instance accepted {body}");
    }

    fn two_instances(&self) -> Vec<String> {
        let urls = self.urls.lock().unwrap();
        let live: Vec<&String> = urls.iter().flatten().collect();
        let mut rng = rand::thread_rng();
        let first = rng.gen_range(0..live.len());
        let mut picked = vec![live[first].clone()];
        if live.len() > 1 {
            let mut second = rng.gen_range(0..live.len() - 1);
            if second >= first {
                second += 1;
            }
            picked.push(live[second].clone());
        }
        picked
    }
}

/// A cluster: the capturing provider, `count` started instances on `db`, and
/// the driver over them.
pub struct Cluster {
    pub capture: Capture,
    pub texts: mpsc::UnboundedReceiver<Captured>,
    pub instances: Vec<Instance>,
    pub driver: Arc<Driver>,
}

pub async fn launch(db: &str, count: usize, extra_env: &[(&str, &str)]) -> Cluster {
    let (texts_tx, texts) = mpsc::unbounded_channel();
    let capture = Capture {
        all: Default::default(),
        texts: texts_tx,
    };
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let capture_url = format!("http://{}/capture", listener.local_addr().unwrap());
    let router = axum::Router::new()
        .route("/capture", post(self::capture))
        .with_state(capture.clone());
    tokio::spawn(async move { axum::serve(listener, router).await.unwrap() });
    let mut instances: Vec<Instance> = (0..count)
        .map(|_| {
            let port = free_port();
            let mut env: Vec<(String, String)> = [
                ("SMSARENA_HTTP__LISTEN", format!("127.0.0.1:{port}")),
                ("SMSARENA_DATABASE__URL", db.to_string()),
                ("SMSARENA_SMS__PROVIDER", "generic".into()),
                ("SMSARENA_SMS__GENERIC__URL", capture_url.clone()),
                ("SMSARENA_SMS__RETRY_BASE_MS", "50".into()),
                // A test's phones text far faster than thumbs do.
                ("SMSARENA_LIMITS__PHONE_PER_MINUTE", "0".into()),
                (
                    "SMSARENA_LOG__FILTER",
                    std::env::var("CLUSTER_LOG").unwrap_or("error".into()),
                ),
            ]
            .into_iter()
            .map(|(k, v)| (k.to_string(), v))
            .collect();
            env.extend(
                extra_env
                    .iter()
                    .map(|(k, v)| (k.to_string(), v.to_string())),
            );
            Instance {
                port,
                child: None,
                env,
            }
        })
        .collect();
    let http = reqwest::Client::builder()
        .pool_max_idle_per_host(64)
        .build()
        .unwrap();
    for instance in &mut instances {
        instance.start_on_a_free_port(&http).await;
    }
    let driver = Arc::new(Driver {
        http,
        urls: Arc::new(Mutex::new(
            instances.iter().map(|i| Some(i.url())).collect(),
        )),
        next_id: AtomicU64::new(0),
        sent: AtomicUsize::new(0),
    });
    Cluster {
        capture,
        texts,
        instances,
        driver,
    }
}
