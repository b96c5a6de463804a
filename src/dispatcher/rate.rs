//! Send rate per sending number, counted in SMS parts (Twilio: 1 part/s on a long code, 100 on a short code).
//!
//! A keyed GCRA limiter: waiting for one number's budget never holds up another number's texts.

use std::num::NonZeroU32;
use std::time::Duration;

use governor::{DefaultKeyedRateLimiter, Quota, RateLimiter};

pub struct SendRate {
    limiter: Option<DefaultKeyedRateLimiter<String>>,
}

impl SendRate {
    /// `parts_per_second <= 0` means unlimited.
    pub fn new(parts_per_second: f64) -> SendRate {
        if parts_per_second.is_nan() || parts_per_second <= 0.0 || parts_per_second.is_infinite() {
            return SendRate { limiter: None };
        }
        let period = Duration::from_secs_f64(1.0 / parts_per_second);
        // Allow a second's worth at once (at least one part), then the steady rate.
        let burst = NonZeroU32::new(parts_per_second.floor() as u32).unwrap_or(NonZeroU32::MIN);
        let limiter = Quota::with_period(period).map(|q| RateLimiter::keyed(q.allow_burst(burst)));
        SendRate { limiter }
    }

    /// Waits until `from` may send `parts` more parts.
    pub async fn wait(&self, from: &str, parts: u32) {
        let Some(limiter) = &self.limiter else {
            return;
        };
        let key = from.to_string();
        for _ in 0..parts.max(1) {
            limiter.until_key_ready(&key).await;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn one_number_waiting_does_not_hold_up_another() {
        let rate = SendRate::new(2.0);
        let start = std::time::Instant::now();
        rate.wait("A", 2).await; // the burst
        rate.wait("B", 2).await; // another number's own burst: no wait
        assert!(start.elapsed() < Duration::from_millis(200));
        rate.wait("A", 1).await; // A must now wait about half a second
        let waited = start.elapsed();
        assert!(waited >= Duration::from_millis(350), "{waited:?}");
    }

    #[tokio::test]
    async fn zero_means_unlimited() {
        let rate = SendRate::new(0.0);
        let start = std::time::Instant::now();
        rate.wait("A", 1000).await;
        assert!(start.elapsed() < Duration::from_millis(100));
    }
}
