//! Outbound SMS: encoding and parts, the send rate, and the outbox dispatcher (the senders themselves are each provider's, in `crate::providers`).

pub mod dispatcher;
pub mod encoding;
pub mod rate;
