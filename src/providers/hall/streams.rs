//! How many event streams each phone and each client holds, and the ticket each stream carries for its life.

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

fn lock(counts: &Mutex<Counts>) -> std::sync::MutexGuard<'_, Counts> {
    counts.lock().unwrap_or_else(|e| e.into_inner())
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
