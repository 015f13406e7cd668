//! The bulk dialog's whole flow without a terminal: keys through `update`, the run through the
//! runner over the engine's bulk runner to the in-memory writer (which evaluates every
//! condition), the journal on disk, under paused time: a run changes exactly the marked items,
//! a concurrent change is kept as a conflict, Esc stops a run before its next item, the write
//! guard's `--max-wcu` stops it, and `U` restores the before-images.

use std::time::Duration;

use tokio::sync::mpsc;

use super::*;
use crate::app::fixtures::{char, demo_info, demo_items, press, state};
use crate::app::input::KeyCode;
use crate::app::msg::{BulkMsg, BulkOutcome};
use crate::app::state::{BulkDialog, BulkEnded, State};
use crate::app::update::{start, update};
use crate::aws::read::memory::MemorySource;
use crate::aws::write::MemoryWriter;
use crate::aws::MemoryEngine;
use crate::model::item::value::{AttrValue, Item};
use crate::model::write::bulk::journal::{self, Outcome};
use crate::model::write::key_of;

struct Harness {
    state: State,
    runner: EffectRunner<MemoryEngine, MemoryWriter>,
    engine_rx: mpsc::Receiver<EngineEvent>,
    msg_rx: mpsc::UnboundedReceiver<Msg>,
    writer: MemoryWriter,
    dir: tempfile::TempDir,
}

impl Harness {
    /// The demo table loaded and in the writer, the first user's collection listed, its first
    /// two items marked; bulk runs under `max_wcu`/`per_second`.
    async fn marked(max_wcu: Option<f64>, per_second: Option<f64>) -> Harness {
        let items = demo_items();
        let engine =
            MemoryEngine::new().with_table(demo_info(), MemorySource::new(items, &["PK", "SK"]));
        let (engine_tx, engine_rx) = mpsc::channel(64);
        let (msg_tx, msg_rx) = mpsc::unbounded_channel();
        let writer = MemoryWriter::new();
        for item in demo_items() {
            writer.put_raw(&key_of(&item, &demo_info().keys), item);
        }
        let dir = tempfile::tempdir().unwrap();
        let mut state = state();
        state.writes_enabled = true;
        let runner = EffectRunner::new(engine, engine_tx, msg_tx)
            .with_writer(Some(writer.clone()))
            .with_bulk(BulkRuns::new(
                max_wcu,
                per_second,
                Some(dir.path().to_path_buf()),
            ));
        let mut h = Harness {
            state,
            runner,
            engine_rx,
            msg_rx,
            writer,
            dir,
        };
        let effects = start(&mut h.state, Some("app".into()));
        assert!(h.runner.apply(effects).is_empty());
        h.settle().await;
        let store = h.state.table.as_ref().unwrap().view.store.as_ref().unwrap();
        let c = store.collection_of("USER#u00000").unwrap();
        h.send((0..c).map(|_| press(KeyCode::Down)));
        h.send([
            press(KeyCode::Tab),
            char(' '),
            press(KeyCode::Down),
            char(' '),
        ]);
        h
    }

    fn send(&mut self, msgs: impl IntoIterator<Item = Msg>) {
        for msg in msgs {
            let effects = update(&mut self.state, msg);
            assert!(self.runner.apply(effects).is_empty());
        }
    }

    fn typed(&mut self, text: &str) {
        self.send(text.chars().map(char));
    }

    /// Every message until nothing more comes for 30 (paused) seconds.
    async fn settle(&mut self) {
        loop {
            tokio::select! {
                Some(event) = self.engine_rx.recv() => self.send([Msg::Engine(event)]),
                Some(msg) = self.msg_rx.recv() => self.send([msg]),
                _ = tokio::time::sleep(Duration::from_secs(30)) => return,
            }
        }
    }

    /// Messages until `stop` says one was the last wanted.
    async fn until(&mut self, stop: impl Fn(&Msg) -> bool) {
        while let Some(msg) = self.msg_rx.recv().await {
            let last = stop(&msg);
            self.send([msg]);
            if last {
                return;
            }
        }
    }

    fn dialog(&self) -> &BulkDialog {
        self.state
            .table
            .as_ref()
            .unwrap()
            .bulk()
            .expect("the bulk dialog")
    }

    fn marked_items(&self) -> Vec<Item> {
        let view = &self.state.table.as_ref().unwrap().view;
        let store = view.store.as_ref().unwrap();
        view.marks
            .in_view_order(store)
            .into_iter()
            .map(|id| store.item(id))
            .collect()
    }

    /// `B`, "status" = `value`, the preview, and Enter: the run starts.
    fn run_status(&mut self, value: &str) {
        self.send([char('B'), press(KeyCode::Tab)]);
        self.typed("status");
        self.send([press(KeyCode::Tab)]);
        self.typed(value);
        self.send([press(KeyCode::Enter), press(KeyCode::Enter)]);
    }

    fn stored(&self, item: &Item) -> Option<Item> {
        self.writer.get(&key_of(item, &demo_info().keys))
    }
}

fn status(item: Option<Item>) -> Option<AttrValue> {
    item?.get("status").cloned()
}

#[tokio::test(start_paused = true)]
async fn a_run_writes_exactly_the_marked_items_journals_them_and_u_restores_them() {
    let mut h = Harness::marked(None, None).await;
    let marked = h.marked_items();
    assert_eq!(marked.len(), 2);
    h.run_status("\"DONE\"");
    h.settle().await;
    let run = h.dialog().run().expect("a run").clone();
    assert_eq!(run.ended, Some(BulkEnded::Complete));
    assert_eq!((run.progress.done, run.written.clone()), (2, vec![0, 1]));
    for item in &marked {
        assert_eq!(status(h.stored(item)), Some(AttrValue::S("DONE".into())));
    }
    // Nothing else was sent: two conditional UpdateItems.
    let sent: Vec<&str> = h.writer.sent().iter().map(|p| p.operation()).collect();
    assert_eq!(sent, ["UpdateItem", "UpdateItem"]);
    // The journal is where the command line puts one, and holds both outcomes.
    let path = std::path::PathBuf::from(run.journal.clone().unwrap());
    assert!(path.starts_with(h.dir.path().join("journals")), "{path:?}");
    let j = journal::parse(&std::fs::read_to_string(&path).unwrap()).unwrap();
    assert_eq!(j.header.statement, "UPDATE \"app\" -- explorer bulk dialog");
    assert_eq!(
        j.outcomes,
        vec![Some(Outcome::Written), Some(Outcome::Written)]
    );

    h.send([press(KeyCode::Esc), char('U'), press(KeyCode::Enter)]);
    h.settle().await;
    let undo = h.dialog().run().expect("the undo").clone();
    assert!(undo.undo);
    assert_eq!(undo.ended, Some(BulkEnded::Complete));
    assert_eq!(undo.progress.done, 2);
    for item in &marked {
        assert_eq!(h.stored(item).as_ref(), Some(item), "restored as loaded");
    }
}

/// With `version_attribute` configured the dialog plans as `partiql` does: each write is
/// conditional on the version read and increments it (the journal's after-images hold it), so
/// another writer's bump of the version alone, which a full-image condition lets pass, is a
/// conflict; and `U` restores conditional on the version the run wrote.
#[tokio::test(start_paused = true)]
async fn with_a_version_attribute_a_concurrent_bump_is_a_conflict() {
    let mut h = Harness::marked(None, None).await;
    h.state
        .config
        .writes
        .version_attributes
        .insert("app".into(), "version".into());
    let marked = h.marked_items();
    assert!(marked.iter().all(|i| i.get("version").is_none()));
    // Another writer, one that versions its writes, bumps the second item's version only.
    let mut theirs = marked[1].clone();
    theirs.insert("version", AttrValue::N("1".into()));
    h.writer
        .put_raw(&key_of(&theirs, &demo_info().keys), theirs.clone());
    h.run_status("\"DONE\"");
    h.settle().await;
    let run = h.dialog().run().unwrap().clone();
    assert_eq!(run.conflicts, vec![(1, Some(theirs.clone()))]);
    assert_eq!(
        h.stored(&theirs),
        Some(theirs),
        "left as the other writer left it"
    );
    let written = h.stored(&marked[0]).unwrap();
    assert_eq!(written.get("version"), Some(&AttrValue::N("1".into())));
    assert_eq!(written.get("status"), Some(&AttrValue::S("DONE".into())));
    let path = std::path::PathBuf::from(run.journal.clone().unwrap());
    let j = journal::parse(&std::fs::read_to_string(&path).unwrap()).unwrap();
    assert_eq!(
        j.items[0].after.as_ref().unwrap().get("version"),
        Some(&AttrValue::N("1".into()))
    );
    h.send([press(KeyCode::Esc), char('U'), press(KeyCode::Enter)]);
    h.settle().await;
    let restored = h.stored(&marked[0]).unwrap();
    assert_eq!(restored.get("status"), marked[0].get("status"));
    assert_eq!(restored.get("version"), Some(&AttrValue::N("2".into())));
}

#[tokio::test(start_paused = true)]
async fn a_concurrent_change_is_kept_and_reported_with_its_key() {
    let mut h = Harness::marked(None, None).await;
    let marked = h.marked_items();
    // Someone changes the second item after it was loaded.
    let mut theirs = marked[1].clone();
    theirs.insert("status", AttrValue::S("THEIRS".into()));
    h.writer
        .put_raw(&key_of(&theirs, &demo_info().keys), theirs.clone());
    h.run_status("\"DONE\"");
    h.settle().await;
    let run = h.dialog().run().unwrap().clone();
    assert_eq!(run.conflicts, vec![(1, Some(theirs.clone()))]);
    assert_eq!((run.progress.done, run.progress.conflicts), (1, 1));
    assert_eq!(h.stored(&theirs), Some(theirs));
    assert_eq!(
        status(h.stored(&marked[0])),
        Some(AttrValue::S("DONE".into()))
    );
}

#[tokio::test(start_paused = true)]
async fn esc_stops_the_run_before_its_next_item_and_the_journal_resumes_it() {
    // One write unit a second: the second item waits for the guard, and Esc comes first.
    let mut h = Harness::marked(None, Some(1.0)).await;
    let marked = h.marked_items();
    h.run_status("\"DONE\"");
    h.until(|m| {
        matches!(
            m,
            Msg::Bulk(BulkMsg::Items { outcomes, .. })
                if outcomes.iter().any(|(_, o)| *o == BulkOutcome::Written)
        )
    })
    .await;
    h.send([press(KeyCode::Esc)]);
    assert!(h.dialog().run().unwrap().stopping);
    h.settle().await;
    let run = h.dialog().run().unwrap().clone();
    let Some(BulkEnded::Stopped(why)) = &run.ended else {
        panic!("{:?}", run.ended);
    };
    assert!(why.contains("Esc"), "{why}");
    assert_eq!(run.written, vec![0]);
    assert_eq!(
        status(h.stored(&marked[1])),
        status(Some(marked[1].clone()))
    );
    let path = run.journal.clone().unwrap();
    let j = journal::parse(&std::fs::read_to_string(&path).unwrap()).unwrap();
    assert_eq!(
        j.unfinished(),
        vec![1],
        "--resume continues with the second"
    );
}

#[tokio::test(start_paused = true)]
async fn max_wcu_stops_the_run_before_an_item_that_would_pass_it() {
    // Each item is reserved at 2 WCU (its worst case: the table and GSI1); the in-memory
    // writer reports 1 spent. With 2.5, the second item's 2 would pass 1 + 2.
    let mut h = Harness::marked(Some(2.5), None).await;
    h.run_status("\"DONE\"");
    h.settle().await;
    let run = h.dialog().run().unwrap().clone();
    let Some(BulkEnded::Stopped(why)) = &run.ended else {
        panic!("{:?}", run.ended);
    };
    assert!(why.contains("--max-wcu 2.5 reached"), "{why}");
    assert_eq!(h.writer.sent().len(), 1);
    assert!(run.progress.units <= 2.5);
    assert_eq!(run.written, vec![0]);
}
