//! The `console` provider: each text is one line on stdout (the embedded default, and `smsarena sim`).

use std::io::Write;

use super::{Accepted, SendError};
use crate::store::OutboxText;

pub struct Console;

impl Console {
    pub async fn send(&self, text: &OutboxText) -> Result<Accepted, SendError> {
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
