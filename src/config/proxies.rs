//! `http.trusted_proxies`: the reverse proxies whose `X-Forwarded-For` is believed, as addresses or CIDR ranges.

use std::fmt;
use std::net::IpAddr;
use std::str::FromStr;

use ipnet::IpNet;
use serde::{Deserialize, Serialize};

/// Addresses and ranges: a TOML array, or one text separated by commas
/// (`SMSARENA_HTTP__TRUSTED_PROXIES=10.0.0.0/8,::1`). A bare address is a
/// range of one.
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize, Serialize)]
#[serde(try_from = "Vec<String>", into = "Vec<String>")]
pub struct ProxyList(Vec<IpNet>);

impl ProxyList {
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Whether `ip` (in its IPv4-mapped form too) is one of the proxies.
    pub fn contains(&self, ip: IpAddr) -> bool {
        let ip = ip.to_canonical();
        self.0.iter().any(|net| net.contains(&ip))
    }
}

/// Why an entry is not an address or a range.
#[derive(Debug, PartialEq, Eq)]
pub struct NotARange(String);

impl fmt::Display for NotARange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?} is neither an IP address nor a CIDR range", self.0)
    }
}

fn one(entry: &str) -> Result<IpNet, NotARange> {
    let entry = entry.trim();
    entry
        .parse::<IpNet>()
        .or_else(|_| entry.parse::<IpAddr>().map(IpNet::from))
        // `10.0.0.1/8` names its range by a host in it: the range is meant.
        .map(|net| net.trunc())
        .map_err(|_| NotARange(entry.to_string()))
}

impl FromStr for ProxyList {
    type Err = NotARange;

    fn from_str(text: &str) -> Result<ProxyList, NotARange> {
        text.split(',')
            .filter(|entry| !entry.trim().is_empty())
            .map(one)
            .collect::<Result<_, _>>()
            .map(ProxyList)
    }
}

impl TryFrom<Vec<String>> for ProxyList {
    type Error = NotARange;

    fn try_from(entries: Vec<String>) -> Result<ProxyList, NotARange> {
        entries
            .iter()
            .map(|e| one(e))
            .collect::<Result<_, _>>()
            .map(ProxyList)
    }
}

impl From<ProxyList> for Vec<String> {
    fn from(list: ProxyList) -> Vec<String> {
        list.0.iter().map(IpNet::to_string).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn addresses_and_ranges_read_from_text() {
        let list: ProxyList = "10.1.2.3/8, ::1 ,2001:db8::/32".parse().unwrap();
        assert_eq!(
            Vec::<String>::from(list.clone()),
            ["10.0.0.0/8", "::1/128", "2001:db8::/32"]
        );
        assert!(list.contains("10.200.0.1".parse().unwrap()));
        assert!(list.contains("::ffff:10.0.0.9".parse().unwrap()), "mapped");
        assert!(list.contains("::1".parse().unwrap()));
        assert!(list.contains("2001:db8:ffff::1".parse().unwrap()));
        assert!(!list.contains("11.0.0.1".parse().unwrap()));
        assert!(!list.contains("::2".parse().unwrap()));
        assert_eq!(
            "10.0.0.x".parse::<ProxyList>().unwrap_err().to_string(),
            "\"10.0.0.x\" is neither an IP address nor a CIDR range"
        );
        assert!("10.0.0.0/33".parse::<ProxyList>().is_err());
        assert!("".parse::<ProxyList>().unwrap().is_empty());
    }

    #[test]
    fn a_toml_array_reads_too() {
        #[derive(Deserialize)]
        struct Http {
            trusted_proxies: ProxyList,
        }
        let http: Http = toml::from_str(r#"trusted_proxies = ["192.0.2.7", "fd00::/8"]"#).unwrap();
        assert!(http.trusted_proxies.contains("192.0.2.7".parse().unwrap()));
        assert!(http.trusted_proxies.contains("fd12::1".parse().unwrap()));
        assert!(toml::from_str::<Http>(r#"trusted_proxies = ["proxy.local"]"#).is_err());
    }
}
