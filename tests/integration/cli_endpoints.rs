//! Where requests go is what the AWS SDK resolves — `--endpoint-url`, the environment, a
//! profile's `endpoint_url` or `services` section, `ignore_configured_endpoint_urls` — and that
//! endpoint alone decides whether `seed` may write and whether dummy credentials may be used.

use crate::common;
use crate::common::fake_dynamo;

use std::process::{Command, Output, Stdio};

use common::*;

/// Runs the binary with `config` as the shared config file, no `--endpoint-url`, and without
/// credentials or region in the environment unless `env` gives them.
fn run_with_profile(config: &str, args: &[&str], env: &[(&str, &str)]) -> Output {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("config");
    std::fs::write(&path, config).unwrap();
    let mut cmd = Command::new(bin());
    aws_env(&mut cmd)
        .env("AWS_CONFIG_FILE", &path)
        .env_remove("AWS_ACCESS_KEY_ID")
        .env_remove("AWS_SECRET_ACCESS_KEY")
        .env_remove("AWS_REGION")
        .env_remove("AWS_DEFAULT_REGION")
        .env_remove("AWS_IGNORE_CONFIGURED_ENDPOINT_URLS")
        .args(args)
        .stdin(Stdio::null());
    for (k, v) in env {
        cmd.env(k, v);
    }
    cmd.output().unwrap()
}

fn one_line_exit_2(out: &Output, needles: &[&str]) {
    let err = stderr(out);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    for needle in needles {
        assert!(err.contains(needle), "{err:?} lacks {needle:?}");
    }
}

#[test]
fn a_profile_endpoint_url_is_local_for_seed_and_dummy_credentials() {
    let config = format!("[default]\nendpoint_url = {}\n", local().endpoint);
    let table = table_name("profile");
    ok(run_with_profile(
        &config,
        &["seed", "--table", &table, "--users", "1"],
        &[],
    ));
    let names = ok(run_with_profile(&config, &["tables"], &[]));
    assert!(names.lines().any(|l| l == table), "{names}");
}

#[test]
fn a_services_section_endpoint_is_honoured() {
    let config = format!(
        "[default]\nservices = local\n\n[services local]\ndynamodb =\n  endpoint_url = {}\n",
        local().endpoint
    );
    let table = table_name("services");
    ok(run_with_profile(
        &config,
        &["seed", "--table", &table, "--users", "1"],
        &[],
    ));
    let names = ok(run_with_profile(&config, &["tables"], &[]));
    assert!(names.lines().any(|l| l == table), "{names}");
}

/// With `ignore_configured_endpoint_urls`, the SDK goes to the regional endpoint whatever the
/// profile's `endpoint_url` says: `seed` must refuse before anything is sent, naming it.
#[test]
fn ignore_configured_endpoint_urls_makes_seed_refuse_the_regional_endpoint() {
    let fake = fake_dynamo::FakeDynamo::start(|_, _| (200, "{}".into()));
    let regional = "'https://dynamodb.us-east-1.amazonaws.com'";
    let creds = [
        ("AWS_REGION", "us-east-1"),
        ("AWS_ACCESS_KEY_ID", "dummy"),
        ("AWS_SECRET_ACCESS_KEY", "dummy"),
    ];
    // In the profile.
    let config = format!(
        "[default]\nendpoint_url = {}\nignore_configured_endpoint_urls = true\n",
        fake.endpoint
    );
    let out = run_with_profile(&config, &["seed", "--users", "1"], &creds);
    one_line_exit_2(&out, &["'seed' only writes to a local endpoint", regional]);
    // In the environment, with the endpoint there too.
    let mut env = creds.to_vec();
    env.push(("AWS_ENDPOINT_URL_DYNAMODB", &fake.endpoint));
    env.push(("AWS_IGNORE_CONFIGURED_ENDPOINT_URLS", "true"));
    let out = run_with_profile("", &["seed", "--users", "1"], &env);
    one_line_exit_2(&out, &["'seed' only writes to a local endpoint", regional]);
    // The configured endpoint was ignored, so nothing reached it either.
    assert!(fake.operations.lock().unwrap().is_empty());
    // Without credentials, a read goes nowhere on dummy ones: the endpoint is not local.
    let out = run_with_profile(&config, &["tables"], &[("AWS_REGION", "us-east-1")]);
    one_line_exit_2(
        &out,
        &[
            "no AWS credentials",
            "https://dynamodb.us-east-1.amazonaws.com",
        ],
    );
}

/// The flag wins over everything, `ignore_configured_endpoint_urls` included.
#[test]
fn the_flag_is_never_ignored() {
    let config = "[default]\nignore_configured_endpoint_urls = true\n";
    let table = table_name("flag");
    ok(run_with_profile(
        config,
        &[
            "--endpoint-url",
            &local().endpoint,
            "seed",
            "--table",
            &table,
            "--users",
            "1",
        ],
        &[],
    ));
}

/// The SDK crates are built without their legacy HTTP client (one HTTP/TLS stack); the default
/// credential chain must still run a profile's `credential_process`.
#[test]
fn a_credential_process_profile_still_loads() {
    let dir = tempfile::tempdir().unwrap();
    let marker = dir.path().join("ran");
    let script = dir.path().join("credentials.sh");
    std::fs::write(
        &script,
        format!(
            "#!/bin/sh\necho ran >> '{}'\necho '{{\"Version\":1,\"AccessKeyId\":\"AKIDPROCESS\",\"SecretAccessKey\":\"secret\"}}'\n",
            marker.display()
        ),
    )
    .unwrap();
    std::fs::set_permissions(&script, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    let config = format!(
        "[profile cp]\nregion = us-east-1\ncredential_process = {}\n",
        script.display()
    );
    ok(run_with_profile(
        &config,
        &[
            "--profile",
            "cp",
            "--endpoint-url",
            &local().endpoint,
            "tables",
        ],
        &[],
    ));
    let ran = std::fs::read_to_string(&marker).unwrap_or_default();
    assert!(ran.contains("ran"), "the credential process never ran");
}

/// An SSO profile (a cached token from `aws sso login`) still loads: the chain asks the SSO
/// portal for role credentials (here a local one, through `AWS_ENDPOINT_URL_SSO`) with the
/// cached token, and the read goes through with them.
#[test]
fn an_sso_profile_still_loads() {
    let home = tempfile::tempdir().unwrap();
    let start_url = "https://dynoscope-test.awsapps.com/start";
    let cache = home.path().join(".aws/sso/cache");
    std::fs::create_dir_all(&cache).unwrap();
    let name = sha1_hex(start_url.as_bytes());
    std::fs::write(
        cache.join(format!("{name}.json")),
        format!(
            "{{\"accessToken\":\"CACHED-TOKEN\",\"expiresAt\":\"2099-01-01T00:00:00Z\",\"region\":\"us-east-1\",\"startUrl\":\"{start_url}\"}}"
        ),
    )
    .unwrap();
    let portal = SsoPortal::start();
    let config = format!(
        "[profile sso]\nregion = us-east-1\nsso_start_url = {start_url}\nsso_region = us-east-1\nsso_account_id = 123456789012\nsso_role_name = Reader\n"
    );
    let out = run_with_profile(
        &config,
        &[
            "--profile",
            "sso",
            "--endpoint-url",
            &local().endpoint,
            "tables",
        ],
        &[
            ("HOME", home.path().to_str().unwrap()),
            ("AWS_ENDPOINT_URL_SSO", &portal.endpoint),
        ],
    );
    ok(out);
    let asked = portal.requests.lock().unwrap().clone();
    assert!(
        asked.iter().any(|r| r.contains("/federation/credentials")
            && r.contains("role_name=reader")
            && r.contains("cached-token")),
        "{asked:?}"
    );
}

/// A local SSO portal answering GetRoleCredentials; it keeps each request's line and headers
/// (lower-cased).
struct SsoPortal {
    endpoint: String,
    requests: std::sync::Arc<std::sync::Mutex<Vec<String>>>,
}

impl SsoPortal {
    fn start() -> Self {
        use std::io::{BufRead, BufReader, Write};
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let endpoint = format!("http://{}", listener.local_addr().unwrap());
        let requests = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
        let kept = requests.clone();
        std::thread::spawn(move || {
            for stream in listener.incoming().flatten() {
                let mut reader = BufReader::new(stream.try_clone().unwrap());
                let mut head = String::new();
                loop {
                    let mut line = String::new();
                    if reader.read_line(&mut line).unwrap_or(0) == 0 || line == "\r\n" {
                        break;
                    }
                    head.push_str(&line.to_lowercase());
                }
                kept.lock().unwrap().push(head);
                let body = "{\"roleCredentials\":{\"accessKeyId\":\"ASIASSO\",\"secretAccessKey\":\"secret\",\"sessionToken\":\"token\",\"expiration\":4102444800000}}";
                let mut stream = stream;
                let _ = write!(
                    stream,
                    "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
                    body.len()
                );
            }
        });
        SsoPortal { endpoint, requests }
    }
}

/// SHA-1 in hex: the SSO token cache names its file after the start URL's SHA-1.
fn sha1_hex(data: &[u8]) -> String {
    use sha1::Digest;
    sha1::Sha1::digest(data)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}
