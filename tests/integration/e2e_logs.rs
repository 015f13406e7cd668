//! The log file: headless reads log one line per page with its capacity, never a credential,
//! and nothing of the log reaches stdout or stderr.

use crate::common;

use std::path::Path;
use std::process::{Command, Output, Stdio};

use common::*;

const ACCESS_KEY: &str = "AKIAFAKEKEYFORTEST1";
const SECRET_KEY: &str = "fakeSecretKeyForTest/abcdEFGH";
const SESSION_TOKEN: &str = "FakeSessionTokenForTest123";

/// Runs `dynoscope --endpoint-url <local> ARGS…` with the fake credentials and `env`.
fn run_logged(args: &[&str], env: &[(&str, &str)]) -> Output {
    let mut cmd = Command::new(bin());
    aws_env(&mut cmd)
        .env("AWS_ACCESS_KEY_ID", ACCESS_KEY)
        .env("AWS_SECRET_ACCESS_KEY", SECRET_KEY)
        .env("AWS_SESSION_TOKEN", SESSION_TOKEN)
        .env_remove("DYNOSCOPE_LOG")
        .env_remove("DYNOSCOPE_LOG_LEVEL")
        .env_remove("XDG_STATE_HOME")
        .arg("--endpoint-url")
        .arg(&local().endpoint)
        .args(args);
    for (k, v) in env {
        cmd.env(k, v);
    }
    cmd.stdin(Stdio::null()).output().expect("run dynoscope")
}

fn read_log(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("no log at {}: {e}", path.display()))
}

/// The fields of the page lines of `log`, as `key=value` maps.
fn page_lines(log: &str) -> Vec<String> {
    log.lines()
        .filter(|l| l.contains("dynoscope::aws::read") && l.contains(" page "))
        .map(str::to_string)
        .collect()
}

fn assert_no_log_output(out: &Output) {
    for (name, text) in [("stdout", stdout(out)), ("stderr", stderr(out))] {
        for marker in [
            " TRACE ",
            " DEBUG ",
            " INFO ",
            " WARN ",
            "dynoscope::",
            "aws_",
        ] {
            assert!(
                !text.contains(marker),
                "{name} has log output ({marker:?}): {text}"
            );
        }
    }
}

#[test]
fn trace_level_logs_requests_and_never_credentials() {
    let table = seeded_demo(20);
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("logs/dynoscope.log");
    let log_env = log.to_str().unwrap();
    // Ask for everything, the SDK's and the HTTP stack's events by name too.
    let env = [
        ("DYNOSCOPE_LOG", log_env),
        (
            "DYNOSCOPE_LOG_LEVEL",
            "trace,aws_sigv4=trace,aws_smithy_runtime=trace,aws_config=trace,hyper=trace",
        ),
    ];

    let scan = run_logged(
        &["scan", &table, "--segments", "2", "--page-size", "50"],
        &env,
    );
    assert!(scan.status.success(), "{}", stderr(&scan));
    assert_eq!(
        stderr(&scan),
        "",
        "a scan without --stats prints nothing on stderr"
    );
    assert!(
        lines(&stdout(&scan)).len() > 100,
        "every stdout line is an item"
    );
    assert_no_log_output(&scan);

    let query = run_logged(
        &["query", &table, "--pk", "USER#celebrity", "--stats"],
        &env,
    );
    assert!(query.status.success(), "{}", stderr(&query));
    assert_eq!(
        stderr(&query).lines().count(),
        1,
        "only the stats line: {}",
        stderr(&query)
    );
    stats(&query);
    assert_no_log_output(&query);

    let text = read_log(&log);
    let pages = page_lines(&text);
    let scans: Vec<&String> = pages
        .iter()
        .filter(|l| l.contains("operation=\"Scan\"") || l.contains("operation=Scan"))
        .collect();
    let queries: Vec<&String> = pages
        .iter()
        .filter(|l| l.contains("operation=\"Query\"") || l.contains("operation=Query"))
        .collect();
    assert!(scans.len() >= 2, "a line per scan page: {text}");
    assert!(!queries.is_empty(), "a line per query page: {text}");
    for line in scans.iter().chain(&queries) {
        for field in [
            "table=",
            "index=",
            "segment=",
            "page=",
            "count=",
            "consumed_capacity=",
            "latency_ms=",
            "attempts=",
        ] {
            assert!(line.contains(field), "{field} missing: {line}");
        }
        assert!(line.contains(&table), "{line}");
    }
    assert!(
        scans.iter().any(|l| l.contains("segment=1")),
        "both segments: {text}"
    );
    for secret in [ACCESS_KEY, SECRET_KEY, SESSION_TOKEN] {
        assert!(!text.contains(secret), "{secret} in the log:\n{text}");
    }
    // Not even masked: nothing tried to log them.
    assert!(!text.contains("[redacted]"), "{text}");
    // No SDK or HTTP debug/trace events, whatever the level asked for.
    for line in text.lines() {
        let sdk = line.contains(" aws_") || line.contains(" hyper");
        let verbose =
            line.contains(" TRACE ") || line.contains(" DEBUG ") || line.contains(" INFO ");
        assert!(!(sdk && verbose), "a dependency's verbose event: {line}");
        assert!(
            !line.to_ascii_lowercase().contains("authorization"),
            "{line}"
        );
        assert!(!line.contains("x-amz-security-token"), "{line}");
    }
}

#[test]
fn errors_are_logged() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("dynoscope.log");
    let out = run_logged(
        &["query", "no-such-table-for-logs", "--pk", "X"],
        &[("DYNOSCOPE_LOG", log.to_str().unwrap())],
    );
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert_eq!(stderr(&out).lines().count(), 1, "{}", stderr(&out));
    let text = read_log(&log);
    assert!(
        text.contains("WARN") && text.contains("no-such-table-for-logs"),
        "{text}"
    );
}

#[test]
fn default_path_follows_xdg_state_home_and_off_disables() {
    let table = seeded_demo(1);
    let state = tempfile::tempdir().unwrap();
    let xdg = state.path().to_str().unwrap();
    let out = run_logged(&["scan", &table], &[("XDG_STATE_HOME", xdg)]);
    assert!(out.status.success(), "{}", stderr(&out));
    let log = state.path().join("dynoscope/dynoscope.log");
    assert!(!page_lines(&read_log(&log)).is_empty());

    // HOME's ~/.local/state when XDG_STATE_HOME is not set.
    let home = tempfile::tempdir().unwrap();
    let out = run_logged(
        &["scan", &table],
        &[("HOME", home.path().to_str().unwrap())],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let log = home.path().join(".local/state/dynoscope/dynoscope.log");
    assert!(!page_lines(&read_log(&log)).is_empty());

    let state = tempfile::tempdir().unwrap();
    let out = run_logged(
        &["scan", &table],
        &[
            ("XDG_STATE_HOME", state.path().to_str().unwrap()),
            ("DYNOSCOPE_LOG", "off"),
        ],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(
        std::fs::read_dir(state.path()).unwrap().count(),
        0,
        "DYNOSCOPE_LOG=off writes nothing"
    );

    // An unwritable log path is not an error and prints nothing.
    let out = run_logged(
        &["scan", &table],
        &[("DYNOSCOPE_LOG", "/proc/nonexistent/dynoscope.log")],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(stderr(&out), "");
}

/// The log is never written through a symlink, and is private even if it was not before.
#[test]
fn a_symlinked_log_is_refused_and_an_open_one_made_private() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let target = dir.path().join("someone-elses-file");
    std::fs::write(&target, "precious\n").unwrap();
    let link = dir.path().join("dynoscope.log");
    std::os::unix::fs::symlink(&target, &link).unwrap();
    let out = run_logged(&["tables"], &[("DYNOSCOPE_LOG", link.to_str().unwrap())]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(stderr(&out), "", "logging is off, silently");
    assert_eq!(std::fs::read_to_string(&target).unwrap(), "precious\n");

    let log = dir.path().join("open.log");
    std::fs::write(&log, "").unwrap();
    std::fs::set_permissions(&log, std::fs::Permissions::from_mode(0o644)).unwrap();
    let out = run_logged(&["tables"], &[("DYNOSCOPE_LOG", log.to_str().unwrap())]);
    assert!(out.status.success(), "{}", stderr(&out));
    let mode = std::fs::metadata(&log).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o600);
    assert!(read_log(&log).contains("start"));
}

/// Credentials written into the endpoint URL appear neither in messages nor in the log.
#[test]
fn credentials_in_the_endpoint_url_are_masked_everywhere() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("dynoscope.log");
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let cases = [
        (
            format!("http://admin:s3cretpass@127.0.0.1:{port}"),
            1,
            format!("http://***@127.0.0.1:{port}"),
        ),
        (
            "ftp://admin:s3cretpass@localhost".to_string(),
            2,
            "'ftp://***@localhost'".to_string(),
        ),
    ];
    for (url, code, shown) in cases {
        let mut cmd = Command::new(bin());
        aws_env(&mut cmd)
            .env("DYNOSCOPE_LOG", &log)
            .args(["--endpoint-url", &url, "tables"]);
        let out = cmd.stdin(Stdio::null()).output().unwrap();
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(code), "{err}");
        assert!(err.contains(&shown), "{err}");
        assert!(
            !err.contains("s3cretpass") && !err.contains("admin"),
            "{err}"
        );
    }
    let text = read_log(&log);
    assert!(text.contains("***@"), "{text}");
    assert!(!text.contains("s3cretpass"), "{text}");
}
