//! The one inbound message type every provider's webhook is normalised to.

use chrono::{DateTime, Utc};

/// A text a phone sent us, as any provider reported it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InboundMessage {
    /// Which webhook it came through (`generic`, `kannel`, `twilio`, `vonage`, `sim`).
    pub provider: &'static str,
    /// The provider's id for the message; a retry repeats it.
    pub provider_id: String,
    /// The player's phone number.
    pub from: String,
    /// Our service number the player texted.
    pub to: String,
    pub text: String,
    pub received_at: DateTime<Utc>,
}

impl InboundMessage {
    /// The message with every NUL character replaced by U+FFFD, the mark of
    /// a character that could not be read: PostgreSQL's text cannot hold a
    /// NUL (it would make every retry of the text fail), and both backends
    /// must store the same. Replaced, not removed, so that `Q<NUL>` stays
    /// noise and is not read as `Q`.
    pub fn without_nul(mut self) -> InboundMessage {
        for field in [
            &mut self.provider_id,
            &mut self.from,
            &mut self.to,
            &mut self.text,
        ] {
            if field.contains('\0') {
                *field = field.replace('\0', "\u{fffd}");
            }
        }
        self
    }
}

/// Where a part of a long text stands in it, as the provider numbers the
/// parts (Vonage's `concat-ref`, `concat-part`, `concat-total`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Part {
    /// Shared by every part of one text from one phone (and reused later).
    pub reference: String,
    /// `1..=total`.
    pub number: u32,
    pub total: u32,
}

/// Most parts a concatenated SMS has (its header counts them in one byte).
pub const MAX_PARTS: u32 = 255;
