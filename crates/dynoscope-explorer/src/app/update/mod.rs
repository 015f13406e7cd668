//! The explorer's one state transition: `update(&mut State, Msg) -> Vec<Effect>`. Pure: no I/O,
//! no clock, no terminal; the loop in `tui` performs the effects.
//!
//! Each screen or concern has its own file; this one routes a message to the file that owns it.

mod actions;
mod distribution;
mod help;
mod index_chooser;
mod open;
mod palette;
mod palette_rows;
mod pattern_check;
mod picker;
mod prompts;
mod read_events;
mod scan;
mod session;

use crate::app::input::{Key, KeyCode, Modifiers, MouseKind};

use self::actions::table_action;
use self::distribution::distribution_key;
use self::open::{described, open_table};
use self::palette::palette_key;
use self::picker::picker_key;
use self::prompts::{budget_prompt_key, prompt_key};
use self::read_events::read_event;
use self::scan::launcher_key;
use crate::app::keymap::Action;
use crate::app::msg::{
    Effect, ExportMsg, FileMsg, InputMsg, Msg, SessionMsg, TableEffect, TableMsg, TerminalEffect,
    TimeMsg, Timer, WriteMsg,
};
use crate::app::query_form::query_form_key;
use crate::app::state::{Layer, Loadable, Modal, Overlay, Screen, State};

// The feature folders' keys and news (`app::export`, `app::live`, `app::metrics`, `app::table`,
// `app::writes`) live with their state; the router and `actions` call them by these names. They
// never name this module back: what they share (the area, the layout, the help, quitting) is
// in `app::explorer`, and the read owner is `app::reads`.
use crate::app::explorer::quit;
use crate::app::export::{damage as export_damage, keys as export, run as export_run};
use crate::app::live::keys as live;
use crate::app::metrics::{insights, keys as metrics};
use crate::app::reads;
use crate::app::table::derived::{self, keep_cursors_visible};
use crate::app::table::navigation::{self, move_cursor};
use crate::app::table::{chord_keys as chord, copy, detail, log_pane, mark_keys as marks, walk};
use crate::app::writes::{bulk_keys as bulk, bulk_run, keys as writes, send as write_send};

pub use self::pattern_check::CHECK_MAX_RCU;
pub use crate::app::state::EXPLORER_PAGE_SIZE;

pub fn update(state: &mut State, msg: Msg) -> Vec<Effect> {
    let streaming = live::stream_id(state);
    let mut effects = route(state, msg);
    // Any way the live pane closes stops its stream.
    live::stop_if_closed(state, streaming, &mut effects);
    // Derived view data, once, from what the message asked; the related links last, as they
    // follow the selected item.
    derived::refresh(state);
    walk::refresh_related(state);
    effects
}

/// Each concern's messages go to the file that owns it.
fn route(state: &mut State, msg: Msg) -> Vec<Effect> {
    match msg {
        Msg::Input(input) => input_msg(state, input),
        Msg::Engine(event) => read_event(state, event),
        Msg::Tables(TableMsg::Listed(result)) => {
            state.picker.tables = Some(match result {
                Ok(names) => Loadable::Loaded(names),
                Err(e) => Loadable::Failed(e),
            });
            picker::picker_moved(state)
        }
        Msg::Tables(TableMsg::Described { table, result }) => {
            let mut effects = described(state, table, result);
            effects.extend(live::after_described(state));
            effects
        }
        Msg::Stream { id, event } => live::stream_msg(state, id, event),
        Msg::Metrics { id, result } => {
            metrics::fetched(state, id, result);
            Vec::new()
        }
        Msg::Insights {
            id,
            found,
            problems,
        } => {
            insights::fetched(state, id, found, problems);
            Vec::new()
        }
        Msg::Export(ExportMsg::Progress { job, items, bytes }) => {
            export_run::progress(state, job, items, bytes);
            Vec::new()
        }
        Msg::Export(ExportMsg::Done { job, result }) => {
            export_run::done(state, job, result);
            Vec::new()
        }
        Msg::Write(WriteMsg::Edited { edit, result }) => writes::edited(state, edit, result),
        Msg::Bulk(msg) => bulk_run::bulk_msg(state, msg),
        Msg::Write(WriteMsg::Written { write, result }) => {
            write_send::written(state, write, result)
        }
        Msg::Session(SessionMsg::Connected { generation, result }) => {
            session::connected(state, generation, result)
        }
        Msg::Files(FileMsg::PathCompletions { path, dirs }) => {
            export::completions(state, path, dirs);
            Vec::new()
        }
        Msg::Files(FileMsg::ExportPathChecked { job, result }) => {
            export::path_checked(state, job, result)
        }
        Msg::Files(FileMsg::ColumnsLoaded(result)) => {
            crate::app::column_choice::keys::loaded(state, result);
            Vec::new()
        }
        Msg::Files(FileMsg::ColumnsNotSaved(why)) => {
            crate::app::column_choice::keys::not_saved(state, why);
            Vec::new()
        }
        Msg::Time(time) => time_msg(state, time),
        Msg::PatternChecked {
            table,
            pattern,
            result,
            spent_rcu,
            stopped,
        } => pattern_check::checked(state, &table, &pattern, result, spent_rcu, stopped),
    }
}

fn input_msg(state: &mut State, input: InputMsg) -> Vec<Effect> {
    match input {
        InputMsg::Key(key) => key_event(state, key),
        InputMsg::Paste(text) => prompts::paste(state, &text),
        InputMsg::Mouse(mouse) => {
            let delta = match mouse.kind {
                MouseKind::ScrollDown => 3,
                MouseKind::ScrollUp => -3,
                _ => return Vec::new(),
            };
            // The wheel scrolls the topmost pane; dialogs and overlays let it through.
            match state.layers().into_iter().find(|l| l.scrolls()) {
                Some(Layer::Live) => live::scroll(state, delta),
                Some(Layer::Metrics) => metrics::scroll(state, delta),
                _ if state.screen == Screen::Picker => picker::scroll(state, delta),
                _ => move_cursor(state, delta),
            }
        }
        InputMsg::Resize(w, h) => {
            state.width = w;
            state.height = h;
            keep_cursors_visible(state);
            Vec::new()
        }
    }
}

fn time_msg(state: &mut State, time: TimeMsg) -> Vec<Effect> {
    match time {
        // Typing in the query form reads nothing, so a pause in it has nothing to start.
        TimeMsg::Debounced(_) => return Vec::new(),
        TimeMsg::Tick(ms) => {
            state.clock_ms = ms;
            live::tick(state);
        }
        TimeMsg::Timer(Timer::Chord(generation)) => chord::chord_expired(state, generation),
        TimeMsg::Timer(Timer::MetricsRefresh(generation)) => {
            return metrics::refresh(state, generation)
        }
        TimeMsg::Clock(secs) => export::clock(state, secs),
    }
    Vec::new()
}

/// The first effects: open `table` directly, or list tables for the picker.
pub fn start(state: &mut State, table: Option<String>) -> Vec<Effect> {
    let effects = match table {
        Some(name) => open_table(state, name),
        None => {
            state.picker.tables = Some(Loadable::Loading);
            vec![Effect::Tables(TableEffect::List)]
        }
    };
    derived::refresh(state);
    effects
}

fn key_event(state: &mut State, key: Key) -> Vec<Effect> {
    let ctrl = key.modifiers.contains(Modifiers::CONTROL);
    if ctrl && key.code == KeyCode::Char('c') {
        return quit(state);
    }
    if ctrl && key.code == KeyCode::Char('z') {
        return vec![Effect::Terminal(TerminalEffect::Suspend)];
    }
    // Top down through what is open: each layer takes the key or passes it to the one below
    // (`ui::draw` draws the same list bottom up).
    for layer in state.layers() {
        if let Some(effects) = layer_key(state, layer, key) {
            return effects;
        }
    }
    Vec::new()
}

fn layer_key(state: &mut State, layer: Layer, key: Key) -> Option<Vec<Effect>> {
    match layer {
        Layer::Overlay => overlay_key(state, key),
        Layer::ExportCancel => export::cancel_prompt_key(state, key),
        Layer::Live => Some(live::live_key(state, key)),
        Layer::Metrics => Some(metrics::metrics_key(state, key)),
        Layer::Modal => modal_key(state, key),
        Layer::Screen => Some(screen_key(state, key)),
    }
}

/// Keys nothing above the screen took: the picker's, or the table's actions.
fn screen_key(state: &mut State, key: Key) -> Vec<Effect> {
    if state.screen == Screen::Picker {
        // R and A work from the picker too: the table list is what changes.
        return match state.keymap.action(&key) {
            Some(Action::SwitchRegion) if state.picker.filter.is_empty() => {
                session::open_switcher(state, crate::app::state::SwitchKind::Region)
            }
            Some(Action::SwitchProfile) if state.picker.filter.is_empty() => {
                session::open_switcher(state, crate::app::state::SwitchKind::Profile)
            }
            _ => picker_key(state, key),
        };
    }
    if let Some(effects) = chord::chord_key(state, &key) {
        return effects;
    }
    match state.keymap.action(&key) {
        // A letter (`g`) is also the first key of `g r`; Home is only Home.
        Some(Action::Top) if matches!(key.code, KeyCode::Char(_)) => chord::top_and_arm(state),
        Some(action) => table_action(state, action),
        None => Vec::new(),
    }
}

/// Keys for what is open over everything ([`Overlay`]).
fn overlay_key(state: &mut State, key: Key) -> Option<Vec<Effect>> {
    match state.overlay.as_ref()? {
        Overlay::Help { .. } => Some(help::help_key(state, key)),
        Overlay::Sent { .. } => log_pane::sent_key(state, &key),
        Overlay::Switcher(_) => session::switcher_key(state, key),
    }
}

/// Keys for the one dialog over the table ([`Modal`]); `None` passes the key to the table.
fn modal_key(state: &mut State, key: Key) -> Option<Vec<Effect>> {
    let v = state.table.as_ref()?;
    Some(match v.modal.as_ref()? {
        Modal::Write(_) => write_send::write_key(state, key),
        Modal::Export(_) => export::export_key(state, key),
        Modal::Bulk(_) => bulk::bulk_key(state, key),
        Modal::QueryForm(_) => query_form_key(state, key),
        Modal::Palette(_) => palette_key(state, key),
        Modal::Launcher(_) => launcher_key(state, key),
        Modal::Distribution(_) => distribution_key(state, key),
        Modal::IndexChooser(_) => index_chooser::chooser_key(state, key),
        Modal::BudgetPrompt(_) => return budget_prompt_key(state, key),
        Modal::PkPrompt(_) | Modal::FilterPrompt(_) => return prompt_key(state, key),
        Modal::Columns(_) => crate::app::column_choice::keys::chooser_key(state, key),
    })
}

#[cfg(test)]
mod continue_tests;
#[cfg(test)]
mod cover_tests;
#[cfg(test)]
mod modal_tests;
#[cfg(test)]
mod paste_tests;
#[cfg(test)]
mod scan_tests;
#[cfg(test)]
mod update_tests;
