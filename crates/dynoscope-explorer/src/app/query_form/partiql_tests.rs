//! The query form's PartiQL mode driven through `update`: the mode switch, live validation,
//! Enter → the read EXPLAIN shows, the scan's confirmation, refusals and copying a dialect.

use crate::app::input::{Key, KeyCode, Modifiers};

use crate::app::fixtures::*;
use crate::app::msg::{Effect, InputMsg, Msg, ReadEffect, TerminalEffect};
use crate::app::query_form::builder_tests::{builder, builder_open, dismiss, typed};
use crate::app::state::{Field, PartiqlCheck, State};
use crate::model::engine::Operation;

fn ctrl(c: char) -> Msg {
    Msg::Input(InputMsg::Key(Key::new(
        KeyCode::Char(c),
        Modifiers::CONTROL,
    )))
}

/// The builder open in PartiQL mode with its prefilled `SELECT * FROM "app" WHERE `.
fn partiql_open() -> State {
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
            assert_eq!(spec.max_pages, None, "each shard reads to its end");
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
        crate::model::partiql::write_refusal("DELETE"),
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
fn ctrl_t_chooses_the_dialect_ctrl_y_copies() {
    let mut s = partiql_open();
    send(&mut s, typed("PK = 'USER#u00001'"));
    let copy = |s: &mut State| match send(s, [ctrl('y')]).as_slice() {
        [Effect::Terminal(TerminalEffect::Copy(text))] => text.clone(),
        other => panic!("{other:?}"),
    };
    assert!(copy(&mut s).starts_with("aws dynamodb query --table-name app"));
    send(&mut s, [ctrl('t'), ctrl('t')]);
    assert_eq!(
        copy(&mut s),
        "SELECT * FROM \"app\" WHERE \"PK\" = 'USER#u00001'"
    );
    send(&mut s, [ctrl('t')]);
    assert!(copy(&mut s).contains("boto3"));
}

#[test]
fn the_statement_completes_attribute_and_index_names() {
    let mut s = partiql_open();
    send(&mut s, typed("stat"));
    let c = builder(&s).completion.clone().expect("completions");
    assert!(c.items.iter().any(|i| i.ends_with("WHERE status")), "{c:?}");
    send(&mut s, [press(KeyCode::Tab)]);
    assert_eq!(
        builder(&s).text(Field::Statement),
        "SELECT * FROM \"app\" WHERE status"
    );
}

#[test]
fn a_partition_key_value_completes_from_the_loaded_keys() {
    let mut s = partiql_open();
    send(&mut s, typed("PK = 'USER#u0000"));
    let c = builder(&s).completion.clone().expect("completions");
    assert!(
        c.items
            .iter()
            .all(|i| i.starts_with("SELECT * FROM \"app\" WHERE PK = 'USER#u0000")),
        "{c:?}"
    );
    assert!(c.items.len() > 1, "{c:?}");
    // Another attribute's value is not a partition key.
    send(&mut s, [ctrl('u')]);
    send(
        &mut s,
        typed("SELECT * FROM \"app\" WHERE XPK = 'USER#u0000"),
    );
    assert!(builder(&s).completion.is_none());
}

#[test]
fn form_queries_offer_the_same_dialects() {
    let mut s = builder_open();
    send(&mut s, typed("USER#u00001"));
    let copy = |s: &mut State| match send(s, [ctrl('y')]).as_slice() {
        [Effect::Terminal(TerminalEffect::Copy(text))] => text.clone(),
        other => panic!("{other:?}"),
    };
    assert!(copy(&mut s).starts_with("aws dynamodb query --table-name app"));
    send(&mut s, [ctrl('t')]);
    let boto3 = copy(&mut s);
    assert!(
        boto3.contains("import boto3") && boto3.contains("USER#u00001"),
        "{boto3}"
    );
    send(&mut s, [ctrl('t')]);
    assert!(copy(&mut s).contains("@aws-sdk/client-dynamodb"));
    send(&mut s, [ctrl('t'), ctrl('t')]);
    assert!(
        copy(&mut s).starts_with("aws dynamodb query"),
        "four dialects, then round again"
    );
}

#[test]
fn a_sort_key_value_completes_within_the_pinned_partition() {
    let mut s = partiql_open();
    send(&mut s, typed("PK = 'USER#u00000' AND begins_with(SK, 'ORD"));
    let c = builder(&s).completion.clone().expect("completions");
    let head = "SELECT * FROM \"app\" WHERE PK = 'USER#u00000' AND begins_with(SK, 'ORD";
    assert!(c.items.iter().all(|i| i.starts_with(head)), "{c:?}");
    // Only USER#u00000's sort keys: every one the loaded items hold for it, and no other's.
    let store = s.table.as_ref().unwrap().view.store.as_ref().unwrap();
    let theirs: Vec<String> = (0..store.len() as u32)
        .map(|id| store.item(id))
        .filter(|i| {
            i.get("PK").map(crate::model::cell::cell_text).as_deref() == Some("USER#u00000")
        })
        .filter_map(|i| i.get("SK").map(crate::model::cell::cell_text))
        .filter(|sk| sk.starts_with("ORD"))
        .collect();
    assert!(!theirs.is_empty());
    for item in &c.items {
        let value = &item[head.len() - 3..];
        assert!(
            theirs.iter().any(|t| t.starts_with(value)),
            "{value} is not USER#u00000's"
        );
    }
    // With no partition pinned: every loaded item's sort key (products' and users').
    send(&mut s, [ctrl('u')]);
    send(&mut s, typed("SELECT * FROM \"app\" WHERE SK = 'PRO"));
    let c = builder(&s).completion.clone().expect("completions");
    assert_eq!(
        c.items,
        [
            "SELECT * FROM \"app\" WHERE SK = 'PRODUCT",
            "SELECT * FROM \"app\" WHERE SK = 'PROFILE"
        ]
    );
}

#[test]
fn keywords_complete_where_the_grammar_expects_one() {
    let mut s = partiql_open();
    send(&mut s, typed("PK = 'USER#u00000' AND SK betw"));
    let c = builder(&s).completion.clone().expect("completions");
    assert_eq!(
        c.items[0],
        "SELECT * FROM \"app\" WHERE PK = 'USER#u00000' AND SK BETWEEN"
    );
    send(&mut s, [press(KeyCode::Tab)]);
    assert_eq!(
        builder(&s).text(Field::Statement),
        "SELECT * FROM \"app\" WHERE PK = 'USER#u00000' AND SK BETWEEN"
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

#[test]
fn pgdn_scrolls_explain_to_its_last_line_and_an_edit_goes_back_to_the_top() {
    let mut s = partiql_open();
    send(
        &mut s,
        typed("PK IN ['USER#u00001', 'USER#u00002'] AND SK > 'ORDER#'"),
    );
    dismiss(&mut s);
    // boto3's snippet is longer than the pane of a short terminal.
    s.height = 16;
    send(&mut s, [ctrl('t'), ctrl('t'), ctrl('t')]);
    let (width, page) = crate::app::state::explain_area(s.width, s.height);
    let last = builder(&s).explain_rows(width) - page;
    assert!(
        last > page,
        "EXPLAIN runs past its pane: {last} rows past it, {page} rows"
    );
    send(&mut s, [press(KeyCode::PageDown)]);
    assert_eq!(builder(&s).pql.explain_scroll, page);
    send(&mut s, (0..20).map(|_| press(KeyCode::PageDown)));
    assert_eq!(
        builder(&s).pql.explain_scroll,
        last,
        "stops with the last row at the bottom"
    );
    send(&mut s, [press(KeyCode::PageUp)]);
    assert_eq!(builder(&s).pql.explain_scroll, last - page);
    send(&mut s, [ctrl('t')]);
    assert_eq!(
        builder(&s).pql.explain_scroll,
        0,
        "another dialect starts at the top"
    );
    send(&mut s, [press(KeyCode::PageDown)]);
    assert!(builder(&s).pql.explain_scroll > 0);
    send(&mut s, typed(" "));
    assert_eq!(
        builder(&s).pql.explain_scroll,
        0,
        "an edit starts at the top"
    );
    assert!(builder(&s).partiql, "PgDn is not typed into the statement");
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
