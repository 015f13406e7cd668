//! A server that answers with hostile text (tests/integration/common/fake_dynamo.rs): what it says reaches
//! the terminal only through the sanitiser or an escaping JSON writer.

use crate::common;
use crate::common::fake_dynamo;

use common::pty::Session;
use common::*;
use fake_dynamo::{error, FakeDynamo};
use proptest::prelude::*;

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
        &["--endpoint-url", &fake.endpoint, "scan", "tbl"],
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

/// A server whose one Scan page holds an item with these extra attribute names, each with a
/// value that is itself hostile.
fn scan_with_names(names: Vec<String>) -> FakeDynamo {
    FakeDynamo::start(move |operation, _| match operation {
        "Scan" => {
            let mut item = serde_json::Map::new();
            item.insert("PK".into(), serde_json::json!({"S": "USER#1"}));
            for name in &names {
                item.insert(
                    name.clone(),
                    serde_json::json!({"S": "v\u{1b}]52;c;cHduZWQ=\u{7}"}),
                );
            }
            let body = serde_json::json!({"Items": [item], "Count": 1, "ScannedCount": 1});
            (200, body.to_string())
        }
        "DescribeTable" => (
            200,
            serde_json::json!({"Table": {
                "TableName": "tbl",
                "TableStatus": "ACTIVE",
                "KeySchema": [{"AttributeName": "PK", "KeyType": "HASH"}],
                "AttributeDefinitions": [{"AttributeName": "PK", "AttributeType": "S"}],
            }})
            .to_string(),
        ),
        other => error("UnknownOperationException", other),
    })
}

const OSC_NAME: &str = "\u{1b}]52;c;cHduZWQ=\u{7}\u{1b}]0;TITLE\u{7}";

#[test]
fn the_csv_note_names_hostile_attributes_sanitised() {
    let fake = scan_with_names(vec![OSC_NAME.into()]);
    let out = run_raw(
        &[
            "--endpoint-url",
            &fake.endpoint,
            "scan",
            "tbl",
            "--output",
            "csv",
            "--columns",
            "PK",
        ],
        &[],
    );
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(0), "{err}");
    assert_inert("stderr", &err);
    assert!(
        err.contains(r"not in the CSV, first seen after its columns were chosen: \x1b]52;c;cHduZWQ=\x07\x1b]0;TITLE\x07"),
        "{err}"
    );
}

/// Names made of printable text with control, escape, bidi and invisible characters mixed in.
fn hostile_name() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        "[a-z#]{1,4}",
        Just("\u{1b}]52;c;".to_string()),
        Just("\u{1b}[2J".to_string()),
        Just("\u{7}".to_string()),
        Just("\r\n".to_string()),
        Just("\0".to_string()),
        Just("\u{7f}\u{9b}".to_string()),
        Just("\u{202e}\u{2066}".to_string()),
        Just("\u{200b}\u{feff}".to_string()),
        (0u32..0x20).prop_map(|c| char::from_u32(c).unwrap().to_string()),
    ];
    prop::collection::vec(piece, 1..6).prop_map(|p| p.concat())
}

/// The ways a name from data or input reaches stderr.
#[derive(Debug, Clone, Copy)]
enum StderrPath {
    /// Attributes left out of `--output csv --columns PK`: the note lists their names.
    CsvNote,
    /// The name as the table to scan: refused, or failed, with the name quoted.
    TableName,
    /// The name inside a service error message.
    ServiceMessage,
}

proptest! {
    // Each case runs the binary; a few dozen mixes cover the pieces many times over.
    #![proptest_config(ProptestConfig { cases: 32, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn no_control_byte_reaches_stderr_whatever_the_names(
        names in prop::collection::vec(hostile_name(), 1..4),
        path in prop_oneof![
            Just(StderrPath::CsvNote),
            Just(StderrPath::TableName),
            Just(StderrPath::ServiceMessage),
        ],
    ) {
        let joined = names.join(" ");
        let fake = match path {
            StderrPath::ServiceMessage => FakeDynamo::start(move |_, _| {
                error("ResourceNotFoundException", &format!("Requested resource not found: {joined}"))
            }),
            _ => scan_with_names(names.clone()),
        };
        // An argument cannot hold NUL.
        let table = match path {
            StderrPath::TableName => format!("{}x", names[0].replace('\0', "")),
            _ => "tbl".to_string(),
        };
        let mut args = vec!["--endpoint-url", &fake.endpoint, "scan", &table, "--stats"];
        if let StderrPath::CsvNote = path {
            args.extend(["--output", "csv", "--columns", "PK"]);
        }
        let out = run_raw(&args, &[]);
        prop_assert!(!out.stderr.is_empty());
        for (i, b) in out.stderr.iter().enumerate() {
            prop_assert!(
                *b == b'\n' || (*b >= 0x20 && *b != 0x7f),
                "byte {:#04x} at {} on stderr: {:?}", b, i, stderr(&out)
            );
        }
        assert_inert("stderr", &stderr(&out));
    }
}

#[test]
fn csv_to_a_terminal_escapes_the_cells_and_to_a_pipe_keeps_their_bytes() {
    let fake = scan_with_names(vec![OSC_NAME.into()]);
    let args = [
        "--endpoint-url",
        &fake.endpoint,
        "scan",
        "tbl",
        "--output",
        "csv",
    ];
    let mut tty = Session::spawn(&args, &[], 24, 200);
    assert!(tty.wait_exit().success());
    let raw = tty.raw_after_exit();
    let text = String::from_utf8_lossy(&raw).into_owned();
    assert!(!raw.contains(&0x1b) && !raw.contains(&0x07), "{text:?}");
    assert!(text.contains(r"v\x1b]52;c;cHduZWQ=\x07"), "{text:?}");
    let recorded = tty.parser.lock().unwrap();
    assert!(recorded.callbacks().clipboard.is_empty());
    assert!(recorded.callbacks().titles.is_empty());
    drop(recorded);

    let piped = ok(run_raw(&args, &[]));
    assert!(piped.contains("v\u{1b}]52;c;cHduZWQ=\u{7}"), "{piped:?}");
}

/// Writes `head` then 1 MiB chunks (raw, or in chunked encoding) until the client hangs up,
/// adding what was written to `sent`.
fn flood(
    stream: &mut std::net::TcpStream,
    head: &str,
    chunked: bool,
    sent: &std::sync::atomic::AtomicUsize,
) {
    use std::io::Write;
    use std::sync::atomic::Ordering;
    if stream.write_all(head.as_bytes()).is_err() {
        return;
    }
    let chunk = vec![b' '; 1 << 20];
    // Far past any cap: a client that reads it all holds gigabytes.
    for _ in 0..4096 {
        let written = if chunked {
            stream
                .write_all(format!("{:x}\r\n", chunk.len()).as_bytes())
                .and_then(|()| stream.write_all(&chunk))
                .and_then(|()| stream.write_all(b"\r\n"))
        } else {
            stream.write_all(&chunk)
        };
        if written.is_err() {
            return;
        }
        sent.fetch_add(chunk.len(), Ordering::Relaxed);
    }
}

#[test]
fn a_response_past_the_cap_is_refused_and_named() {
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::Arc;
    for chunked in [false, true] {
        let sent = Arc::new(AtomicUsize::new(0));
        let counter = sent.clone();
        let fake = FakeDynamo::start_raw(move |_, _, stream| {
            let head = if chunked {
                "HTTP/1.1 200 OK\r\nContent-Type: application/x-amz-json-1.0\r\nTransfer-Encoding: chunked\r\n\r\n"
            } else {
                "HTTP/1.1 200 OK\r\nContent-Type: application/x-amz-json-1.0\r\nContent-Length: 2000000000\r\n\r\n"
            };
            flood(stream, head, chunked, &counter);
            false
        });
        let out = run_raw(&["--endpoint-url", &fake.endpoint, "tables"], &[]);
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(1), "{err}");
        assert_eq!(err.trim_end().lines().count(), 1, "{err}");
        assert!(err.contains("larger than the 16 MiB cap"), "{err}");
        if !chunked {
            assert!(err.contains("Content-Length 2000000000"), "{err}");
        }
        // What the server got out before the client hung up, over every attempt: the cap and
        // the socket buffers, not the flood.
        let sent = sent.load(Ordering::Relaxed);
        assert!(sent < 160 << 20, "{} MiB were sent", sent >> 20);
    }
}

#[test]
fn a_200_that_is_not_json_says_so() {
    let fake = FakeDynamo::start_raw(|_, _, stream| {
        use std::io::Write;
        let body = "<html><body>Welcome to nginx!</body></html>";
        let _ = write!(
            stream,
            "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: {}\r\n\r\n{body}",
            body.len()
        );
        true
    });
    let out = run_raw(&["--endpoint-url", &fake.endpoint, "tables"], &[]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    assert!(!err.contains("UnknownError"), "{err}");
    assert!(err.contains("not JSON"), "{err}");
    assert!(err.contains("<html><body>Welcome"), "{err}");
}
