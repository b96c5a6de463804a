//! Which client a request is, for per-client limits: its peer, or behind a trusted proxy the address that proxy forwarded, an IPv6 client counted per /64.
//!
//! A host on IPv6 is handed a whole /64, so counting single IPv6 addresses
//! gives one visitor 2^64 budgets. Behind a reverse proxy every request
//! comes from the proxy, so counting peers gives all visitors one budget;
//! the proxy names the client in `X-Forwarded-For`, appending the address
//! it heard from to what it was sent. Only entries appended by proxies we
//! trust are believed: read from the right, the first hop that is not one
//! of them is the client, and anything left of it is the client's own say.

use std::net::{IpAddr, SocketAddr};

use axum::extract::{ConnectInfo, Request};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use ipnet::Ipv6Net;

use crate::config::ProxyList;

/// The client `request` counts against, `None` when it came without a peer
/// address (a test driving the router directly).
pub fn of(request: &Request, proxies: &ProxyList) -> Option<IpAddr> {
    let peer = peer(request)?;
    Some(identify(peer, request.headers(), proxies))
}

/// The client behind `peer`: the rightmost forwarded hop that is not a
/// trusted proxy (only when `peer` is one), as its budget's key.
pub fn identify(peer: IpAddr, headers: &HeaderMap, proxies: &ProxyList) -> IpAddr {
    let mut client = peer.to_canonical();
    if proxies.contains(client) {
        for hop in forwarded(headers).into_iter().rev() {
            // An entry that is no address was not written by a proxy of
            // ours: the last trusted hop is as far as we can see.
            let Some(hop) = hop else { break };
            client = hop.to_canonical();
            if !proxies.contains(client) {
                break;
            }
        }
    }
    budget_key(client)
}

/// `X-Forwarded-For`'s hops in order, over every such header; an entry
/// that is no address (`unknown`, garbage) is `None`.
fn forwarded(headers: &HeaderMap) -> Vec<Option<IpAddr>> {
    headers
        .get_all("x-forwarded-for")
        .iter()
        .flat_map(|value| value.to_str().unwrap_or("?").split(','))
        .map(|hop| {
            let hop = hop.trim();
            hop.parse::<IpAddr>()
                .or_else(|_| hop.parse::<SocketAddr>().map(|a| a.ip()))
                .ok()
        })
        .collect()
}

/// An IPv4 address itself; an IPv6 address's /64.
pub fn budget_key(ip: IpAddr) -> IpAddr {
    match ip.to_canonical() {
        IpAddr::V4(v4) => IpAddr::V4(v4),
        IpAddr::V6(v6) => IpAddr::V6(
            Ipv6Net::new(v6, 64)
                .expect("64 is a valid IPv6 prefix")
                .network(),
        ),
    }
}

/// The peer a request came from, when it came over a socket (a test
/// driving the router directly has none).
pub fn peer(request: &Request) -> Option<IpAddr> {
    request
        .extensions()
        .get::<ConnectInfo<SocketAddr>>()
        .map(|ConnectInfo(addr)| addr.ip())
}

/// 429 with `Retry-After`: an address over a request limit.
pub fn too_many_requests() -> Response {
    let mut response = (
        StatusCode::TOO_MANY_REQUESTS,
        axum::Json(serde_json::json!({ "error": "too many requests, slow down" })),
    )
        .into_response();
    response
        .headers_mut()
        .insert(header::RETRY_AFTER, HeaderValue::from_static("1"));
    response
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    fn ip(text: &str) -> IpAddr {
        text.parse().unwrap()
    }

    fn forwarding(hops: &[&str]) -> HeaderMap {
        let mut headers = HeaderMap::new();
        for hop in hops {
            headers.append("x-forwarded-for", HeaderValue::from_str(hop).unwrap());
        }
        headers
    }

    #[test]
    fn ipv4_counts_per_address_and_ipv6_per_64() {
        let none = ProxyList::default();
        let empty = HeaderMap::new();
        assert_eq!(
            identify(ip("203.0.113.9"), &empty, &none),
            ip("203.0.113.9")
        );
        assert_eq!(
            identify(ip("::ffff:203.0.113.9"), &empty, &none),
            ip("203.0.113.9"),
            "a mapped IPv4 address is that address"
        );
        assert_eq!(
            identify(ip("2001:db8:1:2:aaaa::1"), &empty, &none),
            identify(ip("2001:db8:1:2:ffff:ffff:ffff:ffff"), &empty, &none),
        );
        assert_ne!(
            identify(ip("2001:db8:1:2::1"), &empty, &none),
            identify(ip("2001:db8:1:3::1"), &empty, &none),
        );
    }

    #[test]
    fn only_a_trusted_proxy_may_name_the_client() {
        let proxies: ProxyList = "10.0.0.0/8".parse().unwrap();
        let stranger = ip("198.51.100.4");
        let forged = forwarding(&["192.0.2.1"]);
        assert_eq!(
            identify(stranger, &forged, &proxies),
            stranger,
            "an untrusted peer's header changes nothing"
        );
        assert_eq!(
            identify(stranger, &forged, &ProxyList::default()),
            stranger,
            "nor does anyone's with no proxy trusted"
        );
        let proxy = ip("10.0.0.2");
        assert_eq!(identify(proxy, &forged, &proxies), ip("192.0.2.1"));
        // The client put a forged hop first; our proxy appended what it heard.
        let chain = forwarding(&["1.1.1.1, 192.0.2.1", "10.0.0.7"]);
        assert_eq!(
            identify(proxy, &chain, &proxies),
            ip("192.0.2.1"),
            "the rightmost hop that is not a trusted proxy"
        );
        assert_eq!(
            identify(proxy, &forwarding(&["192.0.2.1:4711"]), &proxies),
            ip("192.0.2.1"),
            "a port is dropped"
        );
        assert_eq!(
            identify(
                proxy,
                &forwarding(&["2001:db8::1, unknown, 10.0.0.9"]),
                &proxies
            ),
            ip("10.0.0.9"),
            "no address: the last trusted hop"
        );
        assert_eq!(
            identify(proxy, &HeaderMap::new(), &proxies),
            proxy,
            "a trusted proxy that forwards nothing is the client"
        );
        assert_eq!(
            identify(proxy, &forwarding(&["[2001:db8:5:6::1]:80"]), &proxies),
            ip("2001:db8:5:6::"),
            "a forwarded IPv6 client counts per /64 too"
        );
    }
}
