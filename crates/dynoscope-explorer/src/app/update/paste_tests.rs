//! Bracketed paste reaches every text field through one route (`prompts::paste`): the query
//! form's fields in each mode, the PartiQL statement (which keeps its lines) and parameters,
//! the scan launcher's fields, a pattern's parameters, and the prompts that had it before.
//! A one-line field takes a line break as a space.

use crate::app::input::{Key, KeyCode, Modifiers};

use crate::app::fixtures::*;
use crate::app::msg::{InputMsg, Msg};
use crate::app::query_form::builder_tests::{builder, builder_open, typed};
use crate::app::state::{Field, LauncherField, Modal, State};
use crate::model::design::access_pattern::parse_patterns_file;

fn paste(text: &str) -> Msg {
    Msg::Input(InputMsg::Paste(text.into()))
}

fn ctrl(c: char) -> Msg {
    Msg::Input(InputMsg::Key(Key::new(
        KeyCode::Char(c),
        Modifiers::CONTROL,
    )))
}

fn focus(s: &mut State, field: Field) {
    let v = s.table.as_mut().unwrap();
    let b = v.modal.as_mut().and_then(Modal::query_form_mut).unwrap();
    b.focus = field;
    b.set_text(field, "");
}

#[test]
fn every_field_of_the_query_form_takes_a_paste() {
    let mut s = builder_open();
    for field in [
        Field::Pk,
        Field::Sk,
        Field::Limit,
        Field::Filter,
        Field::Projection,
    ] {
        focus(&mut s, field);
        let effects = send(&mut s, [paste("USER#1\r\nand\x1b[2J more")]);
        assert_eq!(builder(&s).text(field), "USER#1 and[2J more", "{field:?}");
        // Pasting, like typing, reads nothing and schedules nothing (issue 31).
        assert!(effects.is_empty(), "{field:?}: {effects:?}");
    }
    // The raw mode's expression fields.
    send(&mut s, [ctrl('r')]);
    for field in [Field::RawKey, Field::RawNames, Field::RawValues] {
        focus(&mut s, field);
        send(&mut s, [paste("PK = :pk\nAND SK > :s")]);
        assert_eq!(builder(&s).text(field), "PK = :pk AND SK > :s", "{field:?}");
    }
}

#[test]
fn the_partiql_statement_keeps_its_lines_and_the_parameters_are_one_line() {
    let mut s = builder_open();
    send(&mut s, [ctrl('r'), ctrl('r')]);
    focus(&mut s, Field::Statement);
    send(&mut s, [paste("SELECT * FROM \"app\"\r\nWHERE PK = ?")]);
    assert_eq!(
        builder(&s).text(Field::Statement),
        "SELECT * FROM \"app\"\nWHERE PK = ?"
    );
    // The statement is checked as it stands after the paste, as after typing.
    assert!(
        builder(&s).pql.check.problem().is_some(),
        "a ? with no parameter"
    );
    focus(&mut s, Field::Parameters);
    send(&mut s, [paste("[\"USER#celebrity\"\n]")]);
    assert_eq!(builder(&s).text(Field::Parameters), "[\"USER#celebrity\" ]");
    assert!(
        builder(&s).pql.check.problem().is_none(),
        "{:?}",
        builder(&s).pql.check.problem()
    );
}

#[test]
fn every_field_of_the_scan_launcher_takes_a_paste() {
    let mut s = loaded(false);
    send(&mut s, [char('S')]);
    let launcher = |s: &mut State| {
        s.table
            .as_mut()
            .unwrap()
            .modal
            .as_mut()
            .and_then(Modal::launcher_mut)
            .unwrap()
            .clone()
    };
    for (field, pasted, wanted) in [
        (LauncherField::Segments, "3\n", "3 "),
        (
            LauncherField::Filter,
            "attribute_exists(x)\nAND y = 1",
            "attribute_exists(x) AND y = 1",
        ),
        (LauncherField::Projection, "PK,\r\nSK", "PK, SK"),
        (LauncherField::MaxRcu, "50", "50"),
        (LauncherField::Rate, "5", "5"),
    ] {
        {
            let v = s.table.as_mut().unwrap();
            let l = v.modal.as_mut().and_then(Modal::launcher_mut).unwrap();
            l.focus = field;
            *l.input_mut(field).unwrap() = Default::default();
        }
        send(&mut s, [paste(pasted)]);
        let l = launcher(&mut s);
        assert_eq!(
            l.input(field).unwrap().lines().join("\n"),
            wanted,
            "{field:?}"
        );
    }
    // The plan is recomputed from the pasted values: 3 segments, at most 50 RCU.
    let l = launcher(&mut s);
    let plan = l.plan.as_ref().unwrap_or_else(|e| panic!("{e:?}"));
    assert_eq!(plan.spec.segments, 3, "{plan:?}");
}

#[test]
fn a_pattern_parameter_takes_a_paste() {
    let mut s = builder_open();
    while s.table.as_ref().unwrap().query_form().is_some() {
        send(&mut s, [press(KeyCode::Esc)]);
    }
    s.patterns = parse_patterns_file(
        include_str!("../../../../../assets/demo-patterns.toml"),
        "demo",
    )
    .unwrap();
    send(
        &mut s,
        [char('P'), press(KeyCode::Down), press(KeyCode::Enter)],
    );
    send(&mut s, typed("c"));
    send(&mut s, [paste("eleb\nrity")]);
    let form = s
        .table
        .as_ref()
        .unwrap()
        .palette()
        .unwrap()
        .form
        .clone()
        .unwrap();
    assert_eq!(form.params[0].1.lines().join("\n"), "celeb rity");
}

#[test]
fn a_paste_goes_where_a_key_would_and_never_into_a_covered_dialog() {
    use crate::app::live::fixtures::live_opened;
    use crate::app::state::{Layer, Prompt};
    use crate::model::stream::ViewType;
    // A filter prompt under the live pane: the pane has the keys, so the prompt takes nothing.
    let (mut s, _) = live_opened(ViewType::NewAndOldImages);
    s.table.as_mut().unwrap().modal = Some(Modal::FilterPrompt(Prompt::default()));
    assert_eq!(s.layers().first(), Some(&Layer::Live));
    send(&mut s, [paste("USER#")]);
    let prompt = |s: &State| match s.table.as_ref().unwrap().modal.as_ref() {
        Some(Modal::FilterPrompt(p)) => p.text.clone(),
        other => panic!("{other:?}"),
    };
    assert_eq!(prompt(&s), "");
    // The pane closed, the prompt is on top again and takes it.
    s.table.as_mut().unwrap().cover = None;
    assert_eq!(s.layers().first(), Some(&Layer::Modal));
    send(&mut s, [paste("USER#")]);
    assert_eq!(prompt(&s), "USER#");
}
