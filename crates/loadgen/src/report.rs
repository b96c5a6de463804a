//! The table printed at the end of a run, and the verdict of its checks.

use std::time::Duration;

use hdrhistogram::Histogram;

use super::driver::Counts;
use super::sender::Baseline;

/// Figures of the measured window (from the first `P` to the stop).
pub struct Window {
    pub elapsed: Duration,
    pub moves: u64,
    pub inbound: u64,
    pub texts: u64,
    /// CPU seconds spent in the window by the gateway and the generator.
    pub gateway_cpu: Option<f64>,
    pub generator_cpu: Option<f64>,
    /// CPU seconds the whole machine was busy (all processes), and its capacity (cores x seconds).
    pub machine_busy: Option<f64>,
    pub machine_total: Option<f64>,
}

impl Window {
    pub fn rate(&self, n: u64) -> f64 {
        n as f64 / self.elapsed.as_secs_f64().max(1e-9)
    }
}

pub struct Report {
    pub title: String,
    pub baseline: Option<Baseline>,
    pub window: Window,
    /// The second window, with matches against robots beside the others,
    /// and the moves the phones against robots made in it.
    pub with_robots: Option<(Window, u64)>,
    /// The robot pool's figures (`/admin/stats`), when read.
    pub robots: Option<serde_json::Value>,
    /// The phones against the level-3 robot, and what they saw.
    pub deep: Option<(usize, super::deep::DeepCounts)>,
    pub latency_rows: Vec<(String, Histogram<u64>)>,
    pub call_errors: u64,
    pub calls_lost: u64,
    pub inbound_duplicates: u64,
    pub first_error: Option<String>,
    pub counts: Counts,
    pub missing: Missing,
    pub outstanding: usize,
    pub memory: Option<Memory>,
    pub db_check: Option<Result<String, String>>,
    pub samples: Vec<String>,
}

/// Texts that never arrived, and how that was judged.
pub enum Missing {
    /// Ids absent between the lowest and highest received (SQLite's ids have no gaps).
    Gaps(u64),
    /// Ids the database holds between those that never arrived.
    Committed(u64),
}

/// The gateway's resident memory in KiB.
pub struct Memory {
    pub peak_sampled: u64,
    pub hwm: u64,
    pub end: u64,
}

pub struct Check {
    pub name: &'static str,
    pub ok: bool,
    pub detail: String,
}

impl Report {
    pub fn checks(&self) -> Vec<Check> {
        let c = &self.counts;
        let expected_boards = c.expected_boards();
        let mut checks = vec![
            Check {
                name: "every request answered by a text",
                ok: self.outstanding == 0 && self.calls_lost == 0,
                detail: format!(
                    "{} unanswered, {} calls lost",
                    self.outstanding, self.calls_lost
                ),
            },
            Check {
                name: "every board of every set of four arrived",
                ok: expected_boards == Some(c.boards),
                detail: match expected_boards {
                    Some(expected) => format!(
                        "{} boards, expected 4 x {} ({} matches opened)",
                        c.boards,
                        expected / 4,
                        c.matches_opened().unwrap_or(0)
                    ),
                    None => format!(
                        "{} boards; {} opening boards fit no whole matches",
                        c.boards, c.openings
                    ),
                },
            },
            Check {
                name: "no text duplicated",
                ok: c.duplicate_texts == 0,
                detail: format!("{} duplicates", c.duplicate_texts),
            },
            {
                let (name, missing) = match self.missing {
                    Missing::Gaps(n) => ("no text missing (ids without gaps)", n),
                    Missing::Committed(n) => ("no text missing (every id the database holds)", n),
                };
                Check {
                    name,
                    ok: missing == 0,
                    detail: format!(
                        "{missing} missing between g{} and g{}",
                        c.min_id.unwrap_or(0),
                        c.max_id.unwrap_or(0)
                    ),
                }
            },
            Check {
                name: "no unexpected or stray text",
                ok: c.unexpected_texts == 0 && c.stray_texts == 0 && c.early_answers == 0,
                detail: format!(
                    "{} unexpected, {} stray, {} early",
                    c.unexpected_texts, c.stray_texts, c.early_answers
                ),
            },
            Check {
                name: "no inbound message taken as a duplicate",
                ok: self.inbound_duplicates == 0,
                detail: format!("{}", self.inbound_duplicates),
            },
        ];
        if let Some(db) = &self.db_check {
            checks.push(Check {
                name: "database: every committed text sent and received",
                ok: db.is_ok(),
                detail: match db {
                    Ok(s) | Err(s) => s.clone(),
                },
            });
        }
        checks
    }

    pub fn passed(&self) -> bool {
        self.checks().iter().all(|c| c.ok)
    }

    pub fn print(&self) {
        let w = &self.window;
        println!();
        println!("== {}", self.title);
        if let Some(b) = &self.baseline {
            println!(
                "baseline GET /ping   {:>10} requests in {:.1} s  {:>10.0} req/s   p50 {} p99 {} p99.9 {} ms   errors {}",
                b.requests,
                b.elapsed.as_secs_f64(),
                b.per_second(),
                ms(&b.latency, 50.0),
                ms(&b.latency, 99.0),
                ms(&b.latency, 99.9),
                b.errors
            );
        }
        println!(
            "window               {:.2} s (first P, or the end of the warm-up, to the stop)",
            w.elapsed.as_secs_f64()
        );
        println!(
            "inbound messages     {:>10}   {:>10.0} /s",
            w.inbound,
            w.rate(w.inbound)
        );
        println!(
            "  of which moves     {:>10}   {:>10.0} /s",
            w.moves,
            w.rate(w.moves)
        );
        println!(
            "outbound texts       {:>10}   {:>10.0} /s",
            w.texts,
            w.rate(w.texts)
        );
        if let Some(b) = &self.baseline {
            let ceiling = b.per_second();
            println!(
                "ratio to /ping       moves/s {:.1} %   inbound/s {:.1} %   (inbound + outbound HTTP)/s {:.1} %",
                100.0 * w.rate(w.moves) / ceiling,
                100.0 * w.rate(w.inbound) / ceiling,
                100.0 * w.rate(w.inbound + w.texts) / ceiling
            );
        }
        let cpu = |c: Option<f64>| match c {
            Some(s) => format!("{:.0} % of one core", 100.0 * s / w.elapsed.as_secs_f64()),
            None => "-".into(),
        };
        println!(
            "CPU in window        gateway {}   generator {}",
            cpu(w.gateway_cpu),
            cpu(w.generator_cpu)
        );
        if let (Some(busy), Some(total)) = (w.machine_busy, w.machine_total) {
            let ours = w.gateway_cpu.unwrap_or(0.0) + w.generator_cpu.unwrap_or(0.0);
            println!(
                "machine CPU          {:.0} % busy of {:.0} cores; other processes {:.0} % of one core{}",
                100.0 * busy / total,
                total / w.elapsed.as_secs_f64(),
                100.0 * (busy - ours).max(0.0) / w.elapsed.as_secs_f64(),
                if (busy - ours) / w.elapsed.as_secs_f64() > 0.1 {
                    "  (the run shared the machine: figures are low)"
                } else {
                    ""
                }
            );
        }
        if let Some((r, robot_moves)) = &self.with_robots {
            println!(
                "then, with robots    {:.2} s with the phones against robots playing beside the others",
                r.elapsed.as_secs_f64()
            );
            println!(
                "  four-player moves  {:>10}   {:>10.0} /s   {:.1} % of the window without robots",
                r.moves,
                r.rate(r.moves),
                100.0 * r.rate(r.moves) / w.rate(w.moves).max(1e-9)
            );
            println!(
                "  moves vs robots    {:>10}   {:>10.0} /s",
                robot_moves,
                r.rate(*robot_moves)
            );
            if let Some(cpu) = r.gateway_cpu {
                println!(
                    "  gateway CPU        {:.0} % of one core",
                    100.0 * cpu / r.elapsed.as_secs_f64()
                );
            }
        }
        if let Some((phones, c)) = &self.deep {
            println!(
                "  vs level 3         {phones} phones: {} moves back to them, {} steps ({} refused), {} matches finished",
                c.my_move, c.steps, c.refused, c.finished
            );
        }
        if let Some(robots) = &self.robots {
            println!(
                "robot queue          {} turns; wait from due to search p50 {} ms, p99 {} ms, max {} ms",
                robots["turns"],
                robots["wait_p50_ms"],
                robots["wait_p99_ms"],
                robots["wait_max_ms"]
            );
            for lane in robots["lanes"].as_array().into_iter().flatten() {
                println!(
                    "  {:<6} lane        {} turns; wait p50 {} ms, p99 {} ms; search CPU p50 {} ms, min {} ms, wall p50 {} ms, max {} ms",
                    lane["lane"].as_str().unwrap_or("?"),
                    lane["turns"],
                    lane["wait_p50_ms"],
                    lane["wait_p99_ms"],
                    lane["search_cpu_p50_ms"],
                    lane["search_cpu_min_ms"],
                    lane["search_wall_p50_ms"],
                    lane["search_wall_max_ms"]
                );
            }
        }
        if let Some(m) = &self.memory {
            println!(
                "gateway memory       VmHWM {:.1} MB   peak sampled VmRSS {:.1} MB   VmRSS at end {:.1} MB",
                m.hwm as f64 / 1024.0,
                m.peak_sampled as f64 / 1024.0,
                m.end as f64 / 1024.0
            );
        }
        println!(
            "latency (ms)         {:>9} {:>8} {:>8} {:>8} {:>8} {:>8} {:>8}",
            "count", "p50", "p90", "p99", "p99.9", "max", "mean"
        );
        for (name, h) in &self.latency_rows {
            println!(
                "  {:<18} {:>9} {:>8} {:>8} {:>8} {:>8} {:>8} {:>8.3}",
                name,
                h.len(),
                ms(h, 50.0),
                ms(h, 90.0),
                ms(h, 99.0),
                ms(h, 99.9),
                format!("{:.3}", h.max() as f64 / 1000.0),
                h.mean() / 1000.0
            );
        }
        let c = &self.counts;
        println!(
            "matches finished     {}   texts received {} ({} boards)   webhook errors {} (lost {})",
            c.matches_finished, c.texts, c.boards, self.call_errors, self.calls_lost
        );
        if let Some(e) = &self.first_error {
            println!("first webhook error  {e}");
        }
        println!("verification");
        for check in self.checks() {
            println!(
                "  [{}] {:<48} {}",
                if check.ok { " ok " } else { "FAIL" },
                check.name,
                check.detail
            );
        }
        for s in &self.samples {
            println!("  sample: {s}");
        }
        println!("RESULT: {}", if self.passed() { "PASS" } else { "FAIL" });
    }
}

/// A percentile in milliseconds, three decimals.
fn ms(h: &Histogram<u64>, q: f64) -> String {
    if h.is_empty() {
        return "-".into();
    }
    format!("{:.3}", h.value_at_quantile(q / 100.0) as f64 / 1000.0)
}
