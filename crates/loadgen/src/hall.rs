//! `--hall-phones N`: N virtual phones of the training hall, each playing SMS football against three robots as a page would (texts posted to `/hall/phones/{n}/texts`, replies read from its Server-Sent Events), and the time from each typed move to the first text that answers it.
//!
//! Run the gateway with the hall's own limits off
//! (`SMSARENA_HALL__PHONES_PER_HOUR=0`, `SMSARENA_HALL__TEXTS_PER_MINUTE=0`):
//! all the phones come from one address. `measure/hall.sh` does.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use anyhow::{Context, bail};
use serde_json::{Value, json};
use tokio::sync::mpsc;

use super::phone::{self, Dice, Text, Turn};

/// What one page sees arrive: a text's body and when it came.
type Arrival = (String, Instant);

/// One virtual phone: its number, its token, and the texts its page receives.
struct Page {
    http: reqwest::Client,
    base: String,
    number: String,
    token: String,
    texts: mpsc::UnboundedReceiver<Arrival>,
    sent: u64,
}

impl Page {
    async fn open(http: &reqwest::Client, base: &str) -> anyhow::Result<Page> {
        let answer: Value = http
            .post(format!("{base}/hall/phones"))
            .send()
            .await?
            .error_for_status()
            .context("opening a virtual phone (is the hall served, its limits off?)")?
            .json()
            .await?;
        let number = answer["number"].as_str().context("no number")?.to_string();
        let token = answer["token"].as_str().context("no token")?.to_string();
        let (tx, texts) = mpsc::unbounded_channel();
        // One stream a page, as one browser holding one phone opens it.
        let watching = json!({ "phones": [{ "number": number, "token": token, "after": 0 }] });
        let events = http
            .post(format!("{base}/hall/events"))
            .json(&watching)
            .send()
            .await?
            .error_for_status()?;
        tokio::spawn(read_events(events, tx));
        Ok(Page {
            http: http.clone(),
            base: base.to_string(),
            number,
            token,
            texts,
            sent: 0,
        })
    }

    async fn send(&mut self, to: &str, text: &str) -> anyhow::Result<()> {
        self.sent += 1;
        let id = format!("t{}", self.sent);
        self.http
            .post(format!("{}/hall/phones/{}/texts", self.base, self.number))
            .json(&json!({ "token": self.token, "id": id, "to": to, "text": text }))
            .send()
            .await?
            .error_for_status()?;
        Ok(())
    }

    async fn next(&mut self, wait: Duration) -> anyhow::Result<Arrival> {
        match tokio::time::timeout(wait, self.texts.recv()).await {
            Ok(Some(arrival)) => Ok(arrival),
            Ok(None) => bail!("{}: its event stream ended", self.number),
            Err(_) => bail!("{}: no text in {wait:?}", self.number),
        }
    }
}

/// Reads a Server-Sent Events stream: each `text` event's body.
async fn read_events(mut response: reqwest::Response, texts: mpsc::UnboundedSender<Arrival>) {
    let mut buffer = String::new();
    while let Ok(Some(chunk)) = response.chunk().await {
        buffer.push_str(&String::from_utf8_lossy(&chunk));
        while let Some(end) = buffer.find("\n\n") {
            let event: String = buffer.drain(..end + 2).collect();
            let data: String = event
                .lines()
                .filter_map(|l| l.strip_prefix("data:"))
                .map(str::trim_start)
                .collect::<Vec<_>>()
                .join("\n");
            if let Ok(text) = serde_json::from_str::<Value>(&data)
                && let Some(body) = text["body"].as_str()
                && texts.send((body.to_string(), Instant::now())).is_err()
            {
                return;
            }
        }
    }
}

/// What the phones measured.
#[derive(Default)]
struct Tally {
    moves: AtomicU64,
    matches: AtomicU64,
    unexpected: AtomicU64,
}

/// One phone's play until `until`: its move-to-reply times in microseconds.
async fn play(
    mut page: Page,
    n: usize,
    numbers: (String, String),
    until: Instant,
    tally: Arc<Tally>,
) -> anyhow::Result<Vec<u64>> {
    let (play_number, game_number) = numbers;
    let wait = Duration::from_secs(60);
    page.send(&game_number, &format!("R hall{n}")).await?;
    page.next(wait).await?;
    page.send(&play_number, "P FB BOT").await?;
    let mut dice = Dice::new(n as u64 + 1);
    let mut times = Vec::new();
    let mut asked_at: Option<Instant> = None;
    while Instant::now() < until {
        let (body, at) = page.next(wait).await?;
        if let Some(asked) = asked_at.take() {
            times.push(at.duration_since(asked).as_micros() as u64);
        }
        match phone::classify(&body) {
            Text::Board(board) if board.turn == Turn::Mine => {
                asked_at = Some(Instant::now());
                page.send(&game_number, board.choose(dice.roll())).await?;
                tally.moves.fetch_add(1, Ordering::Relaxed);
            }
            Text::Board(board) if board.turn == Turn::Over => {
                tally.matches.fetch_add(1, Ordering::Relaxed);
                page.send(&play_number, "P FB BOT").await?;
            }
            Text::Board(_) | Text::MoveAccepted => {}
            _ => {
                tally.unexpected.fetch_add(1, Ordering::Relaxed);
            }
        }
    }
    Ok(times)
}

/// Opens `phones` virtual phones, lets them play for `duration`, and
/// prints the move-to-reply times; `Ok(false)` when a phone failed.
pub async fn run(
    base: &str,
    phones: usize,
    duration: Duration,
    numbers: (String, String),
) -> anyhow::Result<bool> {
    let http = reqwest::Client::builder()
        .pool_max_idle_per_host(phones * 2)
        .build()?;
    let mut pages = Vec::new();
    for _ in 0..phones {
        pages.push(Page::open(&http, base).await?);
    }
    eprintln!("bench: {phones} virtual phones open, playing for {duration:?}");
    let tally = Arc::new(Tally::default());
    let until = Instant::now() + duration;
    let mut tasks = tokio::task::JoinSet::new();
    for (n, page) in pages.into_iter().enumerate() {
        tasks.spawn(play(page, n, numbers.clone(), until, tally.clone()));
    }
    let mut times = hdrhistogram::Histogram::<u64>::new_with_bounds(1, 600_000_000, 3)?;
    let mut failed = 0;
    while let Some(done) = tasks.join_next().await {
        match done {
            Ok(Ok(phone_times)) => {
                for t in phone_times {
                    times.record(t.max(1))?;
                }
            }
            Ok(Err(e)) => {
                failed += 1;
                eprintln!("bench: {e:#}");
            }
            Err(e) => {
                failed += 1;
                eprintln!("bench: a phone's task failed: {e}");
            }
        }
    }
    let ms = |q: f64| times.value_at_quantile(q) as f64 / 1000.0;
    println!(
        "hall: {phones} virtual phones, {:.0} s: {} moves ({:.1}/s), {} matches finished; \
         typed move to its reply on the page: p50 {:.1} ms, p99 {:.1} ms, max {:.1} ms; \
         {} unexpected texts, {failed} phones failed",
        duration.as_secs_f64(),
        tally.moves.load(Ordering::Relaxed),
        tally.moves.load(Ordering::Relaxed) as f64 / duration.as_secs_f64(),
        tally.matches.load(Ordering::Relaxed),
        ms(0.5),
        ms(0.99),
        times.max() as f64 / 1000.0,
        tally.unexpected.load(Ordering::Relaxed),
    );
    Ok(failed == 0 && !times.is_empty())
}
