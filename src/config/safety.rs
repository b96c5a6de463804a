//! Settings `serve` refuses because they cannot work or open a door, and settings it starts with but names in a warning.

use super::Config;

/// A secret shorter than this is named in a warning (and an admin token
/// shorter than this is refused off loopback): a short secret is guessed.
pub const SECRET_MIN_LEN: usize = 16;

impl Config {
    /// Refuses what cannot work or opens a door, beyond the open webhooks
    /// [`Config::check_exposure`] refuses: an admin token shorter than
    /// [`SECRET_MIN_LEN`] on an address other hosts can reach, `/metrics`
    /// served there without a token (unless
    /// `metrics.allow_public_without_token` says so), and a Vonage signature
    /// method that does not exist (every signed request would be refused).
    pub fn check_settings(&self) -> Result<(), String> {
        let admin = self.admin.token.len();
        if admin > 0 && admin < SECRET_MIN_LEN && !self.http.listen.ip().is_loopback() {
            return Err(format!(
                "refusing to serve on {}: admin.token is {admin} characters, and the admin \
                 API on an address other hosts can reach needs one of {SECRET_MIN_LEN} or more \
                 (or leave admin.token empty to turn the admin API off)",
                self.http.listen
            ));
        }
        if self.hall.stream_max_secs == 0 {
            return Err(
                "hall.stream_max_secs is 0: every watching page's stream would end as it \
                 opened; give it at least 1 second"
                    .into(),
            );
        }
        if self.metrics_open_to_others() && !self.metrics.allow_public_without_token {
            return Err(format!(
                "refusing to serve on {}: metrics.enabled is true and metrics.token is empty, \
                 so anyone who reaches that address reads the service's counts. Set \
                 metrics.token (the scraper sends it as a bearer token), or listen on \
                 127.0.0.1, or, knowingly, set metrics.allow_public_without_token = true",
                self.http.listen
            ));
        }
        let vonage = &self.sms.vonage;
        if !vonage.signature_secret.is_empty()
            && !super::VONAGE_SIGNATURE_METHODS.contains(&vonage.signature_method.as_str())
        {
            return Err(format!(
                "sms.vonage.signature_method {:?} is none of md5hash, md5, sha1, sha256, \
                 sha512: every signed Vonage request would be refused",
                vonage.signature_method
            ));
        }
        Ok(())
    }

    /// `/metrics` served, without a token, on an address other hosts can reach.
    fn metrics_open_to_others(&self) -> bool {
        let loopback = self.http.listen.ip().is_loopback();
        !loopback && self.metrics.served(loopback) && self.metrics.token.is_empty()
    }

    /// What is allowed but unsafe, one sentence each, for `serve` to log
    /// at start: nothing unsafe starts without a word.
    pub fn warnings(&self) -> Vec<String> {
        let mut warnings = Vec::new();
        let public = !self.http.listen.ip().is_loopback();
        let open = self.unauthenticated_webhooks();
        if public && self.http.allow_insecure_public_webhooks && !open.is_empty() {
            warnings.push(format!(
                "http.allow_insecure_public_webhooks is on: the webhook(s) {} take texts \
                 from anyone who reaches {}, as any phone number",
                open.join(", "),
                self.http.listen
            ));
        }
        for (key, secret) in [
            ("webhooks.secret", self.webhooks.secret.expose()),
            ("sms.twilio.auth_token", self.sms.twilio.auth_token.expose()),
            (
                "sms.vonage.signature_secret",
                self.sms.vonage.signature_secret.expose(),
            ),
            ("admin.token", self.admin.token.expose()),
            ("metrics.token", self.metrics.token.expose()),
        ] {
            let len = secret.chars().count();
            if len > 0 && len < SECRET_MIN_LEN {
                warnings.push(format!(
                    "{key} is {len} characters: a secret that short is guessed; use \
                     {SECRET_MIN_LEN} or more"
                ));
            }
        }
        if self.metrics_open_to_others() {
            warnings.push(format!(
                "metrics.allow_public_without_token is on: /metrics answers anyone who \
                 reaches {} without a token",
                self.http.listen
            ));
        }
        if self.webhooks.twilio
            && !self.sms.twilio.auth_token.is_empty()
            && self.http.public_url.is_empty()
        {
            warnings.push(format!(
                "sms.twilio.auth_token is set but http.public_url is empty: Twilio signs \
                 the URL it calls, and signatures are checked against http://{}, so every \
                 Twilio request is refused unless Twilio calls that very address",
                self.http.listen
            ));
        }
        if public && self.hall.served(false) {
            warnings.push(format!(
                "hall.enabled is true on {}: anyone who reaches it can open virtual phones \
                 and play; {}",
                self.http.listen,
                self.hall.limits_in_words()
            ));
        }
        if self.hall.meet_real_players && self.hall.served(!public) {
            warnings.push(
                "hall.meet_real_players is true: web visitors are seated with real phones and \
                 may message them, and every text they cause to a real phone is an SMS the \
                 operator pays for"
                    .to_string(),
            );
        }
        let limits = &self.limits;
        for (key, off) in [
            ("limits.phone_per_minute", limits.phone_per_minute == 0),
            ("limits.address_per_second", limits.address_per_second == 0),
            ("limits.admin_per_second", limits.admin_per_second == 0),
        ] {
            if off {
                warnings.push(format!("{key} is 0: that flood limit is off"));
            }
        }
        warnings
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
    fn the_hall_on_a_public_listener_is_named_in_a_warning() {
        let mut cfg = public();
        let hall = |cfg: &Config| cfg.warnings().iter().any(|w| w.contains("hall.enabled"));
        assert!(
            !hall(&cfg),
            "auto: not served off loopback, so nothing to warn of"
        );
        cfg.hall.enabled = crate::settings::Switch::On;
        assert!(hall(&cfg));
        let mut local = Config::default();
        local.hall.enabled = crate::settings::Switch::On;
        assert!(!hall(&local));
    }

    #[test]
    fn the_hall_meeting_real_players_is_named_in_a_warning_where_the_hall_is_served() {
        let meets = |cfg: &Config| {
            cfg.warnings()
                .iter()
                .any(|w| w.contains("hall.meet_real_players"))
        };
        let mut local = Config::default();
        assert!(!meets(&local), "off by default");
        local.hall.meet_real_players = true;
        assert!(meets(&local), "auto serves the hall on loopback");
        local.hall.enabled = crate::settings::Switch::Off;
        assert!(!meets(&local), "no hall, no visitors to meet anyone");
    }

    #[test]
    fn the_hall_warning_says_which_of_its_limits_are_off() {
        let mut cfg = public();
        cfg.hall.enabled = crate::settings::Switch::On;
        let warning = |cfg: &Config| {
            cfg.warnings()
                .into_iter()
                .find(|w| w.contains("hall.enabled"))
                .unwrap()
        };
        let limited = warning(&cfg);
        assert!(
            limited.contains("hall.phones_per_hour is 30 new phones a client an hour")
                && limited.contains("hall.texts_per_minute is 120 texts a client a minute"),
            "{limited}"
        );
        assert!(!limited.contains(" off"), "{limited}");
        cfg.hall.phones_per_hour = 0;
        let no_phone_limit = warning(&cfg);
        assert!(
            no_phone_limit.contains("hall.phones_per_hour is 0: no limit on the phones")
                && no_phone_limit.contains("hall.texts_per_minute is 120"),
            "{no_phone_limit}"
        );
        assert!(!no_phone_limit.contains("within"), "{no_phone_limit}");
        cfg.hall.texts_per_minute = 0;
        let unlimited = warning(&cfg);
        assert!(
            unlimited.contains("hall.phones_per_hour is 0: no limit")
                && unlimited.contains("hall.texts_per_minute is 0: no limit on the texts"),
            "{unlimited}"
        );
    }

    #[test]
    fn a_short_admin_token_is_refused_off_loopback_only() {
        let mut cfg = public();
        cfg.admin.token = "t0ken".into();
        let err = cfg.check_settings().unwrap_err();
        assert!(err.contains("admin.token is 5 characters"), "{err}");
        assert!(!err.contains("t0ken"), "never the value: {err}");
        cfg.admin.token = "a-long-enough-admin-token".into();
        assert!(cfg.check_settings().is_ok());
        let mut local = Config::default();
        local.admin.token = "t0ken".into();
        assert!(local.check_settings().is_ok());
        assert!(
            local
                .warnings()
                .iter()
                .any(|w| w.starts_with("admin.token is 5")),
            "{:?}",
            local.warnings()
        );
    }

    #[test]
    fn public_metrics_without_a_token_are_refused_unless_allowed_and_then_named() {
        let mut cfg = public();
        cfg.metrics.enabled = crate::settings::Switch::On;
        let err = cfg.check_settings().unwrap_err();
        assert!(err.contains("metrics.token is empty"), "{err}");
        cfg.metrics.allow_public_without_token = true;
        assert!(cfg.check_settings().is_ok());
        let named = |cfg: &Config| {
            cfg.warnings()
                .iter()
                .any(|w| w.starts_with("metrics.allow_public_without_token is on"))
        };
        assert!(named(&cfg), "{:?}", cfg.warnings());
        cfg.metrics.token = "a-scraper-token-long-enough".into();
        assert!(cfg.check_settings().is_ok() && !named(&cfg));
        cfg.metrics.allow_public_without_token = false;
        assert!(cfg.check_settings().is_ok(), "a token: served");
        let mut auto = public();
        auto.metrics.token = "".into();
        assert!(
            auto.check_settings().is_ok(),
            "auto: not served off loopback"
        );
        let mut local = Config::default();
        local.metrics.enabled = crate::settings::Switch::On;
        assert!(local.check_settings().is_ok() && !named(&local));
    }

    #[test]
    fn an_unknown_signature_method_is_refused_when_signatures_are_checked() {
        let mut cfg = Config::default();
        cfg.sms.vonage.signature_method = "rot13".into();
        assert!(
            cfg.check_settings().is_ok(),
            "no secret: nothing is checked"
        );
        cfg.sms.vonage.signature_secret = "a-vonage-signature-secret".into();
        let err = cfg.check_settings().unwrap_err();
        assert!(err.contains("\"rot13\""), "{err}");
        cfg.sms.vonage.signature_method = "sha256".into();
        assert!(cfg.check_settings().is_ok());
    }

    #[test]
    fn a_hall_stream_that_would_end_as_it_opens_is_refused() {
        let mut cfg = Config::default();
        cfg.hall.stream_max_secs = 0;
        let err = cfg.check_settings().unwrap_err();
        assert!(err.contains("hall.stream_max_secs is 0"), "{err}");
        cfg.hall.stream_max_secs = 1;
        assert!(cfg.check_settings().is_ok());
    }

    #[test]
    fn each_unsafe_setting_is_named_in_a_warning() {
        let mut cfg = public();
        cfg.http.allow_insecure_public_webhooks = true;
        cfg.webhooks.secret = "s".into();
        cfg.sms.twilio.auth_token = "short-token".into();
        cfg.limits.phone_per_minute = 0;
        let warnings = cfg.warnings().join("\n");
        for named in [
            "http.allow_insecure_public_webhooks is on: the webhook(s) vonage",
            "webhooks.secret is 1 characters",
            "sms.twilio.auth_token is 11 characters",
            "sms.twilio.auth_token is set but http.public_url is empty",
            "limits.phone_per_minute is 0",
        ] {
            assert!(warnings.contains(named), "{named}: {warnings}");
        }
        assert!(!warnings.contains("short-token"), "never a value");
        assert!(
            Config::default().warnings().is_empty(),
            "the defaults are safe: {:?}",
            Config::default().warnings()
        );
    }
}
