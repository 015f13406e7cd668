//! Where requests go is what the AWS SDK resolves — `--endpoint-url`, the environment, a
//! profile's `endpoint_url` or `services` section, `ignore_configured_endpoint_urls` — and that
//! endpoint alone decides whether `seed` may write and whether dummy credentials may be used.

mod common;
#[path = "common/fake_dynamo.rs"]
mod fake_dynamo;

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
