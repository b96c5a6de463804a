//! `smsarena sim`: a terminal phone. Type texts as one or several numbers and read the replies,
//! with no provider at all: the whole gateway runs in-process on a scratch database.

use std::sync::Arc;

use anyhow::Context;
use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::sync::watch;

use smsarena::clock::{Clock, SystemClock};
use smsarena::config::Config;
use smsarena::gateway::Gateway;
use smsarena::inbound::InboundMessage;
use smsarena::platform::catalog::Catalog;
use smsarena::providers::Provider;
use smsarena::providers::capture::Capture;

const HELP: &str = "\
Type a text and press Enter to send it from the current phone to the game number.
  :as NUMBER   switch to another phone (e.g. :as 79001112233)
  :play TEXT   send TEXT to the play number instead (P and PA belong there)
  :quit        leave
Replies are printed as they arrive.";

pub async fn run(mut cfg: Config) -> anyhow::Result<()> {
    // A scratch database per session, so trying things never touches the service's data.
    let scratch = std::env::temp_dir().join(format!("smsarena-sim-{}.db", std::process::id()));
    cfg.database.url = format!("sqlite://{}", scratch.display());
    let cfg = Arc::new(cfg);
    let clock: Arc<dyn Clock> = Arc::new(SystemClock);
    let (capture, mut texts) = Capture::new();
    let catalog = Catalog::load(&cfg).map_err(|e| anyhow::anyhow!("auto_race.tracks_dir: {e}"))?;
    let gateway = Gateway::open(
        cfg.clone(),
        clock.clone(),
        Provider::capture(capture),
        catalog,
    )
    .await
    .context("opening the scratch database")?;
    let (stop, _) = watch::channel(false);
    let (state, _running) = gateway.spawn(&stop);

    tokio::spawn(async move {
        while let Some(text) = texts.recv().await {
            println!("\n<< {} -> {}:\n{}\n", text.from, text.to, text.body);
        }
    });

    println!("{HELP}");
    let mut phone = String::from("+79000000001");
    let mut lines = BufReader::new(tokio::io::stdin()).lines();
    let mut counter = 0u64;
    println!("[{phone}]>");
    while let Some(line) = lines.next_line().await? {
        let line = line.trim();
        let (to, text) = if let Some(rest) = line.strip_prefix(":as ") {
            match cfg.numbers.canonical(rest) {
                Ok(number) => phone = number,
                Err(e) => println!("!! that number {e}"),
            }
            println!("[{phone}]>");
            continue;
        } else if line == ":quit" {
            break;
        } else if let Some(rest) = line.strip_prefix(":play ") {
            (cfg.numbers.play.clone(), rest.to_string())
        } else if line.is_empty() {
            continue;
        } else {
            (cfg.numbers.game.clone(), line.to_string())
        };
        counter += 1;
        let msg = InboundMessage {
            provider: "sim",
            provider_id: format!("{}-{counter}", std::process::id()),
            from: phone.clone(),
            to,
            text,
            received_at: clock.now(),
        };
        if let Err(e) = state.receive(msg).await {
            println!("!! {e}");
        }
    }
    // Let replies to the last texts arrive before leaving.
    tokio::time::sleep(std::time::Duration::from_millis(500)).await;
    let _ = stop.send(true);
    let _ = std::fs::remove_file(&scratch);
    Ok(())
}
