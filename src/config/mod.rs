//! One typed configuration: built-in defaults, then a TOML file, then `SMSARENA_<SECTION>__<KEY>` variables.

use std::net::SocketAddr;
use std::path::Path;
use std::sync::OnceLock;

use figment::Figment;
use figment::providers::{Format, Serialized, Toml};
use serde::{Deserialize, Serialize};

mod database;
mod env;
mod error;
mod exposure;
mod hall;
mod limits;
mod proxies;
mod safety;
mod secret;
mod texts;

pub use database::shown_url as shown_database_url;
pub use env::EnvStrings;
pub use error::{ConfigError, Problem};
pub use hall::HallConfig;
pub use limits::{AddressList, LimitsConfig};
pub use proxies::ProxyList;
pub use safety::SECRET_MIN_LEN;
pub use secret::{Scrubber, Secret};
pub use texts::TextsConfig;

use crate::games::{auto_race, football, intelball};
use crate::phone::{NumberError, NumberPlan};
use crate::settings::lenient;

/// The whole configuration. Every key has a default, so an empty file is valid.
#[derive(Clone, Debug, Default, Deserialize, Serialize)]
#[serde(default, deny_unknown_fields)]
pub struct Config {
    pub http: HttpConfig,
    pub database: DatabaseConfig,
    pub numbers: NumbersConfig,
    pub webhooks: WebhooksConfig,
    pub sms: SmsConfig,
    pub admin: AdminConfig,
    pub game: GameConfig,
    pub football: football::Settings,
    pub intelball: intelball::Settings,
    pub auto_race: auto_race::Settings,
    pub robots: RobotsConfig,
    pub limits: LimitsConfig,
    pub log: LogConfig,
    pub hall: HallConfig,
    pub metrics: MetricsConfig,
    pub texts: TextsConfig,
}

#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(default, deny_unknown_fields)]
pub struct HttpConfig {
    /// Address to serve on.
    #[serde(deserialize_with = "lenient")]
    pub listen: SocketAddr,
    /// The URL providers call us on (signatures, callback URLs); empty means `http://<listen>`.
    pub public_url: String,
    /// Largest request body accepted from a provider, in bytes.
    #[serde(deserialize_with = "lenient")]
    pub max_body_bytes: usize,
    /// A request that takes longer than this is answered 503 so providers retry.
    #[serde(deserialize_with = "lenient")]
    pub request_timeout_ms: u64,
    /// A connection that has not sent a whole request head this long after
    /// it was accepted (or, kept alive, after the first byte of its next
    /// request) is closed: a half-open connection holds a descriptor.
    #[serde(deserialize_with = "lenient")]
    pub header_read_timeout_ms: u64,
    /// A kept-alive connection with no request in flight for this long is closed.
    #[serde(deserialize_with = "lenient")]
    pub idle_timeout_ms: u64,
    /// A request whose whole body has not arrived this long after its head
    /// is cut (the connection closed): a total, so a trickle of one byte a
    /// second does not hold the connection either.
    #[serde(deserialize_with = "lenient")]
    pub body_read_timeout_ms: u64,
    /// Of the connection cap, the share (percent) that long-lived streams
    /// (the hall's event streams) may hold; past it a new one is answered 503.
    #[serde(deserialize_with = "lenient")]
    pub stream_share_percent: u8,
    /// Reverse proxies whose `X-Forwarded-For` names the client: addresses
    /// or CIDR ranges. Empty: the peer is the client, whatever it forwards.
    #[serde(deserialize_with = "lenient")]
    pub trusted_proxies: ProxyList,
    /// Most connections open at once; at the cap a new one is served by
    /// closing one that waits on its client (idle, a head, a slow body) or,
    /// failing those, the oldest long-lived stream. Lowered at start to
    /// what fits under the open-files limit; 0 means just that figure.
    #[serde(deserialize_with = "lenient")]
    pub max_connections: usize,
    /// Serve on an address other hosts can reach even while an enabled
    /// webhook checks no secret or signature (anyone could then play as
    /// anyone). Off: such a listener is refused at start.
    #[serde(deserialize_with = "lenient")]
    pub allow_insecure_public_webhooks: bool,
}

impl Default for HttpConfig {
    fn default() -> Self {
        HttpConfig {
            listen: SocketAddr::from(([127, 0, 0, 1], 8080)),
            public_url: String::new(),
            max_body_bytes: 64 * 1024,
            request_timeout_ms: 10_000,
            header_read_timeout_ms: 5_000,
            idle_timeout_ms: 60_000,
            body_read_timeout_ms: 2_000,
            stream_share_percent: 50,
            trusted_proxies: ProxyList::default(),
            max_connections: 4096,
            allow_insecure_public_webhooks: false,
        }
    }
}

impl HttpConfig {
    /// The public base URL without a trailing slash.
    pub fn public_base(&self) -> String {
        if self.public_url.is_empty() {
            format!("http://{}", self.listen)
        } else {
            self.public_url.trim_end_matches('/').to_string()
        }
    }
}

#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(default, deny_unknown_fields)]
pub struct DatabaseConfig {
    /// `sqlite://path/to/file.db` or `postgres://...`.
    pub url: String,
    /// Most callers the writer (SQLite or PostgreSQL) commits in one transaction.
    #[serde(deserialize_with = "lenient")]
    pub max_batch: usize,
    /// Callers that may wait for the writer at once; past it a request is
    /// answered 503 at once (the provider retries), not queued without end.
    #[serde(deserialize_with = "lenient")]
    pub queue_depth: usize,
    /// Days an inbound text's body and numbers are kept; then only its
    /// provider id stays, for deduplication. 0 keeps them for ever.
    #[serde(deserialize_with = "lenient")]
    pub inbound_retention_days: u32,
}

impl DatabaseConfig {
    /// The URL with every credential in it (the userinfo's password, a
    /// `password=`-like query parameter) replaced by `***`, for logs and errors.
    pub fn shown_url(&self) -> String {
        database::shown_url(&self.url)
    }
}

/// Callers that may wait for the database's writer, by default
/// (`database.queue_depth`).
pub const DEFAULT_QUEUE_DEPTH: usize = 8192;

impl Default for DatabaseConfig {
    fn default() -> Self {
        DatabaseConfig {
            url: "sqlite://smsarena.db".into(),
            max_batch: 128,
            queue_depth: DEFAULT_QUEUE_DEPTH,
            inbound_retention_days: 30,
        }
    }
}

#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(default, deny_unknown_fields)]
pub struct NumbersConfig {
    /// The "play number": `P`, `PA`.
    pub play: String,
    /// The "game number": `R`, moves, and every text about a match.
    pub game: String,
    /// The country (ISO 3166, e.g. `RU`, `GB`) whose national forms a bare
    /// run of digits is read in (`89001234567` is `+79001234567` in `RU`);
    /// empty: bare digits are E.164 without the `+`.
    pub region: String,
    /// The plan `region` names, read once: every inbound text's two numbers
    /// are read in it.
    #[serde(skip)]
    plan: OnceLock<NumberPlan>,
}

impl Default for NumbersConfig {
    fn default() -> Self {
        NumbersConfig {
            play: "002227".into(),
            game: "002220".into(),
            region: "RU".into(),
            plan: OnceLock::new(),
        }
    }
}

impl NumbersConfig {
    /// A number as a provider spelled it, in its canonical form (see [`crate::phone`]).
    pub fn canonical(&self, raw: &str) -> Result<String, NumberError> {
        self.plan
            .get_or_init(|| NumberPlan::new(&self.region).unwrap_or_default())
            .canonical(raw)
    }

    /// Is `number` (canonical) one of the two service numbers?
    pub fn serves(&self, number: &str) -> bool {
        number == self.play || number == self.game
    }

    /// The region and the service numbers checked, and the numbers put in
    /// their canonical form, so that an inbound `to` compares with them.
    pub fn canonicalise(&mut self) -> Result<(), String> {
        let plan = NumberPlan::new(&self.region).map_err(|e| format!("numbers.region: {e}"))?;
        self.plan = OnceLock::from(plan);
        for (key, number) in [("play", &mut self.play), ("game", &mut self.game)] {
            *number = plan
                .canonical(number)
                .map_err(|e| format!("numbers.{key} {e}"))?;
        }
        if self.play == self.game {
            return Err("numbers.play and numbers.game are the same number".into());
        }
        Ok(())
    }
}

#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(default, deny_unknown_fields)]
pub struct WebhooksConfig {
    /// Shared secret for `generic` (header `X-Webhook-Secret`) and `kannel` (query
    /// `secret`), and the key of the tags on Kannel's delivery reports.
    pub secret: Secret,
    /// Which inbound webhooks are served; a disabled one answers 404.
    #[serde(deserialize_with = "lenient")]
    pub generic: bool,
    #[serde(deserialize_with = "lenient")]
    pub kannel: bool,
    #[serde(deserialize_with = "lenient")]
    pub twilio: bool,
    #[serde(deserialize_with = "lenient")]
    pub vonage: bool,
}

impl Default for WebhooksConfig {
    fn default() -> Self {
        WebhooksConfig {
            secret: Secret::default(),
            generic: true,
            kannel: true,
            twilio: true,
            vonage: true,
        }
    }
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ProviderKind {
    #[default]
    Console,
    Kannel,
    Twilio,
    Vonage,
    Generic,
    /// The training hall: not a sender of its own (it reaches only its
    /// virtual phones, beside whichever provider sends to real ones), so
    /// `sms.provider` cannot name it.
    #[serde(skip)]
    Hall,
}

impl ProviderKind {
    /// Its name, as `sms.provider`, webhooks' paths and metrics' labels say it.
    pub fn as_str(self) -> &'static str {
        match self {
            ProviderKind::Console => "console",
            ProviderKind::Kannel => "kannel",
            ProviderKind::Twilio => "twilio",
            ProviderKind::Vonage => "vonage",
            ProviderKind::Generic => "generic",
            ProviderKind::Hall => "hall",
        }
    }
}

#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(default, deny_unknown_fields)]
pub struct SmsConfig {
    /// Which provider sends our texts.
    pub provider: ProviderKind,
    /// Replace curly quotes, dashes and odd spaces so a text stays GSM-7.
    #[serde(deserialize_with = "lenient")]
    pub gsm_substitutions: bool,
    /// Attempts before a text is parked as failed.
    #[serde(deserialize_with = "lenient")]
    pub max_attempts: u32,
    /// The most SMS parts any outgoing text may take; a longer one is cut
    /// (and a warning logged): every part is paid for.
    #[serde(deserialize_with = "lenient")]
    pub max_parts: u32,
    /// First retry delay; doubles each attempt (with jitter) up to `retry_max_ms`.
    #[serde(deserialize_with = "lenient")]
    pub retry_base_ms: u64,
    #[serde(deserialize_with = "lenient")]
    pub retry_max_ms: u64,
    /// How long a claimed text stays ours before another instance may take it.
    #[serde(deserialize_with = "lenient")]
    pub lease_ms: u64,
    /// SMS parts per second allowed from one sending number; 0 means unlimited.
    #[serde(deserialize_with = "lenient")]
    pub parts_per_second: f64,
    /// Texts sent at once across all recipients.
    #[serde(deserialize_with = "lenient")]
    pub concurrency: usize,
    /// Timeout of one send request.
    #[serde(deserialize_with = "lenient")]
    pub send_timeout_ms: u64,
    pub kannel: KannelConfig,
    pub twilio: TwilioConfig,
    pub vonage: VonageConfig,
    pub generic: GenericConfig,
}

impl Default for SmsConfig {
    fn default() -> Self {
        SmsConfig {
            provider: ProviderKind::Console,
            gsm_substitutions: true,
            max_attempts: 8,
            max_parts: 6,
            retry_base_ms: 500,
            retry_max_ms: 60_000,
            lease_ms: 30_000,
            parts_per_second: 0.0,
            concurrency: 64,
            send_timeout_ms: 10_000,
            kannel: KannelConfig::default(),
            twilio: TwilioConfig::default(),
            vonage: VonageConfig::default(),
            generic: GenericConfig::default(),
        }
    }
}

#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(default, deny_unknown_fields)]
pub struct KannelConfig {
    pub sendsms_url: String,
    pub username: String,
    pub password: Secret,
    /// Which delivery reports Kannel should send back (31 = all).
    #[serde(deserialize_with = "lenient")]
    pub dlr_mask: u32,
    /// Send every text as UCS-2 (`coding=2`), even one that fits GSM-7: for
    /// SMSCs (and Kannel's own fakesmsc, which crashes on a 7-bit text with a
    /// line break) that mangle 7-bit texts. Costs parts: 70 characters a part.
    pub always_ucs2: bool,
    /// The reply to a phone's text rides on the webhook's answer, as Kannel
    /// sends a `get-url`'s answer to the phone, when it is the one text to
    /// that phone, GSM-7, at most this many parts, and no earlier text to the
    /// phone is still unsent. Set it to the `sms-service`'s `max-messages`
    /// (which must be at least 1, with `concatenation = true` and
    /// `accept-x-kannel-headers = true`); 0, the default, sends every text
    /// through `sendsms`.
    #[serde(deserialize_with = "lenient")]
    pub answer_max_parts: u32,
}

impl Default for KannelConfig {
    fn default() -> Self {
        KannelConfig {
            sendsms_url: "http://127.0.0.1:13013/cgi-bin/sendsms".into(),
            username: String::new(),
            password: Secret::default(),
            dlr_mask: 31,
            always_ucs2: false,
            answer_max_parts: 0,
        }
    }
}

#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(default, deny_unknown_fields)]
pub struct TwilioConfig {
    pub account_sid: String,
    /// Checks `X-Twilio-Signature` and signs our requests; empty means no check.
    pub auth_token: Secret,
    pub base_url: String,
}

impl Default for TwilioConfig {
    fn default() -> Self {
        TwilioConfig {
            account_sid: String::new(),
            auth_token: Secret::default(),
            base_url: "https://api.twilio.com".into(),
        }
    }
}

/// The signature methods Vonage offers for signed webhooks, as
/// `sms.vonage.signature_method` names them (its sender computes each).
pub const VONAGE_SIGNATURE_METHODS: [&str; 5] = ["md5hash", "md5", "sha1", "sha256", "sha512"];

#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(default, deny_unknown_fields)]
pub struct VonageConfig {
    pub api_key: String,
    pub api_secret: Secret,
    /// Signed-webhook secret; empty means no check.
    pub signature_secret: Secret,
    /// `md5hash` (Vonage's default), `md5`, `sha1`, `sha256` or `sha512` (HMAC).
    pub signature_method: String,
    /// A signed request whose `timestamp` is further than this from our
    /// clock is refused (403): a captured request cannot be replayed later.
    #[serde(deserialize_with = "lenient")]
    pub signature_max_age_secs: u64,
    pub base_url: String,
}

impl Default for VonageConfig {
    fn default() -> Self {
        VonageConfig {
            api_key: String::new(),
            api_secret: Secret::default(),
            signature_secret: Secret::default(),
            signature_method: "md5hash".into(),
            signature_max_age_secs: 300,
            base_url: "https://rest.nexmo.com".into(),
        }
    }
}

#[derive(Clone, Debug, Default, Deserialize, Serialize)]
#[serde(default, deny_unknown_fields)]
pub struct GenericConfig {
    pub url: String,
    pub secret: Secret,
}

#[derive(Clone, Debug, Default, Deserialize, Serialize)]
#[serde(default, deny_unknown_fields)]
pub struct AdminConfig {
    /// Bearer token of the admin API; empty turns the admin API off.
    pub token: Secret,
}

/// `/metrics`, Prometheus' text format.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(default, deny_unknown_fields)]
pub struct MetricsConfig {
    /// `true`, `false`, or `"auto"`: served when the gateway listens on a
    /// loopback address only. Off a loopback address `/metrics` is served
    /// only when this says `true`.
    pub enabled: crate::settings::Switch,
    /// Bearer token a scraper must present; empty: none asked.
    pub token: Secret,
    /// Serve `/metrics` without a token on an address other hosts can
    /// reach (anyone there reads the service's counts). Off: `serve`
    /// refuses `enabled = true` with an empty token off loopback.
    #[serde(deserialize_with = "lenient")]
    pub allow_public_without_token: bool,
}

impl Default for MetricsConfig {
    fn default() -> Self {
        MetricsConfig {
            enabled: crate::settings::Switch::Auto,
            token: Secret::default(),
            allow_public_without_token: false,
        }
    }
}

impl MetricsConfig {
    /// Whether `/metrics` is served on a listener that is (or is not) on loopback.
    pub fn served(&self, loopback: bool) -> bool {
        self.enabled.on(loopback)
    }
}

#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(default, deny_unknown_fields)]
pub struct GameConfig {
    /// Time a seat has to send its move.
    #[serde(deserialize_with = "lenient")]
    pub turn_deadline_secs: u64,
    /// Missed turns in a row before a player is put into timeout.
    #[serde(deserialize_with = "lenient")]
    pub max_missed_turns: u32,
    /// Time all players of a finished match have to confirm `PA`.
    #[serde(deserialize_with = "lenient")]
    pub rematch_window_secs: u64,
    /// Time after a match's end during which `S nick text` is allowed.
    #[serde(deserialize_with = "lenient")]
    pub message_window_secs: u64,
}

impl Default for GameConfig {
    fn default() -> Self {
        GameConfig {
            turn_deadline_secs: 180,
            max_missed_turns: 3,
            rematch_window_secs: 360,
            message_window_secs: 1800,
        }
    }
}

#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(default, deny_unknown_fields)]
pub struct RobotsConfig {
    /// CPU time a robot may think about one move (the search's thread's own,
    /// so a busy gateway does not weaken it; at most three times this on the
    /// wall clock).
    #[serde(deserialize_with = "lenient")]
    pub budget_ms: u64,
    /// Searches at once in each lane of the pool (cheap robots, deep ones);
    /// 0 means one per core.
    #[serde(deserialize_with = "lenient")]
    pub threads: usize,
    /// How long a claimed robot turn stays this instance's before another may take it.
    #[serde(deserialize_with = "lenient")]
    pub lease_ms: u64,
}

impl Default for RobotsConfig {
    fn default() -> Self {
        RobotsConfig {
            budget_ms: 1000,
            threads: 0,
            lease_ms: 15_000,
        }
    }
}

impl RobotsConfig {
    /// How many searches run at once.
    pub fn search_threads(&self) -> usize {
        match self.threads {
            0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
            n => n,
        }
    }
}

#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(default, deny_unknown_fields)]
pub struct LogConfig {
    /// A `tracing` filter, e.g. `info` or `smsarena=debug`; `RUST_LOG` wins when set.
    pub filter: String,
}

impl Default for LogConfig {
    fn default() -> Self {
        LogConfig {
            filter: "warn,smsarena=info".into(),
        }
    }
}

impl Config {
    /// Defaults, then the file (if it exists or was named), then the environment.
    pub fn load(file: Option<&Path>) -> Result<Config, ConfigError> {
        Config::load_with_env(file, EnvStrings::from_process())
    }

    /// [`Config::load`] with `env` for the process's environment.
    pub fn load_with_env(file: Option<&Path>, env: EnvStrings) -> Result<Config, ConfigError> {
        let mut figment = Figment::from(Serialized::defaults(Config::default()));
        match file {
            Some(path) => figment = figment.merge(Toml::file_exact(path)),
            None => figment = figment.merge(Toml::file("config/default.toml")),
        }
        figment.merge(env).extract().map_err(ConfigError::from)
    }

    /// Every secret and token configured, as it is: the webhooks' shared
    /// secret, the admin token, each provider's password, token and
    /// signature secret, the Basic credentials Twilio is sent (base64 of
    /// `sid:token`, which an error page may echo), and the database URL's
    /// credentials.
    pub fn secrets(&self) -> Vec<String> {
        use base64::Engine;
        let mut secrets: Vec<String> = [
            &self.webhooks.secret,
            &self.admin.token,
            &self.metrics.token,
            &self.sms.kannel.password,
            &self.sms.twilio.auth_token,
            &self.sms.vonage.api_secret,
            &self.sms.vonage.signature_secret,
            &self.sms.generic.secret,
        ]
        .iter()
        .map(|s| s.expose().to_string())
        .filter(|s| !s.is_empty())
        .collect();
        if !self.sms.twilio.auth_token.is_empty() {
            secrets.push(base64::engine::general_purpose::STANDARD.encode(format!(
                "{}:{}",
                self.sms.twilio.account_sid,
                self.sms.twilio.auth_token.expose()
            )));
        }
        secrets.extend(database::credentials(&self.database.url));
        secrets
    }

    /// The one scrubber of every configured secret, for whatever logs or
    /// stores a text from outside (a provider's answer, a request's URL).
    pub fn scrubber(&self) -> Scrubber {
        Scrubber::new(self.secrets())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    #[allow(clippy::result_large_err)] // figment's Jail API, not ours
    fn environment_overrides_file_and_defaults() {
        figment::Jail::expect_with(|jail| {
            jail.create_file(
                "custom.toml",
                "[numbers]\nplay = \"1111\"\n[sms]\nprovider = \"twilio\"\n",
            )?;
            jail.set_env("SMSARENA_HTTP__LISTEN", "127.0.0.1:9000");
            jail.set_env("SMSARENA_SMS__PROVIDER", "kannel");
            jail.set_env(
                "SMSARENA_SMS__KANNEL__SENDSMS_URL",
                "http://k/cgi-bin/sendsms",
            );
            let cfg = Config::load(Some(Path::new("custom.toml"))).map_err(|e| e.to_string())?;
            assert_eq!(cfg.http.listen.to_string(), "127.0.0.1:9000");
            assert_eq!(cfg.numbers.play, "1111");
            assert_eq!(cfg.numbers.game, "002220");
            assert_eq!(cfg.sms.provider, ProviderKind::Kannel);
            assert_eq!(cfg.sms.kannel.sendsms_url, "http://k/cgi-bin/sendsms");
            assert_eq!(cfg.http.public_base(), "http://127.0.0.1:9000");
            Ok(())
        });
    }

    #[test]
    #[allow(clippy::result_large_err)] // figment's Jail API, not ours
    fn a_setting_given_by_environment_stays_the_string_it_is() {
        figment::Jail::expect_with(|jail| {
            jail.set_env("SMSARENA_WEBHOOKS__SECRET", "20261201");
            jail.set_env("SMSARENA_NUMBERS__PLAY", "002227");
            jail.set_env("SMSARENA_SMS__TWILIO__AUTH_TOKEN", "0042");
            jail.set_env("SMSARENA_SMS__KANNEL__PASSWORD", "true");
            jail.set_env("SMSARENA_ADMIN__TOKEN", "1e9");
            jail.set_env("SMSARENA_SMS__MAX_ATTEMPTS", "3");
            jail.set_env("SMSARENA_SMS__GSM_SUBSTITUTIONS", "false");
            jail.set_env("SMSARENA_FOOTBALL__RICOCHET", "0.5");
            let cfg = Config::load(None).map_err(|e| e.to_string())?;
            assert_eq!(&*cfg.webhooks.secret, "20261201");
            assert_eq!(cfg.numbers.play, "002227", "leading zeros kept");
            assert_eq!(&*cfg.sms.twilio.auth_token, "0042");
            assert_eq!(&*cfg.sms.kannel.password, "true");
            assert_eq!(&*cfg.admin.token, "1e9");
            assert_eq!(cfg.sms.max_attempts, 3);
            assert!(!cfg.sms.gsm_substitutions);
            assert_eq!(cfg.football.ricochet, 0.5);
            Ok(())
        });
    }

    #[test]
    #[allow(clippy::result_large_err)] // figment's Jail API, not ours
    fn a_bad_number_by_environment_is_an_error_naming_the_variable_not_the_value() {
        figment::Jail::expect_with(|jail| {
            jail.set_env("SMSARENA_SMS__MAX_ATTEMPTS", "many");
            let err = Config::load(None).expect_err("not a number");
            let shown = err.to_string();
            assert!(shown.contains("SMSARENA_SMS__MAX_ATTEMPTS"), "{shown}");
            assert!(shown.contains("u32"), "the type expected: {shown}");
            assert!(!shown.contains("many"), "{shown}");
            jail.set_env("SMSARENA_SMS__MAX_ATTEMPTS", "3");
            jail.set_env("SMSARENA_NO_SUCH__KEY", "1");
            let err = Config::load(None).expect_err("unknown keys are refused");
            // The section is what is unknown: the variable's first part.
            assert_eq!(
                err.to_string(),
                "SMSARENA_NO_SUCH: unknown key (in the environment)"
            );
            let err = Config::load_with_env(None, env(&[("SMSARENA_SMS__NO_SUCH", "1")]))
                .expect_err("unknown keys are refused");
            assert_eq!(
                err.to_string(),
                "SMSARENA_SMS__NO_SUCH: unknown key (in the environment)"
            );
            Ok(())
        });
    }

    fn env(vars: &[(&str, &str)]) -> EnvStrings {
        EnvStrings::from_vars(vars.iter().map(|(k, v)| (k.to_string(), v.to_string())))
    }

    fn file_error(toml: &str) -> (String, ConfigError) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("smsarena.toml");
        std::fs::write(&path, toml).unwrap();
        let err = Config::load_with_env(Some(&path), env(&[])).expect_err("refused");
        (path.display().to_string(), err)
    }

    #[test]
    fn a_value_of_the_wrong_type_is_named_by_its_key_and_the_type_expected() {
        let (path, err) = file_error("[sms.kannel]\nusername = \"u\"\npassword = 12345\n");
        assert_eq!(
            err.problems(),
            [Problem {
                key: Some("sms.kannel.password".into()),
                source: Some(path.clone()),
                what: "wrong type, expected a string".into(),
            }]
        );
        assert!(!err.to_string().contains("12345"), "{err}");
        for (toml, key, what) in [
            (
                "[sms]\nmax_attempts = [\"s3cr3t\"]\n",
                "sms.max_attempts",
                "wrong type, expected u32",
            ),
            (
                "[sms]\nprovider = \"s3cr3t\"\n",
                "sms.provider",
                "unknown value, expected one of `console`, `kannel`, `twilio`, `vonage`, `generic`",
            ),
            (
                "[sms.kannel]\ns3cr3t = 1\n",
                "sms.kannel.s3cr3t",
                "unknown key",
            ),
        ] {
            let (_, err) = file_error(toml);
            let problem = &err.problems()[0];
            assert_eq!(
                (problem.key.as_deref(), problem.what.as_str()),
                (Some(key), what),
                "{toml}"
            );
            if key != "sms.kannel.s3cr3t" {
                assert!(!err.to_string().contains("s3cr3t"), "{err}");
            }
        }
    }

    #[test]
    fn a_toml_syntax_error_names_the_file_and_the_line_only() {
        let (path, err) = file_error("[sms.kannel]\nusername = \"u\"\npassword = \"s3cr3t\n");
        assert_eq!(
            err.problems(),
            [Problem {
                key: None,
                source: Some(path.clone()),
                what: "not valid TOML (line 3)".into(),
            }]
        );
        assert!(!err.to_string().contains("s3cr3t"), "{err}");
    }

    #[test]
    fn a_variable_that_is_a_value_and_a_section_is_named() {
        let err = Config::load_with_env(
            None,
            env(&[
                ("SMSARENA_SMS__PROVIDER", "s3cr3t"),
                ("SMSARENA_SMS__PROVIDER__X", "s3cr3t"),
            ]),
        )
        .expect_err("refused");
        assert_eq!(
            err.to_string(),
            "SMSARENA_SMS__PROVIDER: wrong type, expected a section of keys (in the environment)"
        );
    }

    #[test]
    fn secrets_never_show_in_debug_output_or_scrubbed_text() {
        let mut cfg = Config::default();
        cfg.sms.kannel.password = "s3cr3t&x".into();
        cfg.admin.token = "adm1n".into();
        cfg.webhooks.secret = "w3bh00k".into();
        cfg.sms.vonage.signature_secret = "s1gn".into();
        cfg.database.url = "postgres://user:dbpass@db:5432/x?sslpassword=k3y".into();
        let shown = format!("{cfg:?}");
        for secret in ["s3cr3t", "adm1n", "w3bh00k", "s1gn"] {
            assert!(!shown.contains(secret), "{shown}");
        }
        assert!(shown.contains("[redacted]"));
        assert_eq!(
            cfg.database.shown_url(),
            "postgres://user:***@db:5432/x?sslpassword=***"
        );
        let leaky = "error for url (http://k/sendsms?password=s3cr3t%26x&u=1): s3cr3t&x \
                     adm1n w3bh00k s1gn dbpass k3y";
        let clean = cfg.scrubber().scrub(leaky).into_owned();
        for secret in ["s3cr3t", "adm1n", "w3bh00k", "s1gn", "dbpass", "k3y"] {
            assert!(!clean.contains(secret), "{clean}");
        }
        assert_eq!(
            &*cfg.sms.kannel.password, "s3cr3t&x",
            "still usable as text"
        );
    }

    #[test]
    fn a_named_file_that_does_not_exist_is_an_error() {
        assert!(Config::load(Some(Path::new("/nonexistent/smsarena.toml"))).is_err());
    }

    #[test]
    fn the_shipped_default_file_matches_the_built_in_defaults() {
        // Without the environment: another test sets SMSARENA_ variables.
        let shipped: Config = Figment::from(Serialized::defaults(Config::default()))
            .merge(Toml::file_exact(concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/config/default.toml"
            )))
            .extract()
            .expect("config/default.toml parses");
        let built_in = Config::default();
        assert_eq!(
            toml_of(&shipped),
            toml_of(&built_in),
            "config/default.toml documents the defaults; keep it in step"
        );
    }

    fn toml_of(cfg: &Config) -> String {
        serde_json::to_string(cfg).unwrap()
    }
}
