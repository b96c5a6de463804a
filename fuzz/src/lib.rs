//! What the fuzz targets share: the round-trip check, a game's whole check, and the webhooks' input framing.
//!
//! A game target hands its input to [`game`]: the input read whole as a
//! state string, a move and options; then a match, from its first line read
//! as a state string (else as options, else the default options), played
//! line by line (see [`game`] for the little language of the lines).

use std::fmt;
use std::str::FromStr;

use rand::SeedableRng;
use smsarena::games::{
    Budget, Game, GameOptions, LEVELS, Lang, MatchRng, Reason, Seat, Status, Withdrawal,
};
use smsarena::app::AppError;

/// At most this many lines of a game input are played, so one input stays fast.
pub const MAX_TURNS: usize = 48;

/// `Display` then `FromStr` gives the same value, and `Display` again the same text.
pub fn round_trip<T>(value: &T, what: &str)
where
    T: fmt::Display + FromStr + PartialEq + fmt::Debug,
    T::Err: fmt::Display,
{
    let shown = value.to_string();
    match shown.parse::<T>() {
        Ok(back) => {
            assert_eq!(back.to_string(), shown, "{what}: {shown:?} writes back otherwise");
            assert_eq!(&back, value, "{what}: {shown:?} reads back as another value");
        }
        Err(e) => panic!("{what}: {shown:?}, as Display wrote it, does not parse: {e}"),
    }
}

/// The options `text` reads as, checked: canonical form read back by the game
/// itself (it is the lobby's key and what a match stores), and a lineup.
pub fn options<G: Game>(game: &G, text: &str) -> Option<G::Options> {
    match game.parse_options(text) {
        Ok(opts) => {
            let canonical = opts.to_string();
            match game.parse_options(&canonical) {
                Ok(back) => assert_eq!(back, opts, "options {text:?} -> {canonical:?}"),
                Err(e) => panic!("options {text:?}: canonical {canonical:?} refused: {e}"),
            }
            let lineup = opts.lineup();
            assert!(lineup.seats() > 0, "options {text:?}: no seat");
            if let Some(fill) = game.robots_fill(&opts) {
                let _ = fill.to_string();
                for phones in 1..=lineup.seats() {
                    let _ = game.with_phones(&fill, phones).to_string();
                }
            }
            Some(opts)
        }
        Err(e) => {
            let _ = (e.0.text(Lang::Ru), e.0.text(Lang::En), e.to_string());
            None
        }
    }
}

/// The state checked as the platform reads it: status, every seat's board, who sees what.
pub fn state<G: Game>(game: &G, state: &G::State, seats: usize) {
    match game.status(state) {
        Status::Awaiting(who) => {
            for seat in who {
                assert!(seat < seats, "awaits seat {seat} of {seats}");
            }
        }
        Status::Finished(standings) => {
            assert_eq!(standings.len(), seats, "one standing per seat");
            for seat in 0..seats {
                let _ = smsarena::games::Standing::result(&standings, seat);
            }
        }
    }
    for seat in 0..seats {
        for lang in [Lang::Ru, Lang::En] {
            let _ = game.render(state, seat, lang);
        }
        let _ = game.audience(state, seat);
    }
}

/// The seat a line names (`<digit>:` before the move), else the first seat awaited.
fn seat_of<'a, G: Game>(game: &G, state: &G::State, seats: usize, line: &'a str) -> (Seat, &'a str) {
    let b = line.as_bytes();
    if b.len() >= 2 && b[0].is_ascii_digit() && b[1] == b':' {
        return (usize::from(b[0] - b'0') % seats, &line[2..]);
    }
    let seat = match game.status(state) {
        Status::Awaiting(who) => who.first().copied().unwrap_or(0),
        Status::Finished(_) => 0,
    };
    (seat, line)
}

/// One game's parsers and rules on one input.
///
/// The whole input and its first line are each read as a state string, a
/// move and options. Then a match: the first line as a state string, else a
/// new match with the first line as options, else with the default options.
/// Each further line is one text, for the seat it names (`2:` before it) or
/// else the first seat awaited:
///
/// - a move as a player types it (the platform trims it first);
/// - `#n`: the `n`-th of the seat's legal moves, which must be accepted;
/// - `@` or `@n`: the robot's move at level `n`, which must be accepted;
/// - `~`: the game's null move for the seat, which must be accepted;
/// - `!q`, `!t`: the seat resigns, or is away.
///
/// A refused move must give the state back unchanged and draw nothing from
/// the generator; an accepted one must give a state that round-trips. Every
/// state is rendered for every seat.
pub fn game<G: Game>(game: &G, data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let mut lines = text.split('\n');
    let head = lines.next().unwrap_or_default();
    for whole in [&*text, head] {
        if let Ok(s) = whole.parse::<G::State>() {
            round_trip(&s, "state");
        }
        if let Ok(m) = whole.parse::<G::Move>() {
            round_trip(&m, "move");
        }
        let _ = options(game, whole);
    }

    let mut rng = MatchRng::seed_from_u64(u64::from(crc(data)));
    let mut st = match head.parse::<G::State>() {
        Ok(s) => s,
        Err(_) => {
            let opts = options(game, head)
                .or_else(|| options(game, ""))
                .expect("the empty text is the default options");
            game.start(&opts, &mut rng)
        }
    };
    let seats = game.seats(&st).max(1);
    state(game, &st, seats);
    for line in lines.take(MAX_TURNS) {
        let (seat, line) = seat_of(game, &st, seats, line);
        let line = line.trim();
        let (mv, must_pass) = if let Some(n) = line.strip_prefix('#') {
            let legal = game.legal_moves(&st, seat);
            if legal.is_empty() {
                continue;
            }
            let n: usize = n.parse().unwrap_or(0);
            (legal[n % legal.len()].clone(), "legal move")
        } else if let Some(level) = line.strip_prefix('@') {
            if !matches!(game.status(&st), Status::Awaiting(who) if who.contains(&seat)) {
                continue;
            }
            let level = level.parse::<u8>().unwrap_or(1);
            let level = level.clamp(*LEVELS.start(), *LEVELS.end());
            let mv = game.robot_move(&st, seat, level, &Budget::nodes(200), &mut rng);
            (mv, "robot move")
        } else if line == "~" {
            if !matches!(game.status(&st), Status::Awaiting(who) if who.contains(&seat)) {
                continue;
            }
            match game.null_move(&st, seat) {
                Some(mv) => (mv, "null move"),
                None => continue,
            }
        } else if line == "!q" || line == "!t" {
            let why = if line == "!q" {
                Withdrawal::Resigned
            } else {
                Withdrawal::Absent
            };
            let mut absent = vec![false; seats];
            absent[seat] = why == Withdrawal::Absent;
            st = game.withdraw(st, seat, why, &absent);
            round_trip(&st, "state after a withdrawal");
            state(game, &st, seats);
            continue;
        } else {
            match line.parse::<G::Move>() {
                Ok(mv) => (mv, ""),
                Err(e) => {
                    let _ = e.to_string();
                    continue;
                }
            }
        };
        round_trip(&mv, "move");
        let before = st.clone();
        let rng_before = rng.clone();
        match game.play(st, seat, &mv, &mut rng) {
            Ok(played) => {
                st = played.state;
                round_trip(&st, "state after a move");
                state(game, &st, seats);
            }
            Err(refused) => {
                let why = (refused.reason.text(Lang::Ru), refused.reason.text(Lang::En));
                assert!(
                    must_pass.is_empty(),
                    "{must_pass} {mv} of seat {seat} refused: {why:?} in {before}"
                );
                assert_eq!(refused.state, before, "a refusal changed the state");
                assert!(rng == rng_before, "a refusal drew from the generator");
                st = refused.state;
            }
        }
    }
    if matches!(game.status(&st), Status::Finished(_)) {
        let opts = options(game, head).or_else(|| options(game, ""));
        if let Some(opts) = opts {
            let next = game.rematch(&st, &opts, &mut rng);
            round_trip(&next, "rematch");
            state(game, &next, game.seats(&next).max(1));
        }
    }
}

/// A cheap checksum of the input, so each input plays with its own dice.
fn crc(data: &[u8]) -> u32 {
    data.iter()
        .fold(0x811c_9dc5_u32, |h, &b| (h ^ u32::from(b)).wrapping_mul(0x0100_0193))
}

/// A webhook input: `method \n query \n header \n body`, the body the rest
/// (bytes, any). Missing parts are empty.
pub struct Request<'a> {
    pub method: http::Method,
    pub query: String,
    /// The one header line: `content-type` for the form and query providers,
    /// the secret or signature header where a provider has one (see each target).
    pub header: &'a [u8],
    pub body: &'a [u8],
}

impl<'a> Request<'a> {
    pub fn parse(data: &'a [u8]) -> Request<'a> {
        let mut parts = data.splitn(4, |&b| b == b'\n');
        let method = parts.next().unwrap_or_default();
        let query = parts.next().unwrap_or_default();
        let header = parts.next().unwrap_or_default();
        let body = parts.next().unwrap_or_default();
        Request {
            method: if method.eq_ignore_ascii_case(b"GET") {
                http::Method::GET
            } else {
                http::Method::POST
            },
            query: String::from_utf8_lossy(query).into_owned(),
            header,
            body,
        }
    }
}

/// A header map with `name: value`, if the value is a valid header value.
pub fn headers(pairs: &[(&'static str, &[u8])]) -> http::HeaderMap {
    let mut map = http::HeaderMap::new();
    for (name, value) in pairs {
        if let Ok(v) = http::HeaderValue::from_bytes(value) {
            map.insert(*name, v);
        }
    }
    map
}

/// A refusal answers 4xx with a reason, never 5xx: nothing here touches the store.
pub fn refusal(e: &AppError) {
    use axum::response::IntoResponse;
    let copy = match e {
        AppError::BadRequest(msg) => {
            assert!(!msg.is_empty(), "a refusal without a reason");
            AppError::BadRequest(msg.clone())
        }
        AppError::Unauthorized => AppError::Unauthorized,
        AppError::BadSignature => AppError::BadSignature,
        AppError::Stale => AppError::Stale,
        AppError::NotFound => AppError::NotFound,
        AppError::TooManyRequests => AppError::TooManyRequests,
        AppError::Forbidden => AppError::Forbidden,
        AppError::Store(_) => panic!("a webhook's parser touched the store: {e}"),
    };
    let status = copy.into_response().status();
    assert!(status.is_client_error(), "refused with {status}: {e}");
}

/// A reading: a well-formed message, or a 4xx refusal.
pub fn reading(
    result: &Result<smsarena::inbound::InboundMessage, AppError>,
    provider: &str,
) {
    match result {
        Ok(msg) => message(msg, provider),
        Err(e) => refusal(e),
    }
}

/// A message a webhook read: ids and numbers not blank, numbers without spaces.
pub fn message(msg: &smsarena::inbound::InboundMessage, provider: &str) {
    assert_eq!(msg.provider, provider);
    assert!(!msg.provider_id.trim().is_empty(), "blank id: {msg:?}");
    for number in [&msg.from, &msg.to] {
        assert!(!number.is_empty(), "blank number: {msg:?}");
        assert!(!number.chars().any(char::is_whitespace), "spaced number: {msg:?}");
    }
}

/// The moment every parsed message is stamped with.
pub fn epoch() -> chrono::DateTime<chrono::Utc> {
    chrono::DateTime::UNIX_EPOCH
}

/// The configurations a webhook target reads each input under: `open`, with
/// no secret at all (so every input reaches the parser), and `locked`, with
/// every secret set (`LOCKED_*`).
pub struct Configs {
    pub open: smsarena::config::Config,
    pub locked: smsarena::config::Config,
}

pub const LOCKED_SECRET: &str = "s3cr3t";
pub const LOCKED_TWILIO_TOKEN: &str = "12345";
pub const LOCKED_VONAGE_SECRET: &str = "v0nage";

impl Configs {
    pub fn new(vonage_method: &str) -> Configs {
        // Read from JSON, as the service reads its file: whatever type a
        // secret has there, it is written as a string.
        let locked = serde_json::json!({
            "webhooks": { "secret": LOCKED_SECRET },
            "sms": {
                "twilio": { "auth_token": LOCKED_TWILIO_TOKEN },
                "vonage": {
                    "signature_secret": LOCKED_VONAGE_SECRET,
                    "signature_method": vonage_method,
                },
            },
        });
        Configs {
            open: smsarena::config::Config::default(),
            locked: serde_json::from_value(locked).expect("a valid configuration"),
        }
    }
}

/// Two readings of one request agree: the same message, or the same refusal.
pub fn same<T: PartialEq + fmt::Debug>(a: &Result<T, AppError>, b: &Result<T, AppError>, what: &str) {
    match (a, b) {
        (Ok(x), Ok(y)) => assert_eq!(x, y, "{what}"),
        (Err(x), Err(y)) => assert_eq!(x.to_string(), y.to_string(), "{what}"),
        _ => panic!("{what}: {a:?} but {b:?}"),
    }
}

/// Whether the webhooks take these headers for a form body (as they test it).
pub fn is_form(headers: &http::HeaderMap) -> bool {
    headers
        .get(http::header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("application/x-www-form-urlencoded"))
}
