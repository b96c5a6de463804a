//! The service as started from the command line: it refuses a public address
//! while a webhook checks nothing, and its listener knows each caller's
//! address, so the per-address limit holds for real connections.

use crate::common;

use std::process::{Command, Stdio};
use std::time::Duration;

use common::cluster::{Instance, free_port};

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
    let local = reqwest::Client::new();
    instance.start_on_a_free_port(&local).await;
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

#[test]
fn a_short_admin_token_off_loopback_is_refused_and_unsafe_settings_are_named() {
    let dir = tempfile::tempdir().unwrap();
    let listen = format!("0.0.0.0:{}", free_port());
    let secured: [(&str, &str); 3] = [
        ("SMSARENA_HTTP__LISTEN", &listen),
        ("SMSARENA_WEBHOOKS__SECRET", "a-webhook-secret-long-enough"),
        (
            "SMSARENA_SMS__TWILIO__AUTH_TOKEN",
            "a-twilio-token-long-enough",
        ),
    ];
    let mut env = secured.to_vec();
    env.extend([
        ("SMSARENA_WEBHOOKS__VONAGE", "false"),
        ("SMSARENA_ADMIN__TOKEN", "t0ken"),
    ]);
    let refused = serve(dir.path(), &env).output().unwrap();
    assert!(!refused.status.success());
    let said = String::from_utf8_lossy(&refused.stderr);
    assert!(said.contains("admin.token is 5 characters"), "{said}");
    assert!(!said.contains("t0ken"), "never the value: {said}");

    // On loopback it starts, and says what is unsafe at once.
    let local = format!("127.0.0.1:{}", free_port());
    let mut child = serve(
        dir.path(),
        &[
            ("SMSARENA_HTTP__LISTEN", &local),
            ("SMSARENA_ADMIN__TOKEN", "t0ken"),
            ("SMSARENA_LIMITS__PHONE_PER_MINUTE", "0"),
            ("SMSARENA_LOG__FILTER", "warn,smsarena=info"),
        ],
    )
    .stderr(Stdio::piped())
    .spawn()
    .unwrap();
    let stderr = child.stderr.take().unwrap();
    // The warnings it logged until it said it serves.
    let warned = std::thread::spawn(move || {
        use std::io::BufRead;
        let mut seen = Vec::new();
        for line in std::io::BufReader::new(stderr)
            .lines()
            .map_while(Result::ok)
        {
            if line.contains("serving") {
                break;
            }
            seen.push(line);
        }
        seen
    });
    let deadline = std::time::Instant::now() + Duration::from_secs(20);
    while !warned.is_finished() && std::time::Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(50));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    let warned = warned.join().unwrap().join("\n");
    for named in [
        "admin.token is 5 characters",
        "limits.phone_per_minute is 0",
    ] {
        assert!(warned.contains(named), "{named}: {warned}");
    }
    assert!(!warned.contains("t0ken"), "never the value: {warned}");
}

#[test]
fn public_metrics_without_a_token_are_refused_unless_allowed_by_name() {
    let dir = tempfile::tempdir().unwrap();
    let listen = format!("0.0.0.0:{}", free_port());
    let env = [
        ("SMSARENA_HTTP__LISTEN", listen.as_str()),
        ("SMSARENA_WEBHOOKS__SECRET", "a-webhook-secret-long-enough"),
        (
            "SMSARENA_SMS__TWILIO__AUTH_TOKEN",
            "a-twilio-token-long-enough",
        ),
        ("SMSARENA_WEBHOOKS__VONAGE", "false"),
        ("SMSARENA_METRICS__ENABLED", "true"),
    ];
    let refused = serve(dir.path(), &env).output().unwrap();
    assert!(!refused.status.success());
    let said = String::from_utf8_lossy(&refused.stderr);
    assert!(
        said.contains("metrics.enabled is true and metrics.token is empty"),
        "{said}"
    );

    // With a token, or with the setting that says so by name, it starts.
    for (key, value) in [
        ("SMSARENA_METRICS__TOKEN", "a-scraper-token-long-enough"),
        ("SMSARENA_METRICS__ALLOW_PUBLIC_WITHOUT_TOKEN", "true"),
    ] {
        let mut env = env.to_vec();
        env.push((key, value));
        let mut child = serve(dir.path(), &env)
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        std::thread::sleep(Duration::from_millis(1500));
        assert!(child.try_wait().unwrap().is_none(), "{key}: still serving");
        child.kill().unwrap();
        child.wait().unwrap();
    }
}
