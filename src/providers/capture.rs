//! The `capture` provider: hands every text to a channel (the terminal phone, tests, the load generator).

use tokio::sync::mpsc;

use super::outbound::{Accepted, Outbound, SendError, SendFuture};
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

    async fn send_text(&self, text: &OutboxText) -> Result<Accepted, SendError> {
        self.sink.send(text.clone()).map_err(|_| SendError::Retry {
            reason: "nobody is listening".into(),
            after: None,
        })?;
        Ok(Accepted {
            provider_ref: Some(format!("capture-{}", text.id)),
        })
    }
}

impl Outbound for Capture {
    fn send<'a>(&'a self, text: &'a OutboxText) -> SendFuture<'a> {
        Box::pin(self.send_text(text))
    }
}
