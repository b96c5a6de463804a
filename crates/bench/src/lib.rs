//! The gateway's criterion benchmarks live in `benches/`; this library is
//! empty and only gives them a package of their own (see `Cargo.toml`).
