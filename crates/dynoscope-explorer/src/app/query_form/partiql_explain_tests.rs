//! The dialects EXPLAIN shows and Ctrl-Y copies, in PartiQL and form mode, and PgUp/PgDn
//! scrolling PartiQL mode's EXPLAIN.

use crate::app::input::KeyCode;

use super::partiql_tests::{ctrl, partiql_open};
use crate::app::fixtures::*;
use crate::app::msg::{Effect, TerminalEffect};
use crate::app::query_form::builder_tests::{builder, builder_open, dismiss, typed};
use crate::app::state::State;

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
