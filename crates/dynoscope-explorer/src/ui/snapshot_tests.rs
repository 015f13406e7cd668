//! Every screen in every state, drawn on a fixed 100x30 `TestBackend` and compared with insta
//! snapshots; colours that carry meaning are asserted on the buffer.

use crate::app::input::KeyCode;
use ratatui::backend::TestBackend;
use ratatui::style::Color;
use ratatui::Terminal;

use crate::app::fixtures::*;
use crate::app::msg::{Msg, TableMsg, TimeMsg};
use crate::app::state::State;
use crate::app::update::start;
use crate::model::engine::attempts::AttemptStats;
use crate::model::engine::EngineEvent;
use crate::model::item::value::{AttrValue, Item};

pub(super) fn render(state: &State) -> Terminal<TestBackend> {
    let mut terminal = Terminal::new(TestBackend::new(WIDTH, HEIGHT)).unwrap();
    terminal.draw(|f| super::draw(f, state)).unwrap();
    terminal
}

/// `render` at `width`×`height` (the state's own size should match).
pub(super) fn render_sized(state: &State, width: u16, height: u16) -> Terminal<TestBackend> {
    let mut terminal = Terminal::new(TestBackend::new(width, height)).unwrap();
    terminal.draw(|f| super::draw(f, state)).unwrap();
    terminal
}

/// Every cell's text, row after row with nothing between: for "is it on screen" checks.
pub(super) fn buffer_text(terminal: &Terminal<TestBackend>) -> String {
    terminal
        .backend()
        .buffer()
        .content()
        .iter()
        .map(|c| c.symbol())
        .collect()
}

macro_rules! snapshot {
    ($name:expr, $state:expr) => {
        insta::assert_snapshot!($name, render(&$state).backend())
    };
}

#[test]
fn picker_states() {
    let mut s = state();
    start(&mut s, None);
    snapshot!("picker_loading", s);
    send(
        &mut s,
        [Msg::Tables(TableMsg::Listed(Err(
            "cannot reach DynamoDB at http://127.0.0.1:8000: connection refused".into(),
        )))],
    );
    snapshot!("picker_error", s);
    let mut s = state();
    start(&mut s, None);
    send(&mut s, [Msg::Tables(TableMsg::Listed(Ok(vec![])))]);
    snapshot!("picker_empty", s);
    let mut s = state();
    start(&mut s, None);
    send(
        &mut s,
        [Msg::Tables(TableMsg::Listed(Ok(vec![
            "app".into(),
            "audit-log".into(),
            "orders".into(),
        ])))],
    );
    snapshot!("picker_describing", s);
    send(
        &mut s,
        [Msg::Tables(TableMsg::Described {
            table: "app".into(),
            result: Ok(demo_info()),
        })],
    );
    snapshot!("picker_loaded", s);
    send(&mut s, [char('o'), char('r')]);
    snapshot!("picker_filtered", s);
}

#[test]
fn table_states() {
    let mut s = state();
    start(&mut s, Some("app".into()));
    snapshot!("table_describing", s);
    send(&mut s, [Msg::Tables(TableMsg::Described {
        table: "app".into(),
        result: Err("table 'app' not found at http://127.0.0.1:8000; run 'dynoscope tables' to list the tables there".into()),
    })]);
    snapshot!("table_not_found", s);
    let (s, _) = opened();
    snapshot!("table_loading", s);
    snapshot!("table_partial_page", loaded(true));
    snapshot!("table_loaded", loaded(false));
}

#[test]
fn items_detail_help_and_prompt() {
    let mut s = loaded(false);
    let store = s.table.as_ref().unwrap().view.store.as_ref().unwrap();
    let celebrity = store.collection_of("USER#celebrity").unwrap();
    send(&mut s, (0..celebrity).map(|_| press(KeyCode::Down)));
    send(&mut s, [press(KeyCode::Tab)]);
    snapshot!("items_celebrity", s);
    send(&mut s, [press(KeyCode::Enter)]);
    snapshot!("detail_plain_json", s);
    send(&mut s, [char('t')]);
    snapshot!("detail_dynamodb_json", s);
    send(&mut s, [char('?')]);
    snapshot!("help", s);
    let mut s = loaded(false);
    send(&mut s, [char('p'), press(KeyCode::Enter)]);
    snapshot!("pk_prompt_error", s);
}

#[test]
fn kinds_have_their_colours_and_throttled_requests_are_red() {
    let (mut s, id) = opened();
    let Msg::Engine(EngineEvent::Page(mut p)) = page(id, 1, demo_items(), false) else {
        unreachable!()
    };
    p.attempts = AttemptStats {
        attempts: 3,
        throttles: 2,
        throttle_reason: Some("ProvisionedThroughputExceededException: hot".into()),
        reasons: vec![
            crate::model::traffic::throttle::ThrottleReason::new(
                "IndexReadKeyRangeThroughputExceeded",
                Some("arn:aws:dynamodb:us-east-1:1:table/T/index/GSI1".into()),
            );
            2
        ],
    };
    send(&mut s, [Msg::Engine(EngineEvent::Page(p))]);
    let terminal = render(&s);
    let buffer = terminal.backend().buffer();
    let log = crate::app::layout::explorer_layout(&s, buffer.area).log;
    let row_y = log.y + 2;
    let attempts = (log.x..log.x + log.width)
        .find(|&x| buffer[(x, row_y)].symbol() == "3")
        .expect("attempts cell");
    assert_eq!(
        buffer[(attempts, row_y)].fg,
        Color::Red,
        "throttled rows are red"
    );
    let row: String = (log.x..log.x + log.width)
        .map(|x| buffer[(x, row_y)].symbol().to_string())
        .collect();
    assert!(row.contains("⚠ hot key range"), "the row says why: {row}");
    // Where the terminal is wide enough, the index and the split follow.
    let mut wide = Terminal::new(TestBackend::new(160, HEIGHT)).unwrap();
    wide.draw(|f| super::draw(f, &s)).unwrap();
    let text = buffer_text(&wide);
    assert!(
        text.contains("⚠ hot key range · GSI1 · table 2.5"),
        "the row says why: {text}"
    );
    let status: String = (0..buffer.area.width)
        .map(|x| buffer[(x, buffer.area.height - 1)].symbol().to_string())
        .collect();
    assert!(
        status.contains("throttled 2 (ProvisionedThroughputExceededException: hot)"),
        "{status}"
    );
    // The kinds bar colours each kind with its own stable colour.
    let kinds_y = 1;
    let line: String = (0..buffer.area.width)
        .map(|x| buffer[(x, kinds_y)].symbol().to_string())
        .collect();
    let at = line.find("ORDER").expect("ORDER in the kinds bar") as u16;
    assert_eq!(
        buffer[(at, kinds_y)].fg,
        crate::ui::theme::kind_color("ORDER")
    );
    assert_ne!(
        crate::ui::theme::kind_color("ORDER"),
        crate::ui::theme::kind_color("USER")
    );
}

#[test]
fn hostile_item_text_is_escaped_on_screen() {
    let (mut s, id) = opened();
    let hostile = Item::from_attrs(vec![
        (
            "PK".into(),
            AttrValue::S("EVIL#\u{1b}[2J\u{1b}]0;pwned\u{7}".into()),
        ),
        ("SK".into(), AttrValue::S("X\r\n\u{202e}txt.exe".into())),
        (
            "note".into(),
            AttrValue::S("\u{1b}]52;c;ZXZpbA==\u{7}".into()),
        ),
    ]);
    send(&mut s, [page(id, 1, vec![hostile], false)]);
    send(&mut s, [press(KeyCode::Tab), press(KeyCode::Enter)]);
    let terminal = render(&s);
    let text = buffer_text(&terminal);
    assert!(
        !text.contains('\u{1b}')
            && !text.contains('\u{7}')
            && !text.contains('\r')
            && !text.contains('\u{202e}')
    );
    // The collections pane shows the sanitiser's escapes; the detail is JSON, with JSON's.
    assert!(text.contains("\\x1b[2J"), "{text}");
    assert!(text.contains(r#""SK": "X\r\n\u202etxt.exe""#), "{text}");
    snapshot!("hostile_detail", s);
}

#[test]
fn configured_part_names_and_provisioned_capacity() {
    let mut s = state();
    s.config = crate::app::config::parse(
        "price_per_million_reads = 0.25\n[[entity]]\ntable = \"app\"\npattern = \"ORDER#{date}#{orderId}\"\n",
        std::path::Path::new("/tmp/config.toml"),
    )
    .unwrap();
    start(&mut s, Some("app".into()));
    let mut info = demo_info();
    info.billing_mode = "PROVISIONED".into();
    info.provisioned = Some(crate::model::design::schema::Throughput {
        read_capacity_units: 100,
        write_capacity_units: 50,
    });
    send(
        &mut s,
        [Msg::Tables(TableMsg::Described {
            table: "app".into(),
            result: Ok(info),
        })],
    );
    let id = s.table.as_ref().unwrap().view.read.as_ref().unwrap().id;
    send(&mut s, [page(id, 1, demo_items(), false)]);
    let store = s.table.as_ref().unwrap().view.store.as_ref().unwrap();
    let celebrity = store.collection_of("USER#celebrity").unwrap();
    send(&mut s, (0..celebrity).map(|_| press(KeyCode::Down)));
    send(&mut s, [press(KeyCode::Tab)]);
    let terminal = render(&s);
    let text = buffer_text(&terminal);
    assert!(
        text.contains("date") && text.contains("orderId"),
        "configured part names as headers"
    );
    assert!(
        text.contains("provisioned at 100 RCU/s"),
        "provisioned tables show their rate"
    );
    snapshot!("items_named_parts_provisioned", s);
}

#[test]
fn query_builder_states() {
    let mut s = loaded(false);
    send(&mut s, [char(':')]);
    snapshot!("builder_empty", s);
    send(&mut s, "USER#ce".chars().map(char));
    snapshot!("builder_completing", s);
    send(
        &mut s,
        [
            press(KeyCode::Tab),
            press(KeyCode::Tab),
            press(KeyCode::Left),
            press(KeyCode::Tab),
        ],
    );
    send(&mut s, "ORDER#".chars().map(char));
    send(&mut s, [press(KeyCode::Esc)]);
    send(
        &mut s,
        [
            press(KeyCode::Tab),
            press(KeyCode::Right),
            press(KeyCode::Tab),
            press(KeyCode::Tab),
        ],
    );
    send(&mut s, "status = \"SHIPPED\"".chars().map(char));
    snapshot!("builder_explain_with_filter_warning", s);
    // A number where the key is a string is fine, but begins_with on the table's numeric-free
    // keys with an empty partition key is not: the message names the rule and the field.
    let mut s = loaded(false);
    send(&mut s, [char(':')]);
    send(
        &mut s,
        [
            press(KeyCode::Tab),
            press(KeyCode::Left),
            press(KeyCode::Left),
        ],
    );
    snapshot!("builder_invalid", s);
    let b = s.table.as_ref().unwrap().query_form().unwrap();
    assert!(b
        .check
        .as_ref()
        .is_err_and(|e| e.message.contains("cannot be empty")));
}

#[test]
fn pattern_palette() {
    let mut s = loaded(false);
    s.patterns = crate::model::design::access_pattern::parse_patterns_file(
        include_str!("../../../../assets/demo-patterns.toml"),
        "demo",
    )
    .unwrap();
    send(&mut s, [char('P')]);
    snapshot!("palette_list", s);
    send(&mut s, [press(KeyCode::Down), press(KeyCode::Enter)]);
    send(&mut s, [char('c')]);
    snapshot!("palette_params_completing", s);
    let form = s
        .table
        .as_ref()
        .unwrap()
        .palette()
        .unwrap()
        .form
        .clone()
        .unwrap();
    assert_eq!(form.completion, ["celebrity"]);
}

#[test]
fn scan_launcher_progress_and_distribution() {
    let mut s = loaded(false);
    s.config.confirm_scan_rcu = 1.0;
    send(
        &mut s,
        [
            char('S'),
            press(KeyCode::Backspace),
            char('4'),
            press(KeyCode::Tab),
            press(KeyCode::Tab),
        ],
    );
    send(&mut s, "GSI1PK = \"STATUS#SHIPPED\"".chars().map(char));
    send(&mut s, [press(KeyCode::Enter)]);
    snapshot!("scan_launcher_confirm_with_hint", s);
    send(&mut s, [press(KeyCode::Enter)]);
    let id = s.table.as_ref().unwrap().view.read.as_ref().unwrap().id;
    let Msg::Engine(EngineEvent::Page(mut p)) = page(id, 1, demo_items()[..40].to_vec(), true)
    else {
        unreachable!()
    };
    p.segment = 1;
    p.scanned_count = 400;
    // Two seconds into the scan by the engine's clock (the explorer's ticks do not count).
    p.sent_at = std::time::Duration::from_millis(1_988);
    send(
        &mut s,
        [
            Msg::Time(TimeMsg::Tick(2_000)),
            Msg::Engine(EngineEvent::Page(p)),
        ],
    );
    snapshot!("scan_progress_running", s);
    let mut s = loaded(false);
    send(&mut s, [char('K')]);
    snapshot!("key_distribution", s);
    // Issue 20: End scrolls to the histogram's last row at the bottom, and the overlay stays.
    send(&mut s, [press(KeyCode::End)]);
    snapshot!("key_distribution_end", s);
}

#[test]
fn the_status_bar_says_when_items_are_not_kept() {
    let (mut s, id) = opened();
    s.max_items = 100;
    send(&mut s, [page(id, 1, demo_items(), false)]);
    let terminal = render(&s);
    let text = buffer_text(&terminal);
    assert!(
        text.contains("230 items not kept: over --max-items 100"),
        "{text}"
    );
}

#[test]
fn a_scan_stopped_at_its_budget_and_the_prompt_for_a_new_one() {
    let mut s = loaded(false);
    s.config.confirm_scan_rcu = 1e9;
    send(&mut s, [char('S'), press(KeyCode::Backspace), char('4')]);
    send(&mut s, (0..5).map(|_| press(KeyCode::Tab)));
    send(&mut s, "5".chars().map(char));
    send(&mut s, [press(KeyCode::Enter)]);
    let id = s.table.as_ref().unwrap().view.read.as_ref().unwrap().id;
    let Msg::Engine(EngineEvent::Page(mut p)) = page(id, 1, demo_items()[..40].to_vec(), true)
    else {
        unreachable!()
    };
    p.segment = 2;
    p.scanned_count = 400;
    p.sent_at = std::time::Duration::from_millis(1_988);
    send(
        &mut s,
        [
            Msg::Engine(EngineEvent::Page(p)),
            Msg::Engine(EngineEvent::Done {
                request_id: id,
                outcome: crate::model::engine::DoneOutcome::BudgetReached,
                elapsed: std::time::Duration::from_secs(2),
            }),
        ],
    );
    snapshot!("scan_budget_reached", s);
    send(&mut s, [char('n')]);
    snapshot!("scan_budget_prompt", s);
}

/// A failure longer than the status bar keeps its cause (the end of the message) and what to
/// do, losing only its middle.
#[test]
fn a_long_failure_keeps_its_cause_in_the_status_bar() {
    let (mut s, id) = opened();
    send(&mut s, [page(id, 1, demo_items()[..10].to_vec(), true)]);
    send(
        &mut s,
        [Msg::Engine(EngineEvent::Failed {
            request_id: id,
            segment: 0,
            error: crate::model::engine::EngineError::service(
                "Scan failed: cannot reach DynamoDB at http://dynamodb-local.internal.example.com:8000: connection failed: Connection refused (os error 111)",
            ),
            attempts: Default::default(),
            elapsed: std::time::Duration::ZERO,
        })],
    );
    let text = buffer_text(&render(&s));
    assert!(
        text.contains("Connection refused (os error 111) — loaded items kept; n resumes"),
        "{text}"
    );
    snapshot!("table_read_failed_long", s);
}
