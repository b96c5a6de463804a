//! Fuzzes auto race's move, option and state-string parsers, its track files and compact tracks, and its rules on parsed states and tracks.
//!
//! An input that reads as a track file (or a compact track) is raced on: a
//! game with that track alone starts a race and plays the rest of the input
//! as [`smsarena_fuzz::game`] does; any other input goes to the game with the
//! shipped tracks.
#![no_main]

use libfuzzer_sys::fuzz_target;
use smsarena::games::auto_race::{AutoRace, Track};

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let tracks = [text.parse::<Track>(), Track::from_compact(&text)];
    for track in tracks.iter().flatten() {
        smsarena_fuzz::round_trip(track, "track file");
        let compact = track.compact();
        assert_eq!(
            Track::from_compact(&compact).as_ref(),
            Ok(track),
            "compact track {compact:?}"
        );
    }
    // A track file's lines are its own: race on it with the default options.
    if let Some(Ok(track)) = tracks.into_iter().find(Result::is_ok) {
        let game = AutoRace::new(vec![track]);
        smsarena_fuzz::game(&game, b"\n#0\n#1\n@\n~\n#2\n#0\n@2\n#1\n~");
        return;
    }
    smsarena_fuzz::game(&AutoRace::default(), data);
});
