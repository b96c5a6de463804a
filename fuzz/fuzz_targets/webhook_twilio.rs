//! Fuzzes Twilio's webhook readers (`twilio::parse_inbound`, `parse_status`): form bodies, the URL and `X-Twilio-Signature`.
//!
//! Input: `method \n query \n Content-Type \n body` (method unused; the query
//! is the URL's, which the signature covers).
//! Checks: a read message is well formed; a refusal is a 4xx; with an auth
//! token set, a request signed right reads as without one, and an unsigned
//! form is refused.
#![no_main]

use http::Uri;
use libfuzzer_sys::fuzz_target;
use smsarena::app::AppError;
use smsarena::providers::signatures::twilio_signature;
use smsarena::providers::webhook::RawParams;
use smsarena::providers::twilio::{parse_inbound, parse_status};
use smsarena_fuzz::{Configs, LOCKED_TWILIO_TOKEN, Request, epoch, headers, reading, refusal, same};

fuzz_target!(|data: &[u8]| {
    let cfg = Configs::new("md5hash");
    let req = Request::parse(data);
    let uri: Uri = format!("/webhooks/twilio?{}", req.query)
        .parse()
        .unwrap_or_else(|_| Uri::from_static("/webhooks/twilio"));
    let plain = headers(&[("content-type", req.header)]);
    let url = format!("{}{}", cfg.locked.http.public_base(), uri.path_and_query().unwrap());
    let pairs = RawParams::parse(req.body).text_pairs();
    let signature = twilio_signature(LOCKED_TWILIO_TOKEN, &url, &pairs);
    let signed = headers(&[
        ("content-type", req.header),
        ("x-twilio-signature", signature.as_bytes()),
    ]);
    let is_form = smsarena_fuzz::is_form(&plain);

    let open = parse_inbound(&cfg.open, &uri, &plain, req.body, epoch());
    reading(&open, "twilio");
    let locked = parse_inbound(&cfg.locked, &uri, &signed, req.body, epoch());
    same(&open, &locked, "inbound signed right");
    if is_form {
        let unsigned = parse_inbound(&cfg.locked, &uri, &plain, req.body, epoch());
        assert!(matches!(unsigned, Err(AppError::BadSignature)), "{unsigned:?}");
    }

    let open = parse_status(&cfg.open, &uri, &plain, req.body);
    if let Err(e) = &open {
        refusal(e);
    }
    same(
        &open,
        &parse_status(&cfg.locked, &uri, &signed, req.body),
        "status signed right",
    );
});
