//! The `capture` provider: hands every text to a channel (the terminal phone, tests, the load generator).

use tokio::sync::mpsc;

use super::{Accepted, SendError};
use crate::store::OutboxText;

pub struct Capture {
    sink: mpsc::UnboundedSender<OutboxText>,
}

impl Capture {
    /// A provider and the receiving end of everything it "sends".
    pub fn new() -> (Capture, mpsc::UnboundedReceiver<OutboxText>) {
        let (sink, texts) = mpsc::unbounded_channel();
        (Capture { sink }, texts)
    }

    pub async fn send(&self, text: &OutboxText) -> Result<Accepted, SendError> {
        self.sink.send(text.clone()).map_err(|_| SendError::Retry {
            reason: "nobody is listening".into(),
            after: None,
        })?;
        Ok(Accepted {
            provider_ref: Some(format!("capture-{}", text.id)),
        })
    }
}
