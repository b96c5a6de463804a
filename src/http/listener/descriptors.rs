//! The open-files limit: raised as far as the process may, and the connection cap fitted under it.

/// Descriptors kept for everything but client connections: the database
/// (SQLite's files and connections, or PostgreSQL's pool), outbound HTTP to
/// the provider, logs, the listener and the runtime's own.
pub const RESERVE: u64 = 128;

/// Raises the soft limit on open files to the hard limit and returns the
/// limit then in force; `None` where there is no such limit to read.
pub fn raise_open_files_limit() -> Option<u64> {
    imp::raise()
}

/// The cap to serve under: `wanted` (0: as many as fit), lowered to what
/// fits under `limit` with [`RESERVE`] kept (half the limit, when it is too
/// small to keep that much). `lowered` says the configured figure did not fit.
pub fn fit(wanted: usize, limit: Option<u64>) -> Fitted {
    let room = limit.map(|limit| {
        let reserve = RESERVE.min(limit / 2);
        usize::try_from(limit - reserve)
            .unwrap_or(usize::MAX)
            .max(1)
    });
    match (wanted, room) {
        (0, Some(room)) => Fitted {
            cap: room,
            lowered: false,
        },
        // No limit to read and none configured: the shipped default.
        (0, None) => Fitted {
            cap: crate::config::HttpConfig::default().max_connections,
            lowered: false,
        },
        (wanted, Some(room)) if wanted > room => Fitted {
            cap: room,
            lowered: true,
        },
        (wanted, _) => Fitted {
            cap: wanted,
            lowered: false,
        },
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fitted {
    pub cap: usize,
    pub lowered: bool,
}

#[cfg(unix)]
mod imp {
    pub fn raise() -> Option<u64> {
        let mut limit = libc::rlimit {
            rlim_cur: 0,
            rlim_max: 0,
        };
        // SAFETY: getrlimit writes only the struct it is given.
        if unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) } != 0 {
            return None;
        }
        if limit.rlim_cur < limit.rlim_max {
            let raised = libc::rlimit {
                rlim_cur: limit.rlim_max,
                rlim_max: limit.rlim_max,
            };
            // SAFETY: setrlimit reads only the struct it is given. Where the
            // hard limit is more than the kernel allows (macOS's unlimited),
            // it fails and the soft limit stays as it was.
            if unsafe { libc::setrlimit(libc::RLIMIT_NOFILE, &raised) } == 0 {
                limit = raised;
            }
        }
        if limit.rlim_cur == libc::RLIM_INFINITY {
            return None;
        }
        #[allow(clippy::unnecessary_cast)] // rlim_t is not u64 on every Unix
        Some(limit.rlim_cur as u64)
    }
}

#[cfg(not(unix))]
mod imp {
    pub fn raise() -> Option<u64> {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cap_that_fits_is_kept() {
        assert_eq!(
            fit(4096, Some(1_048_576)),
            Fitted {
                cap: 4096,
                lowered: false
            }
        );
        assert_eq!(
            fit(100, None),
            Fitted {
                cap: 100,
                lowered: false
            }
        );
    }

    #[test]
    fn a_cap_over_the_limit_is_lowered_to_keep_the_reserve() {
        assert_eq!(
            fit(4096, Some(1024)),
            Fitted {
                cap: 896,
                lowered: true
            }
        );
        assert_eq!(
            fit(4096, Some(256)),
            Fitted {
                cap: 128,
                lowered: true
            }
        );
        // Too small a limit to keep all of the reserve: half of it for each.
        assert_eq!(
            fit(4096, Some(100)),
            Fitted {
                cap: 50,
                lowered: true
            }
        );
    }

    #[test]
    fn zero_means_what_fits() {
        assert_eq!(
            fit(0, Some(20_000)),
            Fitted {
                cap: 19_872,
                lowered: false
            }
        );
        assert_eq!(fit(0, None).cap, 4096);
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn the_soft_limit_is_raised_to_the_hard_one() {
        let raised = raise_open_files_limit();
        let mut now = libc::rlimit {
            rlim_cur: 0,
            rlim_max: 0,
        };
        // SAFETY: getrlimit writes only the struct it is given.
        assert_eq!(unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &mut now) }, 0);
        assert_eq!(now.rlim_cur, now.rlim_max);
        assert_eq!(raised, Some(now.rlim_cur));
    }
}
