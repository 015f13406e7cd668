//! `X`: the design document of what is loaded, through the export dialog's path check and
//! start, with nothing read for it.

use crate::app::input::KeyCode;

use crate::app::fixtures::*;
use crate::app::keymap::Action;
use crate::app::msg::{Effect, ExportEffect, FileEffect, FileMsg, Msg, TimeMsg};
use crate::app::state::{ExportField, ExportScope, State};
use crate::model::exports::export::ExportFormat;

fn view(s: &State) -> &crate::app::state::OpenTable {
    s.table.as_ref().unwrap()
}

#[test]
fn x_writes_the_design_of_everything_loaded_to_the_path_named() {
    let mut s = loaded(false);
    let loaded_items = view(&s).view.store.as_ref().unwrap().len();
    let effects = send(&mut s, [char('X')]);
    assert!(
        matches!(
            effects.as_slice(),
            [Effect::Export(ExportEffect::ReadClock)]
        ),
        "{effects:?}"
    );
    send(&mut s, [Msg::Time(TimeMsg::Clock(1_796_154_600))]);
    let d = view(&s).export().unwrap();
    assert!(d.design);
    assert_eq!(d.scope, ExportScope::Loaded);
    assert_eq!(d.path, "./app-design-20261201T195000Z.md");
    // Only the path is asked for: the keys that would choose a scope or format stay there.
    send(&mut s, [press(KeyCode::Up), press(KeyCode::Up)]);
    let d = view(&s).export().unwrap();
    assert_eq!(
        (d.field, d.format),
        (ExportField::Path, ExportFormat::Jsonl)
    );
    send(
        &mut s,
        [press(KeyCode::Backspace), press(KeyCode::Backspace)],
    );
    send(&mut s, [char('t'), char('x'), char('t')]);
    let effects = send(&mut s, [press(KeyCode::Enter)]);
    let [Effect::Files(FileEffect::CheckExportPath { job, path })] = effects.as_slice() else {
        panic!("{effects:?}")
    };
    assert_eq!(path, "./app-design-20261201T195000Z.txt");
    let job = *job;
    let effects = send(
        &mut s,
        [Msg::Files(FileMsg::ExportPathChecked {
            job,
            result: Ok(false),
        })],
    );
    // One effect: the file is written from the items loaded, and no read is started.
    let [Effect::Export(ExportEffect::Start(request))] = effects.as_slice() else {
        panic!("{effects:?}")
    };
    assert_eq!(
        request.design.as_ref().map(|i| i.name.as_str()),
        Some("app")
    );
    assert_eq!(request.items.len(), loaded_items);
    assert!(!request.stream);
    // While it is written, Esc (with nothing else to close) offers to cancel it, and y does.
    assert!(view(&s).export_job.is_some());
    send(&mut s, [press(KeyCode::Esc)]);
    assert!(view(&s).export_job.as_ref().unwrap().confirm_cancel);
    let effects = send(&mut s, [char('y')]);
    assert!(
        effects
            .iter()
            .any(|e| matches!(e, Effect::Export(ExportEffect::Cancel { .. }))),
        "{effects:?}"
    );
}

#[test]
fn the_design_document_is_an_action_of_the_palette_with_its_key() {
    assert_eq!(
        Action::from_name("design_document"),
        Some(Action::DesignDocument)
    );
    assert_eq!(Action::DesignDocument.default_keys(), ["X"]);
    assert_eq!(Action::ALL.last(), Some(&Action::DesignDocument));
}
