//! `smsarena-loadgen`: a load generator that drives a running gateway through
//! its webhooks like a provider would (issue 6). A binary of its own, not part
//! of the library: the gateway carries none of it.
//!
//! It plays the phones of many concurrent SMS football matches: it starts a
//! capture server that the gateway's `generic` sender posts its texts to
//! (run the gateway with `SMSARENA_SMS__PROVIDER=generic
//! SMSARENA_SMS__GENERIC__URL=http://127.0.0.1:<port>/capture`), registers
//! `4 x --matches` phones, queues them with `P`, and every phone answers each
//! board that says `Vash xod.` with a legal move, and a finished match with
//! `P`, through `POST /webhooks/generic`. So the loop is closed and the
//! gateway's whole path is measured: webhook, transaction, group commit,
//! outbox, dispatcher, outbound HTTP. At the end it checks that every
//! expected text arrived exactly once. `measure/run.sh` starts everything.
//!
//! Files: [`phone`] reads boards and picks moves; [`driver`] is the phones'
//! state and bookkeeping; [`sender`] the webhook callers and the `/ping`
//! baseline; [`client`] one HTTP/1.1 connection; [`capture`] the capturing
//! provider; [`deep`] the phones against the level-3 robot beside the others; [`resources`] memory and CPU from `/proc`; [`report`] the table.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{Context, bail};
use hyper::Method;
use tokio::sync::mpsc;

use deep::DeepPhones;

pub mod capture;
pub mod client;
pub mod deep;
pub mod driver;
pub mod hall;
pub mod phone;
pub mod report;
pub mod resources;
pub mod sender;

use driver::{Driver, Kind};
use report::{Memory, Missing, Report, Window};
use resources::{CpuMark, PeakRss};
use sender::{CallStats, Target};

/// The load generator's options.
#[derive(clap::Parser, Debug, Clone)]
#[command(
    name = "smsarena-loadgen",
    version,
    about = "Load generator: drives a running gateway through its webhooks with many \
             SMS football matches and reports throughput, latency and memory (see measure/run.sh)"
)]
pub struct BenchArgs {
    /// The gateway's base URL (plain HTTP); several instances of one gateway
    /// as a comma-separated list, over which the connections are spread.
    #[arg(long, default_value = "http://127.0.0.1:8080", value_delimiter = ',')]
    pub gateway: Vec<String>,
    /// Where the capture server listens; the gateway's sms.generic.url must be `http://<this>/capture`.
    #[arg(long, default_value = "127.0.0.1:9099")]
    pub capture: SocketAddr,
    /// Concurrent HTTP connections to the gateway's webhook.
    #[arg(long, default_value_t = 64)]
    pub connections: usize,
    /// Concurrent matches (four phones each).
    #[arg(long, default_value_t = 256)]
    pub matches: usize,
    /// How long the phones play (after the warm-up), e.g. 20s, 500ms, 2m.
    #[arg(long, default_value = "20s", value_parser = parse_duration)]
    pub duration: Duration,
    /// Stop earlier, after this many inbound messages of the play phase.
    #[arg(long)]
    pub messages: Option<u64>,
    /// Most moves per second (all phones together; `R` and `P` are not held back); unlimited when absent.
    #[arg(long)]
    pub rate: Option<u32>,
    /// First measure the HTTP ceiling: GET /ping over the same connections.
    #[arg(long)]
    pub baseline: bool,
    /// How long the baseline runs.
    #[arg(long, default_value = "5s", value_parser = parse_duration)]
    pub baseline_duration: Duration,
    /// After the stop, how long to wait for the texts still owed.
    #[arg(long, default_value = "60s", value_parser = parse_duration)]
    pub drain: Duration,
    /// The gateway's process id: report its CPU time and resident memory.
    #[arg(long)]
    pub gateway_pid: Option<u32>,
    /// The gateway's database, a SQLite file or a postgres:// URL: check at
    /// the end that every committed text was sent and received.
    #[arg(long)]
    pub db: Option<String>,
    /// Keep the phones' matches in progress this long after the stop before the
    /// final memory reading (for the "many matches in progress" figure).
    #[arg(long, default_value = "0s", value_parser = parse_duration)]
    pub hold: Duration,
    /// Leave the first part of the play phase out of the figures: the start,
    /// when every phone sends `P` at once and every match opens, is a burst.
    #[arg(long, default_value = "0s", value_parser = parse_duration)]
    pub warmup: Duration,
    /// Print moves/s and texts/s every second of the play phase (stderr).
    #[arg(long)]
    pub progress: bool,
    /// Then play as long again with this many phones each playing `P FB BOT`
    /// (alone against three robots) beside the four-player matches, and
    /// compare the four-player moves/s of the two windows.
    #[arg(long, default_value_t = 0)]
    pub robot_matches: usize,
    /// And in that window this many phones playing paper soccer against the
    /// level-3 robot (`P PS BOT 3`), to keep the robots' deep searches busy:
    /// then the phones against robots (`--robot-matches`, level 1) measure how
    /// long a cheap robot keeps a player waiting beside deep ones.
    #[arg(long, default_value_t = 0)]
    pub deep_robot_matches: usize,
    /// How long a phone against robots thinks before each move, as a person
    /// would (0: it answers at once, like the four-player phones).
    #[arg(long, default_value = "0s", value_parser = parse_duration)]
    pub robot_think: Duration,
    /// The gateway's admin token: read the robot pool's queue figures from
    /// `/admin/stats` at the end.
    #[arg(long)]
    pub admin_token: Option<String>,
    /// Instead of the football matches through the webhook: this many
    /// virtual phones of the training hall, each playing football against
    /// robots, timing each typed move to its reply on the page.
    #[arg(long, default_value_t = 0)]
    pub hall_phones: usize,
    #[arg(long, default_value = "002227")]
    pub play_number: String,
    #[arg(long, default_value = "002220")]
    pub game_number: String,
}

/// Exit codes: 0 every check passed, 1 a check failed, 2 the run could not be made.
fn main() -> std::process::ExitCode {
    use clap::Parser;
    use std::process::ExitCode;
    let args = BenchArgs::parse();
    let runtime = match tokio::runtime::Runtime::new() {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("smsarena-loadgen: cannot start the runtime: {e}");
            return ExitCode::from(2);
        }
    };
    match runtime.block_on(run(args)) {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::FAILURE,
        Err(e) => {
            eprintln!("smsarena-loadgen: {e:#}");
            ExitCode::from(2)
        }
    }
}

/// `20s`, `1500ms`, `2m`, or plain seconds.
pub fn parse_duration(text: &str) -> Result<Duration, String> {
    let t = text.trim();
    let (number, unit) = match t.find(|c: char| !c.is_ascii_digit() && c != '.') {
        Some(i) => t.split_at(i),
        None => (t, "s"),
    };
    let n: f64 = number
        .parse()
        .map_err(|_| format!("not a duration: {text:?}"))?;
    let secs = match unit {
        "ms" => n / 1000.0,
        "s" => n,
        "m" => n * 60.0,
        _ => return Err(format!("unknown unit in {text:?} (ms, s or m)")),
    };
    Ok(Duration::from_secs_f64(secs))
}

async fn resolve(url: &str) -> anyhow::Result<SocketAddr> {
    let Some(rest) = url.strip_prefix("http://") else {
        bail!("--gateway must be an http:// URL, not {url:?}");
    };
    let hostport = rest.split('/').next().unwrap_or(rest);
    let hostport = if hostport.contains(':') {
        hostport.to_string()
    } else {
        format!("{hostport}:80")
    };
    tokio::net::lookup_host(&hostport)
        .await?
        .next()
        .with_context(|| format!("cannot resolve {hostport}"))
}

/// Waits until the gateway answers `/ping`.
async fn wait_for_gateway(addr: SocketAddr) -> anyhow::Result<()> {
    let until = Instant::now() + Duration::from_secs(30);
    let mut conn = client::Conn::new(addr);
    loop {
        if let Ok((s, _)) = conn.request(Method::GET, "/ping", None).await
            && s.is_success()
        {
            return Ok(());
        }
        if Instant::now() > until {
            bail!("the gateway at {addr} does not answer /ping");
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// Runs the benchmark and prints the report; `Ok(false)` when a check failed.
pub async fn run(args: BenchArgs) -> anyhow::Result<bool> {
    if args.hall_phones > 0 {
        let base = args
            .gateway
            .first()
            .context("--gateway names no instance")?;
        wait_for_gateway(resolve(base).await?).await?;
        let numbers = (args.play_number.clone(), args.game_number.clone());
        return hall::run(base, args.hall_phones, args.duration, numbers).await;
    }
    anyhow::ensure!(args.matches > 0, "--matches must be at least 1");
    anyhow::ensure!(args.connections > 0, "--connections must be at least 1");
    let mut addrs = Vec::new();
    for url in &args.gateway {
        addrs.push(resolve(url).await?);
    }
    let addr = *addrs.first().context("--gateway names no instance")?;
    let tag: u32 = rand::random::<u32>() % 1000;
    let phones = args.matches * 4;
    let (jobs_tx, jobs_rx) = mpsc::unbounded_channel();
    let mut driver = Driver::new(tag, phones, args.robot_matches, jobs_tx);
    driver.robot_think = args.robot_think;
    let driver = Arc::new(driver);
    let deep = (args.deep_robot_matches > 0).then(|| {
        let numbers = (args.play_number.clone(), args.game_number.clone());
        DeepPhones::start((tag + 500) % 1000, args.deep_robot_matches, addr, numbers)
    });
    let listeners = capture::Phones {
        driver: driver.clone(),
        deep: deep.clone(),
    };
    let capture = capture::start(args.capture, listeners).await?;
    eprintln!("bench: capture server on http://{capture}/capture; gateway {addrs:?}");
    for &instance in &addrs {
        wait_for_gateway(instance).await?;
    }
    let peak = args.gateway_pid.map(PeakRss::watch);

    let baseline = if args.baseline {
        eprintln!(
            "bench: baseline GET /ping, {} connections, {:?}",
            args.connections, args.baseline_duration
        );
        Some(sender::hammer(addr, "/ping", args.connections, args.baseline_duration).await)
    } else {
        None
    };

    let stats = Arc::new(CallStats::new(args.connections));
    let target = Target {
        addrs,
        tag,
        play_number: args.play_number.clone(),
        game_number: args.game_number.clone(),
    };
    sender::start(
        target,
        args.connections,
        args.rate,
        jobs_rx,
        driver.clone(),
        stats.clone(),
    );

    // Registration, not measured.
    eprintln!("bench: registering {} phones", phones + args.robot_matches);
    driver.register_all();
    if let Some(deep) = &deep {
        deep.register();
    }
    let deadline = Instant::now()
        + Duration::from_secs(60)
        + Duration::from_millis((phones + args.robot_matches) as u64);
    while driver.outstanding() > 0 {
        if Instant::now() > deadline {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let registered = driver.registered();
    if registered < phones + args.robot_matches {
        eprintln!("bench: only {registered} phones registered; going on");
    }

    // The measured window: P for everyone, then phones answer their boards.
    eprintln!(
        "bench: playing {} matches for {:?}{}",
        args.matches,
        args.duration,
        args.rate
            .map(|r| format!(" at most {r} moves/s"))
            .unwrap_or_default()
    );
    let start = Instant::now();
    let _ = driver.measure_from.set(start + args.warmup);
    driver.set_running(true);
    driver.play_all();
    if !args.warmup.is_zero() {
        tokio::time::sleep(args.warmup).await;
    }
    // The measured window starts here, after the warm-up if any.
    let window = measure(&args, &driver, &stats, start + args.warmup + args.duration).await;
    let with_robots = if args.robot_matches > 0 {
        eprintln!(
            "bench: and now {} matches against robots beside them, for {:?}",
            args.robot_matches, args.duration
        );
        driver.play_robots();
        if let Some(deep) = &deep {
            eprintln!(
                "bench: with {} phones against the level-3 robot beside them",
                args.deep_robot_matches
            );
            deep.play();
        }
        // Their first boards and robot turns are the start's burst; then measure.
        tokio::time::sleep(Duration::from_secs(2)).await;
        let robot_moves0 = stats.ok(Kind::RobotMove);
        let t0 = Instant::now();
        let both = measure(&args, &driver, &stats, t0 + args.duration).await;
        let robot_moves = stats.ok(Kind::RobotMove) - robot_moves0;
        Some((both, robot_moves))
    } else {
        None
    };
    driver.set_running(false);
    if let Some(deep) = &deep {
        deep.stop();
    }

    // Drain: every request still owes its answer, every resolution its four boards.
    eprintln!("bench: stopped; waiting for the texts still owed");
    let drain_until = Instant::now() + args.drain;
    loop {
        let settled = {
            let shared = driver.lock();
            let c = &shared.counts;
            c.expected_boards() == Some(c.boards)
        } && driver.outstanding() == 0;
        if settled {
            break;
        }
        if Instant::now() > drain_until {
            eprintln!("bench: texts still owed after --drain {:?}", args.drain);
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    // A moment more, so a late duplicate would be seen.
    tokio::time::sleep(Duration::from_millis(300)).await;
    let outbox = match &args.db {
        Some(path) => Some(Outbox::open(path).await),
        None => None,
    };
    let db_check = match &outbox {
        Some(Ok(outbox)) => Some(check_database(outbox, &driver).await),
        Some(Err(e)) => Some(Err(e.clone())),
        None => None,
    };
    // With the database at hand, a gap in the ids is a text lost only if the
    // database holds that id: a rolled-back transaction leaves gaps too.
    let missing = match &outbox {
        Some(Ok(outbox)) => match committed_ids(outbox, &driver).await {
            Ok(ids) => Missing::Committed(driver.missing_of(&ids)),
            Err(e) => {
                eprintln!("bench: {e}; judging by gaps in the ids instead");
                Missing::Gaps(driver.missing_ids())
            }
        },
        _ => Missing::Gaps(driver.missing_ids()),
    };
    if !args.hold.is_zero() {
        eprintln!(
            "bench: holding {:?} with the matches in progress",
            args.hold
        );
        tokio::time::sleep(args.hold).await;
    }
    let memory = args.gateway_pid.and_then(|pid| {
        let (end, hwm) = resources::memory_kib(pid)?;
        Some(Memory {
            peak_sampled: peak.as_ref().map(|p| p.kib()).unwrap_or(0).max(end),
            hwm,
            end,
        })
    });

    let (counts, samples) = {
        let shared = driver.lock();
        (shared.counts.clone(), shared.samples.clone())
    };
    let mut latency_rows = vec![
        ("webhook 200: move".to_string(), stats.latency(Kind::Move)),
        ("webhook 200: P".to_string(), stats.latency(Kind::Play)),
    ];
    if args.robot_matches > 0 {
        latency_rows.push((
            "webhook: vs robots".to_string(),
            stats.latency(Kind::RobotMove),
        ));
        latency_rows.push((
            // From the move to the board after the robots' turn: the wait a
            // player against robots sees.
            "answer: vs robots".to_string(),
            driver.lock().answer_latency[Kind::RobotMove.index()].clone(),
        ));
    }
    {
        let shared = driver.lock();
        latency_rows.push((
            "answer text: move".into(),
            shared.answer_latency[Kind::Move.index()].clone(),
        ));
        latency_rows.push((
            "answer text: P".into(),
            shared.answer_latency[Kind::Play.index()].clone(),
        ));
        latency_rows.push((
            "answer text: R".into(),
            shared.answer_latency[Kind::Register.index()].clone(),
        ));
    }
    let robots = match &args.admin_token {
        Some(token) => robot_stats(addr, token).await,
        None => None,
    };
    let report = Report {
        title: format!(
            "smsarena bench: {} matches ({} phones), {} connections, rate {}, duration {:?} after {:?} warm-up",
            args.matches,
            phones,
            args.connections,
            args.rate
                .map(|r| format!("{r} moves/s"))
                .unwrap_or_else(|| "unlimited".into()),
            args.duration,
            args.warmup
        ),
        baseline,
        window,
        with_robots,
        robots,
        deep: deep.as_ref().map(|d| (args.deep_robot_matches, d.counts())),
        latency_rows,
        call_errors: stats.errors.load(std::sync::atomic::Ordering::Relaxed),
        calls_lost: stats.lost.load(std::sync::atomic::Ordering::Relaxed),
        inbound_duplicates: stats.duplicates.load(std::sync::atomic::Ordering::Relaxed),
        first_error: stats
            .first_error
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .clone(),
        missing,
        outstanding: driver.outstanding(),
        counts,
        memory,
        db_check,
        samples,
    };
    report.print();
    Ok(report.passed())
}

/// Plays until `stop_at` (or `--messages`), printing progress if asked; the
/// figures of that window.
async fn measure(args: &BenchArgs, driver: &Driver, stats: &CallStats, stop_at: Instant) -> Window {
    let ok0 = [stats.ok(Kind::Play), stats.ok(Kind::Move)];
    let texts0 = driver.lock().counts.texts;
    let cpu0 = CpuMark::now(args.gateway_pid);
    let t0 = Instant::now();
    let queued0 = driver
        .requests_queued
        .load(std::sync::atomic::Ordering::Relaxed);
    let mut next_report = t0 + Duration::from_secs(1);
    let mut last = (stats.ok(Kind::Move), texts0, t0);
    loop {
        let now = Instant::now();
        if now >= stop_at {
            break;
        }
        if args.progress && now >= next_report {
            next_report += Duration::from_secs(1);
            let (moves, texts) = (stats.ok(Kind::Move), driver.lock().counts.texts);
            let secs = now.duration_since(last.2).as_secs_f64();
            eprintln!(
                "bench: t={:>5.1}s  moves/s {:>7.0}  texts/s {:>7.0}  awaiting an answer {}",
                now.duration_since(t0).as_secs_f64(),
                (moves - last.0) as f64 / secs,
                (texts - last.1) as f64 / secs,
                driver.outstanding()
            );
            last = (moves, texts, now);
        }
        if let Some(limit) = args.messages {
            let queued = driver
                .requests_queued
                .load(std::sync::atomic::Ordering::Relaxed);
            if queued - queued0 >= limit {
                break;
            }
        }
        tokio::time::sleep((stop_at - now).min(Duration::from_millis(5))).await;
    }
    let elapsed = t0.elapsed();
    let cpu1 = CpuMark::now(args.gateway_pid);
    let ok1 = [stats.ok(Kind::Play), stats.ok(Kind::Move)];
    let texts1 = driver.lock().counts.texts;
    Window {
        elapsed,
        moves: ok1[1] - ok0[1],
        inbound: (ok1[0] - ok0[0]) + (ok1[1] - ok0[1]),
        texts: texts1 - texts0,
        gateway_cpu: cpu1.gateway.zip(cpu0.gateway).map(|(b, a)| b - a),
        generator_cpu: cpu1.generator.zip(cpu0.generator).map(|(b, a)| b - a),
        machine_busy: cpu1.machine.zip(cpu0.machine).map(|(b, a)| b.0 - a.0),
        machine_total: cpu1.machine.zip(cpu0.machine).map(|(b, a)| b.1 - a.1),
    }
}

/// The robot pool's figures, from the admin API.
async fn robot_stats(addr: SocketAddr, token: &str) -> Option<serde_json::Value> {
    let url = format!("http://{addr}/admin/stats");
    let answer = reqwest::Client::new()
        .get(&url)
        .bearer_auth(token)
        .send()
        .await
        .ok()?;
    let stats: serde_json::Value = answer.json().await.ok()?;
    stats.get("robots").cloned()
}

/// Reads the gateway's outbox: every text from the first one we saw on must
/// be `sent` and must have reached us. Waits a little, since a text is marked
/// sent only after our capture server answered.
async fn check_database(outbox: &Outbox, driver: &Driver) -> Result<String, String> {
    let min_id = driver.lock().counts.min_id.unwrap_or(1) as i64;
    let mut last = String::new();
    for _ in 0..50 {
        let (total, sent) = outbox.sent_since(min_id).await?;
        let received = driver.lock().counts.texts;
        last = format!("{total} outbox rows, {sent} sent, {received} received");
        if total == sent && total as u64 == received {
            return Ok(last);
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    Err(last)
}

/// The ids of every text the database holds from the lowest id we received
/// to the highest.
async fn committed_ids(outbox: &Outbox, driver: &Driver) -> Result<Vec<i64>, String> {
    let (lo, hi) = {
        let shared = driver.lock();
        (shared.counts.min_id, shared.counts.max_id)
    };
    match (lo, hi) {
        (Some(lo), Some(hi)) => outbox.ids(lo as i64, hi as i64).await,
        _ => Ok(Vec::new()),
    }
}

/// The gateway's outbox, read-only, in either database.
enum Outbox {
    Sqlite(rusqlite::Connection),
    Postgres(sqlx::PgPool),
}

impl Outbox {
    async fn open(db: &str) -> Result<Outbox, String> {
        if db.starts_with("postgres://") || db.starts_with("postgresql://") {
            let pool = sqlx::postgres::PgPoolOptions::new()
                .max_connections(1)
                .connect(db)
                .await
                .map_err(|e| format!("cannot connect to {db}: {e}"))?;
            return Ok(Outbox::Postgres(pool));
        }
        let path = db.strip_prefix("sqlite://").unwrap_or(db);
        rusqlite::Connection::open_with_flags(path, rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY)
            .map(Outbox::Sqlite)
            .map_err(|e| format!("cannot open {path}: {e}"))
    }

    /// The ids from `lo` to `hi`.
    async fn ids(&self, lo: i64, hi: i64) -> Result<Vec<i64>, String> {
        const SQL: &str = "SELECT id FROM outbox WHERE id BETWEEN ";
        let read = match self {
            Outbox::Sqlite(conn) => conn
                .prepare(&format!("{SQL}?1 AND ?2"))
                .and_then(|mut stmt| {
                    stmt.query_map([lo, hi], |r| r.get(0))?
                        .collect::<Result<Vec<i64>, _>>()
                })
                .map_err(|e| e.to_string()),
            Outbox::Postgres(pool) => sqlx::query_scalar::<_, i64>(&format!("{SQL}$1 AND $2"))
                .bind(lo)
                .bind(hi)
                .fetch_all(pool)
                .await
                .map_err(|e| e.to_string()),
        };
        read.map_err(|e| format!("reading the outbox: {e}"))
    }

    /// Texts from `min_id` on, and how many of them are `sent`.
    async fn sent_since(&self, min_id: i64) -> Result<(i64, i64), String> {
        const SQL: &str = "SELECT COUNT(*), COALESCE(SUM(CASE WHEN status = 'sent' THEN 1 ELSE 0 END), 0) \
                           FROM outbox WHERE id >= ";
        let read = match self {
            Outbox::Sqlite(conn) => conn
                .query_row(&format!("{SQL}?1"), [min_id], |r| {
                    Ok((r.get(0)?, r.get(1)?))
                })
                .map_err(|e| e.to_string()),
            Outbox::Postgres(pool) => sqlx::query_as::<_, (i64, i64)>(&format!("{SQL}$1"))
                .bind(min_id)
                .fetch_one(pool)
                .await
                .map_err(|e| e.to_string()),
        };
        read.map_err(|e| format!("reading the outbox: {e}"))
    }
}
