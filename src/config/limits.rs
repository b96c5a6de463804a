//! Flood limits: how many texts one phone, and how many requests one address, may send.

use std::fmt;
use std::net::IpAddr;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use super::lenient;

#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(default, deny_unknown_fields)]
pub struct LimitsConfig {
    /// Texts one phone may send at once before the steady rate applies.
    #[serde(deserialize_with = "lenient")]
    pub phone_burst: u32,
    /// The steady rate per phone, texts a minute; 0 turns the limit off.
    #[serde(deserialize_with = "lenient")]
    pub phone_per_minute: u32,
    /// A phone over its limit hears so once in this window, not once a text.
    #[serde(deserialize_with = "lenient")]
    pub notice_window_secs: u64,
    /// Webhook requests one address may make at once.
    #[serde(deserialize_with = "lenient")]
    pub address_burst: u32,
    /// The steady rate per address, requests a second; 0 turns the limit off.
    #[serde(deserialize_with = "lenient")]
    pub address_per_second: u32,
    /// Addresses no request limit applies to: the provider's own (Kannel on
    /// this host, say), which carries every player's texts.
    #[serde(deserialize_with = "lenient")]
    pub trusted_addresses: AddressList,
    /// Wrong tokens (admin API, console, `/metrics`) one address may
    /// present at once (trusted or not: providers present none), and then a
    /// second; past it they are answered 429 and no longer logged one by
    /// one. The right token is never held back by it. 0 turns it off.
    #[serde(deserialize_with = "lenient")]
    pub admin_burst: u32,
    #[serde(deserialize_with = "lenient")]
    pub admin_per_second: u32,
}

impl Default for LimitsConfig {
    fn default() -> Self {
        LimitsConfig {
            phone_burst: 10,
            phone_per_minute: 90,
            notice_window_secs: 60,
            address_burst: 400,
            address_per_second: 200,
            trusted_addresses: AddressList(vec![
                IpAddr::from([127, 0, 0, 1]),
                IpAddr::from(std::net::Ipv6Addr::LOCALHOST),
            ]),
            admin_burst: 20,
            admin_per_second: 5,
        }
    }
}

/// IP addresses: a TOML array, or one text of addresses separated by commas
/// (`SMSARENA_LIMITS__TRUSTED_ADDRESSES=10.0.0.5,10.0.0.6`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize, Serialize)]
#[serde(transparent)]
pub struct AddressList(pub Vec<IpAddr>);

impl AddressList {
    pub fn contains(&self, ip: IpAddr) -> bool {
        let ip = ip.to_canonical();
        self.0.iter().any(|a| a.to_canonical() == ip)
    }
}

impl FromStr for AddressList {
    type Err = std::net::AddrParseError;

    fn from_str(text: &str) -> Result<AddressList, Self::Err> {
        text.split(',')
            .map(str::trim)
            .filter(|a| !a.is_empty())
            .map(IpAddr::from_str)
            .collect::<Result<_, _>>()
            .map(AddressList)
    }
}

impl fmt::Display for AddressList {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let shown: Vec<String> = self.0.iter().map(IpAddr::to_string).collect();
        f.write_str(&shown.join(","))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn addresses_read_from_text_and_match_mapped_forms() {
        let list: AddressList = "10.0.0.5, ::1".parse().unwrap();
        assert_eq!(list.to_string(), "10.0.0.5,::1");
        assert!(list.contains("::ffff:10.0.0.5".parse().unwrap()));
        assert!(!list.contains("10.0.0.6".parse().unwrap()));
        assert!("10.0.0.x".parse::<AddressList>().is_err());
        assert_eq!("".parse::<AddressList>().unwrap(), AddressList(vec![]));
    }
}
