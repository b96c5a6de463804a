//! Driving one path for the car to move: each step checked in order, the
//! first fault refused with its step number (rules 3.2, 4-7, 10, 12, 14).

use super::car::{CarId, letter};
use super::moves::Step;
use super::refusal::Refusal;
use super::state::State;

/// Where an accepted path takes the car, and what it does on the way.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Drive {
    pub d: i32,
    pub lane: u8,
    /// The move's length as rule 7 counts it, up to the finish line.
    pub length: u32,
    /// Whether it made a step forward (rule 9).
    pub forward: bool,
    /// Whether it reached the finish line (and stopped there; later steps are not driven).
    pub finished: bool,
    /// Back-markers the leader drove through (rule 14), in the order met.
    pub knocked: Vec<CarId>,
}

/// The car's limit for this move: its allowance plus the bonus it may use.
pub fn limit(state: &State, car: CarId) -> (u8, u8) {
    (state.allowance(), state.bonus(car))
}

/// The lane one step sideways, inwards or outwards, at `d`; `None` off the track.
pub fn sideways(state: &State, d: i32, lane: u8, inner: bool) -> Option<u8> {
    // Inwards is towards lane 1, which is on the left where the track turns left.
    let left = inner != state.track().inner_right(d);
    let next = if left { lane.checked_sub(1)? } else { lane + 1 };
    state.track().exists(d, next).then_some(next)
}

/// Whether a step forward from physical lane `lane` at `d` stays on the road:
/// the lane goes on into the next sector, or the next is the finish line.
pub fn lane_goes_on(state: &State, d: i32, lane: u8) -> bool {
    d + 1 == state.finish() || state.track().exists(d + 1, lane)
}

/// Drives `steps` for `car` (the car to move). Refuses the first faulty
/// step: backwards, off the track, too long, a cell twice, a taken cell.
/// The round's leader drives through a car on lane 1 (a back-marker), which
/// leaves the race.
pub fn drive(state: &State, car: CarId, steps: &[Step]) -> Result<Drive, Refusal> {
    let start = &state.cars()[car];
    let (allow, bonus) = limit(state, car);
    let max = u32::from(allow) + u32::from(bonus);
    let finish = state.finish();
    let leader = state.leader_to_move();
    let mut drive = Drive {
        d: start.d,
        lane: start.lane,
        length: 0,
        forward: false,
        finished: false,
        knocked: Vec::new(),
    };
    // Cells are physical, so they are compared by sector, not by distance.
    let cell = |d: i32, lane: u8| (state.track().sector(d), lane);
    let mut visited = vec![cell(start.d, start.lane)];
    for (i, &mv) in steps.iter().enumerate() {
        let step = i + 1;
        let (d, lane) = match mv {
            Step::Back => return Err(Refusal::Backwards { step }),
            Step::Forward if !lane_goes_on(state, drive.d, drive.lane) => {
                let lane = state.track().logical(drive.d, drive.lane);
                return Err(Refusal::LaneEnds { step, lane });
            }
            Step::Forward => (drive.d + 1, drive.lane),
            Step::Inner | Step::Outer => {
                let inner = mv == Step::Inner;
                let lane = sideways(state, drive.d, drive.lane, inner).ok_or_else(|| {
                    let lane = state.track().logical(drive.d, drive.lane);
                    Refusal::OffTrack { step, mv, lane }
                })?;
                (drive.d, lane)
            }
        };
        drive.length += mv.length();
        if drive.length > max {
            return Err(Refusal::TooLong {
                step,
                mv,
                length: drive.length,
                allow,
                bonus,
            });
        }
        let taken = |by: CarId, line: bool| Refusal::Occupied {
            step,
            mv,
            by: letter(by, state.per()),
            lane: state.track().logical(d, lane),
            ahead: d - start.d,
            line,
        };
        if d == finish {
            if let Some(by) = state.on_line(lane) {
                return Err(taken(by, true));
            }
            drive.d = d;
            drive.forward = true;
            drive.finished = true;
            return Ok(drive);
        }
        if visited.contains(&cell(d, lane)) {
            return Err(Refusal::CellTwice { step, mv });
        }
        if let Some(by) = state
            .occupant(d, lane)
            .filter(|b| !drive.knocked.contains(b))
        {
            let back_marker = leader
                && state.track().logical(d, lane) == 1
                && state.cars()[by].racing()
                && by != car;
            if !back_marker {
                return Err(taken(by, false));
            }
            drive.knocked.push(by);
        }
        visited.push(cell(d, lane));
        drive.forward |= mv == Step::Forward;
        drive.d = d;
        drive.lane = lane;
    }
    Ok(drive)
}
