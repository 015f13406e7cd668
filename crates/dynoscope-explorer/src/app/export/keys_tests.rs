//! Marks, copying marked items and the export dialog, driven through `update`.

use std::time::Duration;

use crate::app::input::KeyCode;

use crate::app::fixtures::*;
use crate::app::msg::{
    Effect, ExportEffect, ExportMsg, ExportSummary, FileEffect, FileMsg, Msg, ReadEffect,
    TerminalEffect, TimeMsg,
};
use crate::app::state::{CsvColumns, ExportItems, ExportScope, ExportStage, State};
use crate::model::engine::{DoneOutcome, EngineEvent};
use crate::model::exports::export::ExportFormat;

fn view(s: &State) -> &crate::app::state::OpenTable {
    s.table.as_ref().unwrap()
}

#[test]
fn marks_survive_paging_and_filtering_and_span_collections() {
    let (mut s, id) = opened();
    let items = demo_items();
    let (first, second) = items.split_at(items.len() / 2);
    send(&mut s, [page(id, 1, first.to_vec(), true)]);
    let store = view(&s).view.store.as_ref().unwrap();
    let big = store
        .collections()
        .iter()
        .position(|c| c.items.len() >= 3)
        .unwrap();
    let small = store.collections()[0].items.len();
    // Space on a collection marks all of it and moves to the next collection.
    send(&mut s, [char(' ')]);
    assert_eq!(view(&s).view.marks.len(), small);
    assert_eq!(view(&s).view.collections.cursor, 1);
    // In the items pane of another collection, space marks one item and moves down.
    send(&mut s, (1..big).map(|_| press(KeyCode::Down)));
    send(&mut s, [press(KeyCode::Tab), char(' '), char(' ')]);
    assert_eq!(view(&s).view.marks.len(), small + 2);
    assert_eq!(view(&s).view.items.cursor, 2);
    // `v` inverts the listed items' marks, twice gives them back.
    let listed = view(&s).view.item_count();
    send(&mut s, [char('v')]);
    assert_eq!(view(&s).view.marks.len(), small + listed - 2);
    send(&mut s, [char('v')]);
    let first_collection = small;
    // A page arrives and a filter is applied: the marks stay.
    send(
        &mut s,
        [Msg::Engine(EngineEvent::Done {
            request_id: id,
            outcome: DoneOutcome::Complete,
            elapsed: Duration::ZERO,
        })],
    );
    let next = match send(&mut s, [char('n')]).as_slice() {
        [Effect::Read(ReadEffect::Start { id, .. })] => *id,
        other => panic!("{other:?}"),
    };
    send(&mut s, [page(next, 1, second.to_vec(), false)]);
    send(
        &mut s,
        [char('/'), char('z'), char('z'), press(KeyCode::Enter)],
    );
    assert_eq!(view(&s).view.marks.len(), first_collection + 2);
    send(&mut s, [press(KeyCode::Esc)]);
    // `y` copies the marked items as one JSON array.
    let effects = send(&mut s, [char('y')]);
    let [Effect::Terminal(TerminalEffect::Copy(json))] = effects.as_slice() else {
        panic!("{effects:?}")
    };
    let array: serde_json::Value = serde_json::from_str(json).unwrap();
    assert_eq!(array.as_array().unwrap().len(), first_collection + 2);
    send(&mut s, [char('u')]);
    assert!(view(&s).view.marks.is_empty());
}

#[test]
fn mark_all_marks_the_listed_items_and_a_second_press_unmarks_them() {
    let mut s = loaded(false);
    send(&mut s, [press(KeyCode::Tab), char('a')]);
    let listed = view(&s).view.item_count();
    assert!(listed > 0);
    assert_eq!(view(&s).view.marks.len(), listed);
    send(&mut s, [char('a')]);
    assert!(view(&s).view.marks.is_empty());
}

/// Opens the export dialog and answers its clock request.
fn open_dialog(s: &mut State) {
    let effects = send(s, [char('x')]);
    assert!(
        matches!(
            effects.as_slice(),
            [Effect::Export(ExportEffect::ReadClock)]
        ),
        "{effects:?}"
    );
    send(s, [Msg::Time(TimeMsg::Clock(1_796_154_600))]);
}

/// Enter in the dialog: the path is checked, and the answer is that no file has that name;
/// returns the export's job and what the start asked for.
fn start_to_a_new_file(s: &mut State) -> (u64, Vec<Effect>) {
    let job = match send(s, [press(KeyCode::Enter)]).as_slice() {
        [Effect::Files(FileEffect::CheckExportPath { job, .. })] => *job,
        other => panic!("{other:?}"),
    };
    let effects = send(
        s,
        [Msg::Files(FileMsg::ExportPathChecked {
            job,
            result: Ok(false),
        })],
    );
    (job, effects)
}

#[test]
fn exporting_marked_items_to_csv_checks_the_path_then_starts() {
    let mut s = loaded(false);
    send(&mut s, [char(' '), char(' ')]);
    let marked = view(&s).view.marks.len();
    open_dialog(&mut s);
    let d = view(&s).export().unwrap();
    assert_eq!(d.scope, ExportScope::Marked);
    assert_eq!(d.path, "./app-20261201T195000Z.jsonl");
    // Format: → to ddb-jsonl, → to csv; the extension follows.
    send(
        &mut s,
        [
            press(KeyCode::Down),
            press(KeyCode::Right),
            press(KeyCode::Right),
        ],
    );
    let d = view(&s).export().unwrap();
    assert_eq!(d.format, ExportFormat::Csv);
    assert_eq!(d.path, "./app-20261201T195000Z.csv");
    let effects = send(&mut s, [press(KeyCode::Enter)]);
    let [Effect::Files(FileEffect::CheckExportPath { job, path })] = effects.as_slice() else {
        panic!("{effects:?}")
    };
    assert_eq!(path, "./app-20261201T195000Z.csv");
    let job = *job;
    // The file exists: asked first, and `y` replaces it.
    send(
        &mut s,
        [Msg::Files(FileMsg::ExportPathChecked {
            job,
            result: Ok(true),
        })],
    );
    assert_eq!(
        view(&s).export().unwrap().stage,
        ExportStage::ConfirmOverwrite
    );
    let effects = send(&mut s, [char('y')]);
    let [Effect::Export(ExportEffect::Start(request))] = effects.as_slice() else {
        panic!("{effects:?}")
    };
    assert!(request.overwrite && !request.stream);
    assert_eq!(request.items.len(), marked);
    let CsvColumns::Fixed(columns) = &request.columns else {
        panic!("{:?}", request.columns)
    };
    assert_eq!(&columns[..2], ["PK", "SK"]);
    assert!(view(&s).export().is_none());
    send(
        &mut s,
        [Msg::Export(ExportMsg::Done {
            job,
            result: Ok(ExportSummary {
                path: path.clone(),
                items: marked as u64,
                bytes: 1234,
                left_out: vec![],
            }),
        })],
    );
    assert!(view(&s).export_job.is_none());
    assert!(s
        .notice
        .as_ref()
        .unwrap()
        .text
        .contains("exported 2 items, 1,234 bytes"));
}

#[test]
fn a_streaming_export_stops_the_running_read_then_tees_its_continuation() {
    let (mut s, id) = opened();
    let items = demo_items();
    send(&mut s, [page(id, 1, items[..20].to_vec(), true)]);
    open_dialog(&mut s);
    // Scope: from the collection, past everything loaded, to the stream.
    send(&mut s, [press(KeyCode::Right), press(KeyCode::Right)]);
    assert_eq!(view(&s).export().unwrap().scope, ExportScope::Stream);
    let (job, effects) = start_to_a_new_file(&mut s);
    assert!(
        matches!(effects.as_slice(), [Effect::Read(ReadEffect::Cancel(c))] if *c == id),
        "{effects:?}"
    );
    // A page that was on its way still arrives, then the read stops: the export takes over
    // with everything loaded by then, and the continuation is tee'd into it.
    send(&mut s, [page(id, 2, items[20..30].to_vec(), true)]);
    let effects = send(
        &mut s,
        [Msg::Engine(EngineEvent::Done {
            request_id: id,
            outcome: DoneOutcome::Cancelled,
            elapsed: Duration::ZERO,
        })],
    );
    let [Effect::Export(ExportEffect::Start(request)), Effect::Read(ReadEffect::Tee {
        job: j,
        id: next,
        spec,
    })] = effects.as_slice()
    else {
        panic!("{effects:?}")
    };
    assert_eq!(*j, job);
    assert!(request.stream);
    let ExportItems::List(initial) = &request.items else {
        panic!()
    };
    assert_eq!(initial.len(), 30);
    assert!(spec.budget.max_pages.is_none(), "streams to the end");
    // The read reaches its end: the export is finished.
    send(&mut s, [page(*next, 1, items[30..].to_vec(), false)]);
    let effects = send(
        &mut s,
        [Msg::Engine(EngineEvent::Done {
            request_id: *next,
            outcome: DoneOutcome::Complete,
            elapsed: Duration::ZERO,
        })],
    );
    assert!(
        matches!(effects.as_slice(), [Effect::Export(ExportEffect::Finish(j))] if *j == job),
        "{effects:?}"
    );
}

#[test]
fn a_rescan_cancels_a_streaming_export() {
    let (mut s, id) = opened();
    send(&mut s, [page(id, 1, demo_items()[..5].to_vec(), true)]);
    send(
        &mut s,
        [Msg::Engine(EngineEvent::Done {
            request_id: id,
            outcome: DoneOutcome::Complete,
            elapsed: Duration::ZERO,
        })],
    );
    open_dialog(&mut s);
    send(&mut s, [press(KeyCode::Right), press(KeyCode::Right)]);
    let (job, effects) = start_to_a_new_file(&mut s);
    assert!(matches!(
        effects.as_slice(),
        [
            Effect::Export(ExportEffect::Start(_)),
            Effect::Read(ReadEffect::Tee { .. })
        ]
    ));
    let effects = send(&mut s, [char('r')]);
    assert!(
        effects
            .iter()
            .any(|e| matches!(e, Effect::Export(ExportEffect::Cancel(j)) if *j == job)),
        "{effects:?}"
    );
    assert!(
        effects
            .iter()
            .any(|e| matches!(e, Effect::Read(ReadEffect::Start { .. }))),
        "{effects:?}"
    );
}

#[test]
fn an_export_of_loaded_items_keeps_its_progress_across_a_new_read() {
    let mut s = loaded(false);
    send(&mut s, [char(' ')]);
    open_dialog(&mut s);
    let (job, effects) = start_to_a_new_file(&mut s);
    assert!(matches!(
        effects.as_slice(),
        [Effect::Export(ExportEffect::Start(_))]
    ));
    // A rescan keeps the old view to go back to; the export writes what it was given and
    // still reports here, and is not cancelled.
    let effects = send(&mut s, [char('r')]);
    assert!(
        !effects
            .iter()
            .any(|e| matches!(e, Effect::Export(ExportEffect::Cancel(_)))),
        "{effects:?}"
    );
    assert_eq!(view(&s).export_job.as_ref().map(|j| j.id), Some(job));
    send(
        &mut s,
        [Msg::Export(ExportMsg::Progress {
            job,
            items: 1,
            bytes: 10,
        })],
    );
    assert_eq!(view(&s).export_job.as_ref().map(|j| j.id), Some(job));
    send(
        &mut s,
        [Msg::Export(ExportMsg::Done {
            job,
            result: Ok(ExportSummary {
                path: "./x.jsonl".into(),
                items: 1,
                bytes: 10,
                left_out: vec![],
            }),
        })],
    );
    assert!(view(&s).export_job.is_none());
}

#[test]
fn going_back_cancels_the_streaming_export_of_the_read_it_leaves() {
    let (mut s, id) = opened();
    send(&mut s, [page(id, 1, demo_items()[..5].to_vec(), false)]);
    send(
        &mut s,
        [Msg::Engine(EngineEvent::Done {
            request_id: id,
            outcome: DoneOutcome::Complete,
            elapsed: Duration::ZERO,
        })],
    );
    // A rescan: the first view is kept, the new read streams into an export.
    let next = match send(&mut s, [char('r')]).as_slice() {
        [Effect::Read(ReadEffect::Start { id, .. })] => *id,
        other => panic!("{other:?}"),
    };
    send(&mut s, [page(next, 1, demo_items()[5..10].to_vec(), true)]);
    send(
        &mut s,
        [Msg::Engine(EngineEvent::Done {
            request_id: next,
            outcome: DoneOutcome::Complete,
            elapsed: Duration::ZERO,
        })],
    );
    open_dialog(&mut s);
    send(&mut s, [press(KeyCode::Right), press(KeyCode::Right)]);
    let (job, effects) = start_to_a_new_file(&mut s);
    assert!(
        matches!(
            effects.as_slice(),
            [
                Effect::Export(ExportEffect::Start(_)),
                Effect::Read(ReadEffect::Tee { .. })
            ]
        ),
        "{effects:?}"
    );
    let effects = send(&mut s, [press(KeyCode::Backspace)]);
    assert!(
        effects
            .iter()
            .any(|e| matches!(e, Effect::Export(ExportEffect::Cancel(j)) if *j == job)),
        "{effects:?}"
    );
    assert!(view(&s).export_job.is_none());
}
