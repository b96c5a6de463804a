//! The gateway against a real Kannel 1.4.5: texts both ways between fakesmsc (the phone's SMSC) and our webhooks and sender, and delivery reports back.
//!
//! The gateway runs in-process on a real socket (webhooks, dispatcher, SQLite
//! file); Kannel's three programs run as child processes on free loopback
//! ports, killed when the test ends or panics. Without Kannel installed the
//! test is skipped, unless `CI_REQUIRE_EXTERNAL=1` (set by CI) makes
//! that a failure.

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Write};
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::extract::{Request, State};
use axum::http::StatusCode;
use axum::middleware::{Next, from_fn_with_state};
use axum::response::{IntoResponse, Response};
use chrono::Utc;
use percent_encoding::{NON_ALPHANUMERIC, percent_decode, percent_encode};
use smsarena::clock::{Clock, SystemClock};
use smsarena::config::{Config, KannelConfig, ProviderKind};
use smsarena::platform::compose_text;
use smsarena::providers::Provider;
use smsarena::store::{OutboxText, Store, TextStatus};
use tokio::sync::watch;

const BEARERBOX: &str = "/usr/sbin/bearerbox";
const SMSBOX: &str = "/usr/sbin/smsbox";
const FAKESMSC: &str = "/usr/lib/kannel/test/fakesmsc";

/// The phone fakesmsc plays; the `+` must survive Kannel's `%p` and our sendsms `to`.
const PHONE: &str = "+79161234567";
const GAME: &str = "002220";
/// Not plain ASCII on purpose: a non-ASCII byte percent-encodes to `%C3`,
/// which Kannel would expand as an escape of its own unless it is written `%%C3`.
const SECRET: &str = "kannel-sécret";
const ADMIN_PASSWORD: &str = "adminpw";
const SENDSMS_USER: &str = "smsarena";
const SENDSMS_PASSWORD: &str = "sendpw";

/// Longest wait for any one step; the whole test takes a few seconds when all is well.
const STEP: Duration = Duration::from_secs(15);

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn texts_and_delivery_reports_go_through_a_real_kannel() {
    if !kannel_installed() {
        return;
    }
    let started = Instant::now();
    let (gateway, mut kannel) = start_both(true, |_| {}).await;

    // a. A plain GSM text from the phone reaches our webhook, and the reply
    // reaches the phone. The webhook's first answer is a 503 (what the gateway
    // says when it cannot commit in time): smsbox must call it again.
    kannel
        .send_mo(&format!("{PHONE} {GAME} text R alice"))
        .await;
    let reply = wait_for("the registration reply at fakesmsc", STEP, async || {
        let texts = kannel.texts_to(PHONE);
        texts
            .iter()
            .find(|t| t.body.starts_with("Vy zaregistrirovany kak alice"))
            .cloned()
            .ok_or_else(|| format!("fakesmsc got {texts:?}"))
    })
    .await;
    assert_eq!(reply.from, GAME, "the reply comes from the game number");
    assert_eq!(
        gateway.webhook_calls.load(Ordering::SeqCst),
        2,
        "smsbox called the inbound webhook again after its 503"
    );

    // b. A UCS-2 text from the phone arrives intact: fakesmsc's `ucs2` type is
    // URL-encoded UTF-16BE, Kannel hands it to us as `%b` with charset UTF-16BE.
    let privet: Vec<u8> = "Привет".encode_utf16().flat_map(u16::to_be_bytes).collect();
    kannel
        .send_mo(&format!(
            "{PHONE} {GAME} ucs2 {}",
            percent_encode(&privet, NON_ALPHANUMERIC)
        ))
        .await;
    wait_for("the unknown-command reply at fakesmsc", STEP, async || {
        let texts = kannel.texts_to(PHONE);
        texts
            .iter()
            .find(|t| t.body.starts_with("Neizvestnaya komanda"))
            .cloned()
            .ok_or_else(|| format!("fakesmsc got {texts:?}"))
    })
    .await;
    // Each once: the retried first call was not stored twice.
    let expected = ["R alice", "Привет"]
        .map(|body| ("kannel".to_string(), PHONE.to_string(), body.to_string()));
    assert_eq!(
        inbound_rows(&gateway.db),
        expected,
        "what the gateway stored of the phone's two texts"
    );

    // c. A Cyrillic text from us reaches the phone intact, as UCS-2.
    let cyrillic = "Привет, мир! Ваш ход.";
    gateway.enqueue(cyrillic).await;
    let got = wait_for("the Cyrillic text at fakesmsc", STEP, async || {
        let texts = kannel.texts_to(PHONE);
        texts
            .iter()
            .find(|t| t.body == cyrillic)
            .cloned()
            .ok_or_else(|| format!("fakesmsc got {texts:?}"))
    })
    .await;
    assert_eq!(got.coding, Coding::Ucs2);

    // d. A GSM text of three parts arrives whole, cut by Kannel into as many
    // concatenated parts as we billed for.
    // Numbered, so parts joined in the wrong order would not match; `@`, `£`
    // and `é` are GSM characters that are not ASCII.
    let long: String = (1..=9)
        .map(|i| format!("Move {i}: alice passes to bob @ the £5 line, café shot! "))
        .collect::<String>()
        .chars()
        .take(400)
        .collect();
    assert_eq!(long.chars().count(), 400);
    gateway.enqueue(&long).await;
    let got = wait_for("the 400-character text at fakesmsc", STEP, async || {
        let texts = kannel.texts_to(PHONE);
        texts
            .iter()
            .find(|t| t.body == long)
            .cloned()
            .ok_or_else(|| format!("fakesmsc got {texts:?}"))
    })
    .await;
    let stored = gateway.texts().await;
    let stored = stored.iter().find(|t| t.body == long).unwrap();
    assert_eq!(stored.encoding, "gsm7");
    assert_eq!(stored.parts, 3, "the stored part count");
    assert_eq!(got.parts, 3, "the parts fakesmsc received");

    // e. Kannel's delivery reports (the fake SMSC acknowledges every text it
    // passes on) mark all four texts delivered.
    let texts = wait_for("delivery reports for every text", STEP, async || {
        let texts = gateway.texts().await;
        let done = texts.len() == 4 && texts.iter().all(|t| t.status == TextStatus::Delivered);
        if done {
            Ok(texts)
        } else {
            let seen: Vec<_> = texts
                .iter()
                .map(|t| (t.id, t.status, t.provider_ref.clone(), t.last_error.clone()))
                .collect();
            Err(format!("texts to the phone: {seen:?}"))
        }
    })
    .await;
    for t in &texts {
        assert_eq!(t.provider_ref, Some(format!("k{}", t.id)));
    }

    gateway.stop.send(true).ok();
    drop(kannel);
    eprintln!("Kannel test took {:.1?}", started.elapsed());
}

/// A burst of registrations from many phones at once goes through Kannel
/// whole: every text stored once, every reply at its phone. Its speed is the
/// benchmark's (BENCHMARKS.md), not this test's.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_burst_of_texts_from_many_phones_goes_through_a_real_kannel() {
    if !kannel_installed() {
        return;
    }
    const BURST: usize = 300;
    // The replies ride on the webhook's answers (the other tests send through sendsms).
    let (gateway, mut kannel) = start_both(false, |cfg| cfg.sms.kannel.answer_max_parts = 10).await;
    let phone = |i: usize| format!("+7917{i:07}");
    let lines: Vec<String> = (0..BURST)
        .map(|i| format!("{} {GAME} text R burst{i}", phone(i)))
        .collect();
    kannel.send_all(&lines).await;
    wait_for("every text of the burst stored", STEP * 4, async || {
        let stored = inbound_rows(&gateway.db).len();
        if stored == BURST {
            Ok(())
        } else {
            Err(format!("{stored} of {BURST} stored"))
        }
    })
    .await;
    wait_for(
        "every reply of the burst at its phone",
        STEP * 4,
        async || {
            let missing: Vec<usize> = (0..BURST)
                .filter(|&i| {
                    !kannel.texts_to(&phone(i)).iter().any(|t| {
                        t.body
                            .starts_with(&format!("Vy zaregistrirovany kak burst{i}"))
                    })
                })
                .collect();
            if missing.is_empty() {
                Ok(())
            } else {
                Err(format!(
                    "{} phones still wait, e.g. {:?}",
                    missing.len(),
                    &missing[..missing.len().min(5)]
                ))
            }
        },
    )
    .await;
    let rows = inbound_rows(&gateway.db);
    let distinct: std::collections::HashSet<_> = rows.iter().map(|r| &r.1).collect();
    assert_eq!(distinct.len(), BURST, "each phone's text stored once");
    // Every reply went in an answer, and Kannel's delivery reports (sent to
    // the answer's X-Kannel-DLR-Url) found each.
    wait_for("a delivery report for every answer", STEP * 2, async || {
        let texts = outbox_rows(&gateway.db);
        let done = texts.len() == BURST
            && texts
                .iter()
                .all(|(status, reference)| status == "delivered" && reference.starts_with('a'));
        if done {
            Ok(())
        } else {
            Err(format!("{} texts, e.g. {:?}", texts.len(), texts.first()))
        }
    })
    .await;
}

/// (status, provider_ref) of every outbox text, read from the SQLite file.
fn outbox_rows(db: &Path) -> Vec<(String, String)> {
    sqlite_rows(
        db,
        "SELECT status, COALESCE(provider_ref, '') FROM outbox ORDER BY id",
        |r| Ok((r.get(0)?, r.get(1)?)),
    )
}

/// Four phones play a whole SMS football match through Kannel: registration, the
/// lobby on the play number, boards and moves on the game number, to the end.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_whole_football_match_goes_through_a_real_kannel() {
    if !kannel_installed() {
        return;
    }
    const PLAY: &str = "002227";
    const ROUNDS: u32 = 2;
    let phones = [
        "+79160000001",
        "+79160000002",
        "+79160000003",
        "+79160000004",
    ];
    // Two moves a side keep the test short; the ten-move rule then decides.
    let (gateway, mut kannel) = start_both(false, |cfg| {
        cfg.football.max_rounds = ROUNDS;
        // fakesmsc splits a 7-bit text at its line breaks and then crashes
        // (double free); as UCS-2 it prints the board URL-encoded, whole.
        cfg.sms.kannel.always_ucs2 = true;
    })
    .await;
    kannel.long_texts = Coding::Ucs2;

    // How many texts each phone has that end with a match status line.
    let boards = |kannel: &Kannel, phone: &str| -> Vec<String> {
        kannel
            .texts_to(phone)
            .into_iter()
            .map(|t| t.body)
            .filter(|b| {
                b.ends_with("Vash xod.")
                    || b.ends_with("Xod protivnika.")
                    || b.contains("PA - revansh.")
            })
            .collect()
    };

    for (i, phone) in phones.iter().enumerate() {
        kannel
            .send_mo(&format!("{phone} {GAME} text R player{i}"))
            .await;
    }
    // As a person would, each phone waits for its registration reply before playing:
    // smsbox calls our webhook from several threads, so texts sent at once may overtake.
    wait_for("every registration reply", STEP, async || {
        let registered = phones
            .iter()
            .filter(|p| {
                kannel
                    .texts_to(p)
                    .iter()
                    .any(|t| t.body.starts_with("Vy zaregistrirovany"))
            })
            .count();
        if registered == 4 {
            Ok(())
        } else {
            Err(format!("{registered} of 4 registered"))
        }
    })
    .await;
    for phone in phones {
        kannel.send_mo(&format!("{phone} {PLAY} text P")).await;
    }
    let opening: Vec<String> = wait_for("every phone's opening board", STEP, async || {
        let firsts: Vec<String> = phones
            .iter()
            .filter_map(|p| boards(&kannel, p).first().cloned())
            .collect();
        if firsts.len() == 4 {
            Ok(firsts)
        } else {
            Err(format!("boards so far: {firsts:?}"))
        }
    })
    .await;
    for board in &opening {
        let rows: Vec<&str> = board.lines().take(5).collect();
        assert!(
            rows.iter()
                .all(|r| r.len() == 5 && r.chars().all(|c| ".Y0120".contains(c))),
            "{board}"
        );
    }
    let attack: Vec<&str> = phones
        .iter()
        .zip(&opening)
        .filter(|(_, b)| b.ends_with("Vash xod."))
        .map(|(p, _)| *p)
        .collect();
    let defense: Vec<&str> = phones
        .iter()
        .copied()
        .filter(|p| !attack.contains(p))
        .collect();
    assert_eq!((attack.len(), defense.len()), (2, 2), "{opening:?}");

    // Everyone stands: the ball stays on row 4, so Defense wins on the ten-move rule.
    let mut resolved = 1;
    for _ in 0..ROUNDS {
        for side in [&attack, &defense] {
            for phone in side.iter() {
                kannel.send_mo(&format!("{phone} {GAME} text 5")).await;
            }
            resolved += 1;
            wait_for("every phone's board after the turn", STEP, async || {
                let counts: Vec<usize> = phones.iter().map(|p| boards(&kannel, p).len()).collect();
                if counts.iter().all(|&n| n >= resolved) {
                    Ok(())
                } else {
                    Err(format!("boards per phone: {counts:?}"))
                }
            })
            .await;
        }
    }
    for phone in &defense {
        let last = boards(&kannel, phone).pop().unwrap();
        assert!(
            last.contains("Vi pobedili.\nPA - revansh."),
            "{phone}: {last}"
        );
    }
    for phone in &attack {
        let last = boards(&kannel, phone).pop().unwrap();
        assert!(
            last.contains("Vi proigrali.\nPA - revansh."),
            "{phone}: {last}"
        );
    }
    // The record holds every move: 4 per round.
    let moves = gateway
        .store
        .read(|tx| tx.count_rows("match_moves"))
        .await
        .unwrap();
    assert_eq!(moves, i64::from(ROUNDS) * 4);
    gateway.stop.send(true).ok();
}

/// A word battle against the robot through Kannel: a word typed in Cyrillic
/// on the phone (UCS-2) is played, and the Cyrillic board (UCS-2, several
/// parts) reaches the phone exactly as the gateway stored it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_cyrillic_word_is_played_and_the_cyrillic_board_comes_back_intact() {
    if !kannel_installed() {
        return;
    }
    const PLAY: &str = "002227";
    let (gateway, mut kannel) = start_both(false, |cfg| cfg.robots.budget_ms = 100).await;
    kannel.long_texts = Coding::Ucs2;
    let ucs2 = |text: &str| {
        let bytes: Vec<u8> = text.encode_utf16().flat_map(u16::to_be_bytes).collect();
        percent_encode(&bytes, NON_ALPHANUMERIC).to_string()
    };
    kannel.send_mo(&format!("{PHONE} {GAME} text R vera")).await;
    wait_for("the registration reply", STEP, async || {
        let texts = kannel.texts_to(PHONE);
        texts
            .iter()
            .find(|t| t.body.starts_with("Vy zaregistrirovany"))
            .cloned()
            .ok_or_else(|| format!("fakesmsc got {texts:?}"))
    })
    .await;
    kannel
        .send_mo(&format!("{PHONE} {PLAY} text P WB BOT 1"))
        .await;
    let boards = |kannel: &Kannel| -> Vec<Received> {
        kannel
            .texts_to(PHONE)
            .into_iter()
            .filter(|t| t.body.contains("10\n") || t.body.contains("10\r"))
            .collect()
    };
    let opening = wait_for("the opening board", STEP, async || {
        boards(&kannel)
            .first()
            .cloned()
            .ok_or_else(|| format!("fakesmsc got {:?}", kannel.texts_to(PHONE)))
    })
    .await;
    assert_eq!(opening.coding, Coding::Ucs2);
    assert!(
        opening.body.contains('Б'),
        "the hint letter: {}",
        opening.body
    );
    // Typed on the phone in Cyrillic, lower case.
    kannel
        .send_mo(&format!("{PHONE} {GAME} ucs2 {}", ucs2("a1r бамбук")))
        .await;
    let after = wait_for("the board with the word on it", STEP, async || {
        boards(&kannel)
            .into_iter()
            .find(|b| b.body.contains("БАМБУК"))
            .ok_or_else(|| format!("boards so far: {:?}", boards(&kannel)))
    })
    .await;
    // Exactly what the gateway stored and sent, every Cyrillic letter intact.
    let stored = gateway.texts().await;
    let sent = stored
        .iter()
        .find(|t| t.body.contains("БАМБУК"))
        .expect("the board in the outbox");
    assert_eq!(after.body, sent.body);
    assert_eq!(sent.encoding, "ucs2");
    assert!(sent.parts > 1, "a multi-part board: {} parts", sent.parts);
    assert_eq!(after.parts, sent.parts as usize, "as many parts as billed");
    gateway.stop.send(true).ok();
}

/// Kannel and the gateway on free loopback ports, each pointed at the other.
/// The gateway's port is held from the start, so Kannel's get-url can name it.
async fn start_both(
    refuse_first_call: bool,
    adjust: impl FnOnce(&mut Config),
) -> (Gateway, Kannel) {
    let dir = tempfile::tempdir().expect("temp dir");
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind the gateway");
    let gateway_port = listener.local_addr().unwrap().port();
    let [admin, smsbox, fake, sendsms] = free_ports();
    let ports = Ports {
        admin,
        smsbox,
        fake,
        sendsms,
        gateway: gateway_port,
    };
    let gateway = start_gateway(dir.path(), listener, ports, refuse_first_call, adjust).await;
    let kannel = Kannel::start(dir, ports, gateway.answer_parts).await;
    (gateway, kannel)
}

/// Whether Kannel's programs are here; when not, skips (or fails, if CI requires Kannel).
fn kannel_installed() -> bool {
    let missing: Vec<&str> = [BEARERBOX, SMSBOX, FAKESMSC]
        .into_iter()
        .filter(|p| !Path::new(p).exists())
        .collect();
    if missing.is_empty() {
        return true;
    }
    let reason = format!(
        "Kannel is not installed (missing {}; Debian packages kannel and kannel-extras)",
        missing.join(", ")
    );
    if std::env::var("CI_REQUIRE_EXTERNAL").as_deref() == Ok("1") {
        panic!("{reason}, and CI_REQUIRE_EXTERNAL=1 requires it");
    }
    eprintln!("skipping the Kannel test: {reason}");
    false
}

#[derive(Clone, Copy, Debug)]
struct Ports {
    admin: u16,
    smsbox: u16,
    fake: u16,
    sendsms: u16,
    gateway: u16,
}

/// Distinct free loopback ports for Kannel to bind, below the kernel's
/// ephemeral range (32768 and up on Linux): a port the kernel handed out and
/// took back was seen taken, before bearerbox bound it, by one of the
/// connections another test's Kannel opens by the hundred. Each port is
/// handed out once per process (the tests run at once) and checked free.
fn free_ports<const N: usize>() -> [u16; N] {
    const LOW: u16 = 20_000;
    const SPAN: u16 = 12_000;
    static NEXT: AtomicUsize = AtomicUsize::new(0);
    // Another test process (a second run beside this one) starts elsewhere.
    let base = usize::from(LOW) + (std::process::id() as usize * 97) % usize::from(SPAN);
    let mut ports = Vec::with_capacity(N);
    while ports.len() < N {
        let n = NEXT.fetch_add(1, Ordering::SeqCst);
        assert!(
            n < usize::from(SPAN),
            "no free port left below the ephemeral range"
        );
        let port = (usize::from(LOW) + (base - usize::from(LOW) + n) % usize::from(SPAN)) as u16;
        if TcpListener::bind(("127.0.0.1", port)).is_ok() {
            ports.push(port);
        }
    }
    std::array::from_fn(|i| ports[i])
}

/// Polls `probe` until it answers `Ok`, or panics after `limit` with its last `Err` (what it saw).
async fn wait_for<T>(
    what: &str,
    limit: Duration,
    mut probe: impl AsyncFnMut() -> Result<T, String>,
) -> T {
    let deadline = Instant::now() + limit;
    loop {
        let seen = match probe().await {
            Ok(v) => return v,
            Err(seen) => seen,
        };
        if Instant::now() >= deadline {
            panic!("timed out after {limit:?} waiting for {what}; last seen: {seen}");
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// Percent-encodes for a Kannel URL pattern (`get-url`, `dlr-url`), where
/// Kannel expands `%` escapes and only `%%` is a literal `%`.
fn kannel_literal(s: &str) -> String {
    percent_encode(s.as_bytes(), NON_ALPHANUMERIC)
        .to_string()
        .replace('%', "%%")
}

/// Kannel's URL decoding (what fakesmsc uses both ways): `+` is a space, then `%XX`.
fn url_decode(s: &str) -> Vec<u8> {
    percent_decode(s.replace('+', " ").as_bytes()).collect()
}

// ---------------------------------------------------------------------------
// The gateway, in-process.

struct Gateway {
    store: Store,
    db: PathBuf,
    stop: watch::Sender<bool>,
    /// Calls of `/webhooks/kannel` so far, the refused first one included.
    webhook_calls: Arc<AtomicUsize>,
    /// `sms.kannel.answer_max_parts`: Kannel's sms-service must match it.
    answer_parts: u32,
}

async fn start_gateway(
    dir: &Path,
    listener: tokio::net::TcpListener,
    ports: Ports,
    refuse_first_call: bool,
    adjust: impl FnOnce(&mut Config),
) -> Gateway {
    let db = dir.join("gateway.db");
    let mut cfg = Config::default();
    cfg.database.url = format!("sqlite://{}", db.display());
    cfg.http.listen = listener.local_addr().unwrap();
    cfg.http.public_url = format!("http://127.0.0.1:{}", ports.gateway);
    cfg.webhooks.secret = SECRET.into();
    // The test's phones text faster than thumbs do; flood limits have their own tests.
    cfg.limits.phone_per_minute = 0;
    cfg.sms.provider = ProviderKind::Kannel;
    cfg.sms.kannel = KannelConfig {
        sendsms_url: format!("http://127.0.0.1:{}/cgi-bin/sendsms", ports.sendsms),
        username: SENDSMS_USER.into(),
        password: SENDSMS_PASSWORD.into(),
        dlr_mask: 31,
        always_ucs2: false,
        answer_max_parts: 0,
    };
    // Should smsbox still be starting, retry soon rather than after the production backoff.
    cfg.sms.retry_base_ms = 200;
    cfg.sms.retry_max_ms = 1000;
    adjust(&mut cfg);
    let answer_parts = cfg.sms.kannel.answer_max_parts;
    let cfg = Arc::new(cfg);
    let clock: Arc<dyn Clock> = Arc::new(SystemClock);
    let provider = Provider::from_config(&cfg).expect("the kannel provider");
    let catalog = smsarena::platform::catalog::Catalog::new(&cfg);
    let gateway = smsarena::gateway::Gateway::open(cfg, clock, provider, catalog)
        .await
        .expect("open the gateway");
    let store = gateway.state.store().clone();
    let (stop, _) = watch::channel(false);
    let router = gateway.router();
    let (_state, _running) = gateway.spawn(&stop);
    // Counting from 1 skips the refusal: no 503 to start with.
    let webhook_calls = Arc::new(AtomicUsize::new(usize::from(!refuse_first_call)));
    let router = router.layer(from_fn_with_state(webhook_calls.clone(), refuse_first_mo));
    tokio::spawn(async move { axum::serve(listener, router).await });
    Gateway {
        store,
        db,
        stop,
        webhook_calls,
        answer_parts,
    }
}

/// Counts the inbound webhook's calls and answers the first one 503, as the
/// gateway does when its database does not commit within the request timeout.
async fn refuse_first_mo(
    State(calls): State<Arc<AtomicUsize>>,
    request: Request,
    next: Next,
) -> Response {
    if request.uri().path() == "/webhooks/kannel" && calls.fetch_add(1, Ordering::SeqCst) == 0 {
        return StatusCode::SERVICE_UNAVAILABLE.into_response();
    }
    next.run(request).await
}

impl Gateway {
    /// Queues a text to the phone, as the platform would.
    async fn enqueue(&self, body: &str) {
        let text = compose_text(GAME, PHONE, body.to_string(), true);
        self.store
            .run(move |tx| tx.outbox().enqueue(text.clone(), Utc::now()))
            .await
            .expect("enqueue a text")
    }

    async fn texts(&self) -> Vec<OutboxText> {
        self.store
            .read(|tx| tx.texts_to(PHONE))
            .await
            .expect("read the outbox")
    }
}

/// (provider, from, body) of every inbound text, read from the SQLite file: the store has no reader for them.
fn inbound_rows(db: &Path) -> Vec<(String, String, String)> {
    sqlite_rows(
        db,
        "SELECT provider, from_phone, body FROM inbound ORDER BY id",
        |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
    )
}

/// Every row of `sql`, read beside the running gateway from its SQLite file.
fn sqlite_rows<T>(
    db: &Path,
    sql: &str,
    row: impl FnMut(&rusqlite::Row<'_>) -> rusqlite::Result<T>,
) -> Vec<T> {
    let conn =
        rusqlite::Connection::open_with_flags(db, rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY)
            .expect("open the database");
    let mut stmt = conn.prepare(sql).unwrap();
    stmt.query_map([], row)
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap()
}

// ---------------------------------------------------------------------------
// Kannel: bearerbox, smsbox and fakesmsc.

/// The running Kannel; dropping it kills the three programs (also when the
/// test panics, and then it keeps the directory and shows what Kannel logged).
struct Kannel {
    dir: Option<tempfile::TempDir>,
    children: Vec<(&'static str, Child)>,
    fakesmsc_in: Option<ChildStdin>,
    /// Every message bearerbox handed to fakesmsc, in order.
    mt: Arc<Mutex<Vec<Mt>>>,
    status_url: String,
    http: reqwest::Client,
    mo_sent: u64,
    /// How the gateway codes long texts: fakesmsc prints parts with a UDH as bare bytes.
    long_texts: Coding,
}

impl Kannel {
    async fn start(dir: tempfile::TempDir, ports: Ports, answer_parts: u32) -> Kannel {
        let conf = dir.path().join("kannel.conf");
        std::fs::write(&conf, kannel_conf(dir.path(), ports, answer_parts))
            .expect("write kannel.conf");
        let mut kannel = Kannel {
            dir: Some(dir),
            children: Vec::new(),
            fakesmsc_in: None,
            mt: Arc::default(),
            status_url: format!(
                "http://127.0.0.1:{}/status.txt?password={ADMIN_PASSWORD}",
                ports.admin
            ),
            http: reqwest::Client::new(),
            mo_sent: 0,
            long_texts: Coding::Text,
        };
        kannel.spawn_box("bearerbox", BEARERBOX, &conf);
        // fakesmsc gives up at once if nobody listens: wait for the fake SMSC's line on the status page.
        let fake_line = format!("FAKE:{}", ports.fake);
        wait_for("bearerbox's status page", STEP, async || {
            let status = kannel.status().await?;
            if status.contains(&fake_line) {
                Ok(())
            } else {
                Err(status)
            }
        })
        .await;
        kannel.spawn_box("smsbox", SMSBOX, &conf);
        kannel.spawn_fakesmsc(ports.fake);
        wait_for("smsbox and fakesmsc to connect", STEP, async || {
            let status = kannel.status().await?;
            let boxes = status.split("Box connections:").nth(1).unwrap_or("");
            if boxes.contains("smsbox:") && status.contains(&format!("{fake_line} (online")) {
                Ok(())
            } else {
                Err(status)
            }
        })
        .await;
        // smsbox opens sendsms once it is connected; any HTTP answer means it listens.
        let sendsms = format!("http://127.0.0.1:{}/", ports.sendsms);
        wait_for("smsbox's sendsms port", STEP, async || {
            kannel
                .http
                .get(&sendsms)
                .send()
                .await
                .map(|_| ())
                .map_err(|e| e.to_string())
        })
        .await;
        kannel
    }

    fn dir(&self) -> &Path {
        self.dir.as_ref().unwrap().path()
    }

    /// Starts bearerbox or smsbox; their console (warnings and worse) goes to `<name>.out`.
    fn spawn_box(&mut self, name: &'static str, program: &str, conf: &Path) {
        let out = std::fs::File::create(self.dir().join(format!("{name}.out"))).unwrap();
        let child = die_with_test(Command::new(program).args(["-v", "2"]))
            .arg(conf)
            .stdin(Stdio::null())
            .stdout(out.try_clone().unwrap())
            .stderr(out)
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {program}: {e}"));
        self.children.push((name, child));
    }

    /// Starts fakesmsc reading MOs from its stdin (no messages on its command
    /// line); it prints what it receives as debug lines on stderr, collected here.
    fn spawn_fakesmsc(&mut self, port: u16) {
        let mut child = die_with_test(Command::new(FAKESMSC).args([
            "-H",
            "127.0.0.1",
            "-r",
            &port.to_string(),
            "-i",
            "0",
        ]))
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start {FAKESMSC}: {e}"));
        self.fakesmsc_in = child.stdin.take();
        let stderr = child.stderr.take().unwrap();
        let mt = self.mt.clone();
        let mut log = std::fs::File::create(self.dir().join("fakesmsc.out")).unwrap();
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stderr);
            let mut line = Vec::new();
            // A text with newlines (a board) spans several lines of fakesmsc's log:
            // gather them until the closing `>`.
            let mut pending = String::new();
            while reader.read_until(b'\n', &mut line).is_ok_and(|n| n > 0) {
                let _ = log.write_all(&line);
                let text = String::from_utf8_lossy(&line);
                if text.contains("Got message ") || !pending.is_empty() {
                    pending.push_str(&text);
                    if pending.trim_end().ends_with('>') {
                        if let Some(m) = Mt::parse(&pending) {
                            mt.lock().unwrap().push(m);
                        }
                        pending.clear();
                    }
                }
                line.clear();
            }
        });
        self.children.push(("fakesmsc", child));
    }

    async fn status(&self) -> Result<String, String> {
        let response = self
            .http
            .get(&self.status_url)
            .send()
            .await
            .map_err(|e| e.to_string())?;
        response.text().await.map_err(|e| e.to_string())
    }

    /// The phone sends one line of fakesmsc's protocol (`from to type data`).
    ///
    /// One line at a time, and only after bearerbox counted the previous one:
    /// fakesmsc reads stdin with `fgets` after `select`, so a second line that
    /// arrived in the same read sits in its buffer until more input comes.
    async fn send_mo(&mut self, line: &str) {
        assert!(
            line.len() < 255,
            "fakesmsc reads 255 bytes at a time; a longer line becomes two texts"
        );
        let stdin = self.fakesmsc_in.as_mut().expect("fakesmsc's stdin");
        writeln!(stdin, "{line}").expect("write to fakesmsc");
        stdin.flush().expect("flush fakesmsc's stdin");
        self.mo_sent += 1;
        let expected = self.mo_sent;
        wait_for(
            &format!("bearerbox to receive {line:?}"),
            STEP,
            async || {
                let status = self.status().await?;
                match received_sms(&status) {
                    Some(n) if n >= expected => Ok(()),
                    _ => Err(status),
                }
            },
        )
        .await;
    }

    /// Hands fakesmsc the lines as fast as it takes them, and waits for
    /// bearerbox to have them all. (fakesmsc reads 255 bytes at a time and
    /// loses a line cut by a read: each line goes in a write of its own.)
    async fn send_all(&mut self, lines: &[String]) {
        for line in lines {
            assert!(line.len() < 255, "fakesmsc reads 255 bytes at a time");
            let stdin = self.fakesmsc_in.as_mut().expect("fakesmsc's stdin");
            writeln!(stdin, "{line}").expect("write to fakesmsc");
            stdin.flush().expect("flush fakesmsc's stdin");
            tokio::time::sleep(Duration::from_millis(2)).await;
        }
        self.mo_sent += lines.len() as u64;
        let expected = self.mo_sent;
        wait_for("bearerbox to receive the burst", STEP * 2, async || {
            let status = self.status().await?;
            match received_sms(&status) {
                Some(n) if n >= expected => Ok(()),
                _ => Err(status),
            }
        })
        .await;
    }

    /// The texts fakesmsc received for `phone`, concatenated parts joined.
    fn texts_to(&self, phone: &str) -> Vec<Received> {
        let mt = self.mt.lock().unwrap();
        let mut texts = Vec::new();
        // Parts by (sender, reference, total), each part's data by its sequence number.
        let mut concatenated: BTreeMap<(String, u16, u8), BTreeMap<u8, Vec<u8>>> = BTreeMap::new();
        for m in mt.iter().filter(|m| m.to == phone) {
            match concat_header(&m.udh) {
                None => texts.push(Received {
                    from: m.from.clone(),
                    body: m.coding.decode(&m.data),
                    coding: m.coding,
                    parts: 1,
                }),
                Some((reference, total, seq)) => {
                    concatenated
                        .entry((m.from.clone(), reference, total))
                        .or_default()
                        .insert(seq, m.data.clone());
                }
            }
        }
        for ((from, _, total), parts) in concatenated {
            if parts.len() != usize::from(total) {
                continue;
            }
            let data: Vec<u8> = parts.values().flatten().copied().collect();
            // fakesmsc prints every part with a UDH as `data`, whatever its
            // coding; GSM texts Kannel holds as UTF-8, UCS-2 ones as UTF-16BE.
            texts.push(Received {
                from,
                body: self.long_texts.decode(&data),
                coding: self.long_texts,
                parts: parts.len(),
            });
        }
        texts
    }
}

impl Drop for Kannel {
    fn drop(&mut self) {
        drop(self.fakesmsc_in.take());
        for (_, child) in self.children.iter_mut().rev() {
            let _ = child.kill();
            let _ = child.wait();
        }
        if std::thread::panicking()
            && let Some(dir) = self.dir.take()
        {
            let dir = dir.keep();
            eprintln!(
                "Kannel's configuration and logs are kept in {}",
                dir.display()
            );
            for log in ["bearerbox.out", "smsbox.out", "bearerbox.log", "smsbox.log"] {
                let text = std::fs::read(dir.join(log)).unwrap_or_default();
                let text = String::from_utf8_lossy(&text);
                for line in text
                    .lines()
                    .filter(|l| {
                        ["WARNING:", "ERROR:", "PANIC:"]
                            .iter()
                            .any(|w| l.contains(w))
                    })
                    .take(20)
                {
                    eprintln!("{log}: {line}");
                }
            }
        }
    }
}

/// Has the kernel kill the child when the test process dies without running
/// `Drop` (killed by a harness timeout or the OOM killer), so no bearerbox
/// outlives it. The signal comes when the spawning thread ends: here the
/// test's own thread, which outlives the `Kannel` guard.
fn die_with_test(cmd: &mut Command) -> &mut Command {
    #[cfg(target_os = "linux")]
    {
        use std::os::unix::process::CommandExt;
        unsafe extern "C" {
            fn prctl(option: i32, ...) -> i32;
        }
        const PR_SET_PDEATHSIG: i32 = 1;
        const SIGKILL: u64 = 9;
        // SAFETY: prctl is async-signal-safe and touches no memory of ours.
        unsafe {
            cmd.pre_exec(|| {
                prctl(PR_SET_PDEATHSIG, SIGKILL);
                Ok(())
            });
        }
    }
    cmd
}

/// "SMS: received N (...)" on bearerbox's status page: MOs taken from the SMSC.
fn received_sms(status: &str) -> Option<u64> {
    let rest = status.split("SMS: received ").nth(1)?;
    rest.split_whitespace().next()?.parse().ok()
}

fn kannel_conf(dir: &Path, p: Ports, answer_parts: u32) -> String {
    let dir = dir.display();
    let answers = if answer_parts == 0 {
        // The gateway queues its own replies: Kannel must send nothing for our empty
        // answer (else the phone gets "Result could not be represented as an SMS message.").
        "max-messages = 0".to_string()
    } else {
        // The reply rides on our answer, with its sender and delivery reports in headers.
        format!(
            "max-messages = {answer_parts}\nconcatenation = true\naccept-x-kannel-headers = true"
        )
    };
    let get_url = format!(
        "http://127.0.0.1:{}/webhooks/kannel?secret={}&from=%p&to=%P&text=%b&id=%I&coding=%c&charset=%C",
        p.gateway,
        kannel_literal(SECRET),
    );
    format!(
        r#"group = core
admin-port = {admin}
admin-interface = 127.0.0.1
admin-password = {ADMIN_PASSWORD}
smsbox-port = {smsbox}
smsbox-interface = 127.0.0.1
log-file = "{dir}/bearerbox.log"
log-level = 0
access-log = "{dir}/access.log"
# Where delivery reports are matched to their texts: in memory is enough here.
dlr-storage = internal

group = smsc
smsc = fake
smsc-id = fake
port = {fake}
our-host = 127.0.0.1
connect-allow-ip = 127.0.0.1

group = smsbox
bearerbox-host = 127.0.0.1
bearerbox-port = {smsbox}
sendsms-port = {sendsms}
sendsms-interface = 127.0.0.1
log-file = "{dir}/smsbox.log"
log-level = 0
# smsbox does not call a failed get-url again unless told to (the default is 0 retries).
http-request-retry = 3
http-queue-delay = 1

group = sendsms-user
username = {SENDSMS_USER}
password = {SENDSMS_PASSWORD}
# The default of 1 cuts a long text to its first 160 characters; without
# concatenation the parts go out as separate texts with no UDH to join them.
max-messages = 10
concatenation = true

group = sms-service
keyword = default
get-url = "{get_url}"
{answers}
catch-all = yes
omit-empty = yes
"#,
        admin = p.admin,
        smsbox = p.smsbox,
        fake = p.fake,
        sendsms = p.sendsms,
    )
}

// ---------------------------------------------------------------------------
// What fakesmsc prints.

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Coding {
    /// `text`: the message as Kannel holds a 7-bit text, UTF-8.
    Text,
    /// `ucs-2`: URL-encoded UTF-16BE.
    Ucs2,
    /// `data`: URL-encoded 8-bit bytes.
    Data,
}

impl Coding {
    fn decode(self, data: &[u8]) -> String {
        match self {
            Coding::Ucs2 => {
                let units: Vec<u16> = data
                    .chunks(2)
                    .map(|c| u16::from_be_bytes([c[0], *c.get(1).unwrap_or(&0)]))
                    .collect();
                String::from_utf16_lossy(&units)
            }
            Coding::Text | Coding::Data => String::from_utf8_lossy(data).into_owned(),
        }
    }
}

/// One SMS bearerbox handed to fakesmsc.
#[derive(Clone, Debug)]
struct Mt {
    from: String,
    to: String,
    udh: Vec<u8>,
    coding: Coding,
    data: Vec<u8>,
}

impl Mt {
    /// Reads fakesmsc's `DEBUG: Got message N: <from to type data>`, where the
    /// type is `text`, `ucs-2`, `data` or `udh <udh> data <data>` (smsc_fake.c).
    fn parse(line: &str) -> Option<Mt> {
        let rest = &line[line.find("Got message ")?..];
        let inner = rest[rest.find(": <")? + 3..]
            .trim_end_matches(['\r', '\n'])
            .strip_suffix('>')?;
        let mut fields = inner.splitn(4, ' ');
        let (from, to, kind) = (fields.next()?, fields.next()?, fields.next()?);
        let data = fields.next().unwrap_or("");
        let (udh, coding, data) = match kind {
            "text" => (Vec::new(), Coding::Text, data.as_bytes().to_vec()),
            "ucs-2" => (Vec::new(), Coding::Ucs2, url_decode(data)),
            "data" => (Vec::new(), Coding::Data, url_decode(data)),
            "udh" => {
                let (udh, data) = data.split_once(" data ")?;
                (url_decode(udh), Coding::Data, url_decode(data))
            }
            _ => return None,
        };
        Some(Mt {
            from: from.to_string(),
            to: to.to_string(),
            udh,
            coding,
            data,
        })
    }
}

/// A text as the phone would show it.
#[derive(Clone, Debug)]
struct Received {
    from: String,
    body: String,
    coding: Coding,
    parts: usize,
}

/// (reference, total, sequence) of a concatenation header (IEI 0, 8-bit
/// reference, or IEI 8, 16-bit), from a UDH that starts with its length byte.
fn concat_header(udh: &[u8]) -> Option<(u16, u8, u8)> {
    let mut i = 1;
    while i + 1 < udh.len() {
        let (iei, len) = (udh[i], usize::from(udh[i + 1]));
        let element = udh.get(i + 2..i + 2 + len)?;
        match (iei, element) {
            (0x00, &[reference, total, seq]) => return Some((reference.into(), total, seq)),
            (0x08, &[hi, lo, total, seq]) => {
                return Some((u16::from_be_bytes([hi, lo]), total, seq));
            }
            _ => i += 2 + len,
        }
    }
    None
}
