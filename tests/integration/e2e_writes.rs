//! Safe editing end to end: the real binary in a pty with a scripted `$EDITOR`, against
//! DynamoDB Local through a transparent proxy whose op log shows exactly what was sent. An
//! edit is saved; a change made with the SDK while the editor is open is a conflict that keeps
//! both versions until the user re-applies; a key change, its undo, a new item, a delete and a
//! bulk delete of 60 marked items (and its undo) each send exactly the expected writes; an
//! attribute another writer adds (boto3) after the read survives a marked delete and a key
//! change as a conflict. Without `--allow-writes` the same keys send nothing.

use crate::bulk_writes::boto3;
use crate::common;
use crate::common::fault_proxy;

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use aws_sdk_dynamodb::types::AttributeValue;
use common::pty::Session;
use common::*;
use fault_proxy::{FaultConfig, FaultProxy};

const READS: [&str; 6] = [
    "ListTables",
    "DescribeTable",
    "DescribeTimeToLive",
    "Query",
    "Scan",
    "GetItem",
];

/// An editor that applies `program.sed` beside it to the file, after waiting while a `hold`
/// file exists (it says so with `holding`), so a test can change the item meanwhile.
fn editor(dir: &Path) -> PathBuf {
    let script = dir.join("editor.sh");
    std::fs::write(
        &script,
        "#!/bin/sh\nd=$(dirname \"$0\")\nif [ -e \"$d/hold\" ]; then touch \"$d/holding\"; \
         while [ -e \"$d/hold\" ]; do sleep 0.05; done; fi\nsed -i -f \"$d/program.sed\" \"$1\"\n",
    )
    .unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    script
}

fn program(dir: &Path, sed: &str) {
    std::fs::write(dir.join("program.sed"), sed).unwrap();
}

fn writes(proxy: &FaultProxy) -> Vec<String> {
    proxy
        .log()
        .into_iter()
        .map(|r| r.operation)
        .filter(|op| !READS.contains(&op.as_str()))
        .collect()
}

fn start(proxy: &FaultProxy, table: &str, allow: bool, dir: &Path) -> Session {
    let script = editor(dir);
    let state = dir.join("state");
    let mut args = vec!["--endpoint-url", proxy.url.as_str()];
    if allow {
        args.push("--allow-writes");
    }
    args.push(table);
    let s = Session::spawn(
        &args,
        &[
            ("EDITOR", script.to_str().unwrap()),
            ("VISUAL", ""),
            ("XDG_STATE_HOME", state.to_str().unwrap()),
        ],
        40,
        140,
    );
    s.wait_for("the first page", |s| {
        s.contains("Collections by PK") && s.contains("-/1")
    });
    s
}

fn query(s: &mut Session, pk: &str) {
    s.keys("p");
    s.wait_text("Query partition key PK (S)");
    s.keys(&format!("{pk}\r"));
    s.wait_text(&format!("Items in {pk}"));
    s.keys("\t");
}

async fn collection(
    table: &str,
    pk: &str,
) -> Vec<std::collections::HashMap<String, AttributeValue>> {
    let mut items = Vec::new();
    let mut start = None;
    loop {
        let out = client()
            .await
            .query()
            .table_name(table)
            .key_condition_expression("PK = :pk")
            .expression_attribute_values(":pk", AttributeValue::S(pk.into()))
            .consistent_read(true)
            .set_exclusive_start_key(start)
            .send()
            .await
            .unwrap();
        items.extend(out.items.unwrap_or_default());
        start = out.last_evaluated_key;
        if start.is_none() {
            return items;
        }
    }
}

fn s_of(item: &std::collections::HashMap<String, AttributeValue>, name: &str) -> String {
    match item.get(name) {
        Some(AttributeValue::S(s)) => s.clone(),
        Some(AttributeValue::N(n)) => n.clone(),
        _ => String::new(),
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn edit_conflict_key_change_create_delete_bulk_delete_and_undo() {
    let table = seeded_demo(50);
    let proxy = FaultProxy::start(&local().endpoint, FaultConfig::none());
    let dir = tempfile::tempdir().unwrap();
    let mut s = start(&proxy, &table, true, dir.path());
    assert!(s.screen().contains("WRITES ENABLED"));
    // A user whose first item is an order.
    let mut user = String::new();
    for n in 0..12 {
        let pk = format!("USER#u{n:05}");
        if s_of(&collection(&table, &pk).await[0], "SK").starts_with("ORDER#") {
            user = pk;
            break;
        }
    }
    let user = user.as_str();
    query(&mut s, user);
    let first = collection(&table, user).await[0].clone();
    let (pk, sk) = (s_of(&first, "PK"), s_of(&first, "SK"));
    assert!(sk.starts_with("ORDER#"), "{sk}");
    let key = |item: &std::collections::HashMap<String, AttributeValue>| {
        (s_of(item, "PK"), s_of(item, "SK"))
    };
    let stored = |items: &[std::collections::HashMap<String, AttributeValue>]| {
        items
            .iter()
            .find(|i| key(i) == (pk.clone(), sk.clone()))
            .cloned()
    };

    // 1. An edit: the diff and the request, then saved.
    program(
        dir.path(),
        "s/\"status\": \"[A-Z]*\"/\"status\": \"RESET\"/\n",
    );
    s.keys("e");
    let screen = s.wait_text("Save the edit?");
    assert!(
        screen.contains("~ status:") && screen.contains("→ RESET"),
        "{screen}"
    );
    assert!(
        screen.contains("UpdateItem") && screen.contains("ConditionExpression"),
        "{screen}"
    );
    s.keys("y");
    s.wait_text("saved");
    let now = stored(&collection(&table, user).await).unwrap();
    assert_eq!(s_of(&now, "status"), "RESET");

    // 2. A concurrent change while the editor is open: a conflict, both versions kept.
    std::fs::write(dir.path().join("hold"), "").unwrap();
    program(
        dir.path(),
        "s/\"status\": \"[A-Z]*\"/\"status\": \"MINE\"/\n",
    );
    s.send("e");
    let started = Instant::now();
    while !dir.path().join("holding").exists() {
        assert!(
            started.elapsed() < Duration::from_secs(20),
            "the editor never started"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    client()
        .await
        .update_item()
        .table_name(&table)
        .key("PK", AttributeValue::S(pk.clone()))
        .key("SK", AttributeValue::S(sk.clone()))
        .update_expression("SET #t = :t")
        .expression_attribute_names("#t", "total")
        .expression_attribute_values(":t", AttributeValue::N("424242".into()))
        .send()
        .await
        .unwrap();
    std::fs::remove_file(dir.path().join("hold")).unwrap();
    s.wait_text("Save the edit?");
    s.keys("y");
    let screen = s.wait_text("Conflict: the item changed since it was loaded");
    assert!(
        screen.contains("424242") && screen.contains("MINE"),
        "{screen}"
    );
    let now = stored(&collection(&table, user).await).unwrap();
    assert_eq!(
        (s_of(&now, "status").as_str(), s_of(&now, "total").as_str()),
        ("RESET", "424242")
    );
    s.keys("r");
    s.wait_text("Save the edit?");
    s.keys("y");
    // The first edit's "saved" may still be on screen: wait for the table to hold the save.
    let started = Instant::now();
    let now = loop {
        let now = stored(&collection(&table, user).await).unwrap();
        if s_of(&now, "status") == "MINE" || started.elapsed() > Duration::from_secs(30) {
            break now;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    s.wait_text("saved");
    assert_eq!(
        (s_of(&now, "status").as_str(), s_of(&now, "total").as_str()),
        ("MINE", "424242")
    );

    // 3. A key change, and its undo.
    let before = collection(&table, user).await.len();
    program(
        dir.path(),
        "s/\"SK\": \"ORDER#\\([^\"]*\\)\"/\"SK\": \"ORDER#\\1-moved\"/\n",
    );
    s.keys("e");
    s.wait_text("Save the item under its new key?");
    s.keys("y");
    s.wait_text("moved the item to its new key");
    let items = collection(&table, user).await;
    assert_eq!(items.len(), before);
    assert_eq!(
        items
            .iter()
            .filter(|i| s_of(i, "SK").ends_with("-moved"))
            .count(),
        1
    );
    s.keys("U");
    s.wait_text("Undo the last write?");
    s.keys("y");
    s.wait_text("undone");
    let items = collection(&table, user).await;
    assert!(items.iter().all(|i| !s_of(i, "SK").ends_with("-moved")));
    assert!(stored(&items).is_some());

    // 4. A new item from the collection's most common kind, then a delete.
    program(
        dir.path(),
        "s/\"SK\": \"ORDER#\"/\"SK\": \"ORDER#0000-new\"/\n",
    );
    s.keys("N");
    let screen = s.wait_text("Create the item?");
    assert!(screen.contains("attribute_not_exists"), "{screen}");
    s.keys("y");
    s.wait_text("created");
    let items = collection(&table, user).await;
    assert_eq!(items.len(), before + 1);
    assert_eq!(s_of(&items[0], "SK"), "ORDER#0000-new");
    s.keys("g");
    s.keys("D");
    s.wait_text("Delete 1 item?");
    s.keys("y");
    s.wait_text("deleted 1 item");
    assert_eq!(collection(&table, user).await.len(), before);

    // 5. Sixty marked items deleted one by one, and restored by undo in transactions of 25.
    let celebrity = collection(&table, "USER#celebrity").await.len();
    query(&mut s, "USER#celebrity");
    for _ in 0..60 {
        s.send(" ");
    }
    s.wait_text("60 marked");
    s.keys("D");
    s.wait_text("Delete 60 items?");
    s.keys("y");
    s.wait_text("deleted 60 items");
    assert_eq!(
        collection(&table, "USER#celebrity").await.len(),
        celebrity - 60
    );
    s.keys("U");
    s.wait_text("Undo the last write?");
    s.keys("y");
    s.wait_text("undone: 60 items restored");
    assert_eq!(collection(&table, "USER#celebrity").await.len(), celebrity);
    s.keys("q");
    assert!(s.wait_exit().success());

    let txn = "TransactWriteItems";
    assert_eq!(
        writes(&proxy),
        [
            ["UpdateItem"; 3].as_slice(),
            &["PutItem", "DeleteItem"],
            &["PutItem", "DeleteItem"],
            &["PutItem", "DeleteItem"],
            &["DeleteItem"; 60],
            &[txn; 3]
        ]
        .concat(),
        "{}",
        proxy.summary()
    );
    assert_eq!(
        proxy.requests("GetItem"),
        1,
        "the conflict read the item once"
    );
    let audit = std::fs::read_to_string(dir.path().join("state/dynoscope/audit.jsonl")).unwrap();
    assert_eq!(
        audit.lines().count(),
        1 + 1 + 1 + 2 + 2 + 1 + 1 + 60 + 60,
        "one line per item written"
    );
}

/// The items of `dump` (boto3's, one JSON object a line) under `pk`, by sort key.
fn dumped(dump: &str, pk: &str) -> Vec<(String, serde_json::Value)> {
    dump.lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
        .filter(|v| v["PK"]["S"] == pk)
        .map(|v| (v["SK"]["S"].as_str().unwrap().to_string(), v))
        .collect()
}

/// Another writer adds an attribute (boto3) between the explorer's read and its write. A
/// condition can only name the attributes read, so the added one passes it; the explorer's
/// deletes are DeleteItems of their own whose removed item is compared with the one read, and
/// a key change is a move whose put is taken back: the item survives whole, with the added
/// attribute, and the explorer shows a conflict.
#[tokio::test(flavor = "multi_thread")]
async fn an_attribute_added_after_the_read_survives_a_marked_delete_and_a_key_change() {
    let endpoint = &local().endpoint;
    let table = table_name("e2e_added");
    boto3(endpoint, &table, &["setup"]);
    let initial = boto3(endpoint, &table, &["dump"]);
    let proxy = FaultProxy::start(endpoint, FaultConfig::none());
    let dir = tempfile::tempdir().unwrap();
    let mut s = start(&proxy, &table, true, dir.path());

    // Three marked items; the second gains an attribute before `y`.
    query(&mut s, "P#1");
    for _ in 0..3 {
        s.send(" ");
    }
    s.wait_text("3 marked");
    s.keys("D");
    s.wait_text("Delete 3 items?");
    boto3(endpoint, &table, &["add", "P#1", "S#001"]);
    s.keys("y");
    let screen = s.wait_text("Conflict: the item changed since it was loaded");
    assert!(
        screen.contains("1 item deleted before this one") && screen.contains("by another writer"),
        "{screen}"
    );
    let now = boto3(endpoint, &table, &["dump"]);
    let mut expected = dumped(&initial, "P#1");
    expected.remove(0);
    expected[0].1["added"] = serde_json::json!({"S": "by another writer"});
    assert_eq!(
        dumped(&now, "P#1"),
        expected,
        "S#001 whole, S#002 on untouched"
    );
    s.keys("\x1b");

    // A key change of an item that gains an attribute while the editor is open.
    query(&mut s, "P#2");
    std::fs::write(dir.path().join("hold"), "").unwrap();
    program(dir.path(), "s/\"SK\": \"S#000\"/\"SK\": \"S#000-moved\"/\n");
    s.send("e");
    let started = Instant::now();
    while !dir.path().join("holding").exists() {
        assert!(
            started.elapsed() < Duration::from_secs(20),
            "the editor never started"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    boto3(endpoint, &table, &["add", "P#2", "S#000"]);
    std::fs::remove_file(dir.path().join("hold")).unwrap();
    s.wait_text("Save the item under its new key?");
    s.keys("y");
    let screen = s.wait_text("Conflict: the item changed since it was loaded");
    assert!(screen.contains("by another writer"), "{screen}");
    let now = boto3(endpoint, &table, &["dump"]);
    let mut expected = dumped(&initial, "P#2");
    expected[0].1["added"] = serde_json::json!({"S": "by another writer"});
    assert_eq!(dumped(&now, "P#2"), expected, "no S#000-moved, S#000 whole");
    s.keys("\x1b");
    s.keys("q");
    assert!(s.wait_exit().success());
    assert_eq!(
        writes(&proxy),
        [
            // The marked delete: S#000, then S#001 removed and put back.
            "DeleteItem",
            "DeleteItem",
            "PutItem",
            // The key change: the new key, the old one removed and put back, the new taken back.
            "PutItem",
            "DeleteItem",
            "PutItem",
            "DeleteItem"
        ],
        "{}",
        proxy.summary()
    );
}

#[test]
fn without_allow_writes_the_write_keys_send_nothing() {
    let table = seeded_demo(2);
    let proxy = FaultProxy::start(&local().endpoint, FaultConfig::none());
    let dir = tempfile::tempdir().unwrap();
    let mut s = start(&proxy, &table, false, dir.path());
    assert!(!s.screen().contains("WRITES ENABLED"));
    query(&mut s, "USER#u00001");
    for key in ["e", "E", "N", "D", "U"] {
        s.keys(key);
        s.wait_text("writes are off: start dynoscope with --allow-writes");
    }
    s.keys("q");
    assert!(s.wait_exit().success());
    assert!(writes(&proxy).is_empty(), "{}", proxy.summary());
    assert_eq!(proxy.requests("GetItem"), 0);
}

/// What is typed while the editor runs reaches the editor: the explorer's input reader stops
/// for as long as the editor has the terminal (left running, it raced the editor for them).
#[tokio::test(flavor = "multi_thread")]
async fn keystrokes_typed_in_the_editor_reach_the_editor() {
    let table = seeded_demo(12);
    let proxy = FaultProxy::start(&local().endpoint, FaultConfig::none());
    let dir = tempfile::tempdir().unwrap();
    let mut user = String::new();
    for n in 0..12 {
        let pk = format!("USER#u{n:05}");
        if s_of(&collection(&table, &pk).await[0], "SK").starts_with("ORDER#") {
            user = pk;
            break;
        }
    }
    let mut s = start(&proxy, &table, true, dir.path());
    // This editor asks for the new status on the terminal, as an interactive editor reads keys.
    std::fs::write(
        dir.path().join("editor.sh"),
        "#!/bin/sh\nprintf 'new status? '\nIFS= read -r s\n\
         sed -i \"s/\\\"status\\\": \\\"[A-Z]*\\\"/\\\"status\\\": \\\"$s\\\"/\" \"$1\"\n",
    )
    .unwrap();
    query(&mut s, &user);
    s.keys("e");
    s.wait_text("new status?");
    std::thread::sleep(Duration::from_millis(300));
    s.keys("TYPED\r");
    let screen = s.wait_text("Save the edit?");
    assert!(screen.contains("→ TYPED"), "{screen}");
    s.keys("\x1b");
    s.keys("q");
    assert!(s.wait_exit().success());
}
