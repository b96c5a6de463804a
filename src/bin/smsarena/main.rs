//! The `smsarena` binary: see `smsarena --help`.

// Every request allocates (headers, bodies, texts); glibc's malloc and free
// were a tenth of the HTTP threads' time under load. mimalloc gave 16-17 %
// more moves/s for 14 MB more resident (BENCHMARKS.md, docs/DECISIONS.md);
// `alloc` asks it for plain blocks where it can.
#[global_allocator]
static ALLOCATOR: smsarena::alloc::Mimalloc = smsarena::alloc::Mimalloc;

mod cli;
mod engine;
mod sim;

fn main() -> std::process::ExitCode {
    cli::main()
}
