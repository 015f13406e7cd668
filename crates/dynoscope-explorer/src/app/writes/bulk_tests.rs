//! The bulk dialog through `update`: `B` on the marked (or listed) items, the preview, a run
//! only with writes on, its news into the dialog and the loaded items, Esc stopping it, and
//! `U` undoing it.

use crate::app::fixtures::*;
use crate::app::input::KeyCode;
use crate::app::msg::{BulkEffect, BulkMsg, BulkOutcome, Effect, Msg};
use crate::app::state::{BulkChoice, BulkDialog, BulkEnded, BulkProgress, BulkStage, State};
use crate::model::item::value::{AttrValue, Item};

/// The table loaded, the first user's collection selected, its first two items marked.
pub(crate) fn marked(writes: bool) -> State {
    let mut s = loaded(false);
    s.writes_enabled = writes;
    let store = s.table.as_ref().unwrap().view.store.as_ref().unwrap();
    let user = store.collection_of("USER#u00000").unwrap();
    send(&mut s, (0..user).map(|_| press(KeyCode::Down)));
    send(
        &mut s,
        [
            press(KeyCode::Tab),
            char(' '),
            press(KeyCode::Down),
            char(' '),
        ],
    );
    s
}

fn typed(text: &str) -> Vec<Msg> {
    text.chars().map(char).collect()
}

/// `B`, then "status" set to `value`, then Enter: the preview.
pub(crate) fn previewed(s: &mut State, value: &str) -> Vec<Effect> {
    let mut msgs = vec![char('B'), press(KeyCode::Tab)];
    msgs.extend(typed("status"));
    msgs.push(press(KeyCode::Tab));
    msgs.extend(typed(value));
    msgs.push(press(KeyCode::Enter));
    send(s, msgs)
}

fn dialog(s: &State) -> &BulkDialog {
    s.table.as_ref().unwrap().bulk().expect("the bulk dialog")
}

fn stored(s: &State, item: &Item) -> Option<Item> {
    let store = s.table.as_ref().unwrap().view.store.as_ref().unwrap();
    store.find(item).map(|id| store.item(id))
}

/// Enter on the preview with writes on: the run effect's id and items.
fn run(s: &mut State) -> (u64, Vec<crate::model::write::bulk::BulkItem>) {
    let effects = send(s, [press(KeyCode::Enter)]);
    match effects.as_slice() {
        [Effect::Bulk(BulkEffect::Run {
            run,
            items,
            header,
            info,
            version: None,
        })] => {
            assert_eq!(info.name, "app");
            assert_eq!(header.statement, "UPDATE \"app\" -- explorer bulk dialog");
            assert_eq!(header.endpoint, "http://127.0.0.1:8000");
            (*run, items.clone())
        }
        other => panic!("{other:?}"),
    }
}

fn progress(done: usize, conflicts: usize) -> BulkProgress {
    BulkProgress {
        done,
        conflicts,
        units: done as f64 * 2.0,
        elapsed_ms: 1500,
        ..BulkProgress::default()
    }
}

#[test]
fn b_previews_the_marked_items_and_without_writes_enter_sends_nothing() {
    let mut s = marked(false);
    let effects = previewed(&mut s, "\"DONE\"");
    assert!(effects.is_empty(), "{effects:?}");
    let d = dialog(&s);
    assert_eq!((d.items.len(), d.scope), (2, "marked"));
    let BulkStage::Preview { planned, text } = &d.stage else {
        panic!("{:?}", d.stage);
    };
    assert_eq!(planned.len(), 2);
    assert!(
        text.contains("matches 2 items (the marked items)"),
        "{text}"
    );
    let effects = send(&mut s, [press(KeyCode::Enter), char('y')]);
    assert!(effects.is_empty(), "{effects:?}");
    assert!(matches!(dialog(&s).stage, BulkStage::Preview { .. }));
    let notice = s.notice.as_ref().unwrap();
    assert!(
        notice.error && notice.text.contains("--allow-writes"),
        "{notice:?}"
    );
}

#[test]
fn with_no_marks_the_dialog_takes_the_listed_items_and_says_so() {
    let mut s = marked(false);
    send(&mut s, [char('u'), char('B')]);
    let listed = s.table.as_ref().unwrap().view.listed_items().len();
    let d = dialog(&s);
    assert_eq!((d.items.len(), d.scope), (listed, "listed"));
    assert!(listed > 2);
}

#[test]
fn a_bad_value_stays_in_the_edit_stage_with_the_reason_and_the_action_cycles() {
    let mut s = marked(true);
    let effects = previewed(&mut s, "DONE");
    assert!(effects.is_empty());
    let BulkStage::Edit { error: Some(e) } = &dialog(&s).stage else {
        panic!("{:?}", dialog(&s).stage);
    };
    assert!(e.contains("'DONE' is not a JSON value"), "{e}");
    // Back to the action field; → twice: Delete, whose preview needs no attribute.
    send(
        &mut s,
        [
            press(KeyCode::Tab),
            press(KeyCode::Right),
            press(KeyCode::Right),
        ],
    );
    assert_eq!(dialog(&s).choice, BulkChoice::Delete);
    send(&mut s, [press(KeyCode::Enter)]);
    let BulkStage::Preview { text, .. } = &dialog(&s).stage else {
        panic!("{:?}", dialog(&s).stage);
    };
    assert!(text.contains("DELETE on 'app' matches 2 items"), "{text}");
}

#[test]
fn a_run_streams_into_the_dialog_and_the_loaded_items_and_u_undoes_it() {
    let mut s = marked(true);
    previewed(&mut s, "\"DONE\"");
    let (id, items) = run(&mut s);
    assert_eq!(items.len(), 2);
    let journal = "/state/journals/1-app-7.jsonl".to_string();
    send(
        &mut s,
        [
            Msg::Bulk(BulkMsg::Started {
                run: id,
                journal: journal.clone(),
            }),
            Msg::Bulk(BulkMsg::Items {
                run: id,
                outcomes: vec![(0, BulkOutcome::Written)],
            }),
            Msg::Bulk(BulkMsg::Progress {
                run: id,
                progress: progress(1, 0),
            }),
            // Another run's news is not this one's.
            Msg::Bulk(BulkMsg::Items {
                run: id + 100,
                outcomes: vec![(1, BulkOutcome::Written)],
            }),
        ],
    );
    let r = dialog(&s).run().unwrap();
    assert_eq!(r.journal.as_deref(), Some(journal.as_str()));
    assert_eq!((r.written.clone(), r.progress.done), (vec![0], 1));
    let after = items[0].after.clone().unwrap();
    assert_eq!(
        stored(&s, &after).unwrap().get("status"),
        Some(&AttrValue::S("DONE".into()))
    );
    let theirs = items[1].before.clone();
    send(
        &mut s,
        [
            Msg::Bulk(BulkMsg::Items {
                run: id,
                outcomes: vec![(1, BulkOutcome::Conflict(Some(theirs.clone())))],
            }),
            Msg::Bulk(BulkMsg::Done {
                run: id,
                progress: progress(1, 1),
                ended: BulkEnded::Complete,
            }),
        ],
    );
    let r = dialog(&s).run().unwrap();
    assert_eq!(r.conflicts, vec![(1, Some(theirs))]);
    assert_eq!(r.ended, Some(BulkEnded::Complete));
    // The conflicting item was not written: the view keeps it as loaded.
    assert_eq!(stored(&s, &items[1].before), Some(items[1].before.clone()));
    let entry = s.table.as_ref().unwrap().undo.last().unwrap().clone();
    let record = entry.bulk.expect("the run is undoable");
    assert_eq!((record.written, record.journal), (vec![0], journal));

    // Esc closes; U offers the undo of the one item written.
    send(&mut s, [press(KeyCode::Esc), char('U')]);
    let BulkStage::UndoPreview { text, .. } = &dialog(&s).stage else {
        panic!("{:?}", dialog(&s).stage);
    };
    assert!(
        text.contains("restores 1 item to its before-image"),
        "{text}"
    );
    let effects = send(&mut s, [press(KeyCode::Enter)]);
    let undo = match effects.as_slice() {
        [Effect::Bulk(BulkEffect::Undo {
            run, todo, items, ..
        })] => {
            assert_eq!(todo, &vec![0]);
            assert_eq!(items.len(), 2);
            *run
        }
        other => panic!("{other:?}"),
    };
    send(
        &mut s,
        [
            Msg::Bulk(BulkMsg::Items {
                run: undo,
                outcomes: vec![(0, BulkOutcome::Written)],
            }),
            Msg::Bulk(BulkMsg::Done {
                run: undo,
                progress: progress(1, 0),
                ended: BulkEnded::Complete,
            }),
        ],
    );
    assert_eq!(stored(&s, &items[0].before), Some(items[0].before.clone()));
    assert!(s.table.as_ref().unwrap().undo.is_empty());
    assert!(s.notice.as_ref().unwrap().text.contains("1 restored"));
}

#[test]
fn esc_stops_a_run_once_and_closes_it_only_after_it_ended() {
    let mut s = marked(true);
    previewed(&mut s, "\"DONE\"");
    let (id, _) = run(&mut s);
    let effects = send(&mut s, [press(KeyCode::Esc)]);
    assert!(
        matches!(effects.as_slice(), [Effect::Bulk(BulkEffect::Stop(x))] if *x == id),
        "{effects:?}"
    );
    // Asked once; the dialog stays until the runner says the run ended.
    assert!(send(&mut s, [press(KeyCode::Esc), char('q')]).is_empty());
    assert!(dialog(&s).run().unwrap().stopping);
    send(
        &mut s,
        [Msg::Bulk(BulkMsg::Done {
            run: id,
            progress: BulkProgress::default(),
            ended: BulkEnded::Stopped("stopped with Esc".into()),
        })],
    );
    assert!(s.notice.as_ref().unwrap().error);
    // Nothing written: nothing for U.
    assert!(s.table.as_ref().unwrap().undo.is_empty());
    send(&mut s, [press(KeyCode::Esc)]);
    assert!(s.table.as_ref().unwrap().modal.is_none());
}

#[test]
fn the_preview_times_the_writes_at_the_session_rate() {
    let mut s = marked(false);
    s.session_budget.wcu_per_second = Some(0.5);
    previewed(&mut s, "\"DONE\"");
    let BulkStage::Preview { text, .. } = &dialog(&s).stage else {
        panic!();
    };
    assert!(text.contains("s at --wcu-per-second 0.5"), "{text}");
}

#[test]
fn a_value_is_pasted_into_the_field_that_has_the_keys() {
    let mut s = marked(true);
    send(&mut s, [char('B'), press(KeyCode::Tab)]);
    send(
        &mut s,
        [Msg::Input(crate::app::msg::InputMsg::Paste("tags".into()))],
    );
    send(&mut s, [press(KeyCode::Tab)]);
    send(
        &mut s,
        [Msg::Input(crate::app::msg::InputMsg::Paste(
            "{\"SS\":[\"a\",\n\"b\"]}".into(),
        ))],
    );
    let d = dialog(&s);
    assert_eq!(
        (d.name.as_str(), d.value.as_str()),
        ("tags", "{\"SS\":[\"a\", \"b\"]}")
    );
    send(&mut s, [press(KeyCode::Enter)]);
    let BulkStage::Preview { text, .. } = &dialog(&s).stage else {
        panic!("{:?}", dialog(&s).stage);
    };
    assert!(
        text.contains("tags: (absent) → {\"SS\":[\"a\",\"b\"]}"),
        "{text}"
    );
}

#[test]
fn a_batch_of_outcomes_lands_whole_in_the_dialog_and_the_loaded_items() {
    let mut s = marked(true);
    previewed(&mut s, "\"DONE\"");
    let (id, items) = run(&mut s);
    send(
        &mut s,
        [Msg::Bulk(BulkMsg::Items {
            run: id,
            outcomes: vec![
                (0, BulkOutcome::Written),
                (1, BulkOutcome::Failed("InternalServerError".into())),
            ],
        })],
    );
    let r = dialog(&s).run().unwrap();
    assert_eq!(r.written, vec![0]);
    assert_eq!(r.failures, vec![(1, "InternalServerError".to_string())]);
    let after = items[0].after.clone().unwrap();
    assert_eq!(
        stored(&s, &after).unwrap().get("status"),
        Some(&AttrValue::S("DONE".into()))
    );
    assert_eq!(stored(&s, &items[1].before), Some(items[1].before.clone()));
}
