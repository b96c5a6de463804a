//! The `console` SMS provider (`sms.provider = "console"`), written to stdout: each text is one line (the embedded default, and `smsarena sim`). Not the operator's console (`src/console/`).

use std::io::Write;

use super::Registration;
use super::outbound::{Accepted, Outbound, SendError, SendFuture};
use crate::config::ProviderKind;
use crate::store::OutboxText;

pub struct Stdout;

/// Sends only: texts printed, nothing comes in.
pub const PROVIDER: Registration = Registration {
    kind: ProviderKind::Console,
    webhooks: |_| None,
    sender: |_, _| Ok(Box::new(Stdout)),
};

impl Stdout {
    async fn send_text(&self, text: &OutboxText) -> Result<Accepted, SendError> {
        let line = format!(
            "SMS from={} to={} text={:?}\n",
            text.from, text.to, text.body
        );
        let mut out = std::io::stdout().lock();
        out.write_all(line.as_bytes())
            .and_then(|()| out.flush())
            .map_err(|e| SendError::Retry {
                reason: format!("stdout: {e}"),
                after: None,
            })?;
        Ok(Accepted {
            provider_ref: Some(format!("console-{}", text.id)),
        })
    }
}

impl Outbound for Stdout {
    fn send<'a>(&'a self, text: &'a OutboxText) -> SendFuture<'a> {
        Box::pin(self.send_text(text))
    }
}
