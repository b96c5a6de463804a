//! The race state: the track it is run on, the cars, the round in progress
//! and the series so far; queries every rule needs; and the invariants a
//! reachable state keeps (the state string is in [`super::notation`]).

use std::sync::Arc;

use super::car::{Car, CarId, MAX_CARS, Run, owner};
use super::moves::Move;
use super::track::Track;
use crate::{Level, NotationError, Seat};

/// The leader's longest move (rule 4).
pub const LEADER_ALLOWANCE: u8 = 4;
/// Lap bonus steps (rule 12).
pub const LAP_BONUS: u8 = 3;
/// Rounds in a row without a forward step after which the leader is out (rule 9).
pub const BRAKING_ROUNDS: u8 = 3;

/// Everything about a race, including the settings it was started with (its
/// track, laps, variant), so that a changed track file or config never alters
/// a running race or its replay.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct State {
    /// Shared, so that the copies robots make are cheap.
    pub(super) track: Arc<Track>,
    pub(super) laps: u8,
    /// Cars per seat: 2, or 1 in the team variant.
    pub(super) per: usize,
    /// Team variant: the team (0-based) of each seat, two seats a team.
    pub(super) teams: Option<Vec<u8>>,
    /// Per seat: the robot's level, `None` for a phone.
    pub(super) robots: Vec<Option<Level>>,
    /// The lot: seats in start order (rule 2); a rematch rotates it (rule 16).
    pub(super) grid: Vec<Seat>,
    /// This race's number in the series, from 1.
    pub(super) race: u32,
    /// Series points per seat from the races before this one.
    pub(super) prior: Vec<u32>,
    /// The round in progress, from 1.
    pub(super) round: u32,
    /// This round's race order, fixed at its start (rule 3.1).
    pub(super) order: Vec<CarId>,
    /// Index in `order` of the car to move.
    pub(super) turn: usize,
    /// The longest move the car to move may make, before its bonus (rules 4-6).
    pub(super) allow: u8,
    /// Moves made this round (0: the car to move is the round's leader).
    pub(super) moved: u8,
    /// Finished rounds in a row in which no car moved forward (rule 9).
    pub(super) still: u8,
    /// Whether some car has moved forward in this round.
    pub(super) fwd: bool,
    /// Laps whose winner has had his bonus (rule 12): laps 1..=awarded.
    pub(super) awarded: u8,
    pub(super) cars: Vec<Car>,
    /// The last move made, for the players' texts.
    pub(super) last: Option<(CarId, Move)>,
}

impl State {
    pub fn track(&self) -> &Track {
        &self.track
    }

    pub fn laps(&self) -> u8 {
        self.laps
    }

    pub fn seats(&self) -> usize {
        self.robots.len()
    }

    /// Cars each seat drives (2, or 1 in the team variant).
    pub fn per(&self) -> usize {
        self.per
    }

    pub fn cars(&self) -> &[Car] {
        &self.cars
    }

    pub fn round(&self) -> u32 {
        self.round
    }

    pub fn race(&self) -> u32 {
        self.race
    }

    pub fn team_variant(&self) -> bool {
        self.teams.is_some()
    }

    /// Where a car stands when it has finished: one full race from the line.
    pub fn finish(&self) -> i32 {
        i32::from(self.laps) * self.track.sectors()
    }

    pub fn owner(&self, car: CarId) -> Seat {
        owner(car, self.per)
    }

    /// The cars of `seat`.
    pub fn cars_of(&self, seat: Seat) -> std::ops::Range<CarId> {
        seat * self.per..(seat + 1) * self.per
    }

    /// Which side a seat races for: its team, or itself.
    pub fn side(&self, seat: Seat) -> usize {
        self.teams
            .as_ref()
            .map_or(seat, |teams| usize::from(teams[seat]))
    }

    /// The car on the track cell at distance `d`, physical lane `lane`.
    /// Cells are physical: a car a lap behind on the same cell is there too.
    pub fn occupant(&self, d: i32, lane: u8) -> Option<CarId> {
        let sector = self.track.sector(d);
        self.cars
            .iter()
            .position(|c| c.on_track() && c.lane == lane && self.track.sector(c.d) == sector)
    }

    /// The finished car standing on the finish line in `lane`.
    pub fn on_line(&self, lane: u8) -> Option<CarId> {
        self.cars
            .iter()
            .position(|c| matches!(c.run, Run::OnLine(_)) && c.lane == lane)
    }

    /// The rules' lane (1 inner, counting outwards) of a car.
    pub fn logical_lane(&self, car: CarId) -> u8 {
        let c = &self.cars[car];
        self.track.logical(c.d, c.lane)
    }

    /// The lap a car is on, from 0 (negative on the grid behind the line).
    pub fn lap_of(&self, d: i32) -> i32 {
        d.div_euclid(self.track.sectors())
    }

    /// Racing cars, leader first: farther ahead first, and of two level the
    /// one on the inner lane (rule 3.1).
    pub fn race_order(&self) -> Vec<CarId> {
        let mut cars: Vec<CarId> = (0..self.cars.len())
            .filter(|&c| self.cars[c].racing())
            .collect();
        cars.sort_by_key(|&c| (-self.cars[c].d, self.logical_lane(c)));
        cars
    }

    /// Whether the race is over: no car on the track or on the line.
    pub fn over(&self) -> bool {
        !self.cars.iter().any(Car::in_race)
    }

    /// The car to move now.
    pub fn to_move(&self) -> Option<CarId> {
        (!self.over()).then(|| self.order.get(self.turn).copied())?
    }

    /// The round's order and the index of the car to move.
    pub fn order(&self) -> (&[CarId], usize) {
        (&self.order, self.turn)
    }

    /// Whether the car to move is the round's leader (it moves first).
    pub fn leader_to_move(&self) -> bool {
        self.moved == 0
    }

    /// The longest move of the car to move, before its bonus.
    pub fn allowance(&self) -> u8 {
        self.allow
    }

    /// Lap bonus steps `car` may still use now (rule 12: only during the lap after the one it won).
    pub fn bonus(&self, car: CarId) -> u8 {
        let c = &self.cars[car];
        if c.bonus > 0 && self.lap_of(c.d) == i32::from(c.bonus_lap) {
            c.bonus
        } else {
            0
        }
    }

    pub fn last(&self) -> Option<&(CarId, Move)> {
        self.last.as_ref()
    }

    /// Series points per seat before this race.
    pub fn prior(&self) -> &[u32] {
        &self.prior
    }

    /// Every invariant of a reachable state; `FromStr` relies on it.
    pub fn check(&self) -> Result<(), NotationError> {
        self.check_seats()?;
        self.check_cars()?;
        self.check_ranks()?;
        self.check_round()
    }

    fn check_seats(&self) -> Result<(), NotationError> {
        let seats = self.seats();
        if !(2..=8).contains(&seats) {
            return Err(bad(format!("{seats} seats: a race has 2 to 8")));
        }
        if !(1..=9).contains(&self.laps) {
            return Err(bad(format!("{} laps: a race has 1 to 9", self.laps)));
        }
        let mut grid = self.grid.clone();
        grid.sort_unstable();
        if grid != (0..seats).collect::<Vec<_>>() {
            return Err(bad("the grid must list every seat once"));
        }
        if self.prior.len() != seats || self.race == 0 {
            return Err(bad("the series needs a race number and points per seat"));
        }
        if self.robots.iter().flatten().any(|l| !(1..=3).contains(l)) {
            return Err(bad("robot levels are 1 to 3"));
        }
        match (&self.teams, self.per) {
            (None, 2) => Ok(()),
            (Some(teams), 1) => {
                let mut counts = vec![0; seats / 2];
                for &t in teams {
                    *counts
                        .get_mut(usize::from(t))
                        .ok_or_else(|| bad(format!("team {t} out of range")))? += 1;
                }
                if seats % 2 == 1
                    || seats < 4
                    || teams.len() != seats
                    || counts.iter().any(|&n| n != 2)
                {
                    return Err(bad("teams are pairs of seats, 4 to 8 seats"));
                }
                Ok(())
            }
            _ => Err(bad("two cars a seat, or one in the team variant")),
        }
    }

    fn check_cars(&self) -> Result<(), NotationError> {
        let n = self.cars.len();
        if n != self.seats() * self.per || n > MAX_CARS {
            return Err(bad(format!("{n} cars for {} seats", self.seats())));
        }
        let finish = self.finish();
        for (i, c) in self.cars.iter().enumerate() {
            let at_finish = matches!(c.run, Run::OnLine(_) | Run::Finished(_));
            let placed = if at_finish {
                c.d == finish
            } else {
                c.d < finish && c.d >= -(n as i32)
            };
            // A car on the line stands in the lane it crossed it in, which
            // the next lap need not have.
            let road = if at_finish {
                (1..=self.track.frame()).contains(&c.lane)
            } else {
                self.track.exists(c.d, c.lane)
            };
            if !placed || !road {
                return Err(bad(format!("car {i} is off the track: {}.{}", c.d, c.lane)));
            }
            let usable = c.racing() && c.bonus_lap >= 1 && c.bonus_lap < self.laps;
            let bonus_ok = (c.bonus == 0 && c.bonus_lap == 0)
                || (usable && c.bonus <= LAP_BONUS && self.lap_of(c.d) == i32::from(c.bonus_lap));
            if !bonus_ok {
                return Err(bad(format!("car {i} has a bonus it cannot use")));
            }
            let clash = self.cars[..i].iter().any(|o| {
                (o.on_track()
                    && c.on_track()
                    && o.lane == c.lane
                    && self.track.sector(o.d) == self.track.sector(c.d))
                    || (matches!(o.run, Run::OnLine(_))
                        && matches!(c.run, Run::OnLine(_))
                        && o.lane == c.lane)
            });
            if clash {
                return Err(bad(format!("car {i} shares a cell with another car")));
            }
        }
        Ok(())
    }

    fn check_ranks(&self) -> Result<(), NotationError> {
        let mut finished = Vec::new();
        let mut classified = Vec::new();
        let mut out = Vec::new();
        for c in &self.cars {
            match c.run {
                Run::OnLine(r) | Run::Finished(r) => finished.push(r),
                Run::Classified(r) => classified.push(r),
                Run::Out(s, _) => out.push(s),
                Run::Racing | Run::Zero => {}
            }
        }
        let f = finished.len() as u8;
        if !consecutive(finished, 1)
            || !consecutive(classified.clone(), f + 1)
            || !consecutive(out, 1)
        {
            return Err(bad("finish ranks and retirements must count 1, 2, 3..."));
        }
        if !classified.is_empty() && !self.over() {
            return Err(bad("cars are classified only when the race is over"));
        }
        Ok(())
    }

    fn check_round(&self) -> Result<(), NotationError> {
        if self.round == 0 || self.still >= BRAKING_ROUNDS || self.awarded >= self.laps {
            return Err(bad("round, braking count or lap awards out of range"));
        }
        if let Some((car, _)) = &self.last
            && *car >= self.cars.len()
        {
            return Err(bad("the last move names no car"));
        }
        if self.over() {
            let reset = self.order.is_empty()
                && self.turn == 0
                && self.allow == LEADER_ALLOWANCE
                && self.moved == 0
                && !self.fwd
                && self.still == 0;
            return reset
                .then_some(())
                .ok_or_else(|| bad("a finished race has no round in progress"));
        }
        let mut seen = [false; MAX_CARS];
        for &car in &self.order {
            if car >= self.cars.len() || std::mem::replace(&mut seen[car], true) {
                return Err(bad("the order must list distinct cars"));
            }
        }
        if self.turn >= self.order.len() || !self.cars[self.order[self.turn]].racing() {
            return Err(bad("the car to move must be racing"));
        }
        for (i, c) in self.cars.iter().enumerate() {
            let index = self.order.iter().position(|&o| o == i);
            let fits = match (c.run, index) {
                (Run::Racing, Some(_)) => true,
                (Run::Zero | Run::OnLine(_), Some(k)) => k < self.turn,
                (Run::Finished(_) | Run::Out(..), _) => true,
                _ => false,
            };
            if !fits {
                return Err(bad(format!("car {i} does not fit this round's order")));
            }
        }
        let moved = usize::from(self.moved);
        let allow_ok = if moved == 0 {
            self.allow == LEADER_ALLOWANCE
        } else {
            self.allow >= 1
        };
        if moved > self.turn || !allow_ok || (self.fwd && moved == 0) {
            return Err(bad("the allowance does not fit the moves made this round"));
        }
        Ok(())
    }
}

/// Whether `values`, sorted, are `from, from+1, ...`.
fn consecutive(mut values: Vec<u8>, from: u8) -> bool {
    values.sort_unstable();
    values
        .iter()
        .enumerate()
        .all(|(i, &v)| usize::from(v) == usize::from(from) + i)
}

fn bad(message: impl Into<String>) -> NotationError {
    NotationError::new(message)
}
