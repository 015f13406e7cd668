//! Continuing a read through `update`: whoever continues a budget-stopped read asks for a new
//! budget first, and a streaming export's read is resumed and stopped with the export.

use crate::app::input::KeyCode;

use super::scan_tests::{done, launch_budgeted, segment_page};
use crate::app::fixtures::*;
use crate::app::msg::{Effect, ExportEffect, FileEffect, FileMsg, Msg, ReadEffect, TimeMsg};
use crate::app::state::{ExportScope, State};
use crate::model::engine::DoneOutcome;

/// `x`, the scope moved to "the read, streamed to its end", Enter, and the path is free.
fn export_the_stream(s: &mut State) -> Vec<Effect> {
    send(s, [char('x')]);
    send(s, [Msg::Time(TimeMsg::Clock(1_796_154_600))]);
    for _ in 0..4 {
        if s.table.as_ref().unwrap().export().unwrap().scope == ExportScope::Stream {
            break;
        }
        send(s, [press(KeyCode::Right)]);
    }
    let view = s.table.as_ref().unwrap();
    assert_eq!(view.export().unwrap().scope, ExportScope::Stream);
    let job = match send(s, [press(KeyCode::Enter)]).as_slice() {
        [Effect::Files(FileEffect::CheckExportPath { job, .. })] => *job,
        other => panic!("{other:?}"),
    };
    send(
        s,
        [Msg::Files(FileMsg::ExportPathChecked {
            job,
            result: Ok(false),
        })],
    )
}

/// A triage scan stopped at `20 of 10 RCU`, its segment 0 with more to read.
fn budget_stopped() -> State {
    let mut s = loaded(false);
    s.config.confirm_scan_rcu = 1e9;
    let id = launch_budgeted(&mut s, "10");
    let items = demo_items();
    send(
        &mut s,
        [
            segment_page(id, 0, items[..50].to_vec(), true, 1_000),
            segment_page(id, 1, items[50..60].to_vec(), false, 1_100),
            done(id, DoneOutcome::BudgetReached),
        ],
    );
    s
}

/// Issue 20.13: `x` → "the read, streamed to its end" read on without a budget and spent
/// 43.5 RCU more after the scan had stopped at its own.
#[test]
fn a_streaming_export_of_a_budget_stopped_read_asks_for_a_new_budget_first() {
    let mut s = budget_stopped();
    let effects = export_the_stream(&mut s);
    assert!(
        matches!(effects.as_slice(), [Effect::Export(ExportEffect::Start(_))]),
        "the export starts with what is loaded, and reads nothing yet: {effects:?}"
    );
    let view = s.table.as_ref().unwrap();
    assert_eq!(view.budget_prompt().unwrap().text, "10");
    let notice = &s.notice.as_ref().unwrap().text;
    assert!(
        notice.contains("give a new one to stream the rest"),
        "{notice}"
    );
    // Enter with a new budget: the continuation is tee'd into the export, with that budget.
    send(&mut s, (0..2).map(|_| press(KeyCode::Backspace)));
    send(&mut s, "5".chars().map(char));
    let effects = send(&mut s, [press(KeyCode::Enter)]);
    match effects.as_slice() {
        [Effect::Read(ReadEffect::Tee { spec, .. })] => {
            assert_eq!(spec.budget.max_rcu, Some(5.0));
            assert!(spec.budget.max_pages.is_none(), "streams to the end");
        }
        other => panic!("{other:?}"),
    }
}

/// A budgeted read upgraded by `L` while it loads one page reads on only with a new budget.
#[test]
fn loading_everything_past_a_budgeted_page_asks_for_a_budget() {
    let mut s = loaded(false);
    s.config.confirm_scan_rcu = 1e9;
    let id = launch_budgeted(&mut s, "10");
    let view = s.table.as_mut().unwrap();
    let read = view.view.read.as_mut().unwrap();
    read.continuous = true;
    let items = demo_items();
    let effects = send(
        &mut s,
        [
            segment_page(id, 0, items[..50].to_vec(), true, 1_000),
            done(id, DoneOutcome::Complete),
        ],
    );
    assert!(effects.is_empty(), "{effects:?}");
    assert!(s.table.as_ref().unwrap().budget_prompt().is_some());
}

/// Issue 21.7: paused with Esc, `n` loaded one page and left the export paused although the
/// status said "n resumes it"; cancelling the export left its read running to the table's end.
#[test]
fn n_resumes_a_paused_streaming_export_and_cancelling_it_stops_its_read() {
    let (mut s, id) = opened();
    let items = demo_items();
    send(&mut s, [page(id, 1, items[..20].to_vec(), true)]);
    send(&mut s, [done(id, DoneOutcome::Complete)]);
    let effects = export_the_stream(&mut s);
    let next = match effects.as_slice() {
        [Effect::Export(ExportEffect::Start(_)), Effect::Read(ReadEffect::Tee { id, .. })] => *id,
        other => panic!("{other:?}"),
    };
    // Esc pauses the export with its read.
    send(&mut s, [press(KeyCode::Esc)]);
    send(&mut s, [page(next, 1, items[20..30].to_vec(), true)]);
    send(&mut s, [done(next, DoneOutcome::Cancelled)]);
    let notice = &s.notice.as_ref().unwrap().text;
    assert!(notice.contains("n resumes it"), "{notice}");
    let resumed = match send(&mut s, [char('n')]).as_slice() {
        [Effect::Read(ReadEffect::Tee { id, spec, .. })] => {
            assert!(
                spec.budget.max_pages.is_none(),
                "resumes the export to the end"
            );
            assert_eq!(spec.page_size, None);
            *id
        }
        other => panic!("{other:?}"),
    };
    // `x`, `y`: the export is cancelled and so is the read it holds.
    send(&mut s, [char('x')]);
    let effects = send(&mut s, [char('y')]);
    assert!(
        effects
            .iter()
            .any(|e| matches!(e, Effect::Read(ReadEffect::Cancel(c)) if *c == resumed)),
        "{effects:?}"
    );
    assert!(
        effects
            .iter()
            .any(|e| matches!(e, Effect::Export(ExportEffect::Cancel(_)))),
        "{effects:?}"
    );
    // The read's end no longer speaks of resuming the export.
    send(&mut s, [done(resumed, DoneOutcome::Cancelled)]);
    let notice = &s.notice.as_ref().unwrap().text;
    assert!(!notice.contains("n resumes"), "{notice}");
}
