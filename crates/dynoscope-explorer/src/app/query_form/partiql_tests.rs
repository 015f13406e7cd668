//! The query form's PartiQL mode driven through `update`: the mode switch, live validation,
//! Enter → the read EXPLAIN shows, the scan's confirmation, refusals, history and parameters.
//! Its completions are in `partiql_completion_tests`, its dialects and EXPLAIN's scroll in
//! `partiql_explain_tests`.

use crate::app::input::{Key, KeyCode, Modifiers};

use crate::app::fixtures::*;
use crate::app::msg::{Effect, InputMsg, Msg, ReadEffect};
use crate::app::query_form::builder_tests::{builder, builder_open, dismiss, typed};
use crate::app::state::{Field, PartiqlCheck, State};
use crate::model::engine::Operation;

pub(super) fn ctrl(c: char) -> Msg {
    Msg::Input(InputMsg::Key(Key::new(
        KeyCode::Char(c),
        Modifiers::CONTROL,
    )))
}

/// The builder open in PartiQL mode with its prefilled `SELECT * FROM "app" WHERE `.
pub(super) fn partiql_open() -> State {
    let mut s = builder_open();
    send(&mut s, [ctrl('r'), ctrl('r')]);
    s
}

fn problem(s: &State) -> String {
    builder(s)
        .pql
        .check
        .problem()
        .unwrap_or_default()
        .to_string()
}

#[test]
fn ctrl_r_cycles_form_raw_partiql_and_prefills_the_table() {
    let mut s = builder_open();
    send(&mut s, [ctrl('r')]);
    assert!(builder(&s).raw && !builder(&s).partiql);
    send(&mut s, [ctrl('r')]);
    let b = builder(&s);
    assert!(b.partiql);
    assert_eq!(b.focus, Field::Statement);
    assert_eq!(
        b.fields(&demo_info()),
        vec![Field::Statement, Field::Parameters]
    );
    assert_eq!(b.text(Field::Statement), "SELECT * FROM \"app\" WHERE ");
    // Nothing after WHERE yet: the parser's one line, not a request.
    assert!(
        matches!(b.pql.check, PartiqlCheck::Invalid(_)),
        "{:?}",
        b.pql.check
    );
    send(&mut s, [ctrl('r')]);
    let b = builder(&s);
    assert!(!b.partiql && !b.raw);
    assert_eq!(b.focus, Field::Pk);
    // Back in PartiQL mode, the statement typed is kept.
    send(&mut s, [ctrl('r'), ctrl('r')]);
    assert_eq!(
        builder(&s).text(Field::Statement),
        "SELECT * FROM \"app\" WHERE "
    );
}

#[test]
fn validation_is_live_and_names_the_bad_token() {
    let mut s = partiql_open();
    send(&mut s, typed("PK = 'USER#u00001' AND"));
    let line = problem(&s);
    assert!(!line.is_empty(), "an unfinished condition is refused");
    send(&mut s, typed(" SK > 'ORDER#'"));
    let ready = builder(&s).pql.check.ready().expect("valid").clone();
    assert!(
        ready.head[0].starts_with("Query on table 'app'"),
        "{:?}",
        ready.head
    );
    assert!(ready.head.iter().any(|l| l == "Requests as sent:"));
    assert_eq!(ready.scan_rcu, None);
    // Another table than the one open is refused with both names.
    send(&mut s, [ctrl('u')]);
    send(&mut s, typed("SELECT * FROM \"other\" WHERE PK = 'a'"));
    let line = problem(&s);
    assert!(line.contains("'other'") && line.contains("'app'"), "{line}");
}

#[test]
fn enter_runs_a_query_exactly_as_explained() {
    let mut s = partiql_open();
    send(
        &mut s,
        typed("PK = 'USER#u00001' AND begins_with(SK, 'ORDER#')"),
    );
    let planned = builder(&s).pql.check.ready().expect("valid").spec.clone();
    let effects = send(&mut s, [press(KeyCode::Enter)]);
    let spec = effects
        .iter()
        .find_map(|e| match e {
            Effect::Read(ReadEffect::Start { spec, .. }) => Some(spec.clone()),
            _ => None,
        })
        .expect("a read starts");
    assert_eq!(spec.operation, Operation::Query);
    assert_eq!(spec.key_condition, planned.key_condition);
    assert_eq!(spec.names, planned.names);
    assert_eq!(spec.values, planned.values);
    assert!(s.table.as_ref().unwrap().modal.is_none(), "the form closes");
}

#[test]
fn an_in_of_partition_keys_runs_as_the_shards_of_one_read() {
    let mut s = partiql_open();
    send(&mut s, typed("PK IN ['USER#u00001', 'USER#u00002']"));
    let effects = send(&mut s, [press(KeyCode::Enter)]);
    match effects.as_slice() {
        [.., Effect::Read(ReadEffect::Start { spec, .. })] => {
            assert_eq!(spec.operation, Operation::Query);
            assert_eq!(spec.shards.len(), 2);
            assert_eq!(spec.budget.max_pages, None, "each shard reads to its end");
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn a_scan_shaped_statement_asks_first_then_runs_as_a_guarded_scan() {
    let mut s = partiql_open();
    send(&mut s, typed("status = 'SHIPPED'"));
    let ready = builder(&s).pql.check.ready().expect("valid").clone();
    assert!(ready.scan_rcu.is_some());
    assert!(
        ready.head[0].starts_with("Scan of the whole table — estimated"),
        "{:?}",
        ready.head
    );
    let first = send(&mut s, [press(KeyCode::Enter)]);
    assert!(first.is_empty(), "the first Enter only asks: {first:?}");
    assert!(builder(&s).pql.confirming);
    // An edit withdraws the question.
    send(&mut s, [press(KeyCode::Char(' '))]);
    assert!(!builder(&s).pql.confirming);
    send(&mut s, [press(KeyCode::Enter)]);
    let effects = send(&mut s, [press(KeyCode::Enter)]);
    match effects.as_slice() {
        [.., Effect::Read(ReadEffect::Start { spec, .. })] => {
            assert_eq!(spec.operation, Operation::Scan);
            assert_eq!(spec.filter, ready.spec.filter);
        }
        other => panic!("{other:?}"),
    }
    let v = s.table.as_ref().unwrap();
    assert!(v.modal.is_none());
    assert!(
        v.view.progress.is_some(),
        "scan progress as the launcher shows it"
    );
}

#[test]
fn writes_and_untranslated_selects_are_refused_with_the_headless_line() {
    let mut s = partiql_open();
    send(&mut s, [ctrl('u')]);
    send(
        &mut s,
        typed("DELETE FROM \"app\" WHERE PK = 'a' AND SK = 'b'"),
    );
    let line = problem(&s);
    assert_eq!(
        line,
        crate::model::query::partiql::write_refusal("DELETE"),
        "the same line as `dynoscope partiql`"
    );
    let effects = send(&mut s, [press(KeyCode::Enter)]);
    assert!(effects.is_empty(), "{effects:?}");
    let notice = s.notice.clone().expect("refused on screen");
    assert!(notice.error && notice.text == line);
    assert!(
        s.table.as_ref().unwrap().query_form().is_some(),
        "kept open to fix"
    );
}

#[test]
fn a_statement_run_is_kept_in_history_and_recalled_in_partiql_mode() {
    let mut s = builder_open();
    // A form query first, so the two kinds share the table's history.
    send(&mut s, typed("USER#u00000"));
    dismiss(&mut s);
    send(&mut s, [press(KeyCode::Enter)]);
    send(&mut s, [char(':'), ctrl('r'), ctrl('r')]);
    send(
        &mut s,
        typed("PK = 'USER#u00000' AND begins_with(SK, 'ORDER#')"),
    );
    let statement = builder(&s).text(Field::Statement);
    let effects = send(&mut s, [press(KeyCode::Enter)]);
    let saved = effects.iter().find_map(|e| match e {
        Effect::Files(crate::app::msg::FileEffect::SaveHistory { entries, .. }) => {
            Some(entries.clone())
        }
        _ => None,
    });
    let saved = saved.expect("the statement is saved");
    assert_eq!(saved.len(), 2);
    assert!(saved[1].partiql && saved[1].texts == [(Field::Statement, statement.clone())]);
    // PartiQL mode recalls the statement, the form only the form query.
    send(
        &mut s,
        [char(':'), ctrl('r'), ctrl('r'), press(KeyCode::Up)],
    );
    assert_eq!(builder(&s).text(Field::Statement), statement);
    assert!(builder(&s).partiql);
    assert!(
        matches!(builder(&s).pql.check, PartiqlCheck::Ready(_)),
        "revalidated"
    );
    send(&mut s, [press(KeyCode::Up)]);
    assert_eq!(builder(&s).text(Field::Statement), statement, "the oldest");
    send(&mut s, [press(KeyCode::Down)]);
    let b = builder(&s);
    assert!(b.partiql, "past the newest: a fresh statement");
    assert_eq!(b.text(Field::Statement), "SELECT * FROM \"app\" WHERE ");
    send(&mut s, [press(KeyCode::Esc), char(':'), press(KeyCode::Up)]);
    assert!(!builder(&s).partiql);
    assert_eq!(builder(&s).text(Field::Pk), "USER#u00000");
}

/// The read Enter starts.
fn started(effects: &[Effect]) -> crate::model::engine::ReadSpec {
    effects
        .iter()
        .find_map(|e| match e {
            Effect::Read(ReadEffect::Start { spec, .. }) => Some((**spec).clone()),
            _ => None,
        })
        .expect("a read starts")
}

#[test]
fn parameters_bind_the_question_marks_as_the_literals_would() {
    let mut literal = partiql_open();
    send(
        &mut literal,
        typed("PK = 'USER#u00001' AND begins_with(SK, 'ORDER#')"),
    );
    let expected = started(&send(&mut literal, [press(KeyCode::Enter)]));

    let mut s = partiql_open();
    send(&mut s, typed("PK = ? AND begins_with(SK, ?)"));
    dismiss(&mut s);
    let line = problem(&s);
    assert!(
        line.contains("has 2 ? parameters but the parameters field gives 0 values"),
        "{line}"
    );
    send(&mut s, [press(KeyCode::Tab)]);
    assert_eq!(builder(&s).focus, Field::Parameters);
    send(&mut s, typed("[\"USER#u00001\","));
    let line = problem(&s);
    assert!(
        line.starts_with("parameters '[\"USER#u00001\",' is not JSON"),
        "the bad value named: {line}"
    );
    // A DynamoDB JSON element is typed as written.
    send(&mut s, typed(" {\"S\": \"ORDER#\"}]"));
    let ready = builder(&s).pql.check.ready().expect("bound").clone();
    let cli = &ready
        .dialects
        .iter()
        .find(|(name, _)| *name == "aws-cli (PartiQL)")
        .expect("execute-statement")
        .1;
    assert!(
        cli.contains("--parameters") && cli.contains("ORDER#"),
        "the parameters go with the statement: {cli}"
    );
    let spec = started(&send(&mut s, [press(KeyCode::Enter)]));
    assert_eq!(spec.key_condition, expected.key_condition);
    assert_eq!(spec.values, expected.values);
}

#[test]
fn the_parameters_are_kept_in_history_with_their_statement() {
    let mut s = partiql_open();
    send(&mut s, typed("PK = ?"));
    dismiss(&mut s);
    send(&mut s, [press(KeyCode::Tab)]);
    send(&mut s, typed("[\"USER#u00002\"]"));
    let effects = send(&mut s, [press(KeyCode::Enter)]);
    started(&effects);
    send(
        &mut s,
        [char(':'), ctrl('r'), ctrl('r'), press(KeyCode::Up)],
    );
    let b = builder(&s);
    assert!(b.text(Field::Statement).ends_with("WHERE PK = ?"));
    assert_eq!(b.text(Field::Parameters), "[\"USER#u00002\"]");
    assert!(
        matches!(b.pql.check, PartiqlCheck::Ready(_)),
        "{:?}",
        b.pql.check
    );
}

/// A statement nested past the parser's bound, pasted or typed into PartiQL mode, is the
/// parser's one line (it overflowed the stack: the explorer died in the alternate screen).
/// Run on a thread with a small stack, so a regression aborts rather than passing on a big one.
#[test]
fn a_deeply_nested_statement_pasted_or_typed_is_one_line_not_a_crash() {
    std::thread::Builder::new()
        .stack_size(1024 * 1024)
        .spawn(|| {
            let deep = [
                format!("{}PK = 'a'{}", "(".repeat(8_000), ")".repeat(8_000)),
                format!("{}PK = 'a'", "NOT ".repeat(30_000)),
                format!("PK = {}", "[".repeat(60_000)),
                format!("PK = {}", "{'k':".repeat(20_000)),
            ];
            for text in deep {
                let mut s = partiql_open();
                send(&mut s, [Msg::Input(InputMsg::Paste(text.clone()))]);
                let line = problem(&s);
                assert!(line.contains("nested deeper than 64 levels"), "{line}");
            }
            let mut s = partiql_open();
            send(&mut s, typed(&"(".repeat(300)));
            send(&mut s, typed("PK = 'a'"));
            let line = problem(&s);
            assert!(line.contains("nested deeper than 64 levels"), "{line}");
        })
        .unwrap()
        .join()
        .unwrap();
}

/// A write smuggled behind comments (`--` ended by CR as DynamoDB ends it, a `/* */` block) is
/// a write to the explorer too, pasted as it would be: refused, nothing sent.
#[test]
fn a_write_hidden_by_comments_is_refused_as_a_write() {
    let mut s = partiql_open();
    send(&mut s, [ctrl('u')]);
    send(
        &mut s,
        [Msg::Input(InputMsg::Paste(
            "--\rUPDATE \"app\" SET a = 666 WHERE PK = 'x' /*\nSELECT * FROM \"app\" WHERE a IS NULL */"
                .into(),
        ))],
    );
    let line = problem(&s);
    assert_eq!(
        line,
        crate::model::query::partiql::write_refusal("UPDATE"),
        "{line}"
    );
    let effects = send(&mut s, [press(KeyCode::Enter)]);
    assert!(effects.is_empty(), "{effects:?}");
}
