//! Headless `--output csv` and `--output json`: what a real CSV reader (the `csv` crate's and
//! Python's `csv` module) reads back is the items' cells exactly; a JSON array stays one valid
//! array, even when Ctrl-C stops the read.

use crate::common;

use std::collections::HashMap;
use std::io::Read;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use aws_sdk_dynamodb::primitives::Blob;
use aws_sdk_dynamodb::types::AttributeValue;
use common::*;

const BIG: &str = "12345678901234567890123456789012345678";

async fn typed_table() -> String {
    let table = table_name("export");
    ok(run(&["seed", "--table", &table, "--users", "1"]));
    let c = client().await;
    let s = |v: &str| AttributeValue::S(v.into());
    let items: Vec<HashMap<String, AttributeValue>> = vec![
        [
            ("PK", s("TYPES#1")),
            ("SK", s("ALL")),
            ("big", AttributeValue::N(BIG.into())),
            ("csv", s("\"quoted\", comma\r\nnew line")),
            ("esc", s("esc\u{1b}[2J bidi\u{202e} 漢字")),
            ("b", AttributeValue::B(Blob::new(vec![0u8, 1, 255, 27]))),
            ("ss", AttributeValue::Ss(vec!["x".into(), "y,z".into()])),
            (
                "m",
                AttributeValue::M(HashMap::from([(
                    "inner".to_string(),
                    AttributeValue::L(vec![
                        AttributeValue::Null(true),
                        AttributeValue::Bool(false),
                    ]),
                )])),
            ),
            ("nul", AttributeValue::Null(true)),
        ]
        .into_iter()
        .map(|(k, v)| (k.to_string(), v))
        .collect(),
        [
            ("PK", s("TYPES#1")),
            ("SK", s("SPARSE")),
            ("late", s("only here")),
        ]
        .into_iter()
        .map(|(k, v)| (k.to_string(), v))
        .collect(),
    ];
    for item in items {
        c.put_item()
            .table_name(&table)
            .set_item(Some(item))
            .send()
            .await
            .unwrap();
    }
    table
}

/// Rows as Python's `csv` module reads them.
fn python_rows(csv: &str) -> Vec<Vec<String>> {
    let mut child = Command::new("python3")
        .args([
            "-c",
            "import csv, io, json, sys\n\
             data = sys.stdin.buffer.read().decode('utf-8')\n\
             print(json.dumps(list(csv.reader(io.StringIO(data, newline='')))))",
        ])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("python3");
    use std::io::Write;
    child
        .stdin
        .take()
        .unwrap()
        .write_all(csv.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    serde_json::from_slice(&out.stdout).unwrap()
}

fn crate_rows(csv: &str) -> Vec<Vec<String>> {
    csv::ReaderBuilder::new()
        .has_headers(false)
        .from_reader(csv.as_bytes())
        .records()
        .map(|r| r.unwrap().iter().map(String::from).collect())
        .collect()
}

#[tokio::test]
async fn csv_cells_read_back_exactly_by_two_readers() {
    let table = typed_table().await;
    let csv = ok(run(&[
        "query", &table, "--pk", "TYPES#1", "--output", "csv",
    ]));
    let rows = crate_rows(&csv);
    assert_eq!(
        rows,
        python_rows(&csv),
        "the crate and Python read the same cells"
    );
    let header = &rows[0];
    assert_eq!(&header[..2], ["PK", "SK"], "{header:?}");
    let cell =
        |row: &Vec<String>, name: &str| row[header.iter().position(|h| h == name).unwrap()].clone();
    let all = &rows[1];
    assert_eq!(cell(all, "big"), BIG);
    assert_eq!(cell(all, "csv"), "\"quoted\", comma\r\nnew line");
    assert_eq!(cell(all, "esc"), "esc\u{1b}[2J bidi\u{202e} 漢字");
    assert_eq!(cell(all, "b"), "AAH/Gw==");
    assert_eq!(cell(all, "ss"), r#"["x","y,z"]"#);
    assert_eq!(cell(all, "m"), r#"{"inner":[null,false]}"#);
    assert_eq!(cell(all, "nul"), "null");
    assert_eq!(cell(&rows[2], "late"), "only here");
    assert_eq!(
        cell(&rows[2], "big"),
        "",
        "a missing attribute is an empty cell"
    );

    // Chosen columns, and a note on stderr for attributes they leave out.
    let out = run(&[
        "query",
        &table,
        "--pk",
        "TYPES#1",
        "--output",
        "csv",
        "--columns",
        "SK,big",
    ]);
    let err = stderr(&out);
    let rows = crate_rows(&ok(out));
    assert_eq!(rows[0], ["SK", "big"]);
    assert_eq!(rows[1], ["ALL", BIG]);
    assert!(
        err.contains("not in the CSV") && err.contains("late"),
        "{err}"
    );

    let out = run(&["scan", &table, "--columns", "PK"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("--columns"), "{}", stderr(&out));
}

#[tokio::test]
async fn json_is_one_array_of_plain_items() {
    let table = typed_table().await;
    let json = ok(run(&[
        "query", &table, "--pk", "TYPES#1", "--output", "json",
    ]));
    assert!(
        json.contains(&format!("\"big\":{BIG}")),
        "exact number: {json}"
    );
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    let items = v.as_array().unwrap();
    assert_eq!(items.len(), 2);
    assert_eq!(items[0]["b"], "AAH/Gw==");
    let empty = ok(run(&["query", &table, "--pk", "NOPE", "--output", "json"]));
    assert_eq!(empty, "[]\n");
}

/// Ctrl-C while a rate-limited scan streams: the array written so far is closed.
#[test]
fn an_interrupted_json_scan_is_still_one_valid_array() {
    let table = shared_demo(30).to_string();
    let mut cmd = Command::new(bin());
    aws_env(&mut cmd)
        .args(["--endpoint-url", &local().endpoint, "scan", &table])
        .args([
            "--output",
            "json",
            "--page-size",
            "20",
            "--rcu-per-second",
            "2",
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = cmd.spawn().unwrap();
    let mut stdout = child.stdout.take().unwrap();
    let mut first = [0u8; 64];
    let n = stdout.read(&mut first).unwrap();
    assert!(n > 0 && first[0] == b'[');
    std::thread::sleep(Duration::from_millis(300));
    unsafe { libc::kill(child.id() as i32, libc::SIGINT) };
    let started = Instant::now();
    let mut rest = Vec::new();
    stdout.read_to_end(&mut rest).unwrap();
    let status = child.wait().unwrap();
    assert!(started.elapsed() < Duration::from_secs(10));
    assert_eq!(status.code(), Some(130));
    let mut all = first[..n].to_vec();
    all.extend(rest);
    let v: serde_json::Value = serde_json::from_slice(&all)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&all)));
    assert!(!v.as_array().unwrap().is_empty());
}

/// `run` writes the same CSV and JSON as the query its pattern stands for.
#[tokio::test]
async fn run_writes_csv_and_json_like_the_query_it_stands_for() {
    let table = typed_table().await;
    let dir = tempfile::tempdir().unwrap();
    let patterns = dir.path().join("p.toml");
    std::fs::write(
        &patterns,
        format!("[[pattern]]\ntable = \"{table}\"\nname = \"types\"\npk = \"TYPES#{{id}}\"\n"),
    )
    .unwrap();
    let patterns = patterns.to_str().unwrap();
    let mut csv = String::new();
    for format in ["csv", "json"] {
        let ran = ok(run(&[
            "--patterns",
            patterns,
            "run",
            "types",
            "--param",
            "id=1",
            "--output",
            format,
        ]));
        let queried = ok(run(&[
            "query", &table, "--pk", "TYPES#1", "--output", format,
        ]));
        assert_eq!(ran, queried, "{format}");
        if format == "csv" {
            csv = ran;
        }
    }
    let rows = crate_rows(&csv);
    assert_eq!(rows.len(), 3, "a header and both items: {rows:?}");
    assert_eq!(rows, python_rows(&csv));
}
