//! The `smsarena` binary: see `smsarena --help`.

fn main() -> std::process::ExitCode {
    smsarena::cli::main()
}
