//! The service as started from the command line: it refuses a public address
//! while a webhook checks nothing, and its listener knows each caller's
//! address, so the per-address limit holds for real connections.

mod common;

use std::process::{Command, Stdio};
use std::time::Duration;

use common::cluster::{Instance, free_port, wait_healthy};

fn serve(dir: &std::path::Path, env: &[(&str, &str)]) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_smsarena"));
    command
        .args(["serve", "--config", "/dev/null"])
        .env(
            "SMSARENA_DATABASE__URL",
            format!("sqlite://{}", dir.join("exposure.db").display()),
        )
        .env("SMSARENA_LOG__FILTER", "error")
        .envs(env.iter().copied());
    command
}

#[test]
fn a_public_address_with_an_open_webhook_is_refused_unless_said_insecure() {
    let dir = tempfile::tempdir().unwrap();
    let listen = format!("0.0.0.0:{}", free_port());
    let refused = serve(dir.path(), &[("SMSARENA_HTTP__LISTEN", &listen)])
        .output()
        .unwrap();
    assert!(!refused.status.success());
    let said = String::from_utf8_lossy(&refused.stderr);
    assert!(
        said.contains("refusing to serve on 0.0.0.0")
            && said.contains("generic, kannel, twilio, vonage"),
        "{said}"
    );

    // Every enabled webhook checked: it starts.
    let mut checked = serve(
        dir.path(),
        &[
            ("SMSARENA_HTTP__LISTEN", &listen),
            ("SMSARENA_WEBHOOKS__SECRET", "s3"),
            ("SMSARENA_SMS__TWILIO__AUTH_TOKEN", "t0"),
            ("SMSARENA_WEBHOOKS__VONAGE", "false"),
        ],
    )
    .stderr(Stdio::null())
    .spawn()
    .unwrap();
    std::thread::sleep(Duration::from_millis(1500));
    assert!(checked.try_wait().unwrap().is_none(), "still serving");
    checked.kill().unwrap();
    checked.wait().unwrap();

    // The setting that says so lets it start open, as asked.
    let mut insecure = serve(
        dir.path(),
        &[
            ("SMSARENA_HTTP__LISTEN", &listen),
            ("SMSARENA_HTTP__ALLOW_INSECURE_PUBLIC_WEBHOOKS", "true"),
        ],
    )
    .stderr(Stdio::null())
    .spawn()
    .unwrap();
    std::thread::sleep(Duration::from_millis(1500));
    assert!(insecure.try_wait().unwrap().is_none(), "still serving");
    insecure.kill().unwrap();
    insecure.wait().unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_real_connection_is_limited_by_its_own_address() {
    let dir = tempfile::tempdir().unwrap();
    let port = free_port();
    let mut instance = Instance {
        port,
        child: None,
        env: [
            ("SMSARENA_HTTP__LISTEN", format!("127.0.0.1:{port}")),
            (
                "SMSARENA_DATABASE__URL",
                format!("sqlite://{}", dir.path().join("limit.db").display()),
            ),
            ("SMSARENA_LIMITS__ADDRESS_BURST", "3".into()),
            ("SMSARENA_LIMITS__ADDRESS_PER_SECOND", "1".into()),
            ("SMSARENA_LOG__FILTER", "error".into()),
        ]
        .into_iter()
        .map(|(k, v)| (k.to_string(), v))
        .collect(),
    };
    instance.start();
    let local = reqwest::Client::new();
    wait_healthy(&local, &instance.url()).await;
    // 127.0.0.2 is this host too, but not one of the trusted addresses.
    let stranger = reqwest::Client::builder()
        .local_address("127.0.0.2".parse::<std::net::IpAddr>().unwrap())
        .build()
        .unwrap();
    let webhook = format!("{}/webhooks/generic", instance.url());
    let mut statuses = Vec::new();
    for i in 0..10 {
        let body = serde_json::json!({ "id": format!("x{i}"), "from": "+7970", "to": common::GAME, "text": "H" });
        let response = stranger.post(&webhook).json(&body).send().await.unwrap();
        statuses.push(response.status().as_u16());
    }
    let refused = statuses.iter().filter(|s| **s == 429).count();
    assert!((6..=7).contains(&refused), "{statuses:?}");
    for i in 0..20 {
        let body = serde_json::json!({ "id": format!("y{i}"), "from": "+7971", "to": common::GAME, "text": "H" });
        let response = local.post(&webhook).json(&body).send().await.unwrap();
        assert_eq!(response.status().as_u16(), 200, "127.0.0.1 is trusted");
    }
}
