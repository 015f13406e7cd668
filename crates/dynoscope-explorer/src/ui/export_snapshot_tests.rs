//! Snapshots of issue 13's screens: marks, the export dialog and its progress.

use crate::app::input::KeyCode;

use super::snapshot_tests::render;
use crate::app::fixtures::*;
use crate::app::msg::{
    Effect, ExportMsg, FileEffect, FileMsg, Msg, TimeMsg, WriteEffect, WriteMsg,
};

macro_rules! snapshot {
    ($name:expr, $state:expr) => {
        insta::assert_snapshot!($name, render(&$state).backend())
    };
}

#[test]
fn marks_and_the_export_dialog() {
    let mut s = loaded(false);
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
    snapshot!("items_marked", s);
    send(
        &mut s,
        [char('x'), Msg::Time(TimeMsg::Clock(1_796_154_600))],
    );
    snapshot!("export_dialog", s);
    send(
        &mut s,
        [
            press(KeyCode::Down),
            press(KeyCode::Right),
            press(KeyCode::Right),
        ],
    );
    snapshot!("export_dialog_csv", s);
    let effects = send(&mut s, [press(KeyCode::Enter)]);
    let job = match effects.as_slice() {
        [Effect::Files(FileEffect::CheckExportPath { job, .. })] => *job,
        other => panic!("{other:?}"),
    };
    send(
        &mut s,
        [Msg::Files(FileMsg::ExportPathChecked {
            job,
            result: Ok(true),
        })],
    );
    snapshot!("export_dialog_overwrite", s);
    send(
        &mut s,
        [
            char('y'),
            Msg::Export(ExportMsg::Progress {
                job,
                items: 1,
                bytes: 180,
            }),
        ],
    );
    snapshot!("export_running", s);
}

fn edit_id(effects: &[crate::app::msg::Effect]) -> (u64, String) {
    match effects {
        [Effect::Write(WriteEffect::Edit { edit, text })] => (*edit, text.clone()),
        other => panic!("{other:?}"),
    }
}

#[test]
fn writes_enabled_diff_preview_conflict_and_delete_confirmation() {
    use crate::model::engine::write::WriteFailure;
    use crate::model::item::value::AttrValue;
    let mut s = loaded(false);
    s.writes_enabled = true;
    let store = s.table.as_ref().unwrap().view.store.as_ref().unwrap();
    let user = store.collection_of("USER#u00000").unwrap();
    send(&mut s, (0..user).map(|_| press(KeyCode::Down)));
    let effects = send(&mut s, [press(KeyCode::Tab), char('e')]);
    let (edit, text) = edit_id(&effects);
    let mut v: serde_json::Value = serde_json::from_str(&text).unwrap();
    v["status"] = "RESET".into();
    v["note"] = "fixed by hand".into();
    // A number typed as a string: the diff says the type changed.
    v["total"] = v["total"].to_string().into();
    send(
        &mut s,
        [Msg::Write(WriteMsg::Edited {
            edit,
            result: Ok(v.to_string()),
        })],
    );
    snapshot!("write_diff_preview", s);
    let effects = send(&mut s, [press(KeyCode::Enter)]);
    let Effect::Write(WriteEffect::Send { write, plan }) = &effects[0] else {
        panic!("{effects:?}")
    };
    let mut current = plan.ops[0].before.clone().unwrap();
    current.insert("status", AttrValue::S("CANCELLED".into()));
    send(
        &mut s,
        [Msg::Write(WriteMsg::Written {
            write: *write,
            result: Err(WriteFailure::Conflict {
                index: 0,
                current: Some(current),
                operation: "UpdateItem",
                latency: std::time::Duration::from_millis(9),
                attempts: Default::default(),
                sent: None,
            }),
        })],
    );
    snapshot!("write_conflict", s);
    send(
        &mut s,
        [press(KeyCode::Esc), char(' '), char(' '), char('D')],
    );
    snapshot!("write_delete_confirmation", s);

    // A delete that meets a changed item: `e` has nothing to edit, so it is not offered.
    let effects = send(&mut s, [char('y')]);
    let Effect::Write(WriteEffect::Send { write, plan }) = &effects[0] else {
        panic!("{effects:?}")
    };
    let mut current = plan.ops[0].before.clone().unwrap();
    current.insert("status", AttrValue::S("CHANGED".into()));
    send(
        &mut s,
        [Msg::Write(WriteMsg::Written {
            write: *write,
            result: Err(WriteFailure::Conflict {
                index: 0,
                current: Some(current),
                operation: "DeleteItem",
                latency: std::time::Duration::from_millis(9),
                attempts: Default::default(),
                sent: None,
            }),
        })],
    );
    snapshot!("write_delete_conflict", s);
    assert!(send(&mut s, [char('e')]).is_empty());
}

/// The demo table opened from an S3 export at 120×40, its first page of files read.
fn opened_on_an_export() -> crate::app::state::State {
    let mut info = demo_info();
    info.status = "EXPORT".into();
    info.item_count = 402;
    info.size_bytes = 81_920;
    let (mut s, id) = opened_with(info);
    (s.width, s.height) = (120, 40);
    s.endpoint = "export /data/exports/AWSDynamoDB/01764586800000-a1b2c3d4".into();
    s.session.export =
        Some("export 01764586800000-a1b2c3d4 of app at 2026-12-01T11:00:00.000Z".into());
    // As the export backend sends its pages: no capacity consumed.
    let mut first = page(id, 1, demo_items(), false);
    if let Msg::Engine(crate::model::engine::EngineEvent::Page(p)) = &mut first {
        p.consumed = Default::default();
    }
    send(&mut s, [first]);
    s
}

/// Issue 24: the table view on an S3 export (`--export`), 120×40: the title names the export,
/// its table and time, and spends no RCU; the request log says it shows pages of files.
#[test]
fn the_table_view_on_an_export() {
    use ratatui::backend::TestBackend;
    use ratatui::Terminal;
    let s = opened_on_an_export();
    let mut terminal = Terminal::new(TestBackend::new(120, 40)).unwrap();
    terminal.draw(|f| super::draw(f, &s)).unwrap();
    let top: String = (0..120)
        .map(|x| terminal.backend().buffer()[(x, 0)].symbol().to_string())
        .collect();
    assert!(
        top.contains("export 01764586800000-a1b2c3d4 of app at 2026-12-01T11:00:00.000Z")
            && top.contains("no RCU · ")
            && !top.contains("on demand"),
        "{top}"
    );
    insta::assert_snapshot!("table_view_on_an_export", terminal.backend());
}

/// Issue 24: the table view on an export with a corrupt and a missing data file, 120×40: the
/// title's first mark says the export is incomplete (`N of M items read`), the status line
/// names the first file as `scan --export` does, and the request log lists each file's line
/// under the pages read.
#[test]
fn the_table_view_on_a_damaged_export() {
    use crate::app::export::damage_tests::damaged_report;
    let mut info = demo_info();
    info.status = "EXPORT".into();
    info.item_count = 303;
    let (mut s, id) = opened_with(info);
    (s.width, s.height) = (120, 40);
    s.endpoint = "export /data/exports/AWSDynamoDB/01764586800000-a1b2c3d4".into();
    s.session.export =
        Some("export 01764586800000-a1b2c3d4 of app at 2026-12-01T11:00:00.000Z".into());
    let mut first = page(id, 1, demo_items(), false);
    if let Msg::Engine(crate::model::engine::EngineEvent::Page(p)) = &mut first {
        p.consumed = Default::default();
    }
    send(&mut s, [first]);
    send(
        &mut s,
        [Msg::Engine(crate::model::engine::EngineEvent::Integrity {
            request_id: id,
            report: damaged_report(),
        })],
    );
    let buffer = super::snapshot_tests::render_sized(&s, 120, 40);
    let row = |y: u16| -> String {
        (0..120)
            .map(|x| buffer.backend().buffer()[(x, y)].symbol().to_string())
            .collect()
    };
    assert!(
        row(0).starts_with(" EXPORT INCOMPLETE: 151 of 303 items read "),
        "{}",
        row(0)
    );
    insta::assert_snapshot!("table_view_on_a_damaged_export", buffer.backend());
}

/// The refusal of a device path is longer than the dialog is wide: it wraps inside the
/// border, the dialog grows by its rows, and its end ("name a file") is drawn.
#[test]
fn the_export_dialog_wraps_a_long_refusal() {
    let mut s = loaded(false);
    send(
        &mut s,
        [char('x'), Msg::Time(TimeMsg::Clock(1_796_154_600))],
    );
    let path = "/dev/disk/by-id/nvme-Samsung_SSD_980_PRO_2TB_S6B0NL0T123456X-part1";
    {
        let view = s.table.as_mut().unwrap();
        let d = view
            .modal
            .as_mut()
            .and_then(crate::app::state::Modal::export_mut)
            .unwrap();
        d.path = path.into();
    }
    let effects = send(&mut s, [press(KeyCode::Enter)]);
    let job = match effects.as_slice() {
        [Effect::Files(FileEffect::CheckExportPath { job, .. })] => *job,
        other => panic!("{other:?}"),
    };
    send(
        &mut s,
        [Msg::Files(FileMsg::ExportPathChecked {
            job,
            result: Err(format!(
                "'{path}' is a block device, not a file; it is never replaced: name a file"
            )),
        })],
    );
    let t = render(&s);
    let b = t.backend().buffer();
    let rows: Vec<String> = (0..b.area.height)
        .map(|y| (0..b.area.width).map(|x| b[(x, y)].symbol()).collect())
        .collect();
    assert!(
        rows.iter()
            .any(|r| r.contains("never replaced: name a file")),
        "{}",
        t.backend()
    );
    insta::assert_snapshot!("export_dialog_long_refusal", t.backend());
}

/// Issue 30: the scan launcher on an export reads its files and spends nothing, so it shows no
/// RCU estimate ("≈18 RCU for a full scan") and no cost, only that no RCU is spent.
#[test]
fn the_scan_launcher_on_an_export_promises_no_rcu() {
    use ratatui::backend::TestBackend;
    use ratatui::Terminal;
    let mut s = opened_on_an_export();
    send(&mut s, [char('S')]);
    let mut terminal = Terminal::new(TestBackend::new(120, 40)).unwrap();
    terminal.draw(|f| super::draw(f, &s)).unwrap();
    let screen: String = terminal
        .backend()
        .buffer()
        .content()
        .iter()
        .map(|c| c.symbol())
        .collect();
    assert!(
        screen.contains("reads the export's files: no RCU spent"),
        "{screen}"
    );
    assert!(!screen.contains("RCU for a full scan") && !screen.contains("on demand"));
    insta::assert_snapshot!("scan_launcher_on_an_export", terminal.backend());
}

/// `X`: the dialog asks only for the path, and says what the file holds and from how many items.
#[test]
fn the_design_document_dialog() {
    let mut s = loaded(false);
    send(
        &mut s,
        [char('X'), Msg::Time(TimeMsg::Clock(1_796_154_600))],
    );
    snapshot!("design_document_dialog", s);
}
