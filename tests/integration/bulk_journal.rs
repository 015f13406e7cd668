//! A bulk run's journal read back by `--resume` and `undo` is untrusted input: a journal
//! edited to delete an item (an after-image set to null) or to name another table is refused
//! with its line before anything is sent (the fault proxy counts the writes DynamoDB
//! received, boto3 dumps the tables), and a torn last line (a crash mid-line) is cut off
//! before a resumed run appends, so the run stays undoable.

use std::path::Path;
use std::process::Output;

use crate::bulk_writes::{boto3, dyno, text};
use crate::common;
use common::fault_proxy::{FaultConfig, FaultProxy};
use common::*;

fn writes(proxy: &FaultProxy) -> usize {
    [
        "UpdateItem",
        "DeleteItem",
        "PutItem",
        "BatchWriteItem",
        "TransactWriteItems",
    ]
    .iter()
    .map(|op| proxy.requests(op))
    .sum()
}

/// Runs `statement` under --max-wcu 3 into `journal`: on P#1 (S#000 costs 2 WCU with its GSI1
/// entry, S#001 1) it writes two items and stops, four unfinished.
fn stopped_run(proxy: &FaultProxy, state: &Path, statement: &str, journal: &Path) {
    let out = dyno(
        &proxy.url,
        state,
        &[
            "--allow-writes",
            "partiql",
            statement,
            "--yes",
            "--max-wcu",
            "3",
            "--journal",
            journal.to_str().unwrap(),
        ],
    );
    assert_eq!(out.status.code(), Some(5), "{}", text(&out.stderr));
}

/// The journal's lines with line `line` (1-based) changed by `edit`.
fn edited(journal: &Path, line: usize, edit: impl Fn(&mut serde_json::Value)) -> String {
    let content = std::fs::read_to_string(journal).unwrap();
    let mut out = String::new();
    for (i, l) in content.lines().enumerate() {
        if i + 1 == line {
            let mut v: serde_json::Value = serde_json::from_str(l).unwrap();
            edit(&mut v);
            out.push_str(&format!("{v}\n"));
        } else {
            out.push_str(&format!("{l}\n"));
        }
    }
    out
}

fn resume(proxy: &FaultProxy, state: &Path, statement: &str, journal: &Path) -> Output {
    dyno(
        &proxy.url,
        state,
        &[
            "--allow-writes",
            "partiql",
            statement,
            "--yes",
            "--resume",
            journal.to_str().unwrap(),
        ],
    )
}

fn undo(proxy: &FaultProxy, state: &Path, journal: &Path) -> Output {
    dyno(
        &proxy.url,
        state,
        &["--allow-writes", "undo", journal.to_str().unwrap(), "--yes"],
    )
}

#[test]
fn an_edited_journal_is_refused_naming_its_line_and_nothing_is_written() {
    let endpoint = &local().endpoint;
    let table = table_name("bulk-journal");
    let other = table_name("bulk-journal-other");
    boto3(endpoint, &table, &["setup"]);
    boto3(endpoint, &other, &["setup"]);
    let proxy = FaultProxy::start(endpoint, FaultConfig::none());
    let dir = tempfile::tempdir().unwrap();
    let state = dir.path().join("state");
    let statement = format!("UPDATE \"{table}\" SET status = 'SEEN' WHERE PK = 'P#1'");
    let journal = dir.path().join("run.jsonl");
    stopped_run(&proxy, &state, &statement, &journal);
    let stopped = boto3(endpoint, &table, &["dump"]);
    let other_before = boto3(endpoint, &other, &["dump"]);
    let sent = writes(&proxy);

    // Item 3 (line 5, unfinished) with its after-image set to null: a resumed run would
    // delete it.
    let deleting = dir.path().join("deleting.jsonl");
    std::fs::write(
        &deleting,
        edited(&journal, 5, |v| v["after"] = serde_json::Value::Null),
    )
    .unwrap();
    let out = resume(&proxy, &state, &statement, &deleting);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    let err = text(&out.stderr);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains(&format!(
            "'{}': journal line 5: item 3's after-image is not what the statement makes of its before-image (it is null, a delete)",
            deleting.display()
        )),
        "{err}"
    );
    // Undo refuses it too (item 0, written, with another status in its after-image).
    let evil = dir.path().join("evil.jsonl");
    std::fs::write(
        &evil,
        edited(&journal, 2, |v| v["after"]["status"]["S"] = "EVIL".into()),
    )
    .unwrap();
    let out = undo(&proxy, &state, &evil);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    assert!(
        text(&out.stderr).contains("journal line 2: item 0's after-image is not what the statement makes of its before-image (attribute 'status' differs)"),
        "{}",
        text(&out.stderr)
    );

    // The header names the other table (which holds the same items): neither a resumed run
    // nor an undo may write there.
    let elsewhere = dir.path().join("elsewhere.jsonl");
    std::fs::write(
        &elsewhere,
        edited(&journal, 1, |v| v["table"] = other.clone().into()),
    )
    .unwrap();
    for out in [
        resume(&proxy, &state, &statement, &elsewhere),
        undo(&proxy, &state, &elsewhere),
    ] {
        assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
        assert!(
            text(&out.stderr).contains(&format!(
                "journal line 1: it names table '{other}' but its statement writes table '{table}'"
            )),
            "{}",
            text(&out.stderr)
        );
    }
    assert_eq!(writes(&proxy), sent, "{}", proxy.summary());
    assert_eq!(boto3(endpoint, &table, &["dump"]), stopped);
    assert_eq!(boto3(endpoint, &other, &["dump"]), other_before);

    // The journal as the run wrote it still resumes.
    let out = resume(&proxy, &state, &statement, &journal);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(writes(&proxy), sent + 4);
}

#[test]
fn a_torn_last_line_is_cut_before_resuming_and_the_run_stays_undoable() {
    let endpoint = &local().endpoint;
    let table = table_name("bulk-torn");
    boto3(endpoint, &table, &["setup"]);
    let proxy = FaultProxy::start(endpoint, FaultConfig::none());
    let dir = tempfile::tempdir().unwrap();
    let state = dir.path().join("state");
    let initial = boto3(endpoint, &table, &["dump"]);
    let statement = format!("UPDATE \"{table}\" SET status = 'SEEN' WHERE PK = 'P#1'");
    let journal = dir.path().join("run.jsonl");
    stopped_run(&proxy, &state, &statement, &journal);
    let whole = std::fs::read_to_string(&journal).unwrap();
    let lines = whole.lines().count();

    // A torn line that is not the last is corruption: refused by both.
    let middle = dir.path().join("middle.jsonl");
    let mut bad: Vec<&str> = whole.lines().collect();
    bad.insert(lines - 1, "{\"n\":2,\"outc");
    std::fs::write(&middle, bad.join("\n") + "\n").unwrap();
    let sent = writes(&proxy);
    for out in [
        resume(&proxy, &state, &statement, &middle),
        undo(&proxy, &state, &middle),
    ] {
        assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
        assert!(
            text(&out.stderr).contains(&format!("journal line {lines}: not JSON")),
            "{}",
            text(&out.stderr)
        );
    }
    assert_eq!(writes(&proxy), sent);

    // A crash mid-line: the last line has no end.
    std::fs::write(&journal, format!("{whole}{{\"n\":2,\"outcome\":\"wri")).unwrap();
    let out = dyno(&proxy.url, &state, &["undo", journal.to_str().unwrap()]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        text(&out.stderr).contains(&format!(
            "journal line {} was cut short (by a crash) and is ignored",
            lines + 1
        )),
        "{}",
        text(&out.stderr)
    );
    let out = resume(&proxy, &state, &statement, &journal);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        text(&out.stderr).contains(&format!(
            "journal line {} was cut short (by a crash): cut off before resuming",
            lines + 1
        )),
        "{}",
        text(&out.stderr)
    );
    let resumed = std::fs::read_to_string(&journal).unwrap();
    assert!(resumed.starts_with(&whole), "the whole lines are kept");
    assert!(resumed.ends_with('\n'));
    for line in resumed.lines() {
        serde_json::from_str::<serde_json::Value>(line).unwrap_or_else(|e| panic!("{e}: {line}"));
    }
    assert_eq!(resumed.lines().count(), lines + 4, "{resumed}");

    // The whole run undoes: the table is as it was.
    let out = undo(&proxy, &state, &journal);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        text(&out.stderr).contains("6 restored"),
        "{}",
        text(&out.stderr)
    );
    assert_eq!(boto3(endpoint, &table, &["dump"]), initial);
}
