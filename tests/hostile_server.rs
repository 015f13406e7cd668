//! A server that answers with hostile text (tests/common/fake_dynamo.rs): what it says reaches
//! the terminal only through the sanitiser or an escaping JSON writer.

mod common;
#[path = "common/fake_dynamo.rs"]
mod fake_dynamo;

use common::*;
use fake_dynamo::{error, FakeDynamo};

/// Characters that must never reach a terminal raw.
const RAW: [char; 9] = [
    '\u{1b}', '\u{7}', '\u{7f}', '\u{9b}', '\u{202e}', '\u{2066}', '\r', '\0', '\u{200b}',
];

fn assert_inert(what: &str, text: &str) {
    for c in RAW {
        assert!(!text.contains(c), "{c:?} raw in {what}: {text:?}");
    }
}

#[test]
fn a_service_error_message_reaches_stderr_sanitised() {
    let hostile = "denied \u{1b}]0;pwned\u{7} \u{1b}[2J\rback \u{202e}gpj.exe \u{9b}31m\u{7f}";
    let fake = FakeDynamo::start(move |_, _| error("AccessDeniedException", hostile));
    let out = run_raw(&["--endpoint-url", &fake.endpoint, "tables"], &[]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert_inert("stderr", &err);
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    assert!(
        err.contains(r"denied \x1b]0;pwned\x07 \x1b[2J\rback \u{202e}gpj.exe \u{9b}31m\x7f"),
        "{err}"
    );
    assert!(err.contains("AccessDeniedException"), "{err}");
}

#[test]
fn a_number_that_is_not_one_stays_valid_escaped_json() {
    let fake = FakeDynamo::start(|operation, _| match operation {
        "Scan" => (
            200,
            serde_json::json!({
                "Items": [{
                    "PK": {"S": "USER#1"},
                    "n": {"N": "1\u{1b}]52;c;ZXZpbA==\u{7}"},
                    "ns": {"NS": ["2", "3}"]},
                    "ok": {"N": "12345678901234567890123456789012345678"},
                }],
                "Count": 1,
                "ScannedCount": 1,
            })
            .to_string(),
        ),
        other => error("UnknownOperationException", other),
    });
    let out = ok(run_raw(
        &["--endpoint-url", &fake.endpoint, "scan", "t"],
        &[],
    ));
    assert_inert("jsonl", &out);
    let items = lines(&out);
    assert_eq!(items.len(), 1, "{out}");
    assert_eq!(items[0]["n"], "1\u{1b}]52;c;ZXZpbA==\u{7}");
    assert_eq!(items[0]["ns"], serde_json::json!([2, "3}"]));
    assert!(
        out.contains("\"ok\":12345678901234567890123456789012345678"),
        "{out}"
    );
}

#[test]
fn a_list_tables_that_never_advances_is_an_error_not_a_loop() {
    let fake = FakeDynamo::start(|operation, _| match operation {
        "ListTables" => (
            200,
            r#"{"TableNames":["a"],"LastEvaluatedTableName":"a"}"#.into(),
        ),
        other => error("UnknownOperationException", other),
    });
    let mut cmd = std::process::Command::new(bin());
    aws_env(&mut cmd)
        .args(["--endpoint-url", &fake.endpoint, "tables"])
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped());
    let mut child = cmd.spawn().unwrap();
    let started = std::time::Instant::now();
    while child.try_wait().unwrap().is_none() {
        if started.elapsed() > std::time::Duration::from_secs(10) {
            child.kill().unwrap();
            child.wait().unwrap();
            panic!(
                "still listing after 10 s ({} ListTables requests)",
                fake.requests("ListTables")
            );
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let out = child.wait_with_output().unwrap();
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.contains("LastEvaluatedTableName 'a' a second time"),
        "{err}"
    );
    assert_eq!(fake.requests("ListTables"), 2);
}
