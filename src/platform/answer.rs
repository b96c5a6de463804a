//! The reply that rides on the webhook's answer: Kannel sends what a
//! `get-url` answers to the phone, which spares it a `sendsms` request per
//! reply. Texts to the sender are held back while his text is handled; then
//! the one reply is recorded as given in the answer, or they are queued.

use chrono::{DateTime, Utc};

use crate::encoding::Encoding;
use crate::store::{NewText, OutboxText, StoreResult, Tx};

/// When a reply may ride on the answer, and the reference its delivery
/// reports will carry.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AnswerRule {
    /// The most parts the provider sends of one answer (Kannel's `max-messages`).
    pub max_parts: u32,
    pub reference: String,
}

/// The text the webhook gives in its answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Answer {
    pub from: String,
    pub body: String,
}

impl From<OutboxText> for Answer {
    fn from(text: OutboxText) -> Answer {
        Answer {
            from: text.from,
            body: text.body,
        }
    }
}

/// The sender's texts of one inbound text, held back until it is handled.
pub(super) struct Held {
    rule: AnswerRule,
    sender: String,
    texts: Vec<NewText>,
}

impl Held {
    pub fn new(rule: &AnswerRule, sender: &str) -> Held {
        Held {
            rule: rule.clone(),
            sender: sender.to_string(),
            texts: Vec::new(),
        }
    }

    /// Keeps a text to the sender; gives back any other.
    pub fn hold(&mut self, text: NewText) -> Option<NewText> {
        if text.to == self.sender {
            self.texts.push(text);
            None
        } else {
            Some(text)
        }
    }

    /// The answer, when the held texts are one that fits it; otherwise they
    /// are queued as any other, in their order. Only a lone reply rides:
    /// with two, the second would go through the outbox and could arrive first.
    pub fn settle(mut self, tx: &mut dyn Tx, now: DateTime<Utc>) -> StoreResult<Option<Answer>> {
        if let [text] = self.texts.as_slice()
            && text.encoding == Encoding::Gsm7.as_str()
            && text.parts <= self.rule.max_parts
        {
            let text = self.texts.remove(0);
            if tx.outbox().answer(&text, &self.rule.reference, now)? {
                return Ok(Some(Answer {
                    from: text.from,
                    body: text.body,
                }));
            }
            return Ok(None);
        }
        for text in self.texts {
            tx.outbox().enqueue(text, now)?;
        }
        Ok(None)
    }
}
