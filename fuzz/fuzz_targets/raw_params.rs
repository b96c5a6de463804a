//! Fuzzes `RawParams`, the form and query decoding every form provider uses: any bytes, bad percent-encoding, invalid UTF-8.
//!
//! Checks that every accessor answers, and that the pairs, percent-encoded
//! again in full, read back as the same pairs.
#![no_main]

use libfuzzer_sys::fuzz_target;
use percent_encoding::{NON_ALPHANUMERIC, percent_encode};
use smsarena::providers::webhook::RawParams;

fuzz_target!(|data: &[u8]| {
    let params = RawParams::parse(data);
    let pairs = params.text_pairs();
    assert!(pairs.len() <= data.iter().filter(|&&b| b == b'&').count() + 1);
    let mut again = Vec::new();
    for (key, _) in &pairs {
        let bytes = params.bytes(key).expect("a key that is there").to_vec();
        assert_eq!(
            params.text(key).as_deref(),
            Some(&*String::from_utf8_lossy(&bytes))
        );
        match params.required(key) {
            Ok(v) => assert!(!v.is_empty() && v.trim() == v),
            Err(e) => smsarena_fuzz::refusal(&e),
        }
        again.push((key.clone(), bytes));
    }
    if let Err(e) = params.required("from") {
        smsarena_fuzz::refusal(&e);
    }
    // Encoded again, every byte escaped, the same pairs come back: a key's
    // first value byte for byte (the one its accessors give), later values of
    // a repeated key as their text.
    let encoded: Vec<String> = pairs
        .iter()
        .enumerate()
        .map(|(i, (key, text))| {
            let first = !pairs[..i].iter().any(|(k, _)| k == key);
            let value = match params.bytes(key) {
                Some(bytes) if first => bytes,
                _ => text.as_bytes(),
            };
            format!(
                "{}={}",
                percent_encode(key.as_bytes(), NON_ALPHANUMERIC),
                percent_encode(value, NON_ALPHANUMERIC)
            )
        })
        .collect();
    let back = RawParams::parse(encoded.join("&").as_bytes());
    assert_eq!(back.text_pairs(), pairs, "re-encoded as {encoded:?}");
    for (key, bytes) in again {
        assert_eq!(back.bytes(&key), Some(&bytes[..]), "{key:?}");
    }
});
