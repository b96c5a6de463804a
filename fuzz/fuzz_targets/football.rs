//! Fuzzes SMS football's move, option and state-string parsers, and its rules on parsed states (see `smsarena_fuzz::game`).
#![no_main]

use libfuzzer_sys::fuzz_target;
use smsarena::games::football::Football;

fuzz_target!(|data: &[u8]| {
    smsarena_fuzz::game(&Football::default(), data);
});
