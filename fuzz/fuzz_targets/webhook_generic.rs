//! Fuzzes the generic gateway's webhook readers (`generic::parse_inbound`, `parse_status`): any JSON body, any secret header.
//!
//! Input: `method \n query \n X-Webhook-Secret \n body` (method and query unused).
//! Checks: a read message is well formed; a refusal is a 4xx; with the secret
//! set and presented the reading is the one without a secret; a wrong secret
//! is refused.
#![no_main]

use libfuzzer_sys::fuzz_target;
use smsarena::app::AppError;
use smsarena::providers::generic::{parse_inbound, parse_status};
use smsarena_fuzz::{Configs, LOCKED_SECRET, Request, epoch, headers, reading, refusal, same};

fuzz_target!(|data: &[u8]| {
    let cfg = Configs::new("md5hash");
    let req = Request::parse(data);
    let presented = headers(&[("x-webhook-secret", req.header)]);
    let right = headers(&[("x-webhook-secret", LOCKED_SECRET.as_bytes())]);

    let open = parse_inbound(&cfg.open, &presented, req.body, epoch());
    reading(&open, "generic");
    let locked = parse_inbound(&cfg.locked, &right, req.body, epoch());
    same(&open, &locked, "inbound with the right secret");
    if req.header != LOCKED_SECRET.as_bytes() {
        let wrong = parse_inbound(&cfg.locked, &presented, req.body, epoch());
        assert!(matches!(wrong, Err(AppError::Unauthorized)), "{wrong:?}");
    }

    let open = parse_status(&cfg.open, &presented, req.body);
    if let Err(e) = &open {
        refusal(e);
    }
    let locked = parse_status(&cfg.locked, &right, req.body);
    same(&open, &locked, "status with the right secret");
});
