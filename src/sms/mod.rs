//! Outbound SMS: encoding and parts, the send rate, and the outbox dispatcher (the senders themselves are each provider's, in `crate::providers`).

pub mod dispatcher;
// What a text costs lives below the service, shared with the games (crates/text).
pub use smsarena_text::encoding;
pub mod rate;
