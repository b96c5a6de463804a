//! One unit of work's context (an inbound text, a timer, a robot's move):
//! the transaction, the time, the number replies go out from, and the texts
//! it queues.

use std::borrow::Cow;

use chrono::{DateTime, Utc};

use super::answer::{self, Answer, AnswerRule};
use super::catalog::Catalog;
use super::texts::Numbers;
use crate::config::Config;
use crate::store::{NewText, Player, Pool, StoreResult, Tx};

/// Matches started and finished in one unit of work, by game code: the
/// caller counts them once the transaction has committed.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    pub started: Vec<String>,
    pub finished: Vec<String>,
}

/// A lobby queue found busy: another instance was matching it
/// ([`crate::store::Queue::Busy`]). It is matched again once this unit of
/// work commits, and the players who joined it then are answered by that
/// look: the board if it seats them, else "wait".
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BusyQueue {
    pub game: String,
    /// Its option set, as canonical text.
    pub options: String,
    /// Whose turn in it is matched ([`crate::store::Pool`]).
    pub pool: Pool,
    /// Who joined it unanswered: his phone, and the number he texted.
    pub unanswered: Vec<(String, String)>,
}

impl BusyQueue {
    /// Adds this mark to `marks`, one per queue.
    pub fn mark_in(self, marks: &mut Vec<BusyQueue>) {
        match marks
            .iter_mut()
            .find(|m| m.game == self.game && m.options == self.options && m.pool == self.pool)
        {
            Some(mark) => mark.unanswered.extend(self.unanswered),
            None => marks.push(self),
        }
    }
}

pub(crate) struct Ctx<'a> {
    pub cfg: &'a Config,
    pub catalog: &'a Catalog,
    pub tx: &'a mut dyn Tx,
    pub now: DateTime<Utc>,
    /// A direct reply goes out from the number the player texted.
    pub reply_from: &'a str,
    /// A robot's turn fell due in this transaction.
    pub robots_due: bool,
    /// Matches this unit of work started and finished, for the metrics.
    pub tally: Tally,
    /// Lobby queues it joined while another instance was matching them:
    /// matched again once this unit of work has committed.
    pub queues_to_match: Vec<BusyQueue>,
    /// The sender's texts, held back for the webhook's answer.
    held: Option<answer::Held>,
}

impl<'a> Ctx<'a> {
    pub fn new(
        cfg: &'a Config,
        catalog: &'a Catalog,
        tx: &'a mut dyn Tx,
        now: DateTime<Utc>,
        reply_from: &'a str,
    ) -> Ctx<'a> {
        Ctx {
            cfg,
            catalog,
            tx,
            now,
            reply_from,
            robots_due: false,
            tally: Tally::default(),
            queues_to_match: Vec::new(),
            held: None,
        }
    }

    /// Holds back the texts to `sender` for the webhook's answer under `rule`.
    pub fn hold_for(&mut self, rule: &AnswerRule, sender: &str) {
        self.held = Some(answer::Held::new(rule, sender));
    }

    /// The held texts: the one that rides on the answer, or queued as any other.
    pub fn release_held(&mut self) -> StoreResult<Option<Answer>> {
        match self.held.take() {
            Some(held) => held.settle(self.tx, self.now),
            None => Ok(None),
        }
    }

    /// The service's two numbers, as texts name them.
    pub fn numbers(&self) -> Numbers<'a> {
        Numbers {
            play: &self.cfg.numbers.play,
            game: &self.cfg.numbers.game,
        }
    }

    /// Answers the sender directly (unless he opted out).
    pub fn reply(&mut self, to: &Player, body: String) -> StoreResult<()> {
        let from = self.reply_from;
        self.reply_later(to, from, body)
    }

    /// Answers a player's earlier text, from the number he texted.
    pub fn reply_later(&mut self, to: &Player, texted: &str, body: String) -> StoreResult<()> {
        if to.opted_out {
            return Ok(());
        }
        self.queue(texted, &to.phone, body)
    }

    /// Answers a phone we may hold no row for (a stranger).
    pub fn reply_to_phone(&mut self, phone: &str, body: String) -> StoreResult<()> {
        let from = self.reply_from;
        self.queue(from, phone, body)
    }

    /// Sends a match text from the game number, unless the player opted out or is away.
    pub fn notify(&mut self, to: &Player, body: String) -> StoreResult<()> {
        if to.opted_out || to.away {
            return Ok(());
        }
        let from = self.cfg.numbers.game.as_str();
        self.queue(from, &to.phone, body)
    }

    fn queue(&mut self, from: &str, to: &str, body: String) -> StoreResult<()> {
        let sms = &self.cfg.sms;
        let mut text = compose_text(from, to, body, sms.gsm_substitutions);
        if text.parts > sms.max_parts {
            // Every text is held to its size where it is made; this is the
            // last line against one that was not, and says so.
            tracing::warn!(
                parts = text.parts,
                max_parts = sms.max_parts,
                "a text over sms.max_parts cut to it"
            );
            let cut = crate::encoding::cut_to_parts(&text.body, sms.max_parts).into_owned();
            text = compose_text(from, to, cut, false);
        }
        let text = match &mut self.held {
            Some(held) => match held.hold(text) {
                Some(text) => text,
                None => return Ok(()),
            },
            None => text,
        };
        self.tx.outbox().enqueue(text, self.now)?;
        Ok(())
    }
}

/// Works out a text's encoding and parts once, when it is queued.
pub fn compose_text(from: &str, to: &str, body: String, gsm_substitutions: bool) -> NewText {
    use crate::encoding::{self, Encoding};
    let mut analysis = encoding::analyse(&body);
    // Look-alikes are sought only in a text GSM-7 cannot carry as it is:
    // the rest, nearly all, are read once.
    let body = match analysis.encoding {
        Encoding::Ucs2 if gsm_substitutions => match encoding::gsm_friendly(&body) {
            Cow::Owned(friendly) => {
                analysis = encoding::analyse(&friendly);
                friendly
            }
            Cow::Borrowed(_) => body,
        },
        _ => body,
    };
    NewText {
        from: from.to_string(),
        to: to.to_string(),
        body,
        encoding: analysis.encoding.as_str(),
        parts: analysis.parts,
    }
}
