//! Command line: `serve` (default), `migrate`, `sim`, `engine`, `replay`.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

use smsarena::config::Config;

#[derive(Parser)]
#[command(name = "smsarena", version, about = "An SMS game gateway")]
struct Cli {
    #[command(subcommand)]
    command: Option<Cmd>,
}

#[derive(Subcommand)]
enum Cmd {
    /// Serve the gateway (the default).
    Serve(ConfigArg),
    /// Create or migrate the database, then exit.
    Migrate(ConfigArg),
    /// A terminal phone: type texts as one or several numbers and read the replies.
    Sim(ConfigArg),
    /// A game's robot on standard input and output, to match it against
    /// other programs; no database, no configuration.
    #[command(subcommand)]
    Engine(crate::engine::EngineGame),
    /// Replay a match's export (the admin API's `/admin/matches/ID/export`)
    /// from its seed and check that it ends in the state it gives.
    Replay(ReplayArgs),
}

#[derive(clap::Args)]
struct ReplayArgs {
    /// The export, a JSON file.
    file: PathBuf,
    #[command(flatten)]
    config: ConfigArg,
}

#[derive(clap::Args, Default)]
struct ConfigArg {
    /// Configuration file (default: config/default.toml if present).
    #[arg(long, short)]
    config: Option<PathBuf>,
}

pub fn main() -> ExitCode {
    let cli = Cli::parse();
    let command = cli.command.unwrap_or(Cmd::Serve(ConfigArg::default()));
    let arg = match command {
        Cmd::Engine(game) => return crate::engine::run(game),
        Cmd::Serve(ref arg) | Cmd::Migrate(ref arg) | Cmd::Sim(ref arg) => arg,
        Cmd::Replay(ref args) => &args.config,
    };
    let mut cfg = match Config::load(arg.config.as_deref()) {
        Ok(cfg) => cfg,
        Err(e) => {
            eprintln!("smsarena: bad configuration: {e}");
            return ExitCode::from(2);
        }
    };
    if let Err(e) = cfg.numbers.canonicalise() {
        eprintln!("smsarena: bad configuration: {e}");
        return ExitCode::from(2);
    }
    if let Err(e) = smsarena::locales::install_overrides(&cfg.texts) {
        eprintln!("smsarena: bad configuration: {e}");
        return ExitCode::from(2);
    }
    if let Cmd::Replay(args) = &command {
        return replay(&cfg, &args.file);
    }
    let runtime = match tokio::runtime::Runtime::new() {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("smsarena: cannot start the runtime: {e}");
            return ExitCode::FAILURE;
        }
    };
    let result = runtime.block_on(async move {
        match command {
            Cmd::Serve(_) => {
                init_logging(&cfg.log.filter);
                smsarena::server::serve(cfg).await
            }
            Cmd::Migrate(_) => {
                init_logging(&cfg.log.filter);
                smsarena::store::Store::open(&cfg.database.url, cfg.database.max_batch).await?;
                println!("database {} is up to date", cfg.database.shown_url());
                Ok(())
            }
            Cmd::Sim(_) => crate::sim::run(cfg).await,
            Cmd::Engine(_) | Cmd::Replay(_) => unreachable!("handled above"),
        }
    });
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("smsarena: {e:#}");
            ExitCode::FAILURE
        }
    }
}

/// `smsarena replay FILE`: 0 when the export replays to its final state,
/// 1 when it does not (and why), 2 when it cannot be read.
fn replay(cfg: &Config, file: &std::path::Path) -> ExitCode {
    use smsarena::platform::export::file::{Verdict, replay_file};
    let catalog = match smsarena::platform::catalog::Catalog::load(cfg) {
        Ok(catalog) => catalog,
        Err(e) => {
            eprintln!("smsarena: bad configuration: {e}");
            return ExitCode::from(2);
        }
    };
    match replay_file(&catalog, file) {
        Verdict::Replays(line) => {
            println!("{line}");
            ExitCode::SUCCESS
        }
        Verdict::Refused(line) => {
            println!("{line}");
            ExitCode::FAILURE
        }
        Verdict::Unreadable(line) => {
            eprintln!("smsarena: {line}");
            ExitCode::from(2)
        }
    }
}

fn init_logging(default_filter: &str) {
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new(default_filter));
    tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .init();
}
