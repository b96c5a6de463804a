//! Refusing strangers: a listener other hosts can reach, with a webhook that checks no secret, is an error unless asked for by name.

use super::Config;

impl Config {
    /// The enabled inbound webhooks that take a request without checking a
    /// secret or a signature, by route name.
    pub fn unauthenticated_webhooks(&self) -> Vec<&'static str> {
        let hooks = &self.webhooks;
        let shared_secret = !hooks.secret.is_empty();
        [
            ("generic", hooks.generic, shared_secret),
            ("kannel", hooks.kannel, shared_secret),
            (
                "twilio",
                hooks.twilio,
                !self.sms.twilio.auth_token.is_empty(),
            ),
            (
                "vonage",
                hooks.vonage,
                !self.sms.vonage.signature_secret.is_empty(),
            ),
        ]
        .into_iter()
        .filter(|&(_, enabled, checked)| enabled && !checked)
        .map(|(name, _, _)| name)
        .collect()
    }

    /// Refuses a listener on a non-loopback address while an enabled webhook
    /// is unauthenticated, unless `http.allow_insecure_public_webhooks` says so.
    pub fn check_exposure(&self) -> Result<(), String> {
        let open = self.unauthenticated_webhooks();
        if self.http.listen.ip().is_loopback()
            || open.is_empty()
            || self.http.allow_insecure_public_webhooks
        {
            return Ok(());
        }
        Err(format!(
            "refusing to serve on {}, an address other hosts can reach: the webhook(s) {} \
             take texts without a secret or signature, so anyone could play as anyone. \
             Set webhooks.secret (generic, kannel), sms.twilio.auth_token (twilio) or \
             sms.vonage.signature_secret (vonage); or turn the webhook off \
             (webhooks.<name> = false); or listen on 127.0.0.1 behind a proxy that \
             checks; or, knowingly, set http.allow_insecure_public_webhooks = true",
            self.http.listen,
            open.join(", ")
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn public() -> Config {
        let mut cfg = Config::default();
        cfg.http.listen = "0.0.0.0:8080".parse().unwrap();
        cfg
    }

    #[test]
    fn loopback_is_served_whatever_the_webhooks() {
        let cfg = Config::default();
        assert_eq!(cfg.unauthenticated_webhooks().len(), 4);
        assert!(cfg.check_exposure().is_ok());
        let mut v6 = Config::default();
        v6.http.listen = "[::1]:8080".parse().unwrap();
        assert!(v6.check_exposure().is_ok());
    }

    #[test]
    fn a_public_listener_needs_every_enabled_webhook_checked() {
        let err = public().check_exposure().unwrap_err();
        assert!(
            err.contains("generic, kannel, twilio, vonage") && err.contains("0.0.0.0:8080"),
            "{err}"
        );
        let mut cfg = public();
        cfg.webhooks.secret = "s".into();
        cfg.sms.twilio.auth_token = "t".into();
        let err = cfg.check_exposure().unwrap_err();
        assert!(err.contains("the webhook(s) vonage take"), "{err}");
        cfg.webhooks.vonage = false;
        assert!(
            cfg.check_exposure().is_ok(),
            "a disabled webhook is no door"
        );
        cfg.sms.twilio.auth_token = "".into();
        assert!(cfg.check_exposure().is_err());
        cfg.sms.vonage.signature_secret = "v".into();
        cfg.webhooks.vonage = true;
        cfg.sms.twilio.auth_token = "t".into();
        assert!(cfg.check_exposure().is_ok());
    }

    #[test]
    fn the_insecure_setting_lets_it_start_as_it_says() {
        let mut cfg = public();
        cfg.http.allow_insecure_public_webhooks = true;
        assert!(cfg.check_exposure().is_ok());
    }
}
