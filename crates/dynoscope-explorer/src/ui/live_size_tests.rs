//! The live pane in each of its states drawn at every small terminal size without a panic, and
//! hostile stream data (escape sequences, bidi overrides, control characters in keys and
//! values) shown as visible escapes, never reaching the terminal.

use crate::app::input::KeyCode;
use ratatui::backend::TestBackend;
use ratatui::Terminal;

use crate::app::fixtures::{char, press, send};
use crate::app::live::fixtures::*;
use crate::app::msg::{InputMsg, Msg, StreamMsg};
use crate::app::state::State;
use crate::app::update::update;
use crate::model::engine::stream::StreamEvent;
use crate::model::engine::EngineError;
use crate::model::stream::{ChangeEvent, ViewType};

fn hostile() -> crate::model::stream::Change {
    change(
        ChangeEvent::Modify,
        "EVIL#\u{1b}[2J\u{1b}]0;pwned\u{7}漢字🦀",
        "X\r\n\u{202e}txt.exe\u{200b}\0",
        Some(&[("note\u{1b}[31m", "old\u{1b}]52;c;ZXZpbA==\u{7}")]),
        Some(&[("note\u{1b}[31m", "new\u{202e}\u{1b}[2J")]),
    )
}

fn states() -> Vec<(&'static str, State)> {
    let mut out = Vec::new();
    let mut s = crate::app::fixtures::loaded(false);
    send(&mut s, [char('W')]);
    out.push(("connecting", s));
    let (mut s, id) = live_opened(ViewType::NewAndOldImages);
    feed_mix(&mut s, id, 50, 4);
    send(&mut s, [changes_msg(id, vec![hostile()])]);
    down(&mut s, 2);
    out.push(("reading", s.clone()));
    send(
        &mut s,
        [press(KeyCode::Tab), char('5'), char('f'), char('p')],
    );
    out.push(("gsi, following, paused", s.clone()));
    send(
        &mut s,
        [char('f'), press(KeyCode::Home), press(KeyCode::Enter)],
    );
    out.push(("hostile change open", s));
    let (mut s, id) = live_opened(ViewType::KeysOnly);
    send(&mut s, [changes_msg(id, vec![keys_only(mix(0))])]);
    out.push(("keys only", s.clone()));
    send(
        &mut s,
        [Msg::Stream {
            id,
            event: StreamMsg::Event(StreamEvent::Failed {
                error: EngineError::service("AccessDeniedException: not allowed"),
            }),
        }],
    );
    out.push(("failed", s));
    let (mut s, id) = live_opened(ViewType::NewAndOldImages);
    send(
        &mut s,
        [Msg::Stream {
            id,
            event: StreamMsg::Unavailable(crate::model::engine::no_stream_message("app")),
        }],
    );
    out.push(("no stream", s));
    out
}

#[test]
fn every_live_state_draws_at_every_small_size() {
    let states = states();
    let mut sizes: Vec<(u16, u16)> = (0..=40)
        .flat_map(|w| (0..=12).map(move |h| (w, h)))
        .collect();
    sizes.extend_from_slice(&[(300, 0), (0, 100), (2, 60), (250, 3), (100, 1), (61, 17)]);
    for &(w, h) in &sizes {
        let mut terminal = Terminal::new(TestBackend::new(w, h)).unwrap();
        for (name, state) in &states {
            let mut s = state.clone();
            update(&mut s, Msg::Input(InputMsg::Resize(w, h)));
            // Keys while tiny: the cursor and a change's scroll stay in range.
            update(&mut s, press(KeyCode::Down));
            update(&mut s, press(KeyCode::PageDown));
            let drawn = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                terminal.draw(|f| super::draw(f, &s)).map(|_| ())
            }));
            assert!(
                matches!(drawn, Ok(Ok(()))),
                "drawing '{name}' at {w}x{h} failed"
            );
        }
    }
}

#[test]
fn hostile_stream_data_never_reaches_the_terminal() {
    for (name, state) in states() {
        let terminal = super::snapshot_tests::render(&state);
        let buffer = terminal.backend().buffer();
        for cell in buffer.content() {
            assert!(
                !cell
                    .symbol()
                    .chars()
                    .any(|c| c.is_control() || c == '\u{202e}' || c == '\u{200b}'),
                "'{name}': a raw control or format character in a cell: {:?}",
                cell.symbol()
            );
        }
        if name == "reading" || name == "hostile change open" {
            let text: String = buffer.content().iter().map(|c| c.symbol()).collect();
            assert!(text.contains("EVIL#\\x1b[2J"), "'{name}': {text}");
        }
    }
}
