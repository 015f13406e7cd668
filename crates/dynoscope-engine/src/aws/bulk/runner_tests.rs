use super::*;
use crate::aws::write::MemoryWriter;
use crate::model::fixtures::demo_info;
use crate::model::item::value::AttrValue;
use crate::model::write::bulk::action::{plan_action, BulkAction};
use crate::model::write::key_of;

fn item(pk: &str, sk: &str, status: &str) -> Item {
    Item::from_attrs(vec![
        ("PK".to_string(), AttrValue::S(pk.into())),
        ("SK".to_string(), AttrValue::S(sk.into())),
        ("status".to_string(), AttrValue::S(status.into())),
    ])
}

fn setup() -> (MemoryWriter, Vec<crate::model::write::bulk::BulkItem>) {
    let info = demo_info();
    let writer = MemoryWriter::new();
    let items = vec![
        item("A", "1", "PENDING"),
        item("A", "2", "PENDING"),
        item("A", "3", "DONE"),
    ];
    for i in &items {
        writer.put_raw(&key_of(i, &info.keys), i.clone());
    }
    let action = BulkAction::Set {
        name: "status".into(),
        value: AttrValue::S("DONE".into()),
    };
    let planned = plan_action(&info, &action, items).unwrap();
    (writer, planned)
}

#[tokio::test]
async fn every_item_is_written_once_unchanged_ones_are_not_sent_and_conflicts_are_kept() {
    let info = demo_info();
    let (writer, planned) = setup();
    // Another writer changed the second item after it was read.
    let changed = item("A", "2", "CANCELLED");
    writer.put_raw(&key_of(&changed, &info.keys), changed.clone());
    let mut events = Vec::new();
    let items = Items {
        todo: &[0, 1, 2],
        step: |n| run_step(&info, &planned[n], None),
    };
    let end = run(
        &writer,
        &WriteGuard::new(None, None),
        &CancellationToken::new(),
        items,
        None,
        |e| {
            events.push(match e {
                RunEvent::Progress(t) => format!("progress {}", t.finished()),
                RunEvent::Conflict { index, current } => {
                    format!("conflict {index} {}", current.is_some())
                }
                RunEvent::Failed { index, .. } => format!("failed {index}"),
            })
        },
    )
    .await
    .unwrap();
    assert_eq!(end.stopped, None);
    assert_eq!(
        (end.tally.done, end.tally.conflicts, end.tally.unchanged),
        (1, 1, 1)
    );
    assert_eq!(events, ["progress 1", "conflict 1 true", "progress 2"]);
    assert_eq!(writer.sent().len(), 2, "the unchanged item is not sent");
    let first = writer.get(&key_of(&planned[0].before, &info.keys)).unwrap();
    assert_eq!(first.get("status"), Some(&AttrValue::S("DONE".into())));
    assert_eq!(writer.get(&key_of(&changed, &info.keys)), Some(changed));
}

#[tokio::test]
async fn a_cancelled_token_or_a_spent_budget_stops_before_the_next_write() {
    let info = demo_info();
    let (writer, planned) = setup();
    let stop = CancellationToken::new();
    stop.cancel();
    let items = Items {
        todo: &[0, 1],
        step: |n| run_step(&info, &planned[n], None),
    };
    let guard = WriteGuard::new(None, None);
    let end = run(&writer, &guard, &stop, items, None, |_| {})
        .await
        .unwrap();
    assert_eq!(end.stopped, Some(Stopped::Cancelled));
    assert!(writer.sent().is_empty());

    let (writer, planned) = setup();
    let items = Items {
        todo: &[0, 1],
        step: |n| run_step(&info, &planned[n], None),
    };
    let guard = WriteGuard::new(Some(0.5), None);
    let end = run(
        &writer,
        &guard,
        &CancellationToken::new(),
        items,
        None,
        |_| {},
    )
    .await
    .unwrap();
    assert!(matches!(end.stopped, Some(Stopped::Budget { .. })));
    assert!(writer.sent().is_empty());
}
