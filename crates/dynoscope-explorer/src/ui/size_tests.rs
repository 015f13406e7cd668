//! Every screen state drawn at every small terminal size (and a few degenerate ones) without a
//! panic, a snapshot of the table view at 20x6, and rapid resizes through `update`.

use crate::app::input::KeyCode;
use ratatui::backend::TestBackend;
use ratatui::Terminal;

use crate::app::fixtures::*;
use crate::app::msg::{InputMsg, Msg, TableMsg};
use crate::app::state::State;
use crate::app::update::{start, update};
use crate::model::engine::attempts::AttemptStats;
use crate::model::engine::EngineEvent;
use crate::model::item::value::{AttrValue, Item};

/// The celebrity's items, focused (the widest items pane of the demo data).
fn celebrity_items() -> State {
    let mut s = loaded(false);
    let store = s.table.as_ref().unwrap().view.store.as_ref().unwrap();
    let celebrity = store.collection_of("USER#celebrity").unwrap();
    send(&mut s, (0..celebrity).map(|_| press(KeyCode::Down)));
    send(&mut s, [press(KeyCode::Tab)]);
    s
}

fn hostile_item() -> Item {
    let mut deep = Item::from_attrs(vec![("leaf".into(), AttrValue::S("漢🦀\u{1b}[2J".into()))]);
    for level in 0..30 {
        deep = Item::from_attrs(vec![(format!("level{level}"), AttrValue::M(deep))]);
    }
    Item::from_attrs(vec![
        (
            "PK".into(),
            AttrValue::S("EVIL#\u{1b}[2J\u{1b}]0;pwned\u{7}漢字🦀".into()),
        ),
        (
            "SK".into(),
            AttrValue::S("X\r\n\u{202e}txt.exe\u{200b}\0\u{7f}\t".into()),
        ),
        ("big".into(), AttrValue::S("漢🦀x\u{1b}".repeat(2_000))),
        ("deep".into(), AttrValue::M(deep)),
        (
            "bin".into(),
            AttrValue::B(b"\x1b]52;c;ZXZpbA==\x07".to_vec()),
        ),
    ])
}

/// Every state the UI can be in that draws something different, each by name.
fn all_states() -> Vec<(&'static str, State)> {
    let mut states = Vec::new();

    let mut s = state();
    start(&mut s, None);
    states.push(("picker loading", s.clone()));
    send(
        &mut s,
        [Msg::Tables(TableMsg::Listed(Err(
            "connection refused".into()
        )))],
    );
    states.push(("picker error", s));
    let mut s = state();
    start(&mut s, None);
    send(&mut s, [Msg::Tables(TableMsg::Listed(Ok(vec![])))]);
    states.push(("picker empty", s));
    let mut s = state();
    start(&mut s, None);
    let names = (0..200).map(|i| format!("table-{i:03}")).collect();
    send(&mut s, [Msg::Tables(TableMsg::Listed(Ok(names)))]);
    states.push(("picker describing", s.clone()));
    send(
        &mut s,
        [Msg::Tables(TableMsg::Described {
            table: "table-000".into(),
            result: Ok(demo_info()),
        })],
    );
    states.push(("picker loaded", s.clone()));
    send(&mut s, [press(KeyCode::End)]);
    states.push(("picker at the end", s.clone()));
    send(&mut s, [char('1'), char('9')]);
    states.push(("picker filtered", s.clone()));
    send(&mut s, [char('?')]);
    states.push(("picker help", s));

    let mut s = state();
    start(&mut s, Some("app".into()));
    states.push(("table describing", s.clone()));
    send(
        &mut s,
        [Msg::Tables(TableMsg::Described {
            table: "app".into(),
            result: Err("table 'app' not found".into()),
        })],
    );
    states.push(("table not found", s));
    states.push(("table loading", opened().0));
    states.push(("table partial page", loaded(true)));
    let mut s = loaded(false);
    states.push(("table loaded", s.clone()));
    send(&mut s, [press(KeyCode::End)]);
    states.push(("last collection", s.clone()));
    send(&mut s, [press(KeyCode::Tab), press(KeyCode::End)]);
    states.push(("last item of the last collection", s));

    let mut s = celebrity_items();
    states.push(("items", s.clone()));
    send(&mut s, [press(KeyCode::Right), press(KeyCode::Right)]);
    states.push(("items scrolled right", s.clone()));
    send(&mut s, [press(KeyCode::End), press(KeyCode::Enter)]);
    states.push(("detail plain", s.clone()));
    send(&mut s, [press(KeyCode::End)]);
    send(&mut s, (0..40).map(|_| press(KeyCode::Down)));
    states.push(("detail scrolled", s.clone()));
    send(&mut s, [char('t')]);
    states.push(("detail dynamodb json", s.clone()));
    send(&mut s, [char('?')]);
    states.push(("help over the detail", s));

    let mut s = loaded(false);
    send(&mut s, [char('p')]);
    states.push(("pk prompt", s.clone()));
    send(&mut s, [press(KeyCode::Enter)]);
    states.push(("pk prompt error", s));
    let mut s = loaded(false);
    send(&mut s, [char('/'), char('U')]);
    states.push(("filter prompt", s));

    let mut s = loaded(false);
    send(&mut s, [char(':')]);
    states.push(("builder empty", s.clone()));
    send(&mut s, "USER#ce".chars().map(char));
    states.push(("builder completing", s.clone()));
    send(&mut s, [press(KeyCode::Tab), press(KeyCode::Tab)]);
    send(&mut s, [press(KeyCode::Left), press(KeyCode::Tab)]);
    send(&mut s, "ORDER#".chars().map(char));
    states.push(("builder sort key completing", s.clone()));
    send(&mut s, [press(KeyCode::Esc), press(KeyCode::Tab)]);
    send(&mut s, [press(KeyCode::Right), press(KeyCode::Tab)]);
    send(&mut s, [press(KeyCode::Tab)]);
    send(&mut s, "status = \"SHIPPED\"".chars().map(char));
    states.push(("builder with a filter warning", s));

    let mut s = loaded(false);
    send(&mut s, [char('K'), press(KeyCode::End)]);
    states.push(("key distribution at its end", s));
    let mut s = loaded(false);
    send(&mut s, [char('i'), press(KeyCode::Down)]);
    states.push(("index chooser", s));

    let mut s = loaded(false);
    s.patterns = crate::model::design::access_pattern::parse_patterns_file(
        include_str!("../../../../assets/demo-patterns.toml"),
        "demo",
    )
    .unwrap();
    send(&mut s, [char('P')]);
    states.push(("palette", s.clone()));
    send(
        &mut s,
        [press(KeyCode::Down), press(KeyCode::Enter), char('c')],
    );
    states.push(("palette form completing", s));

    let (mut s, id) = opened();
    let Msg::Engine(EngineEvent::Page(mut p)) = page(id, 1, vec![hostile_item()], true) else {
        unreachable!()
    };
    p.attempts = AttemptStats {
        attempts: 6,
        throttles: 5,
        throttle_reason: Some("ProvisionedThroughputExceededException".into()),
        reasons: Vec::new(),
    };
    send(&mut s, [Msg::Engine(EngineEvent::Page(p))]);
    states.push(("hostile collections", s.clone()));
    send(&mut s, [press(KeyCode::Tab)]);
    states.push(("hostile items", s.clone()));
    send(&mut s, [press(KeyCode::Enter)]);
    states.push(("hostile detail", s.clone()));
    send(&mut s, [press(KeyCode::End)]);
    send(&mut s, (0..80).map(|_| press(KeyCode::Down)));
    send(&mut s, [char('t')]);
    states.push(("hostile detail, dynamodb json, scrolled", s));
    states
}

fn draw_at(terminal: &mut Terminal<TestBackend>, state: &State, name: &str) {
    let size = terminal.backend().buffer().area;
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        terminal.draw(|f| super::draw(f, state)).map(|_| ())
    }));
    match result {
        Ok(r) => r.unwrap(),
        Err(_) => panic!(
            "drawing '{name}' at {}x{} panicked",
            size.width, size.height
        ),
    }
}

/// Draws every state at every size; sizes outside, states inside, so that every state at one
/// size shares ratatui's layout cache (the solver dominates the time in a debug build).
fn draw_every_state(widths: std::ops::RangeInclusive<u16>, extra: &[(u16, u16)]) {
    let states = all_states();
    let mut sizes: Vec<(u16, u16)> = widths.flat_map(|w| (0..=12).map(move |h| (w, h))).collect();
    sizes.extend_from_slice(extra);
    for &(w, h) in &sizes {
        let mut terminal = Terminal::new(TestBackend::new(w, h)).unwrap();
        for (name, state) in &states {
            // As the event loop does it: `update` learns the size, then the frame is drawn.
            let mut s = state.clone();
            update(&mut s, Msg::Input(InputMsg::Resize(w, h)));
            draw_at(&mut terminal, &s, name);
            // The frame drawn before `update` has seen the resize (the state still believes
            // it is 100x30), as happens between a resize and its event; a sample of sizes.
            if (w + h) % 3 == 0 {
                draw_at(&mut terminal, state, name);
            }
        }
    }
}

/// Widths 0 to 20 at heights 0 to 12 (1x1 and 20x6 among them), and a few extreme shapes.
#[test]
fn every_state_draws_at_narrow_sizes() {
    draw_every_state(0..=20, &[(300, 0), (0, 100), (2, 60)]);
}

/// Widths 21 to 40 at heights 0 to 12 (40x12 among them).
#[test]
fn every_state_draws_at_wider_small_sizes() {
    draw_every_state(21..=40, &[(250, 3), (100, 1), (100, 2)]);
}

#[test]
fn table_view_at_20x6() {
    let s = celebrity_items();
    let mut s20 = s.clone();
    update(&mut s20, Msg::Input(InputMsg::Resize(20, 6)));
    let mut terminal = Terminal::new(TestBackend::new(20, 6)).unwrap();
    terminal.draw(|f| super::draw(f, &s20)).unwrap();
    insta::assert_snapshot!("table_20x6", terminal.backend());
    // Shrinking moves scroll offsets, never the selection.
    update(&mut s20, Msg::Input(InputMsg::Resize(WIDTH, HEIGHT)));
    let (before, after) = (s.table.as_ref().unwrap(), s20.table.as_ref().unwrap());
    assert_eq!(
        before.view.collections.cursor,
        after.view.collections.cursor
    );
    assert_eq!(before.view.items.cursor, after.view.items.cursor);
    assert_eq!(before.view.focus, after.view.focus);
}

#[test]
fn rapid_resizes_keep_the_cursor_visible() {
    let sizes = [
        (100, 30),
        (20, 6),
        (1, 1),
        (200, 60),
        (40, 0),
        (33, 9),
        (0, 0),
        (120, 40),
        (21, 7),
    ];
    for (name, state) in all_states() {
        let mut s = state;
        let mut terminal = Terminal::new(TestBackend::new(WIDTH, HEIGHT)).unwrap();
        for round in 0..4 {
            for (i, &(w, h)) in sizes.iter().enumerate() {
                // Keys between resizes move cursors while the panes are tiny.
                if (round + i) % 3 == 0 {
                    update(&mut s, press(KeyCode::Down));
                }
                update(&mut s, Msg::Input(InputMsg::Resize(w, h)));
                terminal.backend_mut().resize(w, h);
                draw_at(&mut terminal, &s, name);
            }
        }
        update(&mut s, Msg::Input(InputMsg::Resize(WIDTH, HEIGHT)));
        terminal.backend_mut().resize(WIDTH, HEIGHT);
        draw_at(&mut terminal, &s, name);
        if let Some(view) = s.table.as_ref() {
            let l = crate::app::layout::explorer_layout(
                &s,
                ratatui::layout::Rect::new(0, 0, WIDTH, HEIGHT),
            );
            let c = &view.view.collections;
            assert!(
                c.cursor >= c.offset
                    && c.cursor < c.offset + crate::app::layout::list_rows(l.collections),
                "{name}: collection cursor {} off screen (offset {})",
                c.cursor,
                c.offset
            );
            let i = &view.view.items;
            if view.view.item_count() > 0 {
                assert!(
                    i.cursor >= i.offset
                        && i.cursor < i.offset + crate::app::layout::table_rows(l.main),
                    "{name}: item cursor {} off screen (offset {})",
                    i.cursor,
                    i.offset
                );
            }
        }
    }
}

/// Issue 52: the query form with a field per key attribute (five on TournamentRegionIndex) and
/// a range on the last filled one, at a sample of small shapes (the exhaustive sweep above
/// draws the same form code with a one-and-one key; it is the slowest unit test in the CI, so
/// it is not widened).
#[test]
fn the_multi_attribute_query_form_draws_at_small_sizes() {
    let mut s =
        crate::app::query_form::builder_tests::builder_open_with(matches_info(), matches_items());
    send(&mut s, [press(KeyCode::BackTab), press(KeyCode::Right)]);
    for value in ["WINTER2024", "EU-WEST", "SEMI"] {
        send(&mut s, [press(KeyCode::Tab)]);
        send(&mut s, value.chars().map(char));
    }
    // Each size costs a layout solve (about 12 ms in a debug build): a dozen shapes.
    let sizes = [
        (0, 0),
        (1, 1),
        (2, 60),
        (5, 3),
        (10, 5),
        (20, 6),
        (21, 8),
        (30, 10),
    ];
    for (w, h) in sizes
        .into_iter()
        .chain([(40, 7), (40, 12), (60, 9), (300, 2)])
    {
        let mut terminal = Terminal::new(TestBackend::new(w, h)).unwrap();
        let mut sized = s.clone();
        update(&mut sized, Msg::Input(InputMsg::Resize(w, h)));
        draw_at(&mut terminal, &sized, "the multi-attribute query form");
    }
}
