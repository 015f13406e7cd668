//! The live pane: opening it starts following the table's stream, its news is counted, ticks
//! move its windows on, and its keys switch window and ranking, follow a collection, pause,
//! and open a change. Whatever closes the pane (Esc, `T`, another table) stops the stream:
//! [`stop_if_closed`] runs after every message.

use crate::app::input::{Key, KeyCode, Modifiers};

use super::layout::{detail_rows, live_layout, tail_rows};
use crate::app::explorer::{area, open_help, quit};
use crate::app::keymap::Action;
use crate::app::msg::{Effect, LiveEffect, StreamMsg};
use crate::app::state::{
    detail_line_count, ChangeDetail, CoverPane, LiveStatus, LiveView, Loadable, Notice, State,
};
use crate::model::design::entity::SEPARATORS;
use crate::model::engine::stream::{StreamEvent, StreamOutcome, StreamStart};
use crate::model::stream::{LiveConfig, Timeline, Window};

/// The stream the open live pane follows.
pub(crate) fn stream_id(state: &State) -> Option<u64> {
    Some(state.table.as_ref()?.live()?.stream_id)
}

fn live_mut(state: &mut State) -> Option<&mut LiveView> {
    state.table.as_mut()?.live_mut()
}

/// After any message: the stream of a pane that is gone (closed, or its table left) is stopped.
pub(crate) fn stop_if_closed(state: &State, before: Option<u64>, effects: &mut Vec<Effect>) {
    if let Some(id) = before {
        if stream_id(state) != Some(id) {
            effects.push(Effect::Live(LiveEffect::Stop(id)));
        }
    }
}

/// `W`: opens the pane and starts following the stream from now on. Before the table is
/// described the pane opens as soon as it is.
pub(crate) fn open_live(state: &mut State) -> Vec<Effect> {
    let now = state.clock_ms;
    let config = LiveConfig {
        tail_changes: state.config.live_tail_changes,
        ..LiveConfig::default()
    };
    let id = state.next_request_id;
    let Some(view) = state.table.as_mut() else {
        return Vec::new();
    };
    if view.live().is_some() {
        return Vec::new();
    }
    let Some(info) = view.info.loaded() else {
        // `--live`, or `W` pressed while the table is being described.
        state.open_live = true;
        return Vec::new();
    };
    let separator = view
        .view
        .store
        .as_ref()
        .map_or(SEPARATORS[0], |store| store.separator());
    // It takes the slot: a metrics pane open there closes.
    view.cover = Some(CoverPane::Live(Box::new(LiveView::new(
        id, info, config, now, separator,
    ))));
    state.next_request_id += 1;
    state.open_live = false;
    vec![Effect::Live(LiveEffect::Start {
        id,
        table: view.name.clone(),
        from: StreamStart::Latest,
    })]
}

/// The table's description arrived: open the pane if `--live` (or an early `W`) asked for it.
pub(crate) fn after_described(state: &mut State) -> Vec<Effect> {
    if !state.open_live {
        return Vec::new();
    }
    match state.table.as_ref().map(|v| &v.info) {
        Some(Loadable::Loaded(_)) => open_live(state),
        // Another table's description (the picker's): still waiting for this one.
        Some(Loadable::Loading) => Vec::new(),
        // The table could not be described: there is nothing to follow.
        _ => {
            state.open_live = false;
            Vec::new()
        }
    }
}

pub(crate) fn tick(state: &mut State) {
    let now = state.clock_ms;
    if let Some(live) = live_mut(state) {
        live.advance(now);
    }
}

pub(crate) fn stream_msg(state: &mut State, id: u64, event: StreamMsg) -> Vec<Effect> {
    let now = state.clock_ms;
    let Some(live) = live_mut(state).filter(|l| l.stream_id == id) else {
        // A stopped stream's last news, or a pane since closed: stale.
        return Vec::new();
    };
    let notice = match event {
        StreamMsg::Found {
            view_type,
            timeline,
        } => {
            live.view_type = view_type.or(live.view_type);
            if let Timeline::Recorded { from_ms, to_ms } = timeline {
                live.set_recorded(from_ms, to_ms);
            }
            None
        }
        StreamMsg::Unavailable(message) => {
            live.status = LiveStatus::Unavailable(message.clone());
            Some((message, false))
        }
        StreamMsg::Event(event) => match event {
            StreamEvent::Ready { .. } => {
                live.status = LiveStatus::Reading;
                None
            }
            StreamEvent::ShardOpened { .. } => {
                live.shards += 1;
                None
            }
            StreamEvent::ShardClosed { .. } => {
                live.shards = live.shards.saturating_sub(1);
                None
            }
            StreamEvent::Changes { changes, .. } => {
                live.observe(changes, now);
                // A recording's clock does not tick on: what arrived is shown at once.
                if live.timeline().is_recorded() {
                    live.refresh(now);
                }
                None
            }
            StreamEvent::Failed { error } => {
                live.status = LiveStatus::Failed(error.message.clone());
                Some((format!("the stream read failed: {}", error.message), true))
            }
            StreamEvent::Done { outcome } => {
                live.status = LiveStatus::Ended;
                (outcome == StreamOutcome::StreamDisabled).then(|| {
                    (
                        "the table's stream was disabled, and every shard has been read to its end"
                            .to_string(),
                        false,
                    )
                })
            }
        },
    };
    if let Some((text, error)) = notice {
        state.notice = Some(Notice { text, error });
    }
    Vec::new()
}

/// The mouse wheel: moves the tail list's cursor (or scrolls an open change).
pub(crate) fn scroll(state: &mut State, delta: isize) -> Vec<Effect> {
    let layout = live_layout(area(state));
    let (rows, lines) = (tail_rows(&layout), detail_rows(&layout));
    if let Some(live) = live_mut(state) {
        move_in(live, delta, rows, lines);
    }
    Vec::new()
}

fn move_in(live: &mut LiveView, delta: isize, rows: usize, detail_lines: usize) {
    match live.detail.as_mut() {
        Some(d) => {
            let max = d.line_count.saturating_sub(detail_lines) as isize;
            d.scroll = (d.scroll.min(max as usize) as isize)
                .saturating_add(delta)
                .clamp(0, max) as usize;
        }
        None => {
            let len = live.shown_tail().len();
            live.tail.move_by(delta, len, rows);
        }
    }
}

/// Keys while the pane is open (it is modal): see the help's "Live pane" line.
pub(crate) fn live_key(state: &mut State, key: Key) -> Vec<Effect> {
    let now = state.clock_ms;
    let layout = live_layout(area(state));
    let (rows, lines) = (tail_rows(&layout), detail_rows(&layout));
    let action = state.keymap.action(&key);
    let plain = !key
        .modifiers
        .intersects(Modifiers::CONTROL | Modifiers::ALT);
    let step = |action: Option<Action>| -> Option<isize> {
        Some(match action? {
            Action::Up => -1,
            Action::Down => 1,
            Action::PageUp => -(rows.max(1) as isize),
            Action::PageDown => rows.max(1) as isize,
            Action::Top => isize::MIN / 2,
            Action::Bottom => isize::MAX / 2,
            _ => return None,
        })
    };
    match action {
        Some(Action::Quit) => return quit(state),
        Some(Action::Help) => return open_help(state),
        _ => {}
    }
    let Some(live) = live_mut(state) else {
        return Vec::new();
    };
    if live.detail.is_some() {
        match (key.code, step(action)) {
            (_, Some(delta)) => move_in(live, delta, rows, lines),
            (KeyCode::Esc | KeyCode::Enter | KeyCode::Backspace, _) => live.detail = None,
            _ => {}
        }
        return Vec::new();
    }
    let mut notice = None;
    if let (KeyCode::Char('1' | '5' | 't'), true, Timeline::Recorded { from_ms, to_ms }) =
        (key.code, plain, live.timeline())
    {
        let at = |ms: u64| crate::model::stream::change_json::rfc3339(ms as i64);
        state.notice = Some(Notice {
            text: format!(
                "the window is the export's, from {} to {}: every change in it is ranked",
                at(from_ms),
                at(to_ms)
            ),
            error: false,
        });
        return Vec::new();
    }
    match key.code {
        KeyCode::Char('1') if plain => live.set_window(Window::OneMinute, now),
        KeyCode::Char('5') if plain => live.set_window(Window::FiveMinutes, now),
        KeyCode::Char('t') if plain => live.set_window(live.window.toggled(), now),
        KeyCode::Char('p') | KeyCode::Char(' ') if plain => live.toggle_pause(now),
        KeyCode::Char('f') if plain => {
            let was = live.follow.as_ref().map(|f| f.key.clone());
            notice = Some(match (live.toggle_follow(), was) {
                (Some(key), _) => format!("following the collection '{key}': only its changes"),
                (None, Some(key)) => format!("stopped following '{key}': every change"),
                (None, None) => "no change under the cursor to follow yet".to_string(),
            });
        }
        KeyCode::Tab => live.cycle_target(true, now),
        KeyCode::BackTab => live.cycle_target(false, now),
        KeyCode::Enter => {
            if let Some(change) = live.tail_row(live.tail.cursor).cloned() {
                live.detail = Some(ChangeDetail {
                    line_count: detail_line_count(&change),
                    change,
                    scroll: 0,
                });
            }
        }
        KeyCode::Esc => {
            // The stream stops after this message (`stop_if_closed`).
            if let Some(view) = state.table.as_mut() {
                view.cover = None;
            }
        }
        _ => {
            if let Some(delta) = step(action) {
                move_in(live, delta, rows, lines);
            }
        }
    }
    if let Some(text) = notice {
        state.notice = Some(Notice { text, error: false });
    }
    Vec::new()
}
