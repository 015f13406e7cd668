//! Snapshots of the bulk dialog (`B`) in its stages: the action, the preview (writes on and
//! off), a run's progress, its end with a conflict and the journal, a stopped run's resume
//! line, and the undo's preview (`U`).

use crate::app::input::KeyCode;

use super::snapshot_tests::render;
use crate::app::fixtures::*;
use crate::app::msg::{BulkEffect, BulkMsg, BulkOutcome, Effect, Msg};
use crate::app::state::{BulkEnded, BulkProgress, State};
use crate::app::writes::bulk_tests::{marked, previewed};

macro_rules! snapshot {
    ($name:expr, $state:expr) => {
        insta::assert_snapshot!($name, render(&$state).backend())
    };
}

const JOURNAL: &str = "/home/u/.local/state/dynoscope/journals/1796154600-app-4242.jsonl";

fn running(s: &mut State) -> (u64, Vec<crate::model::write::bulk::BulkItem>) {
    match send(s, [press(KeyCode::Enter)]).as_slice() {
        [Effect::Bulk(BulkEffect::Run { run, items, .. })] => (*run, items.clone()),
        other => panic!("{other:?}"),
    }
}

fn progress(done: usize, conflicts: usize, elapsed_ms: u64) -> BulkProgress {
    BulkProgress {
        done,
        conflicts,
        units: done as f64,
        elapsed_ms,
        ..BulkProgress::default()
    }
}

#[test]
fn the_bulk_dialog_edit_and_preview() {
    let mut s = marked(true);
    send(&mut s, [char('B'), press(KeyCode::Tab)]);
    send(&mut s, "status".chars().map(char));
    send(&mut s, [press(KeyCode::Tab)]);
    send(&mut s, "\"DONE\"".chars().map(char));
    snapshot!("bulk_edit", s);
    send(&mut s, [press(KeyCode::Enter)]);
    snapshot!("bulk_preview", s);
}

#[test]
fn the_bulk_preview_without_writes_says_how_to_enable_them() {
    let mut s = marked(false);
    s.session_budget.wcu_per_second = Some(1.0);
    previewed(&mut s, "{\"SS\":[\"a\",\"b\"]}");
    snapshot!("bulk_preview_writes_off", s);
}

#[test]
fn a_bulk_run_in_progress_then_done_then_undo() {
    let mut s = marked(true);
    previewed(&mut s, "\"DONE\"");
    let (id, items) = running(&mut s);
    send(
        &mut s,
        [
            Msg::Bulk(BulkMsg::Started {
                run: id,
                journal: JOURNAL.into(),
            }),
            Msg::Bulk(BulkMsg::Items {
                run: id,
                outcomes: vec![(0, BulkOutcome::Written)],
            }),
            Msg::Bulk(BulkMsg::Progress {
                run: id,
                progress: progress(1, 0, 1200),
            }),
        ],
    );
    snapshot!("bulk_running", s);
    let mut theirs = items[1].before.clone();
    theirs.insert(
        "status".to_string(),
        crate::model::item::value::AttrValue::S("SHIPPED".into()),
    );
    send(
        &mut s,
        [
            Msg::Bulk(BulkMsg::Items {
                run: id,
                outcomes: vec![(1, BulkOutcome::Conflict(Some(theirs)))],
            }),
            Msg::Bulk(BulkMsg::Done {
                run: id,
                progress: progress(1, 1, 2400),
                ended: BulkEnded::Complete,
            }),
        ],
    );
    snapshot!("bulk_done", s);
    send(&mut s, [press(KeyCode::Esc), char('U')]);
    snapshot!("bulk_undo_preview", s);
}

#[test]
fn a_stopped_bulk_run_says_how_to_resume_it() {
    let mut s = marked(true);
    previewed(&mut s, "\"DONE\"");
    let (id, _) = running(&mut s);
    send(
        &mut s,
        [
            Msg::Bulk(BulkMsg::Started {
                run: id,
                journal: JOURNAL.into(),
            }),
            press(KeyCode::Esc),
            Msg::Bulk(BulkMsg::Done {
                run: id,
                progress: BulkProgress::default(),
                ended: BulkEnded::Stopped("Esc: the run stopped before its next item".into()),
            }),
        ],
    );
    snapshot!("bulk_stopped", s);
}
