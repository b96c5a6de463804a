//! The training hall's settings (`[hall]`): whether it is served, its own limits per client, and whether its phones meet real ones.

use serde::{Deserialize, Serialize};

use crate::settings::{Switch, lenient};

#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(default, deny_unknown_fields)]
pub struct HallConfig {
    /// `true`, `false`, or `"auto"`: served when the gateway listens on a
    /// loopback address only. Off a loopback address the hall is served
    /// only when this says `true`.
    pub enabled: Switch,
    /// New virtual phones one client (an address; an IPv6 /64; behind
    /// `http.trusted_proxies`, the address forwarded) may open, at once and then an hour.
    #[serde(deserialize_with = "lenient")]
    pub phones_per_hour: u32,
    /// Texts one client may send through the hall a minute, all its
    /// phones together (each phone has the usual per-phone limit too).
    #[serde(deserialize_with = "lenient")]
    pub texts_per_minute: u32,
    /// Streams that may watch one phone's texts at once (a browser holds
    /// one for all its tabs and phones; a phone has one token, so this is
    /// the cap per token too); 0: no limit.
    #[serde(deserialize_with = "lenient")]
    pub streams_per_phone: u32,
    /// Phones' texts one client may watch at once, all its streams
    /// together (a stream of twenty phones takes twenty); 0: no limit.
    #[serde(deserialize_with = "lenient")]
    pub streams_per_client: u32,
    /// A watching page's stream ends after this long; the page opens a new
    /// one and catches up from the texts it has (none lost, none twice).
    #[serde(deserialize_with = "lenient")]
    pub stream_max_secs: u64,
    /// Whether the hall's virtual phones may meet real phones: be seated in
    /// one match and message each other with `S`. Off, a web visitor
    /// never makes a real phone get (and the operator pay for) an SMS.
    pub meet_real_players: bool,
}

impl Default for HallConfig {
    fn default() -> Self {
        HallConfig {
            enabled: Switch::Auto,
            phones_per_hour: 30,
            texts_per_minute: 120,
            streams_per_phone: 4,
            streams_per_client: 32,
            stream_max_secs: 600,
            meet_real_players: false,
        }
    }
}

impl HallConfig {
    /// Whether the hall is served on a listener that is (or is not) on loopback.
    pub fn served(&self, loopback: bool) -> bool {
        self.enabled.on(loopback)
    }

    /// The hall's limits as the start-up warning states them: each one's
    /// value, or that it is off (0), never a limit that is not there.
    pub fn limits_in_words(&self) -> String {
        let phones = match self.phones_per_hour {
            0 => "hall.phones_per_hour is 0: no limit on the phones a client opens".to_string(),
            n => format!("hall.phones_per_hour is {n} new phones a client an hour"),
        };
        let texts = match self.texts_per_minute {
            0 => "hall.texts_per_minute is 0: no limit on the texts a client sends".to_string(),
            n => format!("hall.texts_per_minute is {n} texts a client a minute"),
        };
        format!("{phones}, {texts}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn auto_serves_loopback_only_and_the_switch_reads_as_a_flag_or_text() {
        let mut cfg = HallConfig::default();
        assert!(cfg.served(true) && !cfg.served(false));
        cfg.enabled = Switch::On;
        assert!(cfg.served(false));
        cfg.enabled = Switch::Off;
        assert!(!cfg.served(true));
        for (text, switch) in [
            ("true", Switch::On),
            ("OFF", Switch::Off),
            ("auto", Switch::Auto),
        ] {
            assert_eq!(text.parse::<Switch>(), Ok(switch));
        }
        assert!("maybe".parse::<Switch>().is_err());
    }
}
