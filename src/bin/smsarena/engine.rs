//! `smsarena engine <game>`: a game's robot on standard input and output, to match it against other programs.
//!
//! Paper soccer speaks the line protocol of its rules: `start` or the
//! opponent's whole turn in kurnik digits (`0`-`7`) in, our whole turn out.
//! No database and no configuration file; the process exits on end of input,
//! and with status 1 on a line it cannot play. On standard error, one line a
//! turn says what the search did (`--quiet`: nothing).

use std::io::{BufRead, Write};
use std::process::ExitCode;
use std::time::Instant;

use smsarena::games::paper_soccer::field::check_size;
use smsarena::games::paper_soccer::protocol::Engine;
use smsarena::games::paper_soccer::robot::search::MATE;
use smsarena::games::{Budget, LEVELS, Level, Stopwatch};

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
    /// No line a turn on standard error.
    #[arg(long)]
    quiet: bool,
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
    // The first turn's time runs from here: an opponent's clock runs from
    // the process start, and setting up (the search's table) takes part of it.
    let mut started = Some(Instant::now());
    let EngineGame::PaperSoccer(args) = game;
    let mut engine = Engine::new(args.level, args.ms, args.field);
    if let Some(seed) = args.seed {
        engine = engine.with_seed(seed);
    }
    let mut out = std::io::stdout().lock();
    for line in std::io::stdin().lock().lines() {
        let clock = Since(started.take().unwrap_or_else(Instant::now));
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
                if !args.quiet {
                    eprintln!("{}", turn_line(&engine, clock.elapsed_ms()));
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

/// What the search did for the turn just played: `depth 5 nodes 102345
/// time 183ms nps 559k eval +37` (eval from the engine's side, in the
/// evaluation's units; `win`/`loss` for a forced result; level 1 does not
/// search).
fn turn_line(engine: &Engine, ms: u64) -> String {
    let r = &engine.last;
    if engine.level <= 1 {
        return format!("level 1 time {ms}ms");
    }
    let eval = if r.score >= MATE - 1000 {
        "win".to_string()
    } else if r.score <= -(MATE - 1000) {
        "loss".to_string()
    } else {
        format!("{:+}", r.score)
    };
    let nps = (r.nodes * 1000).checked_div(ms).unwrap_or(r.nodes) / 1000;
    format!(
        "depth {} nodes {} time {ms}ms nps {nps}k eval {eval}",
        r.depth, r.nodes
    )
}
