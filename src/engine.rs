//! `smsarena engine <game>`: a game's robot on standard input and output, to match it against other programs.
//!
//! Paper soccer speaks the line protocol of its rules: `start` or the
//! opponent's whole turn in kurnik digits (`0`-`7`) in, our whole turn out.
//! No database and no configuration file; the process exits on end of input,
//! and with status 1 on a line it cannot play.

use std::io::{BufRead, Write};
use std::process::ExitCode;
use std::time::Instant;

use crate::games::paper_soccer::field::check_size;
use crate::games::paper_soccer::protocol::Engine;
use crate::games::{Budget, LEVELS, Level, Stopwatch};

/// What `smsarena engine` may run.
#[derive(clap::Subcommand)]
pub enum EngineGame {
    /// Paper soccer: one line in, one line out (see docs/games/paper_soccer.md).
    PaperSoccer(PaperSoccerArgs),
}

#[derive(clap::Args)]
pub struct PaperSoccerArgs {
    /// Robot level, 1-3.
    #[arg(long, default_value_t = 3, value_parser = level)]
    level: Level,
    /// Time per turn, in milliseconds; the answer leaves within it.
    #[arg(long, default_value_t = 1000)]
    ms: u64,
    /// Field size, WIDTHxLENGTH (even numbers).
    #[arg(long, default_value = "8x10", value_parser = field)]
    field: (u8, u8),
    /// Seed of the robot's choices among equal moves (default: a fixed one).
    #[arg(long)]
    seed: Option<u64>,
}

fn level(text: &str) -> Result<Level, String> {
    text.parse::<Level>()
        .ok()
        .filter(|l| LEVELS.contains(l))
        .ok_or_else(|| format!("{text}: a level is 1, 2 or 3"))
}

fn field(text: &str) -> Result<(u8, u8), String> {
    let (w, l) = text
        .split_once(['x', 'X'])
        .and_then(|(w, l)| Some((w.parse().ok()?, l.parse().ok()?)))
        .ok_or_else(|| format!("{text}: expected WIDTHxLENGTH, e.g. 8x10"))?;
    check_size(w, l)?;
    Ok((w, l))
}

/// Time spent since the line arrived.
struct Since(Instant);

impl Stopwatch for Since {
    fn elapsed_ms(&self) -> u64 {
        self.0.elapsed().as_millis() as u64
    }
}

/// Milliseconds kept back from the search for reading, writing and the pipe.
const IO_MARGIN_MS: u64 = 20;

pub fn run(game: EngineGame) -> ExitCode {
    let EngineGame::PaperSoccer(args) = game;
    let mut engine = Engine::new(args.level, args.ms, args.field);
    if let Some(seed) = args.seed {
        engine = engine.with_seed(seed);
    }
    let mut out = std::io::stdout().lock();
    for line in std::io::stdin().lock().lines() {
        let clock = Since(Instant::now());
        let Ok(line) = line else { break };
        let budget = Budget {
            millis: args.ms.saturating_sub(IO_MARGIN_MS),
            clock: &clock,
            max_nodes: None,
        };
        match engine.respond(&line, &budget) {
            Ok(Some(turn)) => {
                if writeln!(out, "{turn}").and_then(|_| out.flush()).is_err() {
                    break;
                }
            }
            Ok(None) => {}
            Err(e) => {
                eprintln!("smsarena engine: {e}");
                return ExitCode::FAILURE;
            }
        }
    }
    ExitCode::SUCCESS
}
