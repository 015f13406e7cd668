//! Whole write flows without a terminal: keys through `update`, the editor simulated, writes
//! through the runner to the in-memory writer (which evaluates every condition), under paused
//! time: an edit saved, a concurrent change reported and re-applied, undo.

use crate::app::msg::{WriteEffect, WriteMsg};
use std::time::Duration;

use crate::app::input::KeyCode;
use tokio::sync::mpsc;

use super::*;
use crate::app::fixtures::{char, demo_info, demo_items, press, state};
use crate::app::state::{State, WriteStage};
use crate::app::update::{start, update};
use crate::aws::read::memory::MemorySource;
use crate::aws::write::MemoryWriter;
use crate::aws::MemoryEngine;
use crate::model::item::value::{AttrValue, Item};
use crate::model::write::key_of;

struct Harness {
    state: State,
    runner: EffectRunner<MemoryEngine, MemoryWriter>,
    engine_rx: mpsc::Receiver<EngineEvent>,
    msg_rx: mpsc::UnboundedReceiver<Msg>,
    /// The text the last `Effect::Write(WriteEffect::Edit)` handed to the "editor".
    editing: Option<(u64, String)>,
}

impl Harness {
    fn new(writer: Option<MemoryWriter>) -> Harness {
        let mut items = demo_items();
        items.sort_by_key(|i| {
            let s = |k: &str| i.get(k).and_then(|v| v.as_s()).unwrap_or("").to_string();
            (s("PK"), s("SK"))
        });
        let engine =
            MemoryEngine::new().with_table(demo_info(), MemorySource::new(items, &["PK", "SK"]));
        let (engine_tx, engine_rx) = mpsc::channel(64);
        let (msg_tx, msg_rx) = mpsc::unbounded_channel();
        let mut state = state();
        state.writes_enabled = writer.is_some();
        Harness {
            state,
            runner: EffectRunner::new(engine, engine_tx, msg_tx).with_writer(writer),
            engine_rx,
            msg_rx,
            editing: None,
        }
    }

    fn send(&mut self, msgs: impl IntoIterator<Item = Msg>) {
        for msg in msgs {
            let effects = update(&mut self.state, msg);
            for effect in self.runner.apply(effects) {
                if let Effect::Write(WriteEffect::Edit { edit, text }) = effect {
                    self.editing = Some((edit, text));
                }
            }
        }
    }

    /// The "editor" saves `change(text)`.
    fn save(&mut self, change: impl Fn(&str) -> String) {
        let (edit, text) = self.editing.take().expect("the editor was opened");
        self.send([Msg::Write(WriteMsg::Edited {
            edit,
            result: Ok(change(&text)),
        })]);
    }

    async fn settle(&mut self) {
        loop {
            tokio::select! {
                Some(event) = self.engine_rx.recv() => self.send([Msg::Engine(event)]),
                Some(msg) = self.msg_rx.recv() => self.send([msg]),
                _ = tokio::time::sleep(Duration::from_secs(30)) => return,
            }
        }
    }

    fn stage(&self) -> Option<WriteStage> {
        self.state.table.as_ref()?.write().map(|w| w.stage)
    }

    fn selected(&self) -> Item {
        let view = self.state.table.as_ref().unwrap();
        view.view
            .store
            .as_ref()
            .unwrap()
            .item(view.view.selected_item().unwrap())
    }
}

async fn opened(writer: Option<MemoryWriter>) -> Harness {
    let mut h = Harness::new(writer.clone());
    let effects = start(&mut h.state, Some("app".into()));
    h.send([]);
    let left = h.runner.apply(effects);
    assert!(left.is_empty());
    h.settle().await;
    if let Some(w) = writer {
        for item in demo_items() {
            w.put_raw(&key_of(&item, &demo_info().keys), item);
        }
    }
    // The first user's collection, its first item.
    let store = h.state.table.as_ref().unwrap().view.store.as_ref().unwrap();
    let c = store.collection_of("USER#u00000").unwrap();
    h.send((0..c).map(|_| press(KeyCode::Down)));
    h.send([press(KeyCode::Tab)]);
    h
}

fn with_status(text: &str, status: &str) -> String {
    let mut v: serde_json::Value = serde_json::from_str(text).unwrap();
    v["status"] = serde_json::Value::String(status.into());
    serde_json::to_string_pretty(&v).unwrap()
}

#[tokio::test(start_paused = true)]
async fn a_concurrent_change_is_reported_then_reapplied_and_undone() {
    let writer = MemoryWriter::new();
    let mut h = opened(Some(writer.clone())).await;
    let loaded = h.selected();
    let key = key_of(&loaded, &demo_info().keys);
    h.send([char('e')]);
    assert_eq!(h.stage(), Some(WriteStage::Editing));
    h.save(|t| with_status(t, "RESET"));
    assert_eq!(h.stage(), Some(WriteStage::Preview));
    // Someone else changes the item between load and save.
    let mut theirs = loaded.clone();
    theirs.insert("total", AttrValue::N("999".into()));
    writer.put_raw(&key, theirs.clone());
    h.send([press(KeyCode::Enter)]);
    h.settle().await;
    assert_eq!(h.stage(), Some(WriteStage::Conflict));
    assert_eq!(
        writer.get(&key),
        Some(theirs.clone()),
        "nothing was overwritten"
    );
    let flow = h.state.table.as_ref().unwrap().write().unwrap();
    let names: Vec<&str> = flow.conflict.iter().map(|r| r.name.as_str()).collect();
    assert_eq!(names, ["status", "total"]);
    assert_eq!(
        flow.yours.as_ref().unwrap().get("status"),
        Some(&AttrValue::S("RESET".into()))
    );

    // Re-apply: yours over the item as it is now, their total kept.
    h.send([char('r')]);
    assert_eq!(h.stage(), Some(WriteStage::Preview));
    h.send([press(KeyCode::Enter)]);
    h.settle().await;
    assert_eq!(h.stage(), None, "{:?}", h.state.notice);
    let stored = writer.get(&key).unwrap();
    assert_eq!(stored.get("status"), Some(&AttrValue::S("RESET".into())));
    assert_eq!(stored.get("total"), Some(&AttrValue::N("999".into())));
    // The loaded collection shows the written item in place.
    assert_eq!(
        h.selected().get("status"),
        Some(&AttrValue::S("RESET".into()))
    );
    let log = &h.state.log;
    assert!(log.write_total > 0.0);
    assert!(log.tail(5).any(|r| r.write == Some("UpdateItem")));

    // Undo restores what was there before dynoscope's write.
    h.send([char('U')]);
    assert_eq!(h.stage(), Some(WriteStage::Preview));
    h.send([char('y')]);
    h.settle().await;
    assert_eq!(writer.get(&key), Some(theirs));
    let kinds: Vec<&str> = writer.sent().iter().map(|p| p.operation()).collect();
    assert_eq!(kinds, ["UpdateItem", "UpdateItem", "UpdateItem"]);
}

#[tokio::test(start_paused = true)]
async fn without_a_writer_the_keys_refuse_and_nothing_is_sent() {
    let mut h = opened(None).await;
    for key in ['e', 'E', 'N', 'D', 'U'] {
        h.send([char(key)]);
        assert!(h.editing.is_none());
        assert_eq!(h.stage(), None);
        assert!(h
            .state
            .notice
            .as_ref()
            .unwrap()
            .text
            .contains("--allow-writes"));
    }
    // Even a write effect that got through would be refused by the runner.
    let plan = crate::model::write::plan_delete("app", &demo_info().keys, &[h.selected()], None)
        .unwrap()
        .remove(0);
    let left = h.runner.apply(vec![Effect::Write(WriteEffect::Send {
        write: 1,
        plan: Box::new(plan),
    })]);
    assert!(left.is_empty());
    match h.msg_rx.recv().await {
        Some(Msg::Write(WriteMsg::Written {
            result: Err(crate::aws::write::WriteFailure::Failed { error: e, .. }),
            ..
        })) => assert!(e.message.contains("--allow-writes")),
        other => panic!("{other:?}"),
    }
}

/// Each marked item is a DeleteItem of its own; an item another writer added an attribute
/// to after the read stops the run there as a conflict, kept whole with that attribute, the
/// items before it deleted and undoable, the rest untouched.
#[tokio::test(start_paused = true)]
async fn a_marked_delete_stops_at_an_item_another_writer_added_to() {
    let writer = MemoryWriter::new();
    let mut h = opened(Some(writer.clone())).await;
    let view = h.state.table.as_ref().unwrap();
    let listed = view.view.item_count();
    assert!(listed >= 3, "{listed}");
    h.send([char('a')]);
    let view = h.state.table.as_ref().unwrap();
    let store = view.view.store.as_ref().unwrap();
    let marked: Vec<Item> = view
        .view
        .marks
        .in_view_order(store)
        .into_iter()
        .map(|i| store.item(i))
        .collect();
    let key = key_of(&marked[1], &demo_info().keys);
    let mut theirs = marked[1].clone();
    theirs.insert("added", AttrValue::S("by another writer".into()));
    writer.put_raw(&key, theirs.clone());
    h.send([char('D'), char('y')]);
    h.settle().await;
    assert_eq!(h.stage(), Some(WriteStage::Conflict));
    assert_eq!(writer.get(&key), Some(theirs), "kept whole");
    assert_eq!(writer.get(&key_of(&marked[0], &demo_info().keys)), None);
    for item in &marked[2..] {
        assert!(writer.get(&key_of(item, &demo_info().keys)).is_some());
    }
    let flow = h.state.table.as_ref().unwrap().write().unwrap();
    assert_eq!(flow.sent, 1, "one item deleted before the conflict");
    let kinds: Vec<&str> = writer.sent().iter().map(|p| p.operation()).collect();
    assert_eq!(kinds, ["DeleteItem", "DeleteItem"]);
    // The one deleted is undoable.
    h.send([press(KeyCode::Esc), char('U'), char('y')]);
    h.settle().await;
    assert_eq!(
        writer.get(&key_of(&marked[0], &demo_info().keys)),
        Some(marked[0].clone())
    );
}

#[tokio::test(start_paused = true)]
async fn marked_items_are_deleted_one_by_one_and_a_new_item_is_created() {
    let writer = MemoryWriter::new();
    let mut h = opened(Some(writer.clone())).await;
    let view = h.state.table.as_ref().unwrap();
    let listed = view.view.item_count();
    h.send([char('a'), char('D')]);
    assert_eq!(h.stage(), Some(WriteStage::ConfirmDelete));
    h.send([char('y')]);
    h.settle().await;
    assert_eq!(h.stage(), None, "{:?}", h.state.notice);
    let view = h.state.table.as_ref().unwrap();
    assert_eq!(
        view.view.item_count(),
        0,
        "deleted items leave the collection"
    );
    assert!(view.view.marks.is_empty());
    assert_eq!(writer.sent().len(), listed);
    assert!(writer.sent().iter().all(|p| p.operation() == "DeleteItem"));

    // N: a template of the collection's most common kind, created where nothing is.
    h.send([char('U'), char('y')]);
    h.settle().await;
    assert_eq!(
        h.state.table.as_ref().unwrap().view.item_count(),
        listed,
        "undo restored them"
    );
    h.send([char('N')]);
    h.save(|t| {
        let mut v: serde_json::Value = serde_json::from_str(t).unwrap();
        v["SK"] = serde_json::Value::String("ORDER#2030-01-01#new".into());
        v.to_string()
    });
    assert_eq!(h.stage(), Some(WriteStage::Preview));
    let flow = h.state.table.as_ref().unwrap().write().unwrap();
    assert!(
        flow.request
            .iter()
            .any(|l| l.contains("attribute_not_exists(#a0)")),
        "{:?}",
        flow.request
    );
    h.send([press(KeyCode::Enter)]);
    h.settle().await;
    assert_eq!(
        h.state.table.as_ref().unwrap().view.item_count(),
        listed + 1
    );
}
