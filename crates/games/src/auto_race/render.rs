//! What each seat reads: when one of its cars is to move, the window of track
//! around it, its allowance and bonus, and the round's order; otherwise the
//! race so far and whose turn it is; at the end, places, points and series.
//! GSM-7 only, within 2 SMS parts for 8 players.

use super::car::{CarId, Run, Why, letter, seat_letter};
use super::result::{placing, race_points, series_length, series_totals, standings};
use super::state::State;
use crate::{Lang, Seat};

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

fn ru(lang: Lang) -> bool {
    lang == Lang::Ru
}

fn lap_text(state: &State, car: CarId) -> String {
    let lap = (state.lap_of(state.cars()[car].d) + 1).clamp(1, i32::from(state.laps()));
    format!("{lap}/{}", state.laps())
}

/// The text for the seat whose car `car` moves now.
fn to_move(state: &State, car: CarId, lang: Lang) -> String {
    let me = letter(car, state.per());
    let allow = state.allowance();
    let bonus = state.bonus(car);
    let mut head = if ru(lang) {
        format!(
            "Vash xod: {me}. Krug {}, xod 1-{allow}",
            lap_text(state, car)
        )
    } else {
        format!(
            "Your move: {me}. Lap {}, length 1-{allow}",
            lap_text(state, car)
        )
    };
    if bonus > 0 {
        head.push_str(&format!(", bonus {bonus}"));
    }
    head.push('.');
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
    format!("{} {}.", lang.pick("Poryadok:", "Order:"), cars.join(" "))
}

fn last_line(state: &State, lang: Lang) -> Option<String> {
    state.last().map(|(car, mv)| {
        format!(
            "{} {} {mv}.",
            lang.pick("Bil:", "Last:"),
            letter(*car, state.per())
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
            format!("{} ({})", cars.join(" "), why_out(*why, lang))
        })
        .collect::<Vec<_>>()
        .join("; ")
}

/// Why a car left, in a word or two (the guide says what each means).
fn why_out(why: Why, lang: Lang) -> &'static str {
    match why {
        Why::Zero => lang.pick("nol", "zero move"),
        Why::Braking => lang.pick("tormozhenie", "braking"),
        Why::Lapped => lang.pick("otstal na krug", "lapped"),
        Why::BackMarker => lang.pick("zamykayushchii", "back-marker"),
        Why::Withdrawn => lang.pick("vyshel", "withdrew"),
    }
}

/// The text for a seat that is not on turn.
fn waiting(state: &State, seat: Seat, lang: Lang) -> String {
    let next = state.to_move().map_or('-', |c| letter(c, state.per()));
    let mine = own_cars(state, seat);
    let mut lines = vec![if ru(lang) {
        format!("Xod protivnika: edet {next}. Vashi: {mine}.")
    } else {
        format!("Opponents' move: car {next}. Yours: {mine}.")
    }];
    if let Some(partner) = partner_note(state, seat, lang) {
        lines[0].push_str(&partner);
    }
    let leader = state.race_order().first().copied();
    if let Some(leader) = leader {
        let lap = lap_text(state, leader);
        let round = state.round();
        lines.push(if ru(lang) {
            format!("Lider na kruge {lap}, raund {round}.")
        } else {
            format!("Leader on lap {lap}, round {round}.")
        });
    }
    let racing = cars_with(state, |r| r == Run::Racing || r == Run::Zero);
    lines.push(format!("{} {racing}.", lang.pick("Mesta:", "Places:")));
    let done = cars_with(state, |r| matches!(r, Run::OnLine(_) | Run::Finished(_)));
    let out = retired(state, lang);
    let mut tail = Vec::new();
    if !done.is_empty() {
        tail.push(format!("Finish: {done}."));
    }
    if !out.is_empty() {
        tail.push(format!("{} {out}.", lang.pick("Soshli:", "Out:")));
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
    Some(format!(
        " {} {}.",
        lang.pick("Komanda:", "Team:"),
        team.join("+")
    ))
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
    let result = match (place, sides) {
        (1, _) => lang.pick("Vi pobedili. ", "You won. "),
        (_, 2) => lang.pick("Vi proigrali. ", "You lost. "),
        _ => "",
    };
    let place = match (ru(lang), sides > 2) {
        (true, true) => format!("{place} mesto iz {sides}"),
        (true, false) => format!("{place} mesto"),
        (false, true) => format!("place {place} of {sides}"),
        (false, false) => format!("place {place}"),
    };
    lines.push(format!(
        "{result}{} {place}, {} {}.",
        lang.pick("Gonka okonchena:", "Race over:"),
        points[seat],
        lang.pick("och", "points")
    ));
    let places: Vec<String> = placing(state)
        .iter()
        .map(|&c| letter(c, state.per()).to_string())
        .collect();
    lines.push(format!(
        "{} {}.",
        lang.pick("Itog:", "Places:"),
        places.join(" ")
    ));
    lines.push(format!(
        "{} {}.",
        lang.pick("Ochki:", "Points:"),
        points_line(state, &points)
    ));
    let totals = series_totals(state);
    let length = series_length(state);
    let series = points_line(state, &totals);
    let race = state.race();
    let last_race = race >= length;
    lines.push(match (ru(lang), last_race, race == 1) {
        (true, false, true) => format!("Seriya: gonka 1 iz {length}."),
        (false, false, true) => format!("Series: race 1 of {length}."),
        (true, false, false) => format!("Seriya, gonka {race} iz {length}: {series}."),
        (false, false, false) => format!("Series, race {race} of {length}: {series}."),
        (true, true, _) => format!("Seriya okonchena: {series}."),
        (false, true, _) => format!("Series over: {series}."),
    });
    lines.push(
        lang.pick(
            "PA - revansh. S nick tekst - soobshchenie.",
            "PA - rematch. S nick text - message.",
        )
        .to_string(),
    );
    lines.join("\n")
}

/// Move syntax help, one SMS with the platform's command list.
pub fn move_help(lang: Lang) -> String {
    lang.pick(
        "Xod: put iz F vpered, I vnutr, O naruzhu (O stoit 3), napr. FFIF; chislo n - n vpered; 0 - nekuda.",
        "Move: a path of F forward, I in, O out (O costs 3), e.g. FFIF; a number n: n forward; 0: stuck.",
    )
    .to_string()
}
