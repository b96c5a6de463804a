//! What the gateway process (and the generator itself) cost: resident memory
//! and CPU time, read from `/proc` (Linux; elsewhere the figures stay empty).

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

/// Clock ticks per second of `/proc/<pid>/stat` (USER_HZ, 100 on Linux).
const TICKS_PER_SECOND: f64 = 100.0;

/// `VmRSS` and `VmHWM` of a process in KiB.
pub fn memory_kib(pid: u32) -> Option<(u64, u64)> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let field = |name: &str| {
        status
            .lines()
            .find_map(|l| l.strip_prefix(name))
            .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
    };
    Some((field("VmRSS:")?, field("VmHWM:")?))
}

/// User plus system CPU time of a process, in seconds.
pub fn cpu_seconds(pid: u32) -> Option<f64> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The command name may hold spaces; the fields after its closing parenthesis are fixed.
    let rest = &stat[stat.rfind(')')? + 2..];
    let fields: Vec<&str> = rest.split_whitespace().collect();
    // utime and stime are fields 14 and 15 of the whole line: 11 and 12 after the name.
    let utime: u64 = fields.get(11)?.parse().ok()?;
    let stime: u64 = fields.get(12)?.parse().ok()?;
    Some((utime + stime) as f64 / TICKS_PER_SECOND)
}

/// The highest `VmRSS` seen while sampling.
#[derive(Clone, Default)]
pub struct PeakRss(Arc<AtomicU64>);

impl PeakRss {
    /// Samples `pid`'s resident memory every 100 ms until the process ends.
    pub fn watch(pid: u32) -> PeakRss {
        let peak = PeakRss::default();
        let inner = peak.0.clone();
        tokio::spawn(async move {
            let mut tick = tokio::time::interval(Duration::from_millis(100));
            loop {
                tick.tick().await;
                let Some((rss, _)) = memory_kib(pid) else {
                    return;
                };
                inner.fetch_max(rss, Ordering::Relaxed);
            }
        });
        peak
    }

    pub fn kib(&self) -> u64 {
        self.0.load(Ordering::Relaxed)
    }
}

/// CPU time of the gateway and of the generator at one moment.
#[derive(Clone, Copy, Debug, Default)]
pub struct CpuMark {
    pub gateway: Option<f64>,
    pub generator: Option<f64>,
    /// The whole machine: (busy, total) CPU seconds over all cores.
    pub machine: Option<(f64, f64)>,
}

impl CpuMark {
    pub fn now(gateway: Option<u32>) -> CpuMark {
        CpuMark {
            gateway: gateway.and_then(cpu_seconds),
            generator: cpu_seconds(std::process::id()),
            machine: machine_cpu(),
        }
    }
}

/// Busy and total CPU time of the whole machine (all cores), in seconds, from `/proc/stat`.
pub fn machine_cpu() -> Option<(f64, f64)> {
    let stat = std::fs::read_to_string("/proc/stat").ok()?;
    let line = stat.lines().next()?.strip_prefix("cpu ")?;
    let ticks: Vec<u64> = line
        .split_whitespace()
        .filter_map(|v| v.parse().ok())
        .collect();
    // user nice system idle iowait irq softirq steal (guest time is inside user)
    let total: u64 = ticks.iter().take(8).sum();
    let idle = ticks.get(3)? + ticks.get(4).unwrap_or(&0);
    Some((
        (total - idle) as f64 / TICKS_PER_SECOND,
        total as f64 / TICKS_PER_SECOND,
    ))
}
