//! Fuzzes `Command::parse`, the reading of every text a phone sends, and `first_word`.
#![no_main]

use libfuzzer_sys::fuzz_target;
use smsarena::platform::commands::{Command, first_word, valid_nick};

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let _ = first_word(&text);
    match Command::parse(&text) {
        Command::Register(register) => assert!(valid_nick(&register.nick), "{register:?}"),
        Command::Text(t) => assert_eq!(t.0, text.trim()),
        Command::Send(message) => {
            assert!(!message.nick.is_empty() && !message.text.is_empty());
        }
        Command::Malformed(e) => {
            let _ = e.to_string();
        }
        _ => {}
    }
});
