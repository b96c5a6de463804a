//! Where the hall's sender meets the pages that are open: each virtual phone's texts, handed to whoever watches its thread in this process.

use std::collections::HashMap;
use std::sync::Mutex;

use tokio::sync::broadcast;

use crate::store::OutboxText;

/// Texts a slow page may fall behind by before it misses some (it then
/// reads them from the store, as after a reload).
const BACKLOG: usize = 64;

#[derive(Default)]
pub struct Hub {
    phones: Mutex<HashMap<String, broadcast::Sender<OutboxText>>>,
}

impl Hub {
    /// Hands a text to every page watching its phone here; `false` when
    /// none is (the text waits in the outbox for the phone to come back).
    pub fn publish(&self, text: &OutboxText) -> bool {
        let mut phones = self.lock();
        let Some(sender) = phones.get(&text.to) else {
            return false;
        };
        if sender.send(text.clone()).is_ok() {
            return true;
        }
        // Every page of the phone went away since it last texted.
        phones.remove(&text.to);
        false
    }

    /// The texts to `phone` from now on.
    pub fn subscribe(&self, phone: &str) -> broadcast::Receiver<OutboxText> {
        let mut phones = self.lock();
        if let Some(sender) = phones.get(phone) {
            return sender.subscribe();
        }
        let (sender, receiver) = broadcast::channel(BACKLOG);
        phones.insert(phone.to_string(), sender);
        receiver
    }

    /// Phones with a page open here.
    pub fn watched(&self) -> usize {
        let mut phones = self.lock();
        phones.retain(|_, sender| sender.receiver_count() > 0);
        phones.len()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, broadcast::Sender<OutboxText>>> {
        self.phones.lock().unwrap_or_else(|e| e.into_inner())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::TextStatus;

    fn text(to: &str, id: i64) -> OutboxText {
        OutboxText {
            id,
            from: "002220".into(),
            to: to.into(),
            body: "hi".into(),
            encoding: "gsm7".into(),
            parts: 1,
            attempts: 1,
            status: TextStatus::Sending,
            provider_ref: None,
            last_error: None,
        }
    }

    #[tokio::test]
    async fn a_text_reaches_the_pages_of_its_phone_only() {
        let hub = Hub::default();
        assert!(!hub.publish(&text("+99900000001", 1)), "nobody watches");
        let mut mine = hub.subscribe("+99900000001");
        let mut also_mine = hub.subscribe("+99900000001");
        let mut other = hub.subscribe("+99900000002");
        assert!(hub.publish(&text("+99900000001", 2)));
        assert_eq!(mine.recv().await.unwrap().id, 2);
        assert_eq!(also_mine.recv().await.unwrap().id, 2);
        assert!(
            other.try_recv().is_err(),
            "another phone's page sees nothing"
        );
        drop((mine, also_mine));
        assert!(!hub.publish(&text("+99900000001", 3)), "its pages closed");
        assert_eq!(hub.watched(), 1);
    }
}
