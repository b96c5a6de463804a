//! How many event streams each phone and each client holds, the tickets each stream carries for its life, and a browser's next stream taking its last one's places.

use std::collections::HashMap;
use std::hash::Hash;
use std::net::IpAddr;
use std::sync::{Arc, Mutex};

#[derive(Default)]
struct Counts {
    phones: HashMap<String, u32>,
    clients: HashMap<IpAddr, u32>,
}

/// The streams open here, against `hall.streams_per_phone` and
/// `hall.streams_per_client` (0: no limit).
pub struct Streams {
    counts: Arc<Mutex<Counts>>,
    per_phone: u32,
    per_client: u32,
    browsers: Arc<Mutex<HashMap<BrowserKey, Browsing>>>,
    generation: std::sync::atomic::AtomicU64,
}

/// A browser's stream by the id its page chose, from its client: a page
/// that names more phones opens its next stream before the server has
/// seen the last one's connection close.
type BrowserKey = (Option<IpAddr>, String);

/// The places a browser's current stream holds, and how to end it.
struct Browsing {
    _tickets: Vec<Ticket>,
    ended: Arc<tokio::sync::Notify>,
    generation: u64,
}

/// One stream's places, for its life: given back when it is dropped, or
/// when the same browser opens its next stream (which then `ended` tells).
pub struct Held {
    browsers: Arc<Mutex<HashMap<BrowserKey, Browsing>>>,
    key: Option<BrowserKey>,
    generation: u64,
    _own: Vec<Ticket>,
    pub ended: Arc<tokio::sync::Notify>,
}

/// Why a stream was not opened, as the page is told.
#[derive(Debug, PartialEq, Eq)]
pub enum Refused {
    Phone(String, u32),
    Client(u32),
}

impl Refused {
    pub fn reason(&self) -> String {
        match self {
            Refused::Phone(phone, n) => {
                format!("the phone {phone} already has {n} pages watching it")
            }
            Refused::Client(n) => format!("you already watch {n} phones' texts"),
        }
    }
}

/// One open stream: counted until dropped (the stream ended, or its page
/// went away).
pub struct Ticket {
    counts: Arc<Mutex<Counts>>,
    phone: String,
    client: Option<IpAddr>,
}

impl Streams {
    pub fn new(per_phone: u32, per_client: u32) -> Streams {
        Streams {
            counts: Arc::default(),
            per_phone,
            per_client,
            browsers: Arc::default(),
            generation: Default::default(),
        }
    }

    /// A place for one more stream of `phone`, watched from `client`.
    pub fn open(&self, phone: &str, client: Option<IpAddr>) -> Result<Ticket, Refused> {
        let mut counts = lock(&self.counts);
        let full =
            |limit: u32, held: Option<&u32>| limit > 0 && held.copied().unwrap_or(0) >= limit;
        if full(self.per_phone, counts.phones.get(phone)) {
            return Err(Refused::Phone(phone.to_string(), self.per_phone));
        }
        if let Some(client) = client
            && full(self.per_client, counts.clients.get(&client))
        {
            return Err(Refused::Client(self.per_client));
        }
        *counts.phones.entry(phone.to_string()).or_default() += 1;
        if let Some(client) = client {
            *counts.clients.entry(client).or_default() += 1;
        }
        Ok(Ticket {
            counts: self.counts.clone(),
            phone: phone.to_string(),
            client,
        })
    }

    /// A place for each of `phones`, watched from `client` by one stream:
    /// all of them or none.
    pub fn open_all<'a>(
        &self,
        phones: impl IntoIterator<Item = &'a String>,
        client: Option<IpAddr>,
    ) -> Result<Vec<Ticket>, Refused> {
        // A refusal drops the tickets already taken, giving their places back.
        phones
            .into_iter()
            .map(|phone| self.open(phone, client))
            .collect()
    }
}

impl Streams {
    /// Places for the stream of `phones` a browser opens from `client`:
    /// when it names the id of its stream before (`browser`), that one
    /// ends and its places are this one's to take.
    pub fn open_for(
        &self,
        phones: &[String],
        client: Option<IpAddr>,
        browser: Option<&str>,
    ) -> Result<Held, Refused> {
        let ended = Arc::new(tokio::sync::Notify::new());
        let generation = self
            .generation
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let Some(id) = browser else {
            return Ok(Held {
                browsers: self.browsers.clone(),
                key: None,
                generation,
                _own: self.open_all(phones, client)?,
                ended,
            });
        };
        let key = (client, id.to_string());
        let mut browsers = lock(&self.browsers);
        if let Some(before) = browsers.remove(&key) {
            before.ended.notify_one();
        }
        let tickets = self.open_all(phones, client)?;
        browsers.insert(
            key.clone(),
            Browsing {
                _tickets: tickets,
                ended: ended.clone(),
                generation,
            },
        );
        Ok(Held {
            browsers: self.browsers.clone(),
            key: Some(key),
            generation,
            _own: Vec::new(),
            ended,
        })
    }
}

impl Drop for Held {
    fn drop(&mut self) {
        if let Some(key) = &self.key {
            let mut browsers = lock(&self.browsers);
            if browsers
                .get(key)
                .is_some_and(|b| b.generation == self.generation)
            {
                browsers.remove(key);
            }
        }
    }
}

impl Drop for Ticket {
    fn drop(&mut self) {
        let mut counts = lock(&self.counts);
        release(&mut counts.phones, &self.phone);
        if let Some(client) = self.client {
            release(&mut counts.clients, &client);
        }
    }
}

/// One fewer; a key at none is forgotten, so the maps hold only live streams.
fn release<K: Eq + Hash>(map: &mut HashMap<K, u32>, key: &K) {
    if let Some(held) = map.get_mut(key) {
        *held -= 1;
        if *held == 0 {
            map.remove(key);
        }
    }
}

fn lock<T>(held: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    held.lock().unwrap_or_else(|e| e.into_inner())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn streams_are_capped_per_phone_and_per_client_and_given_back() {
        let streams = Streams::new(2, 3);
        let a: IpAddr = "192.0.2.1".parse().unwrap();
        let b: IpAddr = "192.0.2.2".parse().unwrap();
        let first = streams.open("+1", Some(a)).unwrap();
        let _second = streams.open("+1", Some(b)).unwrap();
        assert_eq!(
            streams.open("+1", Some(b)).err(),
            Some(Refused::Phone("+1".into(), 2))
        );
        let _third = streams.open("+2", Some(a)).unwrap();
        let _fourth = streams.open("+3", Some(a)).unwrap();
        assert_eq!(streams.open("+4", Some(a)).err(), Some(Refused::Client(3)));
        assert!(streams.open("+4", Some(b)).is_ok(), "another client's own");
        drop(first);
        assert!(
            streams.open("+5", Some(a)).is_ok(),
            "a stream that ended gave its place back"
        );
        assert!(
            !lock(&streams.counts).phones.contains_key("+4"),
            "none held: forgotten"
        );
    }

    #[test]
    fn a_stream_of_several_phones_takes_a_place_for_each_or_none() {
        let streams = Streams::new(1, 3);
        let a: IpAddr = "192.0.2.1".parse().unwrap();
        let phones: Vec<String> = ["+1", "+2", "+3"].map(String::from).to_vec();
        let held = streams.open_all(&phones, Some(a)).unwrap();
        assert_eq!(held.len(), 3);
        let more: Vec<String> = vec!["+4".into()];
        assert_eq!(
            streams.open_all(&more, Some(a)).err(),
            Some(Refused::Client(3))
        );
        drop(held);
        let _one = streams.open("+2", None).unwrap();
        assert_eq!(
            streams.open_all(&phones, Some(a)).err(),
            Some(Refused::Phone("+2".into(), 1))
        );
        assert_eq!(
            lock(&streams.counts).clients.get(&a),
            None,
            "the refused stream kept no place"
        );
    }

    #[tokio::test]
    async fn a_browsers_next_stream_takes_the_places_of_its_last_and_ends_it() {
        let streams = Streams::new(1, 2);
        let a: IpAddr = "192.0.2.1".parse().unwrap();
        let phones: Vec<String> = vec!["+1".into(), "+2".into()];
        let first = streams.open_for(&phones, Some(a), Some("tab")).unwrap();
        assert!(
            streams.open_for(&phones, Some(a), Some("other")).is_err(),
            "another browser's stream does not take them"
        );
        let second = streams.open_for(&phones, Some(a), Some("tab")).unwrap();
        tokio::time::timeout(std::time::Duration::from_secs(1), first.ended.notified())
            .await
            .expect("the stream before was told to end");
        drop(first);
        assert!(
            streams.open("+1", None).is_err(),
            "the last stream's drop left the next one's places alone"
        );
        drop(second);
        assert!(streams.open("+1", None).is_ok(), "given back at its end");
    }

    #[test]
    fn zero_turns_a_cap_off() {
        let streams = Streams::new(0, 0);
        let held: Vec<Ticket> = (0..100)
            .map(|_| {
                streams
                    .open("+1", Some("192.0.2.1".parse().unwrap()))
                    .unwrap()
            })
            .collect();
        assert_eq!(held.len(), 100);
    }
}
