//! The explorer's bulk dialog end to end: the real binary in a pty with `--allow-writes`
//! against DynamoDB Local, on a small table of its own. Two marked items get `status` set
//! through `B` (preview, then run), the SDK sees exactly those two change and nothing else,
//! and `U` puts them back. A run stopped with Esc (held by `--wcu-per-second`) leaves a journal
//! that `partiql --resume` finishes and `undo` reverses. `--max-wcu` holds as the service
//! counts it (through the fault proxy), and without `--allow-writes` it is refused. With a
//! version attribute in the config, a concurrent bump of the version is a conflict.

use crate::common;

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use aws_sdk_dynamodb::types::AttributeValue;
use common::fault_proxy::{FaultConfig, FaultProxy};
use common::pty::Session;
use common::tables::TableSpec;
use common::*;

type Stored = HashMap<String, AttributeValue>;

/// Partition `T` (SK 1 to 5) and partition `U` (SK 1 to 3), every item with a status, an exact
/// number and a string set.
async fn small_table() -> String {
    let table = table_name("bulkui");
    let c = client().await;
    TableSpec::pk_sk(&table).create(&c).await;
    for (pk, n) in [("T", 5), ("U", 3)] {
        for sk in 1..=n {
            c.put_item()
                .table_name(&table)
                .item("PK", AttributeValue::S(pk.into()))
                .item("SK", AttributeValue::S(sk.to_string()))
                .item("status", AttributeValue::S("PENDING".into()))
                .item("total", AttributeValue::N(format!("12.{sk}0")))
                .item(
                    "tags",
                    AttributeValue::Ss(vec!["a".into(), format!("t{sk}")]),
                )
                .send()
                .await
                .unwrap();
        }
    }
    table
}

async fn everything(table: &str) -> Vec<Stored> {
    let out = client()
        .await
        .scan()
        .table_name(table)
        .consistent_read(true)
        .send()
        .await
        .unwrap();
    let mut items = out.items.unwrap_or_default();
    items.sort_by_key(|i| (s_of(i, "PK"), s_of(i, "SK")));
    items
}

fn s_of(item: &Stored, name: &str) -> String {
    match item.get(name) {
        Some(AttributeValue::S(s)) => s.clone(),
        _ => String::new(),
    }
}

/// `before` with `status` set to DONE on the items of partition T whose SK is in `sks`.
fn expected(before: &[Stored], sks: &[&str]) -> Vec<Stored> {
    before
        .iter()
        .map(|i| {
            let mut i = i.clone();
            if s_of(&i, "PK") == "T" && sks.contains(&s_of(&i, "SK").as_str()) {
                i.insert("status".into(), AttributeValue::S("DONE".into()));
            }
            i
        })
        .collect()
}

fn start(table: &str, state: &Path, extra: &[&str]) -> Session {
    start_at(&local().endpoint, table, state, extra)
}

fn start_at(endpoint: &str, table: &str, state: &Path, extra: &[&str]) -> Session {
    let mut args = vec!["--endpoint-url", endpoint, "--allow-writes"];
    args.extend_from_slice(extra);
    args.push(table);
    let s = Session::spawn(
        &args,
        &[("XDG_STATE_HOME", state.to_str().unwrap())],
        40,
        140,
    );
    s.wait_for("the first page", |s| {
        s.contains("Collections by PK") && s.contains("-/1")
    });
    s
}

/// Partition T queried, the items pane focused, its items 1 and 3 marked (space marks and
/// moves down, `j` moves on); then `B`, `status`
/// set to "DONE", and the preview.
fn mark_and_preview(s: &mut Session) -> String {
    s.send("p");
    s.wait_text("Query partition key PK (S)");
    s.send("T\r");
    // The Scan listed T already: the Query's own view has T as its one collection.
    s.wait_for("the Query of T", |t| {
        t.contains("Collections by PK (1)") && t.contains("Items in T (5)")
    });
    s.send("\t ");
    s.wait_text("1 marked");
    s.send("j ");
    s.wait_text("2 marked");
    s.send("B");
    s.wait_text("Bulk write: 2 items marked");
    s.send("\tstatus");
    s.wait_for("the attribute", |t| t.contains("Attribute  status"));
    s.send("\t\"DONE\"");
    s.wait_for("the value", |t| t.contains("Value      \"DONE\""));
    s.send("\r");
    s.wait_text("dry run: UPDATE")
}

fn journals(state: &Path) -> Vec<PathBuf> {
    let dir = state.join("dynoscope").join("journals");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .map(|d| d.map(|e| e.unwrap().path()).collect())
        .unwrap_or_default();
    files.sort();
    files
}

#[tokio::test(flavor = "multi_thread")]
async fn b_sets_an_attribute_on_exactly_the_marked_items_and_u_restores_them() {
    let table = small_table().await;
    let before = everything(&table).await;
    let dir = tempfile::tempdir().unwrap();
    let state = dir.path().join("state");
    let mut s = start(&table, &state, &[]);
    let preview = mark_and_preview(&mut s);
    assert!(preview.contains("matches 2 items"), "{preview}");
    assert!(
        preview.contains("status: {\"S\":\"PENDING\"} → {\"S\":\"DONE\"}"),
        "{preview}"
    );
    assert_eq!(everything(&table).await, before, "a preview writes nothing");

    s.send("\r");
    let done = s.wait_text("Bulk UPDATE: done");
    assert!(
        done.contains("2 written, 0 unchanged, 0 conflicts skipped"),
        "{done}"
    );
    assert_eq!(everything(&table).await, expected(&before, &["1", "3"]));
    let files = journals(&state);
    assert_eq!(files.len(), 1, "{files:?}");
    assert!(done.contains("journal: "), "{done}");

    // Each Esc is waited for on the screen: an Esc with the next key right behind it reads as
    // Alt and that key.
    s.send("\x1b");
    s.wait_text("bulk dialog closed; U undoes the run");
    s.send("U");
    let undo = s.wait_text("Undo the last bulk run?");
    assert!(undo.contains("restores 2 items"), "{undo}");
    s.send("\r");
    let undone = s.wait_text("Undo: done");
    assert!(undone.contains("2 restored"), "{undone}");
    assert_eq!(everything(&table).await, before, "restored byte for byte");
    s.send("\x1b");
    s.wait_text("undo dialog closed");
    s.send("q");
    s.wait_exit();
}

#[tokio::test(flavor = "multi_thread")]
async fn esc_stops_a_run_that_partiql_resumes_and_undo_reverses() {
    let table = small_table().await;
    let before = everything(&table).await;
    let dir = tempfile::tempdir().unwrap();
    let state = dir.path().join("state");
    // 0.1 WCU a second: the second item waits ten seconds behind the first, and Esc comes
    // while it waits.
    let mut s = start(&table, &state, &["--wcu-per-second", "0.1"]);
    let preview = mark_and_preview(&mut s);
    assert!(
        preview.contains("time: about 20.0 s at --wcu-per-second 0.1"),
        "{preview}"
    );
    s.send("\r");
    s.wait_text("1 written");
    s.send("\x1b");
    let stopped = s.wait_text("Bulk UPDATE: stopped");
    assert!(stopped.contains("--resume"), "{stopped}");
    assert_eq!(everything(&table).await, expected(&before, &["1"]));
    let files = journals(&state);
    assert_eq!(files.len(), 1, "{files:?}");
    let journal = files[0].to_str().unwrap();

    // The command the dialog names continues the run with the second item.
    let statement = format!("UPDATE \"{table}\" -- explorer bulk dialog");
    let state_env = [("XDG_STATE_HOME", state.to_str().unwrap())];
    let out = run_raw(
        &[
            "--endpoint-url",
            &local().endpoint,
            "--allow-writes",
            "partiql",
            &statement,
            "--resume",
            journal,
            "--yes",
        ],
        &state_env,
    );
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(everything(&table).await, expected(&before, &["1", "3"]));

    // `undo` reverses the whole run, whichever process wrote each item.
    let out = run_raw(
        &[
            "--endpoint-url",
            &local().endpoint,
            "--allow-writes",
            "undo",
            journal,
            "--yes",
        ],
        &state_env,
    );
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(everything(&table).await, before);
    s.send("\x1b");
    s.wait_text("bulk dialog closed");
    s.send("q");
    s.wait_exit();
}

#[tokio::test(flavor = "multi_thread")]
async fn max_wcu_holds_for_the_dialogs_run_as_the_service_counts_it() {
    let table = small_table().await;
    let before = everything(&table).await;
    let proxy = FaultProxy::start(&local().endpoint, FaultConfig::none());
    let dir = tempfile::tempdir().unwrap();
    let state = dir.path().join("state");
    // Each item is one write unit (no index): 1.5 admits the first, not the second.
    let mut s = start_at(&proxy.url, &table, &state, &["--max-wcu", "1.5"]);
    mark_and_preview(&mut s);
    s.send("\r");
    let stopped = s.wait_text("Bulk UPDATE: stopped");
    assert!(stopped.contains("--max-wcu 1.5 reached"), "{stopped}");
    assert_eq!(proxy.requests("UpdateItem"), 1);
    let spent: f64 = proxy.consumed("UpdateItem").iter().sum();
    assert!(spent > 0.0 && spent <= 1.5, "{spent}");
    assert_eq!(everything(&table).await, expected(&before, &["1"]));
    s.send("\x1b");
    s.wait_text("bulk dialog closed");
    s.send("q");
    s.wait_exit();
}

#[test]
fn the_explorers_write_budget_needs_allow_writes() {
    let out = run(&["--max-wcu", "5", "sometable"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    let err = stderr(&out);
    assert!(
        err.contains("--max-wcu budgets the explorer's bulk writes")
            && err.contains("add --allow-writes"),
        "{err}"
    );
    let out = run(&["--max-wcu", "0", "sometable"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("'0' is not a number of write units"));
}

/// With `version_attribute` for the table in the config the dialog plans as `partiql` does:
/// the preview shows the version incremented, and a writer that bumps only the version of a
/// marked item after the read (which a condition on the loaded attributes would let pass) makes
/// that item a conflict, left as that writer left it; the other is written with version 1.
#[tokio::test(flavor = "multi_thread")]
async fn with_a_version_attribute_a_concurrent_bump_makes_the_dialogs_write_a_conflict() {
    let table = small_table().await;
    let dir = tempfile::tempdir().unwrap();
    let state = dir.path().join("state");
    let config = dir.path().join("config");
    std::fs::create_dir_all(config.join("dynoscope")).unwrap();
    std::fs::write(
        config.join("dynoscope").join("config.toml"),
        format!("[[table]]\nname = \"{table}\"\nversion_attribute = \"version\"\n"),
    )
    .unwrap();
    let mut s = Session::spawn(
        &[
            "--endpoint-url",
            &local().endpoint,
            "--allow-writes",
            &table,
        ],
        &[
            ("XDG_STATE_HOME", state.to_str().unwrap()),
            ("XDG_CONFIG_HOME", config.to_str().unwrap()),
        ],
        40,
        140,
    );
    s.wait_for("the first page", |s| {
        s.contains("Collections by PK") && s.contains("-/1")
    });
    let preview = mark_and_preview(&mut s);
    assert!(
        preview.contains("version: (absent) → {\"N\":\"1\"}"),
        "{preview}"
    );
    // Another writer bumps T/3's version only.
    client()
        .await
        .update_item()
        .table_name(&table)
        .key("PK", AttributeValue::S("T".into()))
        .key("SK", AttributeValue::S("3".into()))
        .update_expression("SET #v = :v")
        .expression_attribute_names("#v", "version")
        .expression_attribute_values(":v", AttributeValue::N("1".into()))
        .send()
        .await
        .unwrap();
    let theirs = everything(&table).await;
    s.send("\r");
    let done = s.wait_text("Bulk UPDATE: done");
    assert!(
        done.contains("1 written, 0 unchanged, 1 conflicts skipped"),
        "{done}"
    );
    let now = everything(&table).await;
    let find = |items: &[Stored], sk: &str| {
        items
            .iter()
            .find(|i| s_of(i, "PK") == "T" && s_of(i, "SK") == sk)
            .cloned()
            .unwrap()
    };
    assert_eq!(
        find(&now, "3"),
        find(&theirs, "3"),
        "left as the other writer left it"
    );
    let written = find(&now, "1");
    assert_eq!(s_of(&written, "status"), "DONE");
    assert_eq!(written.get("version"), Some(&AttributeValue::N("1".into())));
    s.send("\x1b");
    s.wait_text("bulk dialog closed");
    s.send("q");
    s.wait_exit();
}
