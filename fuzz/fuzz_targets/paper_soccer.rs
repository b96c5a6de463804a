//! Fuzzes paper soccer's move, option, state-string and record parsers, and its rules on parsed states (see `smsarena_fuzz::game`).
#![no_main]

use libfuzzer_sys::fuzz_target;
use smsarena::games::paper_soccer::{PaperSoccer, Record};

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    if let Ok(record) = text.parse::<Record>() {
        smsarena_fuzz::round_trip(&record, "record");
        // A record that reads replays or is refused, never panics.
        let _ = record.replay();
    }
    smsarena_fuzz::game(&PaperSoccer, data);
});
