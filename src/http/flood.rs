//! Flood control: a text limit per phone, told once per window, and a request limit per source address.
//!
//! Both are GCRA limiters (`governor`) in this instance's memory: with several
//! instances, each counts what it sees, which still bounds a flood to a few
//! times the limit. Texts over a phone's limit are dropped before the store
//! sees them, so a flood costs the writer nothing but one notice a window.

use std::net::{IpAddr, SocketAddr};
use std::num::NonZeroU32;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use axum::extract::{ConnectInfo, Request, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use governor::{DefaultKeyedRateLimiter, Quota, RateLimiter};

use super::AppState;
use crate::config::{AddressList, LimitsConfig};

/// Checks between two sweeps of keys whose limits have recovered.
const SWEEP_EVERY: u64 = 4096;

pub struct Flood {
    phones: Option<DefaultKeyedRateLimiter<String>>,
    notices: Option<DefaultKeyedRateLimiter<String>>,
    addresses: Option<DefaultKeyedRateLimiter<IpAddr>>,
    trusted: AddressList,
    checks: AtomicU64,
    dropped_texts: AtomicU64,
    refused_requests: AtomicU64,
}

/// What to do with a phone's text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PhoneVerdict {
    Pass,
    /// Over the limit: dropped; `notify` for the first of a notice window.
    Drop {
        notify: bool,
    },
}

impl Flood {
    pub fn new(cfg: &LimitsConfig) -> Flood {
        let phones = NonZeroU32::new(cfg.phone_per_minute).map(|rate| {
            let burst = NonZeroU32::new(cfg.phone_burst).unwrap_or(NonZeroU32::MIN);
            RateLimiter::keyed(Quota::per_minute(rate).allow_burst(burst))
        });
        let window = Duration::from_secs(cfg.notice_window_secs.max(1));
        let notices = phones
            .as_ref()
            .and_then(|_| Quota::with_period(window))
            .map(RateLimiter::keyed);
        let addresses = NonZeroU32::new(cfg.address_per_second).map(|rate| {
            let burst = NonZeroU32::new(cfg.address_burst).unwrap_or(NonZeroU32::MIN);
            RateLimiter::keyed(Quota::per_second(rate).allow_burst(burst))
        });
        Flood {
            phones,
            notices,
            addresses,
            trusted: cfg.trusted_addresses.clone(),
            checks: AtomicU64::new(0),
            dropped_texts: AtomicU64::new(0),
            refused_requests: AtomicU64::new(0),
        }
    }

    /// Counts a text from `phone` against its limit.
    pub fn phone(&self, phone: &str) -> PhoneVerdict {
        let Some(phones) = &self.phones else {
            return PhoneVerdict::Pass;
        };
        self.sweep_now_and_then();
        let key = phone.to_string();
        if phones.check_key(&key).is_ok() {
            return PhoneVerdict::Pass;
        }
        self.dropped_texts.fetch_add(1, Ordering::Relaxed);
        let notify = self
            .notices
            .as_ref()
            .is_some_and(|n| n.check_key(&key).is_ok());
        PhoneVerdict::Drop { notify }
    }

    /// Counts a request from `ip`; `false` when it is over the limit.
    pub fn address(&self, ip: IpAddr) -> bool {
        let Some(addresses) = &self.addresses else {
            return true;
        };
        if self.trusted.contains(ip) {
            return true;
        }
        self.sweep_now_and_then();
        let allowed = addresses.check_key(&ip.to_canonical()).is_ok();
        if !allowed {
            self.refused_requests.fetch_add(1, Ordering::Relaxed);
        }
        allowed
    }

    /// What the limits held back since start, for the admin stats.
    pub fn stats(&self) -> serde_json::Value {
        serde_json::json!({
            "dropped_texts": self.dropped_texts.load(Ordering::Relaxed),
            "refused_requests": self.refused_requests.load(Ordering::Relaxed),
        })
    }

    /// Forgets keys whose limit has fully recovered, so that a flood of
    /// distinct numbers or addresses does not grow memory for ever.
    fn sweep_now_and_then(&self) {
        if self.checks.fetch_add(1, Ordering::Relaxed) % SWEEP_EVERY != SWEEP_EVERY - 1 {
            return;
        }
        for limiter in [&self.phones, &self.notices].into_iter().flatten() {
            limiter.retain_recent();
            limiter.shrink_to_fit();
        }
        if let Some(addresses) = &self.addresses {
            addresses.retain_recent();
            addresses.shrink_to_fit();
        }
    }
}

/// Middleware on the webhooks: 429 with `Retry-After` for an address over
/// its limit. A request that came without a peer address (a test driving the
/// router directly) is let through.
pub async fn by_address(State(state): State<AppState>, request: Request, next: Next) -> Response {
    let peer = request
        .extensions()
        .get::<ConnectInfo<SocketAddr>>()
        .map(|ConnectInfo(addr)| addr.ip());
    if let Some(ip) = peer
        && !state.flood().address(ip)
    {
        tracing::debug!(%ip, "request limit reached");
        let mut response = (
            StatusCode::TOO_MANY_REQUESTS,
            axum::Json(serde_json::json!({ "error": "too many requests, slow down" })),
        )
            .into_response();
        response
            .headers_mut()
            .insert(header::RETRY_AFTER, HeaderValue::from_static("1"));
        return response;
    }
    next.run(request).await
}

#[cfg(test)]
mod tests {
    use super::*;

    fn limits(phone_burst: u32, address_burst: u32) -> LimitsConfig {
        LimitsConfig {
            phone_burst,
            phone_per_minute: 1,
            notice_window_secs: 3600,
            address_burst,
            address_per_second: 1,
            ..LimitsConfig::default()
        }
    }

    #[test]
    fn a_flooding_phone_is_dropped_and_told_once() {
        let flood = Flood::new(&limits(3, 1));
        for _ in 0..3 {
            assert_eq!(flood.phone("+1"), PhoneVerdict::Pass);
        }
        assert_eq!(flood.phone("+1"), PhoneVerdict::Drop { notify: true });
        for _ in 0..100 {
            assert_eq!(flood.phone("+1"), PhoneVerdict::Drop { notify: false });
        }
        assert_eq!(
            flood.phone("+2"),
            PhoneVerdict::Pass,
            "another phone's own budget"
        );
        assert_eq!(flood.stats()["dropped_texts"], 101);
    }

    #[test]
    fn addresses_are_limited_except_the_trusted_ones() {
        let flood = Flood::new(&limits(1, 2));
        let stranger: IpAddr = "203.0.113.9".parse().unwrap();
        assert!(flood.address(stranger));
        assert!(flood.address(stranger));
        assert!(!flood.address(stranger));
        assert!(
            !flood.address("::ffff:203.0.113.9".parse().unwrap()),
            "the same host"
        );
        for _ in 0..1000 {
            assert!(flood.address("127.0.0.1".parse().unwrap()));
        }
    }

    #[test]
    fn zero_turns_a_limit_off() {
        let mut cfg = limits(1, 1);
        cfg.phone_per_minute = 0;
        cfg.address_per_second = 0;
        let flood = Flood::new(&cfg);
        for _ in 0..100 {
            assert_eq!(flood.phone("+1"), PhoneVerdict::Pass);
            assert!(flood.address("203.0.113.9".parse().unwrap()));
        }
    }
}
