//! Setting up a race: the teams and the lot (rule 2), and the rematch that
//! rotates the lot (rule 16).
//!
//! Draw order, fixed because replays depend on it: in the team variant,
//! first the pairing (a shuffle of the seats, partners taken two by two),
//! then the lot (a shuffle of the seats). A shuffle is Fisher-Yates from the
//! back, one `gen_range(0..=i)` per position. A rematch draws nothing.

use std::sync::Arc;

use rand::Rng;

use super::car::{Car, Run};
use super::result::{series_length, series_totals};
use super::state::{LEADER_ALLOWANCE, State};
use super::track::Track;
use crate::{Level, MatchRng, Seat};

/// What a new race is set up with.
pub struct Setup {
    pub track: Arc<Track>,
    pub laps: u8,
    pub team: bool,
    pub robots: Vec<Option<Level>>,
}

fn shuffle(seats: usize, rng: &mut MatchRng) -> Vec<Seat> {
    let mut order: Vec<Seat> = (0..seats).collect();
    for i in (1..seats).rev() {
        let j = rng.gen_range(0..=i);
        order.swap(i, j);
    }
    order
}

/// Teams of two from a shuffle, numbered in the order their first seat comes.
fn draw_teams(seats: usize, rng: &mut MatchRng) -> Vec<u8> {
    let shuffled = shuffle(seats, rng);
    let mut partner = vec![0; seats];
    for pair in shuffled.chunks(2) {
        partner[pair[0]] = pair[1];
        partner[pair[1]] = pair[0];
    }
    let mut teams = vec![u8::MAX; seats];
    let mut next = 0;
    for seat in 0..seats {
        if teams[seat] == u8::MAX {
            teams[seat] = next;
            teams[partner[seat]] = next;
            next += 1;
        }
    }
    teams
}

/// A new race: teams (team variant) and the lot drawn from `rng`.
pub fn start(setup: Setup, rng: &mut MatchRng) -> State {
    let seats = setup.robots.len();
    let teams = setup.team.then(|| draw_teams(seats, rng));
    let grid = shuffle(seats, rng);
    place(setup, teams, grid, 1, vec![0; seats])
}

/// The next race of the series: same seats, teams and settings, the lot
/// rotated by one (the first starter goes to the back); after a full
/// rotation a new series begins.
pub fn rematch(finished: &State) -> State {
    let mut grid = finished.grid.clone();
    grid.rotate_left(1);
    let (race, prior) = if finished.race >= series_length(finished) {
        (1, vec![0; finished.seats()])
    } else {
        (finished.race + 1, series_totals(finished))
    };
    let setup = Setup {
        track: Arc::clone(&finished.track),
        laps: finished.laps,
        team: finished.teams.is_some(),
        robots: finished.robots.clone(),
    };
    place(setup, finished.teams.clone(), grid, race, prior)
}

/// Lines the cars up on the outer lane (the rules' lane 4), one behind the
/// other, the front car just past the start line: one car of each seat in lot
/// order, then the second cars in the same order (rule 2).
fn place(
    setup: Setup,
    teams: Option<Vec<u8>>,
    grid: Vec<Seat>,
    race: u32,
    prior: Vec<u32>,
) -> State {
    let per = if teams.is_some() { 1 } else { 2 };
    let seats = setup.robots.len();
    let mut cars = vec![
        Car {
            d: 0,
            lane: 1,
            run: Run::Racing,
            bonus: 0,
            bonus_lap: 0,
        };
        seats * per
    ];
    let lineup = (0..per).flat_map(|k| grid.iter().map(move |&s| s * per + k));
    for (i, car) in lineup.enumerate() {
        let d = -(i as i32);
        cars[car].d = d;
        // The outer lane, which is lane 4 on the rules' track (rule 2).
        cars[car].lane = setup.track.physical(d, setup.track.width(d));
    }
    let mut state = State {
        track: setup.track,
        laps: setup.laps,
        per,
        teams,
        robots: setup.robots,
        grid,
        race,
        prior,
        round: 1,
        order: Vec::new(),
        turn: 0,
        allow: LEADER_ALLOWANCE,
        moved: 0,
        still: 0,
        fwd: false,
        awarded: 0,
        cars,
        last: None,
    };
    state.order = state.race_order();
    state
}
