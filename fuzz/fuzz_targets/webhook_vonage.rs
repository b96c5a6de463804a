//! Fuzzes Vonage's webhook readers (`vonage::parse_inbound`, `parse_status`): query, form or JSON, and the `sig` parameter.
//!
//! Input: `method \n query \n Content-Type \n body`.
//! Checks: a read message is well formed; a refusal is a 4xx; with a
//! signature secret set, a query signed right (every method) reads as
//! without one.
#![no_main]

use libfuzzer_sys::fuzz_target;
use smsarena::providers::signatures::vonage_signature;
use smsarena::providers::webhook::RawParams;
use smsarena::providers::vonage::{parse_inbound, parse_status};
use smsarena_fuzz::{Configs, LOCKED_VONAGE_SECRET, Request, epoch, headers, reading, refusal, same};

fuzz_target!(|data: &[u8]| {
    let req = Request::parse(data);
    let hdrs = headers(&[("content-type", req.header)]);
    let open_cfg = Configs::new("md5hash").open;
    let open = parse_inbound(&open_cfg, &req.method, &req.query, &hdrs, req.body, epoch());
    if let Ok(read) = &open
        && let Some(part) = &read.part
    {
        assert!(!part.reference.is_empty(), "a part without its text's reference");
        assert!((1..=part.total).contains(&part.number) && part.total >= 2, "{part:?}");
    }
    let open = open.map(|read| read.message);
    reading(&open, "vonage");
    let open_status = parse_status(&open_cfg, &req.method, &req.query, &hdrs, req.body, epoch());
    if let Err(e) = &open_status {
        refusal(e);
    }

    // Sign what the reader signs: the query's pairs, and a POSTed form's.
    let mut pairs = RawParams::parse(req.query.as_bytes()).text_pairs();
    let is_form = smsarena_fuzz::is_form(&hdrs);
    if req.method == http::Method::POST {
        if !is_form {
            return;
        }
        pairs.extend(RawParams::parse(req.body).text_pairs());
    }
    if pairs.iter().any(|(k, _)| k == "sig" || k == "timestamp") {
        return;
    }
    // A signed request carries the time it was signed; now is fresh.
    let stamp = epoch().timestamp().to_string();
    pairs.push(("timestamp".into(), stamp.clone()));
    let stamped = if req.query.is_empty() {
        format!("timestamp={stamp}")
    } else {
        format!("{}&timestamp={stamp}", req.query)
    };
    let open = parse_inbound(&open_cfg, &req.method, &stamped, &hdrs, req.body, epoch())
        .map(|read| read.message);
    let open_status = parse_status(&open_cfg, &req.method, &stamped, &hdrs, req.body, epoch());
    for method in ["md5hash", "md5", "sha1", "sha256", "sha512"] {
        let cfg = Configs::new(method).locked;
        let sig = vonage_signature(LOCKED_VONAGE_SECRET, method, &pairs).expect("a known method");
        let query = format!("{stamped}&sig={sig}");
        let locked = parse_inbound(&cfg, &req.method, &query, &hdrs, req.body, epoch())
            .map(|read| read.message);
        same(&open, &locked, method);
        let status = parse_status(&cfg, &req.method, &query, &hdrs, req.body, epoch());
        same(&open_status, &status, method);
    }
});
