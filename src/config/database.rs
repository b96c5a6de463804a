//! The database URL as logs and errors show it (every credential as `***`), and the credentials it holds, for the scrubber.

use url::Url;

/// A query parameter whose name holds one of these carries a credential
/// (`password`, `sslpassword`, `auth_token`, `sslkey`, ...).
const CREDENTIAL_NAMES: [&str; 4] = ["pass", "secret", "token", "key"];

fn is_credential(name: &str) -> bool {
    let name = name.to_ascii_lowercase();
    CREDENTIAL_NAMES.iter().any(|c| name.contains(c))
}

/// The query's pairs: the name decoded, and the name and value as written.
fn pairs(query: &str) -> impl Iterator<Item = (String, &str, Option<&str>)> {
    query.split('&').map(|pair| {
        let decoded = form_urlencoded::parse(pair.as_bytes())
            .next()
            .map(|(name, _)| name.into_owned())
            .unwrap_or_default();
        match pair.split_once('=') {
            Some((name, value)) => (decoded, name, Some(value)),
            None => (decoded, pair, None),
        }
    })
}

/// `url` with the userinfo's password, and the value of every query
/// parameter named like a credential, replaced by `***`, whatever the
/// scheme. A URL that does not parse is shown as its scheme alone when it
/// has a `@` or a `?` (and as `***` without `://`), since where its
/// credentials end cannot be told.
pub fn shown_url(raw: &str) -> String {
    let parsed = Url::parse(raw).ok().filter(|url| !url.cannot_be_a_base());
    let Some(mut url) = parsed else {
        return match raw.split_once("://") {
            Some((scheme, _)) if raw.contains(['@', '?']) => format!("{scheme}://***"),
            None if raw.contains(['@', '?', ':']) => "***".to_string(),
            _ => raw.to_string(),
        };
    };
    if url.password().is_some() {
        // Only a URL without a host refuses a password, and it has none.
        let _ = url.set_password(Some("***"));
    }
    if let Some(query) = url.query()
        && pairs(query).any(|(name, _, value)| value.is_some() && is_credential(&name))
    {
        let masked: Vec<String> = pairs(query)
            .map(|(name, written, value)| match value {
                Some(_) if is_credential(&name) => format!("{written}=***"),
                Some(value) => format!("{written}={value}"),
                None => written.to_string(),
            })
            .collect();
        url.set_query(Some(&masked.join("&")));
    }
    url.to_string()
}

/// The credentials `url` holds: the userinfo's password and the values of
/// query parameters named like one, each as written and decoded.
pub fn credentials(raw: &str) -> Vec<String> {
    let Some(url) = Url::parse(raw).ok().filter(|url| !url.cannot_be_a_base()) else {
        return Vec::new();
    };
    let mut found = Vec::new();
    if let Some(password) = url.password() {
        found.push(password.to_string());
        found.push(
            percent_encoding::percent_decode_str(password)
                .decode_utf8_lossy()
                .into_owned(),
        );
    }
    if let Some(query) = url.query() {
        for (name, _, value) in pairs(query) {
            if let Some(value) = value.filter(|_| is_credential(&name)) {
                found.push(value.to_string());
                let pair = format!("v={value}");
                let decoded = form_urlencoded::parse(pair.as_bytes()).next();
                found.extend(decoded.map(|(_, v)| v.into_owned()));
            }
        }
    }
    found.retain(|s| !s.is_empty());
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_credential_is_masked_whatever_the_scheme() {
        for (raw, shown) in [
            (
                "postgres://user:dbpass@db:5432/x",
                "postgres://user:***@db:5432/x",
            ),
            ("mysql://u:p4ss@h/db", "mysql://u:***@h/db"),
            (
                "postgres://db/x?user=u&password=p%40ss&sslmode=require",
                "postgres://db/x?user=u&password=***&sslmode=require",
            ),
            (
                "postgres://u:a@b@db/x?SSLPassword=1&auth_token=2&sslkey=/k&api_secret=3",
                "postgres://u:***@db/x?SSLPassword=***&auth_token=***&sslkey=***&api_secret=***",
            ),
            ("sqlite://smsarena.db", "sqlite://smsarena.db"),
            (
                "sqlite:///var/lib/smsarena.db",
                "sqlite:///var/lib/smsarena.db",
            ),
            ("postgres://u@db/x", "postgres://u@db/x"),
            ("postgres://u:pa/ss@db/x", "postgres://***"),
            ("u:p@db", "***"),
        ] {
            assert_eq!(shown_url(raw), shown, "{raw}");
        }
    }

    #[test]
    fn the_credentials_are_found_as_written_and_decoded() {
        let found = credentials("postgres://u:p%40ss@db/x?password=a+b%21&user=me");
        assert_eq!(found, ["p%40ss", "p@ss", "a+b%21", "a b!"]);
        assert!(credentials("sqlite://smsarena.db").is_empty());
        assert!(credentials("not a url").is_empty());
    }
}
