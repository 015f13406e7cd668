//! The write contract's edges (issue 51): a delete never removes what another writer added
//! after the read, a change DynamoDB would refuse for one item is refused before the first
//! write, every attempt of a write is admitted by `--max-wcu`, undo's dry run prices what undo
//! pays, and a dry run forced by a missing `--allow-writes` exits 2. boto3 is the oracle of the
//! table's state, the fault proxy of what DynamoDB received.

use std::io::Write as _;
use std::process::Stdio;
use std::time::{Duration, Instant};

use super::{boto3, command, dyno, text, writes};
use crate::common;
use common::fault_proxy::{Fault, FaultConfig, FaultProxy};
use common::*;

/// The item of a boto3 dump whose key is (`pk`, `sk`), as its JSON line.
fn dumped<'a>(dump: &'a str, pk: &str, sk: &str) -> Option<&'a str> {
    dump.lines().find(|l| {
        let v: serde_json::Value = serde_json::from_str(l).unwrap();
        v["PK"]["S"] == pk && v["SK"]["S"] == sk
    })
}

/// A DELETE whose item gains an attribute after the read: DynamoDB's DeleteItem removes it
/// (the condition names only what was read), dynoscope sees the removed item differs
/// (ALL_OLD), puts it back at once and reports a conflict; the journal keeps the item as
/// DynamoDB returned it, and undo restores the others and leaves it alone.
#[test]
fn a_delete_puts_back_an_item_another_writer_added_to_and_reports_it() {
    let own = start_local();
    let endpoint = &own.endpoint;
    let table = table_name("bulk-added");
    boto3(endpoint, &table, &["setup", "6"]);
    let proxy = FaultProxy::start(endpoint, FaultConfig::none());
    let dir = tempfile::tempdir().unwrap();
    let state = dir.path().join("state");
    let journal = dir.path().join("run.jsonl");
    let statement = format!("DELETE FROM \"{table}\" WHERE PK = 'P#1'");
    // 1 WCU a second: 8 WCU of deletes take 7 s, and the last item goes last.
    let child = command(
        &proxy.url,
        &state,
        &[
            "--allow-writes",
            "partiql",
            &statement,
            "--yes",
            "--wcu-per-second",
            "1",
            "--journal",
            journal.to_str().unwrap(),
        ],
    )
    .stdout(Stdio::piped())
    .stderr(Stdio::piped())
    .spawn()
    .unwrap();
    let started = Instant::now();
    while proxy.requests("DeleteItem") == 0 {
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "no delete sent"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    boto3(endpoint, &table, &["add", "P#1", "S#005"]);
    let added = boto3(endpoint, &table, &["dump"]);
    let added_item = dumped(&added, "P#1", "S#005").unwrap().to_string();
    assert!(added_item.contains("by another writer"), "{added_item}");
    let out = child.wait_with_output().unwrap();
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(4), "{stderr}");
    assert!(stderr.contains("5 written"), "{stderr}");
    assert!(stderr.contains("1 conflicts skipped"), "{stderr}");
    assert!(
        text(&out.stdout).contains("by another writer"),
        "the conflict shows the item"
    );

    let after = boto3(endpoint, &table, &["dump"]);
    assert_eq!(
        dumped(&after, "P#1", "S#005"),
        Some(added_item.as_str()),
        "the item is back exactly as the other writer left it"
    );
    for s in 0..5 {
        assert_eq!(
            dumped(&after, "P#1", &format!("S#{s:03}")),
            None,
            "S#{s:03}"
        );
    }
    let lines = std::fs::read_to_string(&journal).unwrap();
    let conflict = lines
        .lines()
        .find(|l| l.contains("\"outcome\":\"conflict\""))
        .expect("a conflict line");
    assert!(conflict.contains("by another writer"), "{conflict}");

    // Undo restores the 5 deleted items and leaves the put-back one as it is.
    let out = dyno(
        &proxy.url,
        &state,
        &["--allow-writes", "undo", journal.to_str().unwrap(), "--yes"],
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let undone = boto3(endpoint, &table, &["dump"]);
    assert_eq!(
        undone.lines().count(),
        after.lines().count() + 5,
        "every deleted item is back"
    );
    assert_eq!(dumped(&undone, "P#1", "S#005"), Some(added_item.as_str()));
}

/// Items in DynamoDB JSON for `put`: `n` items under partition `pk`.
fn put_items(endpoint: &str, table: &str, dir: &std::path::Path, lines: &[String]) {
    let file = dir.join("put.jsonl");
    let mut f = std::fs::File::create(&file).unwrap();
    for l in lines {
        writeln!(f, "{l}").unwrap();
    }
    boto3(endpoint, table, &["put", file.to_str().unwrap()]);
}

/// One item DynamoDB would refuse the write of stops the run before its first write, exit
/// 2, whichever item it is: a condition past the expression limits (160 attributes), an
/// index key set to an empty string, an image past 400 KB. With the table's version
/// attribute in the config the 160-attribute item's condition is that one attribute, and the
/// run writes every item.
#[test]
fn a_write_dynamodb_would_refuse_is_refused_before_the_first_write() {
    let own = start_local();
    let endpoint = &own.endpoint;
    let table = table_name("bulk-refuse");
    boto3(endpoint, &table, &["setup", "1"]);
    let dir = tempfile::tempdir().unwrap();
    let state = dir.path().join("state");
    let wide: String = (0..160)
        .map(|i| format!(",\"a{i:03}\":{{\"S\":\"value {i}\"}}"))
        .collect();
    let big = "x".repeat(300 * 1024);
    put_items(
        endpoint,
        &table,
        dir.path(),
        &[
            r#"{"PK":{"S":"Q"},"SK":{"S":"1"},"status":{"S":"NEW"}}"#.to_string(),
            format!(r#"{{"PK":{{"S":"Q"}},"SK":{{"S":"2"}},"status":{{"S":"NEW"}}{wide}}}"#),
            r#"{"PK":{"S":"Q"},"SK":{"S":"3"},"status":{"S":"NEW"}}"#.to_string(),
            format!(r#"{{"PK":{{"S":"R"}},"SK":{{"S":"1"}},"big":{{"S":"{big}"}}}}"#),
        ],
    );
    let proxy = FaultProxy::start(endpoint, FaultConfig::none());
    let before = boto3(endpoint, &table, &["dump"]);
    let run = |state: &std::path::Path, statement: String, extra: &[&str]| {
        let mut args = vec!["--allow-writes", "partiql", &statement, "--yes"];
        args.extend_from_slice(extra);
        dyno(&proxy.url, state, &args)
    };
    let value = "y".repeat(110 * 1024);
    let parameters = format!("[\"{value}\"]");
    for (statement, extra, says) in [
        (
            format!("UPDATE \"{table}\" SET status = 'DONE' WHERE PK = 'Q'"),
            vec![],
            "operators",
        ),
        (
            format!("UPDATE \"{table}\" SET GSI1PK = '' WHERE PK = 'Q'"),
            vec![],
            "GSI1PK: empty",
        ),
        (
            format!("UPDATE \"{table}\" SET more = ? WHERE PK = 'R'"),
            vec!["--parameters", parameters.as_str()],
            "400 KB",
        ),
    ] {
        let out = run(&state, statement.clone(), &extra);
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{statement}: {stderr}");
        assert!(stderr.contains(says), "{statement}: {stderr}");
        assert!(stderr.contains("nothing was written"), "{stderr}");
        assert_eq!(writes(&proxy), 0, "{statement}: no write is sent");
    }
    assert_eq!(boto3(endpoint, &table, &["dump"]), before);

    // The version attribute stands for the whole item: the run goes through.
    let config = dir.path().join("config");
    std::fs::create_dir_all(config.join("dynoscope")).unwrap();
    std::fs::write(
        config.join("dynoscope/config.toml"),
        format!("[[table]]\nname = \"{table}\"\nversion_attribute = \"v\"\n"),
    )
    .unwrap();
    let statement = format!("UPDATE \"{table}\" SET status = 'DONE' WHERE PK = 'Q'");
    let out = command(
        &proxy.url,
        &state,
        &["--allow-writes", "partiql", &statement, "--yes"],
    )
    .env("XDG_CONFIG_HOME", &config)
    .output()
    .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let after = boto3(endpoint, &table, &["dump"]);
    for sk in ["1", "2", "3"] {
        let item = dumped(&after, "Q", sk).unwrap();
        assert!(item.contains(r#""status": {"S": "DONE"}"#), "{item}");
        assert!(item.contains(r#""v": {"N": "1"}"#), "{item}");
    }
}

/// Each UpdateItem is applied and its first answer lost (the body cut short): the SDK's or the
/// runner's retry is a second write DynamoDB bills (a refused condition too), so it is
/// admitted by `--max-wcu` at its worst case. Two items of 1 WCU under `--max-wcu 2`: the
/// first costs 2 attempts, and the second is not sent.
#[test]
fn every_attempt_of_a_write_is_admitted_by_max_wcu() {
    let own = start_local();
    let endpoint = &own.endpoint;
    let table = table_name("bulk-attempts");
    boto3(endpoint, &table, &["setup", "3"]);
    let proxy = FaultProxy::start(
        endpoint,
        FaultConfig::new(1.0, 7, &[Fault::Truncate])
            .only(&["UpdateItem"])
            .at_most(1),
    );
    let dir = tempfile::tempdir().unwrap();
    let state = dir.path().join("state");
    // S#001 and S#002 of P#1: 1 WCU each (no GSI1 entry).
    let statement =
        format!("UPDATE \"{table}\" SET status = 'SEEN' WHERE PK = 'P#1' AND SK > 'S#000'");
    let out = dyno(
        &proxy.url,
        &state,
        &[
            "--allow-writes",
            "partiql",
            &statement,
            "--yes",
            "--max-wcu",
            "2",
        ],
    );
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(5), "{stderr}");
    assert!(stderr.contains("--max-wcu 2 reached"), "{stderr}");
    let received = proxy.requests("UpdateItem");
    assert!(
        received as f64 <= 2.0,
        "DynamoDB received {received} UpdateItems, each at least 1 WCU, under --max-wcu 2\n{}",
        proxy.summary()
    );
    assert!(stderr.contains("1 written"), "{stderr}");
}

/// Undo's dry run prices a DELETE's undo as undo pays it, index entries included, and an undo
/// under that budget restores every item.
#[test]
fn undo_prices_what_it_pays_and_a_forced_dry_run_exits_2() {
    let own = start_local();
    let endpoint = &own.endpoint;
    let table = table_name("bulk-undo-price");
    boto3(endpoint, &table, &["setup", "3"]);
    let dir = tempfile::tempdir().unwrap();
    let state = dir.path().join("state");
    let journal = dir.path().join("run.jsonl");
    let j = journal.to_str().unwrap();
    let statement = format!("DELETE FROM \"{table}\" WHERE PK = 'P#1'");

    // --yes without --allow-writes: the dry run, and exit 2 naming the flag.
    let out = dyno(endpoint, &state, &["partiql", &statement, "--yes"]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    assert!(
        text(&out.stderr).contains("add --allow-writes"),
        "{}",
        text(&out.stderr)
    );

    let out = dyno(
        endpoint,
        &state,
        &[
            "--allow-writes",
            "partiql",
            &statement,
            "--yes",
            "--journal",
            j,
        ],
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));

    // S#000 has a GSI1 entry: putting it back is 2 WCU, S#001 and S#002 1 each.
    let out = dyno(endpoint, &state, &["undo", j]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(
        text(&out.stdout).contains("about 4 WCU"),
        "{}",
        text(&out.stdout)
    );
    let out = dyno(endpoint, &state, &["undo", j, "--yes"]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    assert!(
        text(&out.stderr).contains("add --allow-writes"),
        "{}",
        text(&out.stderr)
    );

    let out = dyno(
        endpoint,
        &state,
        &["--allow-writes", "undo", j, "--yes", "--max-wcu", "4"],
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(
        text(&out.stderr).contains("3 restored"),
        "{}",
        text(&out.stderr)
    );
}
