//! The writer against DynamoDB Local: every write conditional, evaluated by DynamoDB itself.
//! Full-image conditions hold for every type (maps, lists, sets, 38-digit numbers); a change
//! made with the SDK between load and save is a conflict that writes nothing and returns the
//! item as it is now; key changes (a move in turn, taken back on a conflict), creates, deletes of
//! 60 items one by one and undo work; every write is in the 0600 audit file with its old and new image.

use crate::common;
use crate::common::fault_proxy;

use aws_sdk_dynamodb::types::AttributeValue;
use common::*;
use dynoscope::aws::convert::{item_from_sdk, item_to_sdk};
use dynoscope::aws::write::{AuditLog, WriteBackend, WriteFailure, Writer};
use dynoscope::aws::{connect, ConnectOptions};
use dynoscope::model::design::schema::{KeyAttr, KeySchema, KeyType};
use dynoscope::model::item::value::{AttrValue, Item};
use dynoscope::model::write::{key_of, plan_create, plan_delete, plan_edit, plan_undo, UndoImage};

fn demo_keys() -> KeySchema {
    let key = |name: &str| KeyAttr {
        name: name.into(),
        key_type: KeyType::S,
    };
    KeySchema::simple(key("PK"), Some(key("SK")))
}

const BIG: &str = "12345678901234567890123456789012345678";

async fn writer(dir: &std::path::Path) -> Writer {
    let conn = connect(&ConnectOptions {
        endpoint_url: Some(local().endpoint.clone()),
        ..Default::default()
    })
    .await
    .unwrap();
    Writer::new(&conn, AuditLog::in_dir(dir))
}

fn typed(pk: &str, sk: &str) -> Item {
    let s = |v: &str| AttrValue::S(v.into());
    Item::from_attrs(vec![
        ("PK".into(), s(pk)),
        ("SK".into(), s(sk)),
        ("status".into(), s("STUCK")),
        ("big".into(), AttrValue::N(BIG.into())),
        (
            "ss".into(),
            AttrValue::Ss(vec!["b".into(), "a".into(), "c".into()]),
        ),
        ("ns".into(), AttrValue::Ns(vec!["1".into(), "2.50".into()])),
        ("bin".into(), AttrValue::B(vec![0, 1, 255])),
        (
            "m".into(),
            AttrValue::M(Item::from_attrs(vec![
                (
                    "l".into(),
                    AttrValue::L(vec![AttrValue::Null, AttrValue::Bool(true)]),
                ),
                ("n".into(), AttrValue::N("3.14".into())),
            ])),
        ),
    ])
}

async fn put(table: &str, item: &Item) {
    client()
        .await
        .put_item()
        .table_name(table)
        .set_item(Some(item_to_sdk(item)))
        .send()
        .await
        .unwrap();
}

async fn get(table: &str, item: &Item) -> Option<Item> {
    client()
        .await
        .get_item()
        .table_name(table)
        .set_key(Some(item_to_sdk(&key_of(item, &demo_keys()))))
        .consistent_read(true)
        .send()
        .await
        .unwrap()
        .item
        .map(item_from_sdk)
}

#[tokio::test]
async fn an_edit_is_guarded_by_every_type_and_a_concurrent_change_is_a_conflict() {
    let table = seeded_demo(1);
    let dir = tempfile::tempdir().unwrap();
    let w = writer(dir.path()).await;
    let keys = demo_keys();
    let loaded = typed("EDIT#1", "A");
    put(&table, &loaded).await;
    // DynamoDB returns the set in its own order and may spell numbers its way: the item as
    // stored is what the explorer loads.
    let loaded = get(&table, &loaded).await.unwrap();
    let mut yours = loaded.clone();
    yours.insert("status", AttrValue::S("RESET".into()));
    let plan = plan_edit(&table, &keys, &loaded, &yours, None).unwrap();
    let done = w.write(plan).await.unwrap();
    assert_eq!(done.operation, "UpdateItem");
    assert!(done.consumed.total > 0.0, "{done:?}");
    // The body as it went on the wire, for the request log's "as sent" view.
    let sent = done.sent.as_deref().expect("the body is recorded");
    assert!(
        sent.contains("\"ConditionExpression\"") && sent.contains("\"RESET\""),
        "{sent}"
    );
    assert_eq!(get(&table, &loaded).await, Some(yours.clone()));

    // Another writer changes the item: the edit made from the old image is refused, the
    // other writer's version stays, and the current item comes back.
    let mut theirs = yours.clone();
    theirs.insert("m", AttrValue::M(Item::new()));
    put(&table, &theirs).await;
    let mut mine = yours.clone();
    mine.insert("status", AttrValue::S("MINE".into()));
    let plan = plan_edit(&table, &keys, &yours, &mine, None).unwrap();
    match w.write(plan).await {
        Err(WriteFailure::Conflict {
            index: 0,
            current,
            sent,
            ..
        }) => {
            assert_eq!(current, Some(theirs.clone()));
            assert!(sent.is_some_and(|b| b.contains("\"MINE\"")));
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(
        get(&table, &theirs).await,
        Some(theirs.clone()),
        "nothing overwritten"
    );

    // An attribute another writer added, that the edit also adds, is a conflict too.
    let mut added = theirs.clone();
    added.insert("note", AttrValue::S("theirs".into()));
    put(&table, &added).await;
    let mut mine = theirs.clone();
    mine.insert("note", AttrValue::S("mine".into()));
    let plan = plan_edit(&table, &keys, &theirs, &mine, None).unwrap();
    assert!(matches!(
        w.write(plan).await,
        Err(WriteFailure::Conflict { .. })
    ));

    // The audit file: one line per write, private.
    let audit = std::fs::read_to_string(dir.path().join("audit.jsonl")).unwrap();
    let lines: Vec<serde_json::Value> = audit
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let outcomes: Vec<&str> = lines
        .iter()
        .map(|l| l["outcome"].as_str().unwrap())
        .collect();
    assert_eq!(outcomes, ["written", "conflict", "conflict"]);
    assert_eq!(lines[0]["operation"], "UpdateItem");
    assert_eq!(lines[0]["table"], table.as_str());
    assert_eq!(lines[0]["key"]["PK"]["S"], "EDIT#1");
    assert_eq!(lines[0]["old"]["status"]["S"], "STUCK");
    assert_eq!(lines[0]["new"]["status"]["S"], "RESET");
    assert_eq!(lines[0]["new"]["big"]["N"], BIG);
    use std::os::unix::fs::PermissionsExt;
    let mode = std::fs::metadata(dir.path().join("audit.jsonl"))
        .unwrap()
        .permissions()
        .mode();
    assert_eq!(mode & 0o777, 0o600);
}

#[tokio::test]
async fn key_changes_creates_bulk_deletes_and_undo() {
    let table = seeded_demo(1);
    let dir = tempfile::tempdir().unwrap();
    let w = writer(dir.path()).await;
    let keys = demo_keys();

    // Create: refused where an item exists.
    let new = typed("NEW#1", "A");
    let plan = plan_create(&table, &keys, &new, None).unwrap();
    assert_eq!(w.write(plan.clone()).await.unwrap().operation, "PutItem");
    assert!(matches!(
        w.write(plan).await,
        Err(WriteFailure::Conflict { .. })
    ));

    // Key change: a move in turn, the old key gone, the new one there.
    let loaded = get(&table, &new).await.unwrap();
    let mut moved = loaded.clone();
    moved.insert("SK", AttrValue::S("B".into()));
    let plan = plan_edit(&table, &keys, &loaded, &moved, None).unwrap();
    let done = w.write(plan.clone()).await.unwrap();
    assert_eq!((done.operation, done.items), ("PutItem+DeleteItem", 2));
    assert_eq!(get(&table, &loaded).await, None);
    assert_eq!(get(&table, &moved).await, Some(moved.clone()));
    let images: Vec<UndoImage> = plan
        .ops
        .iter()
        .map(|op| UndoImage {
            before: op.before.clone(),
            after: op.after.clone(),
        })
        .collect();
    for plan in plan_undo(&table, &keys, &images, None).unwrap() {
        w.write(plan).await.unwrap();
    }
    assert_eq!(
        get(&table, &loaded).await,
        Some(loaded.clone()),
        "undo moved it back"
    );
    assert_eq!(get(&table, &moved).await, None);

    // Bulk delete of 60, one DeleteItem each; the changed item is a conflict, left as it is.
    let items: Vec<Item> = (0..60)
        .map(|i| typed("BULK#1", &format!("{i:03}")))
        .collect();
    for item in &items {
        put(&table, item).await;
    }
    let mut stored = Vec::new();
    for item in &items {
        stored.push(get(&table, item).await.unwrap());
    }
    let plans = plan_delete(&table, &keys, &stored, None).unwrap();
    assert_eq!(plans.len(), 60);
    let mut changed = stored[30].clone();
    changed.insert("status", AttrValue::S("CHANGED".into()));
    put(&table, &changed).await;
    let mut images = Vec::new();
    let mut results = Vec::new();
    for plan in &plans {
        let result = w.write(plan.clone()).await;
        if result.is_ok() {
            images.extend(plan.ops.iter().map(|op| UndoImage {
                before: op.before.clone(),
                after: op.after.clone(),
            }));
        }
        results.push(result);
    }
    assert!(results
        .iter()
        .enumerate()
        .all(|(i, r)| i == 30 || r.is_ok()));
    match &results[30] {
        Err(WriteFailure::Conflict { index, current, .. }) => {
            assert_eq!(*index, 0);
            assert_eq!(current.as_ref(), Some(&changed));
        }
        other => panic!("{other:?}"),
    }
    let left = client()
        .await
        .query()
        .table_name(&table)
        .key_condition_expression("PK = :pk")
        .expression_attribute_values(":pk", AttributeValue::S("BULK#1".into()))
        .send()
        .await
        .unwrap()
        .count;
    assert_eq!(left, 1, "only the changed item is left");
    for plan in plan_undo(&table, &keys, &images, None).unwrap() {
        w.write(plan).await.unwrap();
    }
    for (i, item) in stored.iter().enumerate().filter(|(i, _)| *i != 30) {
        assert_eq!(get(&table, item).await.as_ref(), Some(item), "item {i}");
    }
}

/// A key change whose old item another writer added an attribute to after the read: the
/// put of the new key, the old item's DeleteItem (which removed the added attribute: put
/// back), and the new key taken back, exactly as DynamoDB received them. The old item is
/// there whole, the new key is not, and the write is a conflict showing the added attribute.
#[tokio::test]
async fn a_key_change_over_an_added_attribute_is_taken_back_as_a_conflict() {
    let table = seeded_demo(1);
    let dir = tempfile::tempdir().unwrap();
    let proxy = fault_proxy::FaultProxy::start(&local().endpoint, fault_proxy::FaultConfig::none());
    let conn = connect(&ConnectOptions {
        endpoint_url: Some(proxy.url.clone()),
        ..Default::default()
    })
    .await
    .unwrap();
    let w = Writer::new(&conn, AuditLog::in_dir(dir.path()));
    let keys = demo_keys();
    let loaded = typed("MOVE#1", "A");
    put(&table, &loaded).await;
    let loaded = get(&table, &loaded).await.unwrap();
    let mut moved = loaded.clone();
    moved.insert("SK", AttrValue::S("B".into()));
    let plan = plan_edit(&table, &keys, &loaded, &moved, None).unwrap();
    let mut theirs = loaded.clone();
    theirs.insert("added", AttrValue::S("by another writer".into()));
    put(&table, &theirs).await;
    proxy.clear_log();
    match w.write(plan).await {
        Err(WriteFailure::Conflict { index, current, .. }) => {
            assert_eq!(index, 1, "the delete of the old key");
            assert_eq!(current, Some(theirs.clone()));
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(get(&table, &loaded).await, Some(theirs), "kept whole");
    assert_eq!(get(&table, &moved).await, None, "the move was taken back");
    let sent: Vec<String> = proxy
        .log()
        .into_iter()
        .map(|r| r.operation)
        .filter(|op| op != "GetItem")
        .collect();
    assert_eq!(sent, ["PutItem", "DeleteItem", "PutItem", "DeleteItem"]);

    // Refused outright (a changed value): the put is taken back the same way.
    let current = get(&table, &loaded).await.unwrap();
    let mut moved = current.clone();
    moved.insert("SK", AttrValue::S("C".into()));
    let plan = plan_edit(&table, &keys, &current, &moved, None).unwrap();
    let mut changed = current.clone();
    changed.insert("status", AttrValue::S("CHANGED".into()));
    put(&table, &changed).await;
    assert!(matches!(
        w.write(plan).await,
        Err(WriteFailure::Conflict { index: 1, .. })
    ));
    assert_eq!(get(&table, &loaded).await, Some(changed));
    assert_eq!(get(&table, &moved).await, None);
}

/// A conflict whose re-read fails is reported as a failure naming both, never as "the item
/// was deleted": the item may well be there. Nothing is written.
#[tokio::test]
async fn a_conflict_whose_re_read_fails_is_a_failure_not_a_deletion() {
    use fault_proxy::{Fault, FaultConfig, FaultProxy};
    let table = seeded_demo(1);
    let dir = tempfile::tempdir().unwrap();
    let proxy = FaultProxy::start(
        &local().endpoint,
        FaultConfig::new(1.0, 7, &[Fault::InternalServerError]).only(&["GetItem"]),
    );
    let conn = connect(&ConnectOptions {
        endpoint_url: Some(proxy.url.clone()),
        max_attempts: Some(2),
        ..Default::default()
    })
    .await
    .unwrap();
    let w = Writer::new(&conn, AuditLog::in_dir(dir.path()));
    let keys = demo_keys();
    let loaded = typed("REREAD#1", "A");
    put(&table, &loaded).await;
    let loaded = get(&table, &loaded).await.unwrap();
    // Another writer changes it after it was loaded.
    let mut theirs = loaded.clone();
    theirs.insert("status", AttrValue::S("THEIRS".into()));
    put(&table, &theirs).await;
    let mut mine = loaded.clone();
    mine.insert("status", AttrValue::S("MINE".into()));
    let plan = plan_edit(&table, &keys, &loaded, &mine, None).unwrap();
    match w.write(plan).await {
        Err(WriteFailure::Failed { error: e, .. }) => assert!(
            e.message.contains("nothing was written")
                && e.message.contains("reading it again failed"),
            "{}",
            e.message
        ),
        other => panic!("{other:?}"),
    }
    assert_eq!(proxy.requests("GetItem"), 2, "tried, and retried once");
    assert_eq!(
        get(&table, &theirs).await,
        Some(theirs),
        "nothing overwritten"
    );
}

/// A move whose DeleteItem went through but whose answer was lost (the fault proxy cuts the
/// response short; the SDK sends it again, and its condition then fails on the gone item) is
/// written, once: the put is not taken back, which would lose the item.
#[tokio::test]
async fn a_move_whose_delete_answer_was_lost_is_written_not_taken_back() {
    use fault_proxy::{Fault, FaultConfig, FaultProxy};
    let table = seeded_demo(1);
    let dir = tempfile::tempdir().unwrap();
    let proxy = FaultProxy::start(
        &local().endpoint,
        FaultConfig::new(1.0, 7, &[Fault::Truncate])
            .only(&["DeleteItem"])
            .at_most(1),
    );
    let conn = connect(&ConnectOptions {
        endpoint_url: Some(proxy.url.clone()),
        ..Default::default()
    })
    .await
    .unwrap();
    let w = Writer::new(&conn, AuditLog::in_dir(dir.path()));
    let keys = demo_keys();
    let loaded = typed("LOST#1", "A");
    put(&table, &loaded).await;
    let loaded = get(&table, &loaded).await.unwrap();
    let mut moved = loaded.clone();
    moved.insert("SK", AttrValue::S("B".into()));
    let plan = plan_edit(&table, &keys, &loaded, &moved, None).unwrap();
    let done = w.write(plan).await.unwrap();
    assert_eq!(done.operation, "PutItem+DeleteItem");
    assert_eq!(proxy.requests("DeleteItem"), 2, "{}", proxy.summary());
    assert_eq!(get(&table, &loaded).await, None);
    assert_eq!(get(&table, &moved).await, Some(moved));
}
