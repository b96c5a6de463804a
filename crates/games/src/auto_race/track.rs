//! Tracks as data: segments with a length in sectors and the side their inner
//! lane is on, the text format of `config/tracks/*.txt`, and lane geometry.
//!
//! # Track file
//!
//! ```text
//! # A comment runs from '#' to the end of the line; blank lines are skipped.
//! track ESS               # the name players text (2-12 letters or digits)
//! segment 10 left         # 10 sectors turning left: the left lane is lane 1
//! segment 8 right         # then 8 turning right: the right lane is lane 1
//! segment 6 right 3       # 6 more, narrowed to 3 lanes
//! ```
//!
//! The `track` line comes first and once; then one `segment` line per
//! segment, in driving order from the start line. Sides are `left`/`right`
//! (or `L`/`R`), any case; the width is [`MIN_LANES`]..=[`MAX_LANES`] lanes,
//! [`LANES`] when not given (rule 17: tracks whose width changes). The
//! segments add up to one lap of [`MIN_SECTORS`]..=[`MAX_SECTORS`] sectors.
//!
//! # Lanes
//!
//! Lanes are physical, numbered from the left in the direction of travel
//! across the track's widest part, its *frame* ([`Track::frame`]). A segment
//! narrower than the frame loses its outer lanes: turning left it has the
//! frame's left lanes, turning right its right ones. A sector's *logical*
//! lane 1 (the rules' inner lane) is its leftmost lane where the track turns
//! left and its rightmost where it turns right; logical lanes count outwards
//! from there. A car drives straight on along its physical lane, so where a
//! lane ends it must change lanes first.

use std::fmt;
use std::str::FromStr;

/// Lanes across a segment whose width is not given (the rules' four).
pub const LANES: u8 = 4;
/// The narrowest a segment may be: one lane to pass on.
pub const MIN_LANES: u8 = 2;
/// The widest a segment may be: the window a player reads has a line a lane.
pub const MAX_LANES: u8 = 5;
/// The shortest lap a track may have: a grid of 16 cars fits with room, and
/// no move (at most 26 long: 16 cars' allowance chain plus a lap bonus) can
/// drive a whole lap and meet its own cells again.
pub const MIN_SECTORS: usize = 30;
/// The longest lap a track may have.
pub const MAX_SECTORS: usize = 200;

/// The side of the track a segment's inner lane is on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Inner {
    Left,
    Right,
}

impl Inner {
    fn letter(self) -> char {
        match self {
            Inner::Left => 'L',
            Inner::Right => 'R',
        }
    }

    fn word(self) -> &'static str {
        match self {
            Inner::Left => "left",
            Inner::Right => "right",
        }
    }

    fn parse(word: &str) -> Option<Inner> {
        match word.to_ascii_lowercase().as_str() {
            "left" | "l" => Some(Inner::Left),
            "right" | "r" => Some(Inner::Right),
            _ => None,
        }
    }
}

/// A stretch of track turning one way, of one width.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Segment {
    pub sectors: u16,
    pub inner: Inner,
    pub lanes: u8,
}

impl Segment {
    /// A segment of the rules' four lanes.
    pub fn new(sectors: u16, inner: Inner) -> Segment {
        Segment {
            sectors,
            inner,
            lanes: LANES,
        }
    }
}

/// A whole track. The per-sector table is derived from the segments, so two
/// tracks are equal exactly when their names and segments are.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Track {
    name: String,
    segments: Vec<Segment>,
    /// Lanes across the widest segment: physical lanes are 1..=frame.
    frame: u8,
    /// Per sector: whether its inner lane is on the right, and its width.
    shape: Vec<(bool, u8)>,
}

/// A track file (or a state's track field) that does not describe a track.
/// `line` is 1-based; `None` when the fault is not on one line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TrackError {
    pub line: Option<usize>,
    pub message: String,
}

impl fmt::Display for TrackError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.line {
            Some(line) => write!(f, "line {line}: {}", self.message),
            None => f.write_str(&self.message),
        }
    }
}

impl std::error::Error for TrackError {}

fn fault(line: Option<usize>, message: impl Into<String>) -> TrackError {
    TrackError {
        line,
        message: message.into(),
    }
}

impl Track {
    /// A checked track: a valid name, at least one segment, a lap within
    /// [`MIN_SECTORS`]..=[`MAX_SECTORS`].
    pub fn new(name: &str, segments: Vec<Segment>) -> Result<Track, TrackError> {
        check_name(name).map_err(|m| fault(None, m))?;
        if segments.is_empty() {
            return Err(fault(None, "a track needs at least one segment"));
        }
        if let Some(s) = segments.iter().find(|s| s.sectors == 0) {
            return Err(fault(None, format!("segment of {} sectors", s.sectors)));
        }
        if let Some(s) = segments
            .iter()
            .find(|s| !(MIN_LANES..=MAX_LANES).contains(&s.lanes))
        {
            return Err(fault(
                None,
                format!(
                    "segment of {} lanes; a segment has {MIN_LANES} to {MAX_LANES}",
                    s.lanes
                ),
            ));
        }
        let total: usize = segments.iter().map(|s| usize::from(s.sectors)).sum();
        if !(MIN_SECTORS..=MAX_SECTORS).contains(&total) {
            return Err(fault(
                None,
                format!(
                    "the segments make a lap of {total} sectors; a lap has {MIN_SECTORS} to {MAX_SECTORS}"
                ),
            ));
        }
        let shape = segments
            .iter()
            .flat_map(|s| {
                std::iter::repeat_n((s.inner == Inner::Right, s.lanes), usize::from(s.sectors))
            })
            .collect();
        Ok(Track {
            name: name.to_ascii_uppercase(),
            frame: segments.iter().map(|s| s.lanes).max().unwrap_or(LANES),
            segments,
            shape,
        })
    }

    /// The simple ring of `sectors`, turning left all the way round.
    pub fn ring(sectors: u16) -> Track {
        Track::new("RING", vec![Segment::new(sectors, Inner::Left)])
            .expect("a ring of a valid length is a valid track")
    }

    /// The name, upper case.
    pub fn name(&self) -> &str {
        &self.name
    }

    pub fn segments(&self) -> &[Segment] {
        &self.segments
    }

    /// Sectors in a lap.
    pub fn sectors(&self) -> i32 {
        self.shape.len() as i32
    }

    /// Physical lanes across the widest part: every lane is in 1..=frame.
    pub fn frame(&self) -> u8 {
        self.frame
    }

    /// The sector of a car `d` sectors past the start line (negative: before it).
    pub fn sector(&self, d: i32) -> usize {
        d.rem_euclid(self.sectors()) as usize
    }

    /// Whether the sector at distance `d` has its inner lane on the right.
    pub fn inner_right(&self, d: i32) -> bool {
        self.shape[self.sector(d)].0
    }

    /// Lanes across the sector at distance `d`.
    pub fn width(&self, d: i32) -> u8 {
        self.shape[self.sector(d)].1
    }

    /// Whether physical lane `lane` is road at `d` (not past the sector's outer edge).
    pub fn exists(&self, d: i32, lane: u8) -> bool {
        (1..=self.width(d)).contains(&self.logical(d, lane))
    }

    /// Whether the track turns both ways somewhere.
    pub fn turns_both_ways(&self) -> bool {
        self.shape.iter().any(|s| s.0) && self.shape.iter().any(|s| !s.0)
    }

    /// Whether the track's width changes somewhere.
    pub fn changes_width(&self) -> bool {
        self.shape.iter().any(|s| s.1 != self.frame)
    }

    /// The rules' lane number (1 inner, counting outwards) of physical lane
    /// `lane` at `d`; above [`Track::width`] where the lane is no road there.
    pub fn logical(&self, d: i32, lane: u8) -> u8 {
        if self.inner_right(d) {
            (self.frame + 1).saturating_sub(lane)
        } else {
            lane
        }
    }

    /// The physical lane of the rules' lane `logical` at `d` (the map is its own inverse).
    pub fn physical(&self, d: i32, logical: u8) -> u8 {
        self.logical(d, logical)
    }

    /// The compact form the state string carries: `NAME:30L` or
    /// `ESS:10L,8R,6R3` (a width other than [`LANES`] follows the side).
    pub fn compact(&self) -> String {
        let segments: Vec<String> = self
            .segments
            .iter()
            .map(|s| {
                let lanes = if s.lanes == LANES {
                    String::new()
                } else {
                    s.lanes.to_string()
                };
                format!("{}{}{lanes}", s.sectors, s.inner.letter())
            })
            .collect();
        format!("{}:{}", self.name, segments.join(","))
    }

    /// Reads [`Track::compact`]'s form back, exactly as written.
    pub fn from_compact(text: &str) -> Result<Track, TrackError> {
        let (name, list) = text
            .split_once(':')
            .ok_or_else(|| fault(None, format!("track {text:?} is not NAME:segments")))?;
        if name.to_ascii_uppercase() != name {
            return Err(fault(
                None,
                format!("track name {name:?} is not upper case"),
            ));
        }
        let segments = list
            .split(',')
            .map(|seg| {
                let parsed = seg.find(['L', 'R']).and_then(|at| {
                    let inner = if seg[at..].starts_with('L') {
                        Inner::Left
                    } else {
                        Inner::Right
                    };
                    let lanes = match &seg[at + 1..] {
                        "" => LANES,
                        given => plain_number(given)
                            .and_then(|n| u8::try_from(n).ok())
                            .filter(|&n| n != LANES)?,
                    };
                    Some(Segment {
                        sectors: plain_number(&seg[..at])?,
                        inner,
                        lanes,
                    })
                });
                parsed.ok_or_else(|| fault(None, format!("segment {seg:?} is not like 30L or 6R3")))
            })
            .collect::<Result<Vec<_>, _>>()?;
        Track::new(name, segments)
    }
}

/// A decimal number written without sign or leading zeros, as `Display` writes it.
fn plain_number(text: &str) -> Option<u16> {
    text.parse::<u16>().ok().filter(|n| n.to_string() == text)
}

fn check_name(name: &str) -> Result<(), String> {
    let ok_len = (2..=12).contains(&name.len());
    if ok_len && name.bytes().all(|b| b.is_ascii_alphanumeric()) {
        Ok(())
    } else {
        Err(format!(
            "track name {name:?} must be 2 to 12 Latin letters or digits"
        ))
    }
}

impl fmt::Display for Track {
    /// The canonical track file.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "track {}", self.name)?;
        for s in &self.segments {
            write!(f, "segment {} {}", s.sectors, s.inner.word())?;
            if s.lanes != LANES {
                write!(f, " {}", s.lanes)?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}

impl FromStr for Track {
    type Err = TrackError;

    /// Parses a track file; every fault names its line.
    fn from_str(text: &str) -> Result<Track, TrackError> {
        let mut name: Option<(String, usize)> = None;
        let mut segments = Vec::new();
        let mut last_line = 0;
        for (index, raw) in text.lines().enumerate() {
            let line = index + 1;
            let content = raw.split('#').next().unwrap_or("");
            let words: Vec<&str> = content.split_whitespace().collect();
            let Some(&keyword) = words.first() else {
                continue;
            };
            last_line = line;
            let at = |m: String| fault(Some(line), m);
            match keyword.to_ascii_lowercase().as_str() {
                "track" => {
                    if name.is_some() {
                        return Err(at("a second 'track' line; a file holds one track".into()));
                    }
                    if !segments.is_empty() {
                        return Err(at("the 'track' line must come before the segments".into()));
                    }
                    let [_, given] = words[..] else {
                        return Err(at("expected 'track NAME'".into()));
                    };
                    check_name(given).map_err(at)?;
                    name = Some((given.to_ascii_uppercase(), line));
                }
                "segment" => {
                    if name.is_none() {
                        return Err(at("a 'segment' before the 'track NAME' line".into()));
                    }
                    let (len, side, lanes) = match words[..] {
                        [_, len, side] => (len, side, None),
                        [_, len, side, lanes] => (len, side, Some(lanes)),
                        _ => {
                            return Err(at("expected 'segment LENGTH left|right [LANES]'".into()));
                        }
                    };
                    let sectors = len
                        .parse::<u16>()
                        .ok()
                        .filter(|n| (1..=MAX_SECTORS as u16).contains(n))
                        .ok_or_else(|| {
                            at(format!(
                                "length {len:?} is not a number of sectors (1-{MAX_SECTORS})"
                            ))
                        })?;
                    let inner = Inner::parse(side).ok_or_else(|| {
                        at(format!("inner side {side:?} is neither left nor right"))
                    })?;
                    let lanes = match lanes {
                        None => LANES,
                        Some(given) => given
                            .parse::<u8>()
                            .ok()
                            .filter(|n| (MIN_LANES..=MAX_LANES).contains(n))
                            .ok_or_else(|| {
                                at(format!(
                                    "width {given:?} is not a number of lanes ({MIN_LANES}-{MAX_LANES})"
                                ))
                            })?,
                    };
                    segments.push(Segment {
                        sectors,
                        inner,
                        lanes,
                    });
                }
                other => {
                    return Err(at(format!(
                        "unknown word {other:?} (expected 'track' or 'segment')"
                    )));
                }
            }
        }
        let Some((name, name_line)) = name else {
            return Err(fault(None, "no 'track NAME' line"));
        };
        if segments.is_empty() {
            return Err(fault(Some(name_line), "the track has no segments"));
        }
        Track::new(&name, segments).map_err(|e| fault(Some(last_line), e.message))
    }
}
