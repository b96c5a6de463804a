//! Fuzzes Kannel's webhook readers (`kannel::parse_inbound`, `parse_status`): GET query, POST form, `post-url` bodies in any charset and coding.
//!
//! Input: `method \n query \n Content-Type \n body`.
//! Checks: a read message is well formed; a refusal is a 4xx; a UCS-2 text
//! (`coding=2` with no charset) of an odd number of bytes is refused; with
//! the secret set and presented the reading is the one without a secret.
#![no_main]

use libfuzzer_sys::fuzz_target;
use smsarena::app::AppError;
use smsarena::providers::webhook::RawParams;
use smsarena::providers::kannel::{parse_inbound, parse_status};
use smsarena_fuzz::{Configs, LOCKED_SECRET, Request, epoch, headers, reading, refusal, same};

fuzz_target!(|data: &[u8]| {
    let cfg = Configs::new("md5hash");
    let req = Request::parse(data);
    let hdrs = headers(&[("content-type", req.header)]);
    let read = |cfg, query: &str| parse_inbound(cfg, &req.method, query, &hdrs, req.body, epoch());

    let open = read(&cfg.open, &req.query);
    reading(&open, "kannel");
    // What the text was read from: the query, and a POSTed form's body.
    let is_form = smsarena_fuzz::is_form(&hdrs);
    let mut params = RawParams::parse(req.query.as_bytes());
    if req.method == http::Method::POST && is_form {
        params.extend(RawParams::parse(req.body));
    }
    let from_params = req.method == http::Method::GET || is_form;
    if let (Ok(_), true) = (&open, from_params) {
        let ucs2 = params.text("charset").unwrap_or_default().is_empty()
            && params.text("coding").as_deref() == Some("2");
        if ucs2 {
            let raw = params.bytes("text").unwrap_or_default();
            assert!(raw.len() % 2 == 0, "UCS-2 text of {} bytes read", raw.len());
        }
    }
    if params.bytes("secret").is_none() {
        let signed = format!("{}&secret={LOCKED_SECRET}", req.query);
        same(&open, &read(&cfg.locked, &signed), "with the right secret");
        let unsigned = read(&cfg.locked, &req.query);
        assert!(matches!(unsigned, Err(AppError::Unauthorized)), "{unsigned:?}");
    }

    match parse_status(&cfg.open, &req.query) {
        Ok(report) => assert!(!report.reference.is_empty()),
        Err(e) => refusal(&e),
    }
});
