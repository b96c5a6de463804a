//! The state string: one line of GSM-safe ASCII that round-trips exactly.
//!
//! ```text
//! AR1 track=RING:30L laps=2 robots=.2 teams=- grid=BA race=1 prior=0,0 round=1 order=BAba turn=0 allow=4 moved=0 still=0 fwd=0 awarded=0 cars=-1.4,-3.4,0.4,-2.4 last=-
//! ```
//!
//! | field | meaning |
//! |---|---|
//! | `AR1` | format version |
//! | `track` | the track raced, `NAME:` and its segments (`30L`: 30 sectors, inner lane on the left) |
//! | `laps` | the race distance |
//! | `robots` | per seat: `.` a phone, `1`-`3` a robot of that level |
//! | `teams` | `-`, or per seat its team `0`-`3` (team variant: one car a seat) |
//! | `grid` | the lot: seat letters in start order |
//! | `race`, `prior` | the race's number in the series; series points per seat before it |
//! | `round` | the round in progress |
//! | `order`, `turn` | the round's race order (car letters) and the index of the car to move |
//! | `allow`, `moved` | the next car's longest move before its bonus; moves made this round |
//! | `still`, `fwd` | finished rounds in a row with no forward step; whether one was made this round |
//! | `awarded` | laps whose winner got the lap bonus |
//! | `cars` | per car (`A a B b ...`): `d.lane` (sectors from the line, physical lane), then `z` zero move made, `L3` finished 3rd and on the line, `f3` finished 3rd, `c3` classified 3rd, `x2l` 2nd to retire and why (`z` zero, `b` braking, `l` lapped, `m` back-marker, `q` withdrawn); then `+3@1`: bonus steps usable on lap 1 |
//! | `last` | the last move, `letter:move`, or `-` |
//!
//! Parsing accepts only what `Display` writes and then checks every
//! invariant ([`State::check`]).

use std::fmt;
use std::str::FromStr;
use std::sync::Arc;

use super::car::{Car, Run, Why, from_letter, letter, seat_letter};
use super::state::State;
use super::track::Track;
use crate::NotationError;

const TAG: &str = "AR1";

const KEYS: [&str; 17] = [
    "track", "laps", "robots", "teams", "grid", "race", "prior", "round", "order", "turn", "allow",
    "moved", "still", "fwd", "awarded", "cars", "last",
];

fn car_text(car: &Car) -> String {
    let mut text = format!("{}.{}", car.d, car.lane);
    match car.run {
        Run::Racing => {}
        Run::Zero => text.push('z'),
        Run::OnLine(r) => text.push_str(&format!("L{r}")),
        Run::Finished(r) => text.push_str(&format!("f{r}")),
        Run::Classified(r) => text.push_str(&format!("c{r}")),
        Run::Out(s, why) => text.push_str(&format!("x{s}{}", why.code())),
    }
    if car.bonus > 0 {
        text.push_str(&format!("+{}@{}", car.bonus, car.bonus_lap));
    }
    text
}

impl fmt::Display for State {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let robots: String = self
            .robots
            .iter()
            .map(|r| r.map_or('.', |l| char::from(b'0' + l)))
            .collect();
        let teams = self.teams.as_ref().map_or_else(
            || "-".to_string(),
            |t| t.iter().map(|&x| char::from(b'0' + x)).collect(),
        );
        let grid: String = self.grid.iter().map(|&s| seat_letter(s)).collect();
        let prior: Vec<String> = self.prior.iter().map(u32::to_string).collect();
        let order: String = self.order.iter().map(|&c| letter(c, self.per)).collect();
        let order = if order.is_empty() { "-".into() } else { order };
        let cars: Vec<String> = self.cars.iter().map(car_text).collect();
        let last = self.last.as_ref().map_or_else(
            || "-".to_string(),
            |(car, mv)| format!("{}:{mv}", letter(*car, self.per)),
        );
        write!(
            f,
            "{TAG} track={} laps={} robots={robots} teams={teams} grid={grid} race={} prior={} \
             round={} order={order} turn={} allow={} moved={} still={} fwd={} awarded={} cars={} last={last}",
            self.track.compact(),
            self.laps,
            self.race,
            prior.join(","),
            self.round,
            self.turn,
            self.allow,
            self.moved,
            self.still,
            u8::from(self.fwd),
            self.awarded,
            cars.join(","),
        )
    }
}

fn bad(message: impl Into<String>) -> NotationError {
    NotationError::new(message)
}

/// A number only as `Display` writes it (no `+1`, `01`).
fn number<T: FromStr + fmt::Display>(text: &str, what: &str) -> Result<T, NotationError> {
    text.parse::<T>()
        .ok()
        .filter(|v| v.to_string() == text)
        .ok_or_else(|| bad(format!("{what} {text:?} is not a plain number")))
}

fn digits(text: &str, what: &str) -> Result<Vec<u8>, NotationError> {
    text.bytes()
        .map(|b| {
            b.is_ascii_digit()
                .then(|| b - b'0')
                .ok_or_else(|| bad(format!("{what} {text:?} must be digits")))
        })
        .collect()
}

fn parse_run(text: &str) -> Result<Run, NotationError> {
    let Some(kind) = text.chars().next() else {
        return Ok(Run::Racing);
    };
    let rest = &text[kind.len_utf8()..];
    match kind {
        'z' if rest.is_empty() => Ok(Run::Zero),
        'L' => number(rest, "rank").map(Run::OnLine),
        'f' => number(rest, "rank").map(Run::Finished),
        'c' => number(rest, "rank").map(Run::Classified),
        'x' => {
            let why = rest
                .chars()
                .last()
                .and_then(Why::from_code)
                .ok_or_else(|| bad(format!("retirement {text:?} has no reason letter")))?;
            number(&rest[..rest.len() - 1], "retirement").map(|s| Run::Out(s, why))
        }
        _ => Err(bad(format!("car status {text:?} is unknown"))),
    }
}

pub(super) fn parse_car(text: &str) -> Result<Car, NotationError> {
    let (d, rest) = text
        .split_once('.')
        .ok_or_else(|| bad(format!("car {text:?} is not d.lane")))?;
    let (rest, bonus) = match rest.split_once('+') {
        Some((rest, bonus)) => (rest, Some(bonus)),
        None => (rest, None),
    };
    let lane_len = rest.bytes().take_while(u8::is_ascii_digit).count().min(1);
    let (lane, run) = rest.split_at(lane_len);
    let (bonus, bonus_lap) = match bonus {
        None => (0, 0),
        Some(b) => {
            let (n, lap) = b
                .split_once('@')
                .ok_or_else(|| bad(format!("bonus {b:?} is not n@lap")))?;
            let n: u8 = number(n, "bonus")?;
            if n == 0 {
                return Err(bad("a bonus of 0 is written as none"));
            }
            (n, number(lap, "bonus lap")?)
        }
    };
    Ok(Car {
        d: number(d, "distance")?,
        lane: number(lane, "lane")?,
        run: parse_run(run)?,
        bonus,
        bonus_lap,
    })
}

impl FromStr for State {
    type Err = NotationError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let mut tokens = s.split(' ');
        if tokens.next() != Some(TAG) {
            return Err(bad(format!("an auto race state starts with {TAG}")));
        }
        let mut values = [""; 17];
        for (key, value) in KEYS.iter().zip(values.iter_mut()) {
            let token = tokens
                .next()
                .ok_or_else(|| bad(format!("the state has no {key}= field")))?;
            *value = token
                .strip_prefix(key)
                .and_then(|rest| rest.strip_prefix('='))
                .ok_or_else(|| bad(format!("expected {key}=..., found {token:?}")))?;
        }
        if tokens.next().is_some() {
            return Err(bad("the state has text after last="));
        }
        let [
            track,
            laps,
            robots,
            teams,
            grid,
            race,
            prior,
            round,
            order,
            turn,
            allow,
            moved,
            still,
            fwd,
            awarded,
            cars,
            last,
        ] = values;
        let track = Arc::new(Track::from_compact(track).map_err(|e| bad(e.to_string()))?);
        let robots = robots
            .chars()
            .map(|c| match c {
                '.' => Ok(None),
                '1'..='3' => Ok(Some(c as u8 - b'0')),
                _ => Err(bad(format!(
                    "robots {robots:?}: '.' or a level 1-3 per seat"
                ))),
            })
            .collect::<Result<Vec<_>, _>>()?;
        let seats = robots.len();
        let teams = match teams {
            "-" => None,
            t => Some(digits(t, "teams")?),
        };
        let per = if teams.is_some() { 1 } else { 2 };
        let n = seats * per;
        let grid = grid
            .chars()
            .map(|c| {
                from_letter(c, seats, 1)
                    .filter(|_| c.is_ascii_uppercase())
                    .ok_or_else(|| bad(format!("grid {grid:?} names no seat {c:?}")))
            })
            .collect::<Result<Vec<_>, _>>()?;
        let prior = prior
            .split(',')
            .map(|p| number(p, "prior"))
            .collect::<Result<Vec<u32>, _>>()?;
        let order = match order {
            "-" => Vec::new(),
            o => o
                .chars()
                .map(|c| {
                    from_letter(c, n, per).ok_or_else(|| bad(format!("order names no car {c:?}")))
                })
                .collect::<Result<Vec<_>, _>>()?,
        };
        let fwd = match fwd {
            "0" => false,
            "1" => true,
            _ => return Err(bad("fwd is 0 or 1")),
        };
        let cars = cars
            .split(',')
            .map(parse_car)
            .collect::<Result<Vec<_>, _>>()?;
        let last = match last {
            "-" => None,
            l => {
                let (who, mv) = l
                    .split_once(':')
                    .ok_or_else(|| bad(format!("last {l:?} is not car:move")))?;
                let mut chars = who.chars();
                let car = match (chars.next(), chars.next()) {
                    (Some(c), None) => from_letter(c, n, per),
                    _ => None,
                }
                .ok_or_else(|| bad(format!("last names no car {who:?}")))?;
                let mv: super::moves::Move = mv.parse()?;
                if mv.to_string() != mv_text_of(l) {
                    return Err(bad(format!("last move {mv} is not written canonically")));
                }
                Some((car, mv))
            }
        };
        let state = State {
            track,
            laps: number(laps, "laps")?,
            per,
            teams,
            robots,
            grid,
            race: number(race, "race")?,
            prior,
            round: number(round, "round")?,
            order,
            turn: number(turn, "turn")?,
            allow: number(allow, "allow")?,
            moved: number(moved, "moved")?,
            still: number(still, "still")?,
            fwd,
            awarded: number(awarded, "awarded")?,
            cars,
            last,
        };
        state.check()?;
        Ok(state)
    }
}

/// The move part of a `last=` value.
fn mv_text_of(last: &str) -> &str {
    last.split_once(':').map_or("", |(_, mv)| mv)
}
