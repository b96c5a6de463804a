//! Fuzzes Intelball's move, option, position and state-string parsers, and its rules on parsed states (see `smsarena_fuzz::game`).
#![no_main]

use libfuzzer_sys::fuzz_target;
use smsarena::games::intelball::{Intelball, Position};

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    if let Ok(pos) = text.parse::<Position>() {
        smsarena_fuzz::round_trip(&pos, "position");
    }
    smsarena_fuzz::game(&Intelball::default(), data);
});
