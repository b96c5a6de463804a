//! Fuzzes `Command::parse`, the reading of every text a phone sends, and `first_word`.
#![no_main]

use libfuzzer_sys::fuzz_target;
use smsarena::command::{Command, first_word, valid_nick};

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let _ = first_word(&text);
    match Command::parse(&text) {
        Ok(Command::Register { nick }) => assert!(valid_nick(&nick), "{nick:?}"),
        Ok(Command::Text(t)) => assert_eq!(t, text.trim()),
        Ok(Command::Send { nick, text: body }) => {
            assert!(!nick.is_empty() && !body.is_empty());
        }
        Ok(command) => {
            let _ = command.game_may_claim();
        }
        Err(e) => {
            let _ = e.to_string();
        }
    }
});
