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
//! ```
//!
//! The `track` line comes first and once; then one `segment` line per
//! segment, in driving order from the start line. Sides are `left`/`right`
//! (or `L`/`R`), any case. The segments add up to one lap of
//! [`MIN_SECTORS`]..=[`MAX_SECTORS`] sectors. Lanes are physical, numbered
//! 1-4 from the left in the direction of travel; a sector's *logical* lane 1
//! (the rules' inner lane) is physical lane 1 where the track turns left and
//! physical lane 4 where it turns right.

use std::fmt;
use std::str::FromStr;

/// Lanes across the track (the rules' four).
pub const LANES: u8 = 4;
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

/// A stretch of track turning one way.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Segment {
    pub sectors: u16,
    pub inner: Inner,
}

/// A whole track. The per-sector table is derived from the segments, so two
/// tracks are equal exactly when their names and segments are.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Track {
    name: String,
    segments: Vec<Segment>,
    /// Per sector: whether its inner lane is on the right.
    inner_right: Vec<bool>,
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
        let total: usize = segments.iter().map(|s| usize::from(s.sectors)).sum();
        if !(MIN_SECTORS..=MAX_SECTORS).contains(&total) {
            return Err(fault(
                None,
                format!(
                    "the segments make a lap of {total} sectors; a lap has {MIN_SECTORS} to {MAX_SECTORS}"
                ),
            ));
        }
        let inner_right = segments
            .iter()
            .flat_map(|s| std::iter::repeat_n(s.inner == Inner::Right, usize::from(s.sectors)))
            .collect();
        Ok(Track {
            name: name.to_ascii_uppercase(),
            segments,
            inner_right,
        })
    }

    /// The simple ring of `sectors`, turning left all the way round.
    pub fn ring(sectors: u16) -> Track {
        Track::new(
            "RING",
            vec![Segment {
                sectors,
                inner: Inner::Left,
            }],
        )
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
        self.inner_right.len() as i32
    }

    /// The sector of a car `d` sectors past the start line (negative: before it).
    pub fn sector(&self, d: i32) -> usize {
        d.rem_euclid(self.sectors()) as usize
    }

    /// Whether the sector at distance `d` has its inner lane on the right.
    pub fn inner_right(&self, d: i32) -> bool {
        self.inner_right[self.sector(d)]
    }

    /// Whether the track turns both ways somewhere.
    pub fn turns_both_ways(&self) -> bool {
        self.inner_right.iter().any(|&r| r) && self.inner_right.iter().any(|&r| !r)
    }

    /// The rules' lane number (1 inner .. 4 outer) of physical lane `lane` at `d`.
    pub fn logical(&self, d: i32, lane: u8) -> u8 {
        if self.inner_right(d) {
            LANES + 1 - lane
        } else {
            lane
        }
    }

    /// The physical lane of the rules' lane `logical` at `d` (the map is its own inverse).
    pub fn physical(&self, d: i32, logical: u8) -> u8 {
        self.logical(d, logical)
    }

    /// The compact form the state string carries: `NAME:30L` or `ESS:10L,8R,...`.
    pub fn compact(&self) -> String {
        let segments: Vec<String> = self
            .segments
            .iter()
            .map(|s| format!("{}{}", s.sectors, s.inner.letter()))
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
                let side =
                    |letter: char, inner: Inner| seg.strip_suffix(letter).map(|n| (n, inner));
                let parsed = side('L', Inner::Left)
                    .or_else(|| side('R', Inner::Right))
                    .and_then(|(len, inner)| Some((plain_number(len)?, inner)));
                match parsed {
                    Some((sectors, inner)) => Ok(Segment { sectors, inner }),
                    None => Err(fault(None, format!("segment {seg:?} is not like 30L"))),
                }
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
            writeln!(f, "segment {} {}", s.sectors, s.inner.word())?;
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
                    let [_, len, side] = words[..] else {
                        return Err(at("expected 'segment LENGTH left|right'".into()));
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
                    segments.push(Segment { sectors, inner });
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
