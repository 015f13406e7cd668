//! `clone TABLE --to-endpoint URL` from the shared DynamoDB Local to a second one of its own,
//! checked with boto3 (clone/boto3_clone.py): the copy's items equal the source's slice with
//! every type kept, its keys and indexes equal the source's, the read stays under --max-rcu
//! (counted by the fault proxy in front of the source), and an existing target or a remote
//! one is refused.

use std::path::Path;
use std::process::{Command, Output, Stdio};

use crate::common;
use common::fault_proxy::{FaultConfig, FaultProxy};
use common::*;

fn boto3(endpoint: &str, table: &str, command: &str) -> String {
    let script =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/integration/clone/boto3_clone.py");
    let out = Command::new(venv_python())
        .arg(script)
        .args([endpoint, table, command])
        .env_remove("AWS_PROFILE")
        .output()
        .expect("run python");
    assert!(
        out.status.success(),
        "boto3 {command}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

fn dyno(source: &str, args: &[&str]) -> Output {
    let mut cmd = Command::new(bin());
    aws_env(&mut cmd)
        .arg("--endpoint-url")
        .arg(source)
        .arg("clone")
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("run dynoscope")
}

fn only_partition(dump: &str, pk: &str) -> String {
    let mark = format!("\"PK\": {{\"S\": \"{pk}\"}}");
    dump.lines()
        .filter(|l| l.contains(&mark))
        .map(|l| format!("{l}\n"))
        .collect()
}

#[test]
fn clone_copies_the_slice_with_its_types_and_indexes_under_the_read_budget() {
    let source = &local().endpoint;
    let target = start_local();
    let to = target.endpoint.as_str();
    let table = table_name("clonesrc");
    boto3(source, &table, "setup");
    let all = boto3(source, &table, "dump");
    assert_eq!(all.lines().count(), 36);
    let shape = boto3(source, &table, "indexes");
    let proxy = FaultProxy::start(source, FaultConfig::none());

    // One item collection, through --query: exactly its items, every type as it was.
    let out = dyno(&proxy.url, &[&table, "--to-endpoint", to, "--query", "P#2"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("12 of 12 items copied"),
        "{}",
        stderr(&out)
    );
    assert_eq!(boto3(to, &table, "dump"), only_partition(&all, "P#2"));
    assert_eq!(boto3(to, &table, "indexes"), shape);
    assert_eq!(proxy.requests("Query"), 1);
    assert_eq!(proxy.requests("Scan"), 0, "{}", proxy.summary());

    // The same target again: refused, nothing written; with --add, the items there are kept
    // and only the new ones written.
    let out = dyno(&proxy.url, &[&table, "--to-endpoint", to, "--query", "P#2"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains(&format!("table '{table}' already exists at"))
            && stderr(&out).contains("--add"),
        "{}",
        stderr(&out)
    );
    let select = format!("SELECT * FROM \"{table}\" WHERE PK IN ['P#2', 'P#3']");
    let out = dyno(
        &proxy.url,
        &[&table, "--to-endpoint", to, "--partiql", &select, "--add"],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("12 of 24 items copied (12 already there kept as they were)"),
        "{}",
        stderr(&out)
    );
    let two: String = only_partition(&all, "P#2") + &only_partition(&all, "P#3");
    assert_eq!(boto3(to, &table, "dump"), two);

    // The whole table under --max-rcu 3 (it costs about ten): the read stops within the
    // budget, what it read is copied whole, and the exit says the copy is partial.
    proxy.clear_log();
    let before = proxy.consumed_units();
    let partial = format!("{table}-partial");
    let out = dyno(
        &proxy.url,
        &[
            &table,
            "--to-endpoint",
            to,
            "--to-table",
            &partial,
            "--max-rcu",
            "3",
        ],
    );
    assert_eq!(out.status.code(), Some(5), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("stopped at --max-rcu after"),
        "{}",
        stderr(&out)
    );
    let spent = proxy.consumed_units() - before;
    assert!(spent > 0.0 && spent <= 3.0, "consumed {spent} read units");
    let copied = boto3(to, &partial, "dump");
    assert!(
        !copied.is_empty() && copied.lines().count() < 36,
        "{copied}"
    );
    for line in copied.lines() {
        assert!(all.lines().any(|l| l == line), "not in the source: {line}");
    }
    assert_eq!(boto3(to, &partial, "indexes"), shape);

    // --sample N: the first N items of a scan.
    let sample = format!("{table}-sample");
    let out = dyno(
        &proxy.url,
        &[
            &table,
            "--to-endpoint",
            to,
            "--to-table",
            &sample,
            "--sample",
            "5",
        ],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let copied = boto3(to, &sample, "dump");
    assert_eq!(copied.lines().count(), 5, "{copied}");
    for line in copied.lines() {
        assert!(all.lines().any(|l| l == line), "not in the source: {line}");
    }
}

#[test]
fn clone_refuses_a_remote_target_and_a_partial_index() {
    let source = &local().endpoint;
    let out = dyno(
        source,
        &[
            "app",
            "--to-endpoint",
            "https://dynamodb.us-east-1.amazonaws.com",
        ],
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains(
            "--to-endpoint 'https://dynamodb.us-east-1.amazonaws.com' is not on this machine"
        ),
        "{}",
        stderr(&out)
    );
    let table = table_name("clonekeys");
    boto3(source, &table, "setup");
    let out = dyno(
        source,
        &[
            &table,
            "--to-endpoint",
            source,
            "--to-table",
            "never",
            "--query",
            "x",
            "--index",
            "ByBlob",
        ],
    );
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("index 'ByBlob' projects KEYS_ONLY attributes"),
        "{}",
        stderr(&out)
    );
}
