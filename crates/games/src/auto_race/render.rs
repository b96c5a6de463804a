//! What each seat reads: when one of its cars is to move, the window of track
//! around it, its allowance and bonus, and the round's order; otherwise the
//! race so far and whose turn it is; at the end, places, points and series.
//! GSM-7 only, within 2 SMS parts for 8 players.

use super::car::{CarId, Run, Why, letter, seat_letter};
use super::result::{placing, race_points, series_length, series_totals, standings};
use super::state::State;
use crate::{Lang, Seat, tr};

/// Sectors shown behind the car to move.
const BEHIND: i32 = 2;
/// Fewest and most sectors shown ahead of it.
const AHEAD: (i32, i32) = (8, 23);

/// The seat's text; no trailing newline.
pub fn render(state: &State, seat: Seat, lang: Lang) -> String {
    if state.over() {
        return finished(state, seat, lang);
    }
    match state.to_move() {
        Some(car) if state.owner(car) == seat => to_move(state, car, lang),
        _ => waiting(state, seat, lang),
    }
}

/// The lap `car` is on, 1 to the race's laps.
fn lap_of(state: &State, car: CarId) -> i32 {
    (state.lap_of(state.cars()[car].d) + 1).clamp(1, i32::from(state.laps()))
}

/// The text for the seat whose car `car` moves now.
fn to_move(state: &State, car: CarId, lang: Lang) -> String {
    let allow = state.allowance();
    let bonus = state.bonus(car);
    let mut head = tr!(
        lang,
        "ar-your-move",
        car = letter(car, state.per()),
        lap = lap_of(state, car),
        laps = state.laps(),
        allow = allow,
        bonus = bonus,
    );
    if let Some(partner) = partner_note(state, state.owner(car), lang) {
        head.push_str(&partner);
    }
    let limit = i32::from(allow) + i32::from(bonus);
    let order = order_line(state, lang);
    let mut text = format!("{head}\n{}\n{order}", window(state, car, limit));
    if let Some(last) = last_line(state, lang) {
        text.push(' ');
        text.push_str(&last);
    }
    text
}

/// A column of the window.
#[derive(Clone, Copy)]
enum Column {
    /// The start and finish line.
    Line,
    /// Where the track starts turning the other way.
    Turn,
    /// A sector, by distance.
    Sector(i32),
}

/// One line a lane, the car's inner lane on top, each labelled with its
/// lane number at the car; sectors left to right, `:` the start and finish
/// line, `|` where the track starts turning the other way (lane numbers
/// swap there), `#` where a lane is no road (the track is narrower). When the
/// lanes at the window's far end are numbered otherwise than at the car,
/// each line ends with its number there.
pub fn window(state: &State, car: CarId, limit: i32) -> String {
    let track = state.track();
    let here = state.cars()[car].d;
    let ahead = (limit + 2).clamp(AHEAD.0, AHEAD.1);
    let ahead = ahead.min(track.sectors() - BEHIND - 1);
    let mut columns = Vec::new();
    for d in here - BEHIND..=here + ahead {
        if track.sector(d) == 0 {
            columns.push(Column::Line);
        }
        if d > here - BEHIND && track.inner_right(d) != track.inner_right(d - 1) {
            columns.push(Column::Turn);
        }
        columns.push(Column::Sector(d));
    }
    let label = |d: i32, lane: u8| {
        if track.exists(d, lane) {
            char::from(b'0' + track.logical(d, lane))
        } else {
            '#'
        }
    };
    let far = here + ahead;
    let lanes = 1..=track.frame();
    let relabel = lanes
        .clone()
        .any(|lane| label(far, lane) != label(here, lane));
    let rows: Vec<u8> = if track.inner_right(here) {
        lanes.rev().collect()
    } else {
        lanes.collect()
    };
    let lines: Vec<String> = rows
        .into_iter()
        .map(|lane| {
            let mut line = format!("{} ", label(here, lane));
            for column in &columns {
                line.push(match *column {
                    Column::Line => state.on_line(lane).map_or(':', |c| letter(c, state.per())),
                    Column::Turn => '|',
                    Column::Sector(d) if !track.exists(d, lane) => '#',
                    Column::Sector(d) => state
                        .occupant(d, lane)
                        .map_or('.', |c| letter(c, state.per())),
                });
            }
            if relabel {
                line.push(' ');
                line.push(label(far, lane));
            }
            line
        })
        .collect();
    lines.join("\n")
}

/// The round's order, the car to move marked with `*`.
fn order_line(state: &State, lang: Lang) -> String {
    let (order, turn) = state.order();
    let cars: Vec<String> = order
        .iter()
        .enumerate()
        .filter(|&(i, &c)| state.cars()[c].in_race() || i == turn)
        .map(|(i, &c)| {
            let mark = if i == turn { "*" } else { "" };
            format!("{}{mark}", letter(c, state.per()))
        })
        .collect();
    tr!(lang, "ar-order", cars = cars.join(" "))
}

fn last_line(state: &State, lang: Lang) -> Option<String> {
    state.last().map(|(car, mv)| {
        tr!(
            lang,
            "ar-last",
            car = letter(*car, state.per()),
            path = mv.to_string(),
        )
    })
}

/// The seat's cars, as letters.
fn own_cars(state: &State, seat: Seat) -> String {
    state
        .cars_of(seat)
        .map(|c| letter(c, state.per()).to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

/// Letters of the cars whose `run` matches, in placing order.
fn cars_with(state: &State, pick: impl Fn(Run) -> bool) -> String {
    placing(state)
        .into_iter()
        .filter(|&c| pick(state.cars()[c].run))
        .map(|c| letter(c, state.per()).to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

/// The cars that left the race, grouped by why: `c (nol); B b (tormozhenie)`.
fn retired(state: &State, lang: Lang) -> String {
    let mut groups: Vec<(Why, Vec<char>)> = Vec::new();
    for c in placing(state) {
        if let Run::Out(_, why) = state.cars()[c].run {
            let car = letter(c, state.per());
            match groups.iter_mut().find(|(w, _)| *w == why) {
                Some((_, cars)) => cars.push(car),
                None => groups.push((why, vec![car])),
            }
        }
    }
    groups
        .iter()
        .map(|(why, cars)| {
            let cars: Vec<String> = cars.iter().map(char::to_string).collect();
            tr!(
                lang,
                "ar-out-group",
                cars = cars.join(" "),
                why = why_key(*why),
            )
        })
        .collect::<Vec<_>>()
        .join("; ")
}

/// Why a car left, as `ar-out-group` selects its words.
fn why_key(why: Why) -> &'static str {
    match why {
        Why::Zero => "zero",
        Why::Braking => "braking",
        Why::Lapped => "lapped",
        Why::BackMarker => "back-marker",
        Why::Withdrawn => "withdrew",
    }
}

/// The text for a seat that is not on turn.
fn waiting(state: &State, seat: Seat, lang: Lang) -> String {
    let next = state.to_move().map_or('-', |c| letter(c, state.per()));
    let mut lines = vec![tr!(
        lang,
        "ar-waiting",
        car = next,
        yours = own_cars(state, seat),
    )];
    if let Some(partner) = partner_note(state, seat, lang) {
        lines[0].push_str(&partner);
    }
    let leader = state.race_order().first().copied();
    if let Some(leader) = leader {
        lines.push(tr!(
            lang,
            "ar-leader",
            lap = lap_of(state, leader),
            laps = state.laps(),
            round = state.round(),
        ));
    }
    let racing = cars_with(state, |r| r == Run::Racing || r == Run::Zero);
    lines.push(tr!(lang, "ar-places", cars = racing));
    let done = cars_with(state, |r| matches!(r, Run::OnLine(_) | Run::Finished(_)));
    let out = retired(state, lang);
    let mut tail = Vec::new();
    if !done.is_empty() {
        tail.push(tr!(lang, "ar-finish", cars = done));
    }
    if !out.is_empty() {
        tail.push(tr!(lang, "ar-out", out = out));
    }
    if let Some(last) = last_line(state, lang) {
        tail.push(last);
    }
    if !tail.is_empty() {
        lines.push(tail.join(" "));
    }
    lines.join("\n")
}

/// In a team race, whom the seat races with: ` Komanda: A+C.`
fn partner_note(state: &State, seat: Seat, lang: Lang) -> Option<String> {
    if !state.team_variant() {
        return None;
    }
    let side = state.side(seat);
    let team: Vec<String> = (0..state.seats())
        .filter(|&s| state.side(s) == side)
        .map(|s| seat_letter(s).to_string())
        .collect();
    Some(format!(" {}", tr!(lang, "ar-team", team = team.join("+"))))
}

/// Points per side: `A 13, B 7` (team variant: `A+C 9, B+D 6`).
fn points_line(state: &State, points: &[u32]) -> String {
    let mut seen = Vec::new();
    let mut parts = Vec::new();
    let mut seats: Vec<Seat> = (0..state.seats()).collect();
    seats.sort_by_key(|&s| std::cmp::Reverse(points[s]));
    for seat in seats {
        let side = state.side(seat);
        if seen.contains(&side) {
            continue;
        }
        seen.push(side);
        let names: Vec<String> = (0..state.seats())
            .filter(|&s| state.side(s) == side)
            .map(|s| seat_letter(s).to_string())
            .collect();
        parts.push(format!("{} {}", names.join("+"), points[seat]));
    }
    parts.join(", ")
}

/// The text at the end: result, places, points, series, what next. A race
/// of more than two sides is told as places: first is a win, and second of
/// four is second, not a loss.
fn finished(state: &State, seat: Seat, lang: Lang) -> String {
    let standings = standings(state);
    let place = standings[seat].place;
    let sides = standings.iter().map(|s| s.place).max().unwrap_or(1);
    let points = race_points(state);
    let mut lines = Vec::new();
    let outcome = match (place, sides) {
        (1, _) => "won",
        (_, 2) => "lost",
        _ => "placed",
    };
    lines.push(tr!(
        lang,
        "ar-race-over",
        outcome = outcome,
        place = place,
        sides = sides,
        points = points[seat],
    ));
    let places: Vec<String> = placing(state)
        .iter()
        .map(|&c| letter(c, state.per()).to_string())
        .collect();
    lines.push(tr!(lang, "ar-final-places", cars = places.join(" ")));
    lines.push(tr!(lang, "ar-points", table = points_line(state, &points)));
    let totals = series_totals(state);
    let length = series_length(state);
    let series = points_line(state, &totals);
    let race = state.race();
    let last_race = race >= length;
    lines.push(match (last_race, race == 1) {
        (false, true) => tr!(lang, "ar-series-first", races = length),
        (false, false) => tr!(
            lang,
            "ar-series-race",
            race = race,
            races = length,
            totals = series,
        ),
        (true, _) => tr!(lang, "ar-series-over", totals = series),
    });
    lines.push(tr!(lang, "ar-what-next"));
    lines.join("\n")
}

/// Move syntax help, one SMS with the platform's command list.
pub fn move_help(lang: Lang) -> String {
    tr!(lang, "ar-move-help")
}
