//! The MCP server's transport answers every request, bytes written straight to its stdin: a
//! line that is not JSON (a lone UTF-16 surrogate as JavaScript writes a string cut in the
//! middle of an emoji, nesting 200 deep, a line cut short, a line past the size cap) is a
//! -32700 parse error, a JSON value that is no request -32600, a request whose params are of
//! the wrong type -32602, each with the request's id wherever the line lets it be read. A good
//! request after them is still served. The server is given an endpoint nothing listens on:
//! nothing here reaches DynamoDB.

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use serde_json::{json, Value};

use crate::common::{aws_env, bin};

/// Writes `lines` to a fresh `dynoscope mcp`, and collects its answers until `want` of them
/// arrived or 20 s passed.
fn answers(lines: &[String], want: usize) -> Vec<Value> {
    let mut child = aws_env(&mut Command::new(bin()))
        .args(["--endpoint-url", "http://127.0.0.1:9", "mcp"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("spawn dynoscope mcp");
    let stdout = child.stdout.take().unwrap();
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            let Ok(line) = line else { break };
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    let mut stdin = child.stdin.take().unwrap();
    for line in lines {
        stdin.write_all(line.as_bytes()).unwrap();
        stdin.write_all(b"\n").unwrap();
    }
    stdin.flush().unwrap();
    let deadline = Instant::now() + Duration::from_secs(20);
    let mut got = Vec::new();
    while got.len() < want {
        let left = deadline.saturating_duration_since(Instant::now());
        match rx.recv_timeout(left) {
            Ok(line) => got.push(
                serde_json::from_str(&line).unwrap_or_else(|e| panic!("{e}: stdout line {line}")),
            ),
            Err(_) => break,
        }
    }
    drop(stdin);
    let _ = child.kill();
    let _ = child.wait();
    got
}

fn call(id: Value, arguments: &str) -> String {
    format!(
        r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{{"name":"query","arguments":{arguments}}}}}"#
    )
}

#[test]
fn every_request_the_server_cannot_decode_is_answered_with_its_id() {
    let deep = format!("{}1{}", "[".repeat(200), "]".repeat(200));
    let long = format!(r#"{{"pk":"{}"}}"#, "x".repeat(4 * 1024 * 1024));
    let initialize = json!({
        "jsonrpc": "2.0", "id": 99, "method": "initialize",
        "params": {
            "protocolVersion": "2025-06-18", "capabilities": {},
            "clientInfo": {"name": "raw", "version": "1"}
        }
    });
    let lines = vec![
        call(json!(1), r#"{"table":"T","pk":"USER\ud83d"}"#),
        call(json!("two"), &format!(r#"{{"table":"T","pk":{deep}}}"#)),
        r#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"q"#.to_string(),
        r#"{"jsonrpc":"2.0","id":4,"method":"tools/call","params":[1,2]}"#.to_string(),
        r#"{"jsonrpc":"2.0","id":5,"method":"tools/list","params":"all"}"#.to_string(),
        call(json!(6), &long),
        "not json at all".to_string(),
        "[1,2,3]".to_string(),
        initialize.to_string(),
    ];
    let got = answers(&lines, lines.len());
    let by_id: BTreeMap<String, &Value> = got.iter().map(|a| (a["id"].to_string(), a)).collect();
    let code = |id: &str| by_id.get(id).map(|a| a["error"]["code"].clone());
    assert_eq!(code("1"), Some(json!(-32700)), "{got:#?}");
    assert_eq!(code("\"two\""), Some(json!(-32700)), "{got:#?}");
    assert_eq!(code("3"), Some(json!(-32700)), "{got:#?}");
    assert_eq!(code("4"), Some(json!(-32602)), "{got:#?}");
    assert_eq!(code("5"), Some(json!(-32602)), "{got:#?}");
    assert_eq!(code("6"), Some(json!(-32700)), "{got:#?}");
    let anonymous: Vec<_> = got
        .iter()
        .filter(|a| a.get("id") == Some(&Value::Null))
        .collect();
    assert_eq!(
        anonymous
            .iter()
            .map(|a| a["error"]["code"].clone())
            .collect::<Vec<_>>(),
        vec![json!(-32700), json!(-32600)],
        "{got:#?}"
    );
    assert_eq!(
        by_id
            .get("99")
            .map(|a| a["result"]["serverInfo"]["name"].clone()),
        Some(json!("dynoscope")),
        "{got:#?}"
    );
    let surrogate = by_id["1"]["error"]["message"].as_str().unwrap();
    assert!(surrogate.contains("surrogate"), "{surrogate}");
    let deep = by_id["\"two\""]["error"]["message"].as_str().unwrap();
    assert!(deep.contains("deep"), "{deep}");
    assert_eq!(got.len(), lines.len(), "one answer a line: {got:#?}");
}
