//! The track files shipped in `config/tracks/`, compiled in for the default
//! game, tests and benches. The platform reads the same folder at start and
//! hands its tracks to [`super::AutoRace::new`].

use std::sync::OnceLock;

use super::track::Track;

/// The shipped files, default track first.
pub const FILES: [(&str, &str); 3] = [
    (
        "ring.txt",
        include_str!("../../../../config/tracks/ring.txt"),
    ),
    (
        "zigzag.txt",
        include_str!("../../../../config/tracks/zigzag.txt"),
    ),
    (
        "gorge.txt",
        include_str!("../../../../config/tracks/gorge.txt"),
    ),
];

/// The shipped tracks, parsed once.
///
/// # Panics
///
/// If a shipped file does not parse (a test guards it).
pub fn tracks() -> &'static [Track] {
    static TRACKS: OnceLock<Vec<Track>> = OnceLock::new();
    TRACKS.get_or_init(|| {
        FILES
            .iter()
            .map(|(name, text)| {
                text.parse()
                    .unwrap_or_else(|e| panic!("config/tracks/{name}: {e}"))
            })
            .collect()
    })
}
