//! What the gateway logs in a test binary, captured for assertions: the
//! first call installs a global subscriber writing into memory.

use std::sync::{Arc, Mutex, OnceLock};

#[derive(Clone, Default)]
pub struct Logs(Arc<Mutex<Vec<u8>>>);

impl std::io::Write for Logs {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Logs {
    /// Everything logged so far.
    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.0.lock().unwrap()).into_owned()
    }
}

/// The test binary's captured logs: every crate's, at `trace`, the most a
/// `RUST_LOG` can ask for (so a secret any of them prints is caught).
pub fn captured() -> &'static Logs {
    static LOGS: OnceLock<Logs> = OnceLock::new();
    LOGS.get_or_init(|| {
        let logs = Logs::default();
        let writer = logs.clone();
        tracing_subscriber::fmt()
            .with_env_filter("trace")
            .with_writer(move || writer.clone())
            .with_ansi(false)
            .init();
        logs
    })
}
