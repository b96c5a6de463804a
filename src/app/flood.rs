//! Flood control: a text limit per phone, told once per window, a request limit per source address, and a limit on wrong tokens per address.
//!
//! All live in this instance's memory: with several instances, each counts
//! what it sees, which still bounds a flood to a few times the limit. Texts
//! over a phone's limit are dropped before the store sees it, so a flood
//! costs the writer nothing but one notice a window. Only new texts cost a
//! phone anything: a repeat the store recognises (a provider's retry) is
//! given back, and a long text costs one text however many parts it has.

use std::collections::HashMap;
use std::net::IpAddr;
use std::num::NonZeroU32;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::extract::Request;
use axum::response::Response;
use governor::{DefaultKeyedRateLimiter, Quota, RateLimiter};

use super::AppState;
use super::budget::Budget;
use crate::clock::Clock;
use crate::config::{AddressList, LimitsConfig};
use crate::web::client::{peer, too_many_requests};

/// Checks between two sweeps of keys whose limits have recovered.
const SWEEP_EVERY: u64 = 4096;

/// How long a long text's charge is remembered for its later parts: as
/// long as its parts are kept waiting for each other.
const OPEN_TEXT_MEMORY: Duration = Duration::from_secs(600);

/// A long text, as its parts name it: sender, reference, declared total.
type OpenText = (String, String, u32);

pub struct Flood {
    phones: Option<Budget<String>>,
    /// The gateway's clock, which a phone's budget is earned back by (so a
    /// test plays a minute of texts without waiting a minute).
    clock: Arc<dyn Clock>,
    notices: Option<DefaultKeyedRateLimiter<String>>,
    addresses: Option<DefaultKeyedRateLimiter<IpAddr>>,
    /// Wrong tokens, for every address: guesses cost little, and their log
    /// lines are bounded.
    admin: Option<DefaultKeyedRateLimiter<IpAddr>>,
    /// Long texts already charged here, so their other parts pass free.
    open_texts: Mutex<HashMap<OpenText, Instant>>,
    trusted: AddressList,
    checks: AtomicU64,
    dropped_texts: AtomicU64,
    refused_requests: AtomicU64,
}

/// What to do with a phone's text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PhoneVerdict {
    /// Let through; `charged` when it cost the phone a text (to give back
    /// should it turn out to be a repeat).
    Pass { charged: bool },
    /// Over the limit: dropped; `notify` for the first of a notice window;
    /// `retry_after` until the phone's next text would be read.
    Drop { notify: bool, retry_after: Duration },
}

impl Flood {
    pub fn new(cfg: &LimitsConfig, clock: Arc<dyn Clock>) -> Flood {
        let phones = (cfg.phone_per_minute > 0)
            .then(|| Budget::per_minute(cfg.phone_per_minute, cfg.phone_burst));
        let window = Duration::from_secs(cfg.notice_window_secs.max(1));
        let notices = phones
            .as_ref()
            .and_then(|_| Quota::with_period(window))
            .map(RateLimiter::keyed);
        let addresses = NonZeroU32::new(cfg.address_per_second).map(|rate| {
            let burst = NonZeroU32::new(cfg.address_burst).unwrap_or(NonZeroU32::MIN);
            RateLimiter::keyed(Quota::per_second(rate).allow_burst(burst))
        });
        let admin = NonZeroU32::new(cfg.admin_per_second).map(|rate| {
            let burst = NonZeroU32::new(cfg.admin_burst).unwrap_or(NonZeroU32::MIN);
            RateLimiter::keyed(Quota::per_second(rate).allow_burst(burst))
        });
        Flood {
            phones,
            clock,
            notices,
            addresses,
            admin,
            open_texts: Mutex::default(),
            trusted: cfg.trusted_addresses.clone(),
            checks: AtomicU64::new(0),
            dropped_texts: AtomicU64::new(0),
            refused_requests: AtomicU64::new(0),
        }
    }

    /// Charges a whole text from `phone` against its limit.
    pub fn phone(&self, phone: &str) -> PhoneVerdict {
        let Some(phones) = &self.phones else {
            return PhoneVerdict::Pass { charged: false };
        };
        self.sweep_now_and_then();
        let key = phone.to_string();
        match phones.take(&key, self.clock.now()) {
            Ok(()) => PhoneVerdict::Pass { charged: true },
            Err(retry_after) => self.drop_text(&key, retry_after),
        }
    }

    /// Charges one part of a long text: the first of its parts this
    /// instance sees charges the text; the others pass free.
    pub fn part(&self, phone: &str, reference: &str, total: u32) -> PhoneVerdict {
        if self.phones.is_none() {
            return PhoneVerdict::Pass { charged: false };
        }
        let text = (phone.to_string(), reference.to_string(), total);
        if self.open_texts().contains_key(&text) {
            return PhoneVerdict::Pass { charged: false };
        }
        let verdict = self.phone(phone);
        if verdict == (PhoneVerdict::Pass { charged: true }) {
            self.open_texts().insert(text, Instant::now());
        }
        verdict
    }

    /// Gives back what a text was charged: it was a repeat, or the store did
    /// not take it (the provider will send it again, and it is charged then).
    pub fn refund(&self, phone: &str) {
        if let Some(phones) = &self.phones {
            phones.give_back(&phone.to_string(), self.clock.now());
        }
    }

    /// A long text's parts are all in, or the part that charged it was not
    /// taken after all (`refund`): its next parts are charged anew.
    pub fn close_part(&self, phone: &str, reference: &str, total: u32, refund: bool) {
        let text = (phone.to_string(), reference.to_string(), total);
        self.open_texts().remove(&text);
        if refund {
            self.refund(phone);
        }
    }

    fn drop_text(&self, key: &String, retry_after: Duration) -> PhoneVerdict {
        self.dropped_texts.fetch_add(1, Ordering::Relaxed);
        let notify = self
            .notices
            .as_ref()
            .is_some_and(|n| n.check_key(key).is_ok());
        PhoneVerdict::Drop {
            notify,
            retry_after,
        }
    }

    fn open_texts(&self) -> std::sync::MutexGuard<'_, HashMap<OpenText, Instant>> {
        self.open_texts.lock().unwrap_or_else(|e| e.into_inner())
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

    /// Counts a wrong token from `ip`; `false` when it is over the limit.
    pub fn wrong_token(&self, ip: IpAddr) -> bool {
        let Some(admin) = &self.admin else {
            return true;
        };
        self.sweep_now_and_then();
        let allowed = admin.check_key(&ip.to_canonical()).is_ok();
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
        if let Some(phones) = &self.phones {
            phones.forget_full(self.clock.now());
        }
        let now = Instant::now();
        self.open_texts()
            .retain(|_, charged| now.duration_since(*charged) < OPEN_TEXT_MEMORY);
        if let Some(notices) = &self.notices {
            notices.retain_recent();
            notices.shrink_to_fit();
        }
        for limiter in [&self.addresses, &self.admin].into_iter().flatten() {
            limiter.retain_recent();
            limiter.shrink_to_fit();
        }
    }
}

/// 429 with `Retry-After` for a request whose address is over its limit;
/// `None` lets it through, as it does a request that came without a peer
/// address (a test driving the router directly).
pub fn refusal(state: &AppState, request: &Request) -> Option<Response> {
    let ip = peer(request)?;
    if state.flood().address(ip) {
        return None;
    }
    tracing::debug!(%ip, "request limit reached");
    Some(too_many_requests())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::clock::ManualClock;

    fn flood_at(cfg: &LimitsConfig) -> (Flood, Arc<ManualClock>) {
        let clock = Arc::new(ManualClock::new(
            chrono::DateTime::from_timestamp(1_800_000_000, 0).unwrap(),
        ));
        (Flood::new(cfg, clock.clone()), clock)
    }

    fn dropped(verdict: PhoneVerdict, told: bool) -> bool {
        matches!(verdict, PhoneVerdict::Drop { notify, .. } if notify == told)
    }

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
        let flood = flood_at(&limits(3, 1)).0;
        for _ in 0..3 {
            assert_eq!(flood.phone("+1"), CHARGED);
        }
        assert!(dropped(flood.phone("+1"), true));
        for _ in 0..100 {
            assert!(dropped(flood.phone("+1"), false));
        }
        assert_eq!(flood.phone("+2"), CHARGED, "another phone's own budget");
        assert_eq!(flood.stats()["dropped_texts"], 101);
    }

    const CHARGED: PhoneVerdict = PhoneVerdict::Pass { charged: true };
    const FREE: PhoneVerdict = PhoneVerdict::Pass { charged: false };

    #[test]
    fn repeats_are_given_back_and_a_long_text_costs_one_text() {
        let flood = flood_at(&limits(2, 1)).0;
        for _ in 0..10 {
            assert_eq!(flood.phone("+1"), CHARGED);
            flood.refund("+1");
        }
        assert_eq!(flood.part("+1", "r", 12), CHARGED, "the first part");
        for _ in 2..=12 {
            assert_eq!(flood.part("+1", "r", 12), FREE, "the other parts");
        }
        assert_eq!(
            flood.part("+1", "r", 3),
            CHARGED,
            "another total is another text"
        );
        flood.close_part("+1", "r", 12, false);
        assert!(
            matches!(flood.part("+1", "r", 12), PhoneVerdict::Drop { .. }),
            "a closed text's reference is a new text, and the budget is spent"
        );
        flood.close_part("+1", "r", 3, true);
        assert_eq!(flood.phone("+1"), CHARGED, "a part not taken is given back");
    }

    #[test]
    fn addresses_are_limited_except_the_trusted_ones() {
        let flood = flood_at(&limits(1, 2)).0;
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
        let flood = flood_at(&cfg).0;
        for _ in 0..100 {
            assert_eq!(flood.phone("+1"), FREE);
            assert_eq!(flood.part("+1", "r", 2), FREE);
            assert!(flood.address("203.0.113.9".parse().unwrap()));
        }
    }

    /// A person's pace, on the shipped limits: a text a second for a
    /// minute, then bursts of five, are all read; a script's ten a second
    /// is not, and hears when to try again. The limit reads the gateway's
    /// clock, so the minute passes by hand, at once.
    #[test]
    fn a_person_at_a_text_a_second_is_never_dropped_and_a_script_at_ten_is() {
        let (flood, clock) = flood_at(&LimitsConfig::default());
        let tick = |ms: i64| clock.advance(chrono::Duration::milliseconds(ms));
        for second in 0..60 {
            assert_eq!(flood.phone("+1"), CHARGED, "second {second}");
            tick(1000);
        }
        for burst in 0..12 {
            for text in 0..5 {
                assert_eq!(flood.phone("+1"), CHARGED, "burst {burst}, text {text}");
                tick(400);
            }
            tick(3000);
        }

        let mut read = 0;
        let mut waits = Vec::new();
        for _ in 0..100 {
            match flood.phone("+2") {
                PhoneVerdict::Pass { .. } => read += 1,
                PhoneVerdict::Drop { retry_after, .. } => waits.push(retry_after),
            }
            tick(100);
        }
        assert!(read < 30, "ten seconds at ten a second: {read} read");
        assert!(
            waits
                .iter()
                .all(|w| *w > Duration::ZERO && *w <= Duration::from_secs(1)),
            "each dropped text says when the next is read: {waits:?}"
        );
    }
}
