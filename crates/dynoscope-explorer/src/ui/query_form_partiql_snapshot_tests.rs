//! The query form's PartiQL mode at 120×40: a Query's EXPLAIN, a scan-shaped statement asking
//! for confirmation, the dialects, and the parser's one-line error.

use crate::app::input::{Key, KeyCode, Modifiers};
use ratatui::backend::TestBackend;
use ratatui::Terminal;

use crate::app::fixtures::*;
use crate::app::msg::{InputMsg, Msg};
use crate::app::state::State;
use crate::model::engine::{DoneOutcome, EngineEvent};

fn ctrl(c: char) -> Msg {
    Msg::Input(InputMsg::Key(Key::new(
        KeyCode::Char(c),
        Modifiers::CONTROL,
    )))
}

fn render(s: &State) -> Terminal<TestBackend> {
    let mut terminal = Terminal::new(TestBackend::new(120, 40)).unwrap();
    terminal.draw(|f| super::draw(f, s)).unwrap();
    terminal
}

/// Table `app` loaded, the builder in PartiQL mode, `where` typed after its prefilled SELECT.
fn statement(where_: &str) -> State {
    let (mut s, id) = opened();
    send(
        &mut s,
        [
            page(id, 1, demo_items(), false),
            Msg::Engine(EngineEvent::Done {
                request_id: id,
                outcome: DoneOutcome::Complete,
                elapsed: std::time::Duration::ZERO,
            }),
            char(':'),
            ctrl('r'),
            ctrl('r'),
        ],
    );
    send(&mut s, where_.chars().map(char));
    assert!(s.table.as_ref().unwrap().query_form().unwrap().partiql);
    s
}

/// Esc on open completions hides them (on none it would close the builder).
fn dismiss(s: &mut State) {
    if s.table
        .as_ref()
        .unwrap()
        .query_form()
        .unwrap()
        .completion
        .is_some()
    {
        send(s, [press(KeyCode::Esc)]);
    }
}

#[test]
fn a_query_statement_and_its_explain() {
    let s = statement("PK = 'USER#u00001' AND begins_with(SK, 'ORDER#')");
    insta::assert_snapshot!("partiql_query", render(&s).backend());
}

#[test]
fn explain_shows_each_dialect_in_turn() {
    let mut s = statement("PK IN ['USER#u00001', 'USER#u00002'] AND SK > 'ORDER#'");
    send(&mut s, [ctrl('t'), ctrl('t'), ctrl('t')]);
    insta::assert_snapshot!("partiql_dialect_boto3", render(&s).backend());
    send(&mut s, [ctrl('t')]);
    insta::assert_snapshot!("partiql_dialect_javascript", render(&s).backend());
}

#[test]
fn a_scan_shaped_statement_asks_with_its_estimate() {
    let mut s = statement("status = 'SHIPPED'");
    send(&mut s, [press(KeyCode::Enter)]);
    insta::assert_snapshot!("partiql_scan_confirming", render(&s).backend());
}

#[test]
fn the_parsers_error_is_under_the_statement() {
    let s = statement("PK = 'a' AND AND");
    insta::assert_snapshot!("partiql_invalid", render(&s).backend());
}

#[test]
fn an_or_of_partition_keys_explains_as_queries() {
    let s = statement("(PK = 'USER#u00001' OR PK = 'USER#u00002') AND SK > 'ORDER#'");
    insta::assert_snapshot!("partiql_or_as_queries", render(&s).backend());
}

#[test]
fn a_sort_key_value_completes_within_the_pinned_partition() {
    let s = statement("PK = 'USER#u00000' AND SK BETWEEN 'ORDER#2025");
    insta::assert_snapshot!("partiql_sort_key_completion", render(&s).backend());
}

#[test]
fn the_parameters_field_binds_the_question_marks() {
    let mut s = statement("PK = ? AND begins_with(SK, ?)");
    dismiss(&mut s);
    send(&mut s, [press(KeyCode::Tab)]);
    send(&mut s, "[\"USER#u00001\", \"ORDER#\"]".chars().map(char));
    insta::assert_snapshot!("partiql_parameters", render(&s).backend());
}

/// On a terminal too short for EXPLAIN, PgDn shows its next rows, and the last PgDn puts the
/// last row at the bottom: the rows `update` counts are the rows drawn.
#[test]
fn pgdn_scrolls_explain_to_its_last_row() {
    let mut s = statement("PK IN ['USER#u00001', 'USER#u00002'] AND SK > 'ORDER#'");
    dismiss(&mut s);
    s.height = 24;
    send(
        &mut s,
        [ctrl('t'), ctrl('t'), ctrl('t'), press(KeyCode::PageDown)],
    );
    let short = |s: &State| {
        let mut terminal = Terminal::new(TestBackend::new(120, 24)).unwrap();
        terminal.draw(|f| super::draw(f, s)).unwrap();
        terminal
    };
    insta::assert_snapshot!("partiql_explain_scrolled", short(&s).backend());
    send(&mut s, (0..10).map(|_| press(KeyCode::PageDown)));
    let screen = format!("{:?}", short(&s).backend());
    let b = s.table.as_ref().unwrap().query_form().unwrap();
    let (width, rows) = crate::app::state::explain_area(120, 24);
    let total = b.explain_rows(width);
    assert!(
        screen.contains(&format!("rows {}–{total} of {total}", total - rows + 1)),
        "{screen}"
    );
    assert!(
        screen.contains("print(json.dumps(item))"),
        "the last row shows"
    );
}
