//! Fuzzes word battle's move, option, cell and state-string parsers, and its rules on parsed states (see `smsarena_fuzz::game`).
#![no_main]

use libfuzzer_sys::fuzz_target;
use smsarena::games::word_battle::{Cell, WordBattle};

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    if let Ok(cell) = text.parse::<Cell>() {
        assert_eq!(cell.to_string().parse::<Cell>(), Ok(cell), "cell {text:?}");
    }
    smsarena_fuzz::game(&WordBattle::new(), data);
});
