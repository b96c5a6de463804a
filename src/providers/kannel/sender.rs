//! The `kannel` sender: Kannel's `sendsms` HTTP interface, delivery reports to `/webhooks/kannel/status`.
//!
//! Facts found by trying Kannel 1.4.5: it answers 202 even when it mangles a
//! text, so a non-GSM text must go as `coding=2` with UTF-16BE bytes; a `+` in
//! a number must be escaped; and it expands `%` codes inside the `dlr-url`
//! (`%d`, but also `%C`, `%A`, `%b`, ... and it drops unknown lower-case ones),
//! where only `%%` stands for a literal `%`. So the reference we put there is
//! plain letters and digits, and every `%` of our own in it is doubled.
//!
//! The `dlr-url` does not carry `webhooks.secret`: Kannel logs every URL it
//! calls, and a provider's error page may echo it. It carries a tag instead,
//! an HMAC of the text's reference under the secret ([`dlr_tag`]), which
//! proves the report is about a text we sent and is worth nothing for any other.

use hmac::{Hmac, Mac};
use hyper::Method;
use hyper::body::Bytes;
use hyper::header::{HOST, HeaderValue};
use percent_encoding::{NON_ALPHANUMERIC, percent_encode};
use sha2::Sha256;

use crate::config::{KannelConfig, Secret};
use crate::encoding;
use crate::providers::outbound::{Accepted, Outbound, SendError, SendFuture, classify_status};
use crate::providers::send_client::{SendClient, host_header, request, uri};
use crate::store::OutboxText;

pub struct Kannel {
    http: SendClient,
    cfg: KannelConfig,
    /// `/webhooks/kannel/status?` on our public URL, its `%` doubled for Kannel.
    dlr_base: String,
    /// The webhooks' secret: the key of every report's tag.
    secret: Secret,
    /// The `Host` header of the sendsms URL, made once: each text's URL is
    /// that one with a query added.
    host: Option<HeaderValue>,
}

impl Kannel {
    pub fn new(http: SendClient, cfg: KannelConfig, public_base: &str, secret: &Secret) -> Kannel {
        let host = uri(&cfg.sendsms_url, "sms.kannel.sendsms_url")
            .ok()
            .and_then(|url| host_header(&url));
        Kannel {
            http,
            cfg,
            dlr_base: dlr_base(public_base),
            secret: secret.clone(),
            host,
        }
    }

    /// The reference a delivery report will carry back to us.
    pub fn reference(text: &OutboxText) -> String {
        crate::providers::outbound::own_reference('k', text.id)
    }

    pub fn sendsms_url(&self, text: &OutboxText) -> String {
        let reference = Self::reference(text);
        let dlr_url = report_url(&self.dlr_base, &self.secret, &reference);
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

    async fn send_text(&self, text: &OutboxText) -> Result<Accepted, SendError> {
        let url = uri(&self.sendsms_url(text), "sms.kannel.sendsms_url")?;
        let mut request = request(Method::GET, url, "", Bytes::new());
        if let Some(host) = &self.host {
            request.headers_mut().insert(HOST, host.clone());
        }
        let answer = self.http.send(request).await?;
        if answer.status.is_success() {
            Ok(Accepted {
                provider_ref: Some(Self::reference(text)),
            })
        } else {
            Err(classify_status(answer.status, &answer.text()))
        }
    }
}

/// Where Kannel is to send the delivery reports of the text we call
/// `reference` (letters, digits and dashes): Kannel fills in `%d`, the report's type.
pub fn dlr_url(public_base: &str, secret: &str, reference: &str) -> String {
    report_url(&dlr_base(public_base), secret, reference)
}

/// The tag of `reference`'s reports: the first 16 bytes of
/// HMAC-SHA256(`secret`, `"kannel-dlr:" + reference`), in hex. Hex is
/// letters and digits, which Kannel leaves as they are.
pub fn dlr_tag(secret: &str, reference: &str) -> String {
    let mut mac =
        Hmac::<Sha256>::new_from_slice(secret.as_bytes()).expect("HMAC takes a key of any length");
    mac.update(b"kannel-dlr:");
    mac.update(reference.as_bytes());
    hex::encode(&mac.finalize().into_bytes()[..16])
}

/// `base` (its `%` doubled) with the tag, the reference and Kannel's `%d`;
/// no tag when no secret is set, as the webhook then checks none.
fn report_url(base: &str, secret: &str, reference: &str) -> String {
    let tag = if secret.is_empty() {
        String::new()
    } else {
        format!("tag={}&", dlr_tag(secret, reference))
    };
    format!("{base}{tag}ref={reference}&type=%d")
}

/// `/webhooks/kannel/status?` on our public URL, every `%` doubled: a
/// percent-encoded byte such as `%C3` would be read by Kannel as its
/// charset escape `%C`.
fn dlr_base(public_base: &str) -> String {
    format!("{public_base}/webhooks/kannel/status?").replace('%', "%%")
}

fn enc(bytes: &[u8]) -> String {
    percent_encode(bytes, NON_ALPHANUMERIC).to_string()
}

impl Outbound for Kannel {
    fn send<'a>(&'a self, text: &'a OutboxText) -> SendFuture<'a> {
        Box::pin(self.send_text(text))
    }
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
        let secret = Secret::from("s\u{e9}-cret");
        let kannel = Kannel::new(
            SendClient::new(1),
            KannelConfig::default(),
            "http://gw.example/sms%20arena",
            &secret,
        );
        let url = dlr_url(&kannel.sendsms_url(&text()));
        // HMAC-SHA256("sé-cret", "kannel-dlr:k7"), its first 16 bytes.
        assert_eq!(
            url,
            "http://gw.example/sms%%20arena/webhooks/kannel/status\
             ?tag=b68e37af5aa9ea46845e1e44054cbe86&ref=k7&type=%d"
        );
        assert_eq!(
            super::dlr_url("http://gw.example/sms%20arena", &secret, "k7"),
            url,
            "the answer's dlr-url is the sendsms one"
        );
        assert!(!url.contains("secret"), "{url}");
        let open = Kannel::new(
            SendClient::new(1),
            KannelConfig::default(),
            "http://gw.example",
            &Secret::default(),
        );
        assert_eq!(
            dlr_url(&open.sendsms_url(&text())),
            "http://gw.example/webhooks/kannel/status?ref=k7&type=%d"
        );
    }

    #[test]
    fn a_tag_is_worth_one_text_under_one_secret() {
        let tag = dlr_tag("s3cret", "k7");
        assert_eq!(tag.len(), 32);
        assert!(tag.bytes().all(|b| b.is_ascii_hexdigit()));
        assert_ne!(tag, dlr_tag("s3cret", "k8"));
        assert_ne!(tag, dlr_tag("s3cret!", "k7"));
    }
}
