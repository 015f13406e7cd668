//! Snapshots of issue 13's screens: marks, the export dialog and its progress.

use crossterm::event::KeyCode;

use super::snapshot_tests::render;
use crate::app::fixtures::*;
use crate::app::msg::Msg;

macro_rules! snapshot {
    ($name:expr, $state:expr) => {
        insta::assert_snapshot!($name, render(&$state).backend())
    };
}

#[test]
fn marks_and_the_export_dialog() {
    let mut s = loaded(false);
    let store = s.table.as_ref().unwrap().store.as_ref().unwrap();
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
    send(&mut s, [char('x'), Msg::Clock(1_796_154_600)]);
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
        [crate::app::msg::Effect::CheckExportPath { job, .. }] => *job,
        other => panic!("{other:?}"),
    };
    send(
        &mut s,
        [Msg::ExportPathChecked {
            job,
            result: Ok(true),
        }],
    );
    snapshot!("export_dialog_overwrite", s);
    send(
        &mut s,
        [
            char('y'),
            Msg::ExportProgress {
                job,
                items: 1,
                bytes: 180,
            },
        ],
    );
    snapshot!("export_running", s);
}
