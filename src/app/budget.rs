//! A token bucket per key that can give a token back: the texts a phone may send.
//!
//! Not `governor`, which the address limit uses: a phone's text is charged
//! before the store sees it (a flood costs the writer nothing), but only a
//! new text may cost the phone anything, and whether a text is new is known
//! only after the store looked. A repeat (a provider's retry) and a text the
//! store could not take are given back, and `governor` has no way to give a
//! cell back.

use std::collections::HashMap;
use std::hash::{BuildHasher, Hash};
use std::sync::Mutex;
use std::time::Duration;

use chrono::{DateTime, Utc};

/// Independent locks, so that phones texting at once rarely wait for each other.
const SHARDS: usize = 16;

pub struct Budget<K> {
    /// Tokens a key may hold (its burst).
    capacity: f64,
    /// Tokens a key earns back per second.
    per_second: f64,
    shards: Vec<Mutex<HashMap<K, Bucket>>>,
    hasher: std::collections::hash_map::RandomState,
}

#[derive(Clone, Copy, Debug)]
struct Bucket {
    tokens: f64,
    at: DateTime<Utc>,
}

impl<K: Hash + Eq + Clone> Budget<K> {
    /// `burst` at once, then `per_minute` (both at least 1).
    pub fn per_minute(per_minute: u32, burst: u32) -> Budget<K> {
        Budget {
            capacity: f64::from(burst.max(1)),
            per_second: f64::from(per_minute.max(1)) / 60.0,
            shards: (0..SHARDS).map(|_| Mutex::default()).collect(),
            hasher: Default::default(),
        }
    }

    /// Takes a token from `key` if it has one; if not, how long until it
    /// has (what a player over his limit is told to wait).
    pub fn take(&self, key: &K, now: DateTime<Utc>) -> Result<(), Duration> {
        let mut shard = self.shard(key);
        let bucket = shard.entry(key.clone()).or_insert(Bucket {
            tokens: self.capacity,
            at: now,
        });
        self.refill(bucket, now);
        if bucket.tokens >= 1.0 {
            bucket.tokens -= 1.0;
            Ok(())
        } else {
            Err(Duration::from_secs_f64(
                (1.0 - bucket.tokens) / self.per_second,
            ))
        }
    }

    /// Gives a token taken from `key` back (never beyond its capacity).
    pub fn give_back(&self, key: &K, now: DateTime<Utc>) {
        let mut shard = self.shard(key);
        if let Some(bucket) = shard.get_mut(key) {
            self.refill(bucket, now);
            bucket.tokens = (bucket.tokens + 1.0).min(self.capacity);
        }
    }

    /// Forgets the keys whose bucket is full again: they are as good as new,
    /// and a flood of distinct numbers must not grow memory for ever.
    pub fn forget_full(&self, now: DateTime<Utc>) {
        for shard in &self.shards {
            let mut shard = shard.lock().unwrap_or_else(|e| e.into_inner());
            shard.retain(|_, bucket| {
                self.refill(bucket, now);
                bucket.tokens < self.capacity
            });
            shard.shrink_to_fit();
        }
    }

    fn refill(&self, bucket: &mut Bucket, now: DateTime<Utc>) {
        // A clock set back earns nothing (and takes nothing away).
        let elapsed = (now - bucket.at).to_std().unwrap_or_default();
        let earned = elapsed.as_secs_f64() * self.per_second;
        bucket.tokens = (bucket.tokens + earned).min(self.capacity);
        bucket.at = bucket.at.max(now);
    }

    fn shard(&self, key: &K) -> std::sync::MutexGuard<'_, HashMap<K, Bucket>> {
        let index = (self.hasher.hash_one(key) as usize) % SHARDS;
        // A panic elsewhere while a lock was held leaves counts, not broken
        // invariants: keep counting.
        self.shards[index].lock().unwrap_or_else(|e| e.into_inner())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(secs: i64) -> DateTime<Utc> {
        DateTime::from_timestamp(1_800_000_000 + secs, 0).unwrap()
    }

    #[test]
    fn a_burst_then_the_rate_and_a_token_given_back_counts_again() {
        let budget = Budget::per_minute(60, 3);
        let t0 = at(0);
        let key = "+1".to_string();
        assert!((0..3).all(|_| budget.take(&key, t0).is_ok()));
        assert!(budget.take(&key, t0).is_err(), "the burst is spent");
        budget.give_back(&key, t0);
        assert!(budget.take(&key, t0).is_ok(), "a repeat costs nothing");
        assert_eq!(
            budget.take(&key, t0),
            Err(Duration::from_secs(1)),
            "when to try again: a token comes back each second"
        );
        assert!(budget.take(&key, at(1)).is_ok(), "one a second");
        assert!(
            budget.take(&"+2".to_string(), t0).is_ok(),
            "another key's own budget"
        );
    }

    #[test]
    fn giving_back_never_exceeds_the_burst_and_full_keys_are_forgotten() {
        let budget = Budget::per_minute(60, 2);
        let t0 = at(0);
        let key = 7u32;
        assert!(budget.take(&key, t0).is_ok());
        for _ in 0..10 {
            budget.give_back(&key, t0);
        }
        assert!(budget.take(&key, t0).is_ok() && budget.take(&key, t0).is_ok());
        assert!(budget.take(&key, t0).is_err(), "no more than the burst");
        budget.forget_full(t0);
        assert_eq!(budget.shard(&key).len(), 1, "still spent: kept");
        budget.forget_full(at(5));
        assert_eq!(budget.shard(&key).len(), 0, "full again: forgotten");
    }
}
