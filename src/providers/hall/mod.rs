//! The training hall (`/hall`): anyone plays every game in a browser as on a phone, beside real SMS, through the very path SMS takes.
//!
//! The hall is one more provider. A visitor gets virtual phones (numbers in
//! the reserved range [`crate::phone::VIRTUAL_PREFIX`], kept in his
//! browser with a token that is their key); what he types is an inbound text
//! like any other (`api.rs`), and what the gateway texts a virtual phone is
//! an outbox row like any other, which the dispatcher hands to the hall
//! ([`Hall::deliver`]) because of its number, and the hall to the page
//! watching that phone (`hub.rs`) by Server-Sent Events: one stream per
//! browser carries all its phones, whatever its tabs (`live.rs`). Nothing in the
//! platform or the games knows the hall exists.

use std::net::IpAddr;
use std::num::{NonZeroU32, NonZeroUsize};
use std::sync::Mutex;

use axum::Router;
use axum::routing::{get, post};
use governor::{DefaultKeyedRateLimiter, Quota, RateLimiter};
use lru::LruCache;
use rand::Rng;
use sha2::{Digest, Sha256};
use subtle::ConstantTimeEq;

use super::Registration;
use super::outbound::{Accepted, SendError};
use crate::app::{AppError, AppState};
use crate::config::{Config, ProviderKind, ProxyList};
use crate::phone::{VIRTUAL_DIGITS, VIRTUAL_PREFIX};
use crate::store::OutboxText;

mod api;
mod board;
mod hub;
mod live;
pub mod page;
mod streams;
mod turn;

pub use hub::Hub;

/// The hall has no sender of its own to choose as `sms.provider`: it
/// reaches only its virtual phones, which every gateway routes to it.
pub const PROVIDER: Registration = Registration {
    kind: ProviderKind::Hall,
    webhooks,
    sender: |_, _| {
        anyhow::bail!(
            "sms.provider = \"hall\" would send real phones' texts nowhere: the training hall \
             serves its own virtual phones beside whichever provider sends to real ones"
        )
    },
};

/// The hall's routes, when it is served.
fn webhooks(cfg: &Config) -> Option<Router<AppState>> {
    cfg.hall
        .served(cfg.http.listen.ip().is_loopback())
        .then(|| {
            Router::new()
                .route("/hall", get(index))
                .route("/hall/hall.js", get(page::script))
                .route("/hall/hall.css", get(page::style))
                .route("/hall/guides/{game}", get(guide))
                .route("/hall/phones", post(api::open_phone))
                .route("/hall/phones/{number}/texts", post(api::text))
                .route("/hall/events", post(live::events))
                .route("/hall/hall-worker.js", get(page::worker))
                .route("/hall/phones/{number}/board", get(board::board))
                .route("/hall/board.js", get(page::board_script))
                .route("/hall/words.js", get(page::words_script))
                .route("/hall/phones/{number}/turn", get(turn::turn))
        })
}

/// The reference a virtual phone's text is known by in delivery reports.
fn reference(id: i64) -> String {
    crate::providers::outbound::own_reference('h', id)
}

/// The hall of a running gateway: who watches which phone, and its limits,
/// each per client ([`crate::web::client`]).
pub struct Hall {
    hub: Hub,
    phones: Option<DefaultKeyedRateLimiter<IpAddr>>,
    texts: Option<DefaultKeyedRateLimiter<IpAddr>>,
    streams: streams::Streams,
    stream_max: std::time::Duration,
    proxies: ProxyList,
    /// Tokens already checked against the store, by phone: a phone texts
    /// many times, and its token never changes. The phones used longest ago
    /// give way at [`KNOWN_PHONES`]: a public hall opens phones for months,
    /// and one that comes back is checked against the store again.
    known: Mutex<LruCache<String, [u8; 32]>>,
}

/// Phones whose checked tokens are kept in memory at most.
pub const KNOWN_PHONES: usize = 10_000;

impl Hall {
    /// The hall of `cfg`, when it is served at all.
    pub fn for_config(cfg: &Config) -> Option<Hall> {
        let hall = &cfg.hall;
        if !hall.served(cfg.http.listen.ip().is_loopback()) {
            return None;
        }
        let limiter = |count: u32, per_hour: bool| {
            NonZeroU32::new(count).map(|n| {
                let quota = if per_hour {
                    Quota::per_hour(n)
                } else {
                    Quota::per_minute(n)
                };
                RateLimiter::keyed(quota.allow_burst(n))
            })
        };
        Some(Hall {
            hub: Hub::default(),
            phones: limiter(hall.phones_per_hour, true),
            texts: limiter(hall.texts_per_minute, false),
            streams: streams::Streams::new(hall.streams_per_phone, hall.streams_per_client),
            stream_max: std::time::Duration::from_secs(hall.stream_max_secs),
            proxies: cfg.http.trusted_proxies.clone(),
            known: Mutex::new(LruCache::new(
                NonZeroUsize::new(KNOWN_PHONES).expect("not zero"),
            )),
        })
    }

    pub fn hub(&self) -> &Hub {
        &self.hub
    }

    /// Hands a text for a virtual phone to its page, if one is open here;
    /// either way it is sent: a closed page reads it from the outbox when
    /// it comes back.
    pub fn deliver(&self, text: &OutboxText) -> Result<Accepted, SendError> {
        self.hub.publish(text);
        Ok(Accepted {
            provider_ref: Some(reference(text.id)),
        })
    }

    /// The client a request counts against: every hall limit asks this.
    fn client(&self, request: &axum::extract::Request) -> Option<IpAddr> {
        crate::web::client::of(request, &self.proxies)
    }

    fn may_open_phone(&self, client: IpAddr) -> bool {
        self.phones
            .as_ref()
            .is_none_or(|l| l.check_key(&client).is_ok())
    }

    fn may_text(&self, client: IpAddr) -> bool {
        self.texts
            .as_ref()
            .is_none_or(|l| l.check_key(&client).is_ok())
    }

    /// A new virtual phone: a number no one holds and its token, whose hash
    /// alone is stored.
    async fn open_phone(&self, state: &AppState) -> Result<(String, String), AppError> {
        for _ in 0..8 {
            let (number, token) = {
                let mut rng = rand::thread_rng();
                let digits: u32 = rng.gen_range(0..10u32.pow(VIRTUAL_DIGITS as u32));
                let token: [u8; 24] = rng.r#gen();
                (
                    format!("{VIRTUAL_PREFIX}{digits:0width$}", width = VIRTUAL_DIGITS),
                    hex::encode(token),
                )
            };
            let hash = token_hash(&token);
            let now = state.clock().now();
            let key = number.clone();
            let opened = state
                .store()
                .run(move |tx| tx.hall().open_phone(&key, &hex::encode(hash), now))
                .await?;
            if opened {
                self.known().put(number.clone(), hash);
                return Ok((number, token));
            }
        }
        Err(AppError::TooManyRequests)
    }

    /// The token is the phone's: else 403, the same whether the phone
    /// exists or not, so that tokens cannot be used to find phones.
    async fn check_token(
        &self,
        state: &AppState,
        number: &str,
        token: &str,
    ) -> Result<(), AppError> {
        let presented = token_hash(token);
        let known = self.known().get(number).copied();
        let stored = match known {
            Some(hash) => Some(hash),
            None => {
                let key = number.to_string();
                let stored = state.store().read(move |r| r.hall_phone(&key)).await?;
                stored.and_then(|hex_hash| {
                    let bytes = hex::decode(hex_hash).ok()?;
                    <[u8; 32]>::try_from(bytes.as_slice()).ok()
                })
            }
        };
        match stored {
            Some(hash) if bool::from(hash.ct_eq(&presented)) => {
                self.known().put(number.to_string(), hash);
                Ok(())
            }
            _ => Err(AppError::Forbidden),
        }
    }

    fn known(&self) -> std::sync::MutexGuard<'_, LruCache<String, [u8; 32]>> {
        self.known.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// What a practice button texts: `P`, the game, its options.
fn practice_text(code: &str, options: &str) -> String {
    if options.is_empty() {
        format!("P {code}")
    } else {
        format!("P {code} {options}")
    }
}

fn token_hash(token: &str) -> [u8; 32] {
    Sha256::digest(token.as_bytes()).into()
}

/// `GET /hall`.
async fn index(
    axum::extract::State(state): axum::extract::State<AppState>,
) -> axum::response::Response {
    let numbers = &state.config().numbers;
    let cards: Vec<page::GameCard> = state
        .platform()
        .catalog()
        .games()
        .map(|game| page::GameCard {
            code: game.code(),
            names: crate::lang::Lang::ALL
                .iter()
                .map(|&lang| (lang.code(), game.name(lang)))
                .collect(),
            starts: game
                .robot_levels()
                .map(|level| (level, practice_text(game.code(), &game.practice(level))))
                .collect(),
        })
        .collect();
    page::render(&numbers.play, &numbers.game, &cards)
}

/// `GET /hall/guides/{game}`: an unknown game is a page that says so.
async fn guide(
    axum::extract::State(state): axum::extract::State<AppState>,
    axum::extract::Path(code): axum::extract::Path<String>,
) -> axum::response::Response {
    match state.platform().catalog().get(&code) {
        Some(game) => page::guide(game.code(), game.name(crate::lang::Lang::En), game.guide()),
        None => {
            let mut page = crate::web::page(
                "No such game",
                &[],
                &[],
                maud::html! { main { p { "No such game. " a href="/hall" { "The training hall" } " lists them." } } },
            );
            *page.status_mut() = axum::http::StatusCode::NOT_FOUND;
            page
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_checked_tokens_kept_in_memory_are_bounded() {
        let hall = Hall::for_config(&Config::default()).expect("served on loopback");
        for i in 0..=KNOWN_PHONES {
            hall.known().put(format!("+9990{i:07}"), [0; 32]);
        }
        let known = hall.known();
        assert_eq!(known.len(), KNOWN_PHONES);
        assert!(
            !known.contains("+99900000000"),
            "the phone used longest ago gave way"
        );
        assert!(known.contains(&format!("+9990{KNOWN_PHONES:07}")));
    }
}
