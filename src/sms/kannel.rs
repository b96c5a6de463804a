//! The `kannel` sender: Kannel's `sendsms` HTTP interface, delivery reports to `/webhooks/kannel/status`.
//!
//! Facts found by trying Kannel 1.4.5: it answers 202 even when it mangles a
//! text, so a non-GSM text must go as `coding=2` with UTF-16BE bytes; a `+` in
//! a number must be escaped; and it expands `%` codes inside the `dlr-url`
//! (`%d`, but also `%C`, `%A`, `%b`, ... and it drops unknown lower-case ones),
//! where only `%%` stands for a literal `%`. So the reference we put there is
//! plain letters and digits, and every `%` of our own in it is doubled.

use percent_encoding::{NON_ALPHANUMERIC, percent_encode};

use super::{Accepted, SendError, classify_status, encoding, transport_error};
use crate::config::KannelConfig;
use crate::store::OutboxText;

pub struct Kannel {
    http: reqwest::Client,
    cfg: KannelConfig,
    /// `/webhooks/kannel/status` on our public URL, with the secret; its `%` doubled for Kannel.
    dlr_base: String,
}

impl Kannel {
    pub fn new(
        http: reqwest::Client,
        cfg: KannelConfig,
        public_base: &str,
        secret: &str,
    ) -> Kannel {
        Kannel {
            http,
            cfg,
            dlr_base: dlr_base(public_base, secret),
        }
    }

    /// The reference a delivery report will carry back to us.
    pub fn reference(text: &OutboxText) -> String {
        format!("k{}", text.id)
    }

    pub fn sendsms_url(&self, text: &OutboxText) -> String {
        let reference = Self::reference(text);
        // %d is Kannel's delivery-report type, filled in by Kannel.
        let dlr_url = format!("{}ref={reference}&type=%d", self.dlr_base);
        let ucs2 = self.cfg.always_ucs2 || text.encoding == encoding::Encoding::Ucs2.as_str();
        let (coding, charset, body) = if ucs2 {
            ("2", "UTF-16BE", encoding::to_ucs2_be(&text.body))
        } else {
            ("0", "UTF-8", text.body.as_bytes().to_vec())
        };
        let sep = if self.cfg.sendsms_url.contains('?') {
            '&'
        } else {
            '?'
        };
        format!(
            "{}{sep}username={}&password={}&from={}&to={}&text={}&coding={coding}&charset={charset}&dlr-mask={}&dlr-url={}",
            self.cfg.sendsms_url,
            enc(self.cfg.username.as_bytes()),
            enc(self.cfg.password.as_bytes()),
            enc(text.from.as_bytes()),
            enc(text.to.as_bytes()),
            enc(&body),
            self.cfg.dlr_mask,
            enc(dlr_url.as_bytes()),
        )
    }

    pub async fn send(&self, text: &OutboxText) -> Result<Accepted, SendError> {
        let response = self
            .http
            .get(self.sendsms_url(text))
            .send()
            .await
            .map_err(transport_error)?;
        let status = response.status();
        let body = response.text().await.unwrap_or_default();
        if status.is_success() {
            Ok(Accepted {
                provider_ref: Some(Self::reference(text)),
            })
        } else {
            Err(classify_status(status, &body))
        }
    }
}

/// Where Kannel is to send the delivery reports of the text we call
/// `reference` (letters and digits): Kannel fills in `%d`, the report's type.
pub fn dlr_url(public_base: &str, secret: &str, reference: &str) -> String {
    format!("{}ref={reference}&type=%d", dlr_base(public_base, secret))
}

/// `/webhooks/kannel/status` on our public URL, with the secret, every `%` doubled.
fn dlr_base(public_base: &str, secret: &str) -> String {
    let mut base = format!("{public_base}/webhooks/kannel/status?");
    if !secret.is_empty() {
        base.push_str(&format!("secret={}&", enc(secret.as_bytes())));
    }
    // A secret with a non-ASCII byte encodes as e.g. `%C3`, which Kannel
    // would expand as its charset escape `%C`: the report then fails our
    // secret check, however often Kannel tries it.
    base.replace('%', "%%")
}

fn enc(bytes: &[u8]) -> String {
    percent_encode(bytes, NON_ALPHANUMERIC).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text() -> OutboxText {
        OutboxText {
            id: 7,
            from: "002220".into(),
            to: "+79001".into(),
            body: "hi".into(),
            encoding: "gsm7".into(),
            parts: 1,
            attempts: 1,
            status: crate::store::TextStatus::Sending,
            provider_ref: None,
            last_error: None,
        }
    }

    /// The dlr-url as Kannel receives it, after the sendsms query is decoded.
    fn dlr_url(url: &str) -> String {
        let (_, query) = url.split_once('?').unwrap();
        serde_urlencoded::from_str::<Vec<(String, String)>>(query)
            .unwrap()
            .into_iter()
            .find(|(k, _)| k == "dlr-url")
            .unwrap()
            .1
    }

    #[test]
    fn only_the_report_type_is_left_for_kannel_to_expand_in_the_dlr_url() {
        let kannel = Kannel::new(
            reqwest::Client::new(),
            KannelConfig::default(),
            "http://gw.example",
            "s\u{e9}-cret",
        );
        assert_eq!(
            dlr_url(&kannel.sendsms_url(&text())),
            "http://gw.example/webhooks/kannel/status?secret=s%%C3%%A9%%2Dcret&ref=k7&type=%d"
        );
        let open = Kannel::new(
            reqwest::Client::new(),
            KannelConfig::default(),
            "http://gw.example",
            "",
        );
        assert_eq!(
            dlr_url(&open.sendsms_url(&text())),
            "http://gw.example/webhooks/kannel/status?ref=k7&type=%d"
        );
    }
}
