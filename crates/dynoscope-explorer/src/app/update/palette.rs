//! The palette (`Ctrl-P`, or `P` for its access patterns): type to filter every action and the
//! table's patterns, Enter runs the highlighted one (an action through the same dispatch its
//! key goes through; a pattern after its parameters, a write-sharded one as one read with a
//! segment per shard).

use std::collections::BTreeMap;

use crate::app::input::{Key, KeyCode, Modifiers};

use super::actions::table_action;
use super::palette_rows::rows;
use crate::app::explorer::area;
use crate::app::layout::{palette_popup, palette_rows};
use crate::app::msg::Effect;
use crate::app::query_form::MAX_COMPLETIONS;
use crate::app::reads::start;
use crate::app::state::{
    Modal, Notice, Palette, PaletteEntry, PaletteScope, ParamForm, ReadOrigin, State,
};
use crate::model::query::completion::complete_key;

/// Rows the palette remembers as recently run.
const RECENT_KEPT: usize = 20;

pub(super) fn open_palette(state: &mut State, scope: PaletteScope) -> Vec<Effect> {
    let Some(v) = state.table.as_ref() else {
        return Vec::new();
    };
    if scope == PaletteScope::Patterns && !state.patterns.iter().any(|p| p.table == v.name) {
        state.notice = Some(Notice {
            text: format!(
                "no access patterns for '{}'; declare [[pattern]] in the config file or pass --patterns FILE",
                v.name
            ),
            error: true,
        });
        return Vec::new();
    }
    let rows = rows(state, scope, "");
    state.table.as_mut().expect("checked").modal = Some(Modal::Palette(Palette {
        scope,
        rows,
        ..Default::default()
    }));
    Vec::new()
}

/// The palette over the open table, if it is the open modal.
fn shown_palette(state: &mut State) -> Option<&mut Palette> {
    state
        .table
        .as_mut()
        .and_then(|v| v.modal.as_mut().and_then(Modal::palette_mut))
}

pub(super) fn palette_key(state: &mut State, key: Key) -> Vec<Effect> {
    let Some(p) = shown_palette(state) else {
        return Vec::new();
    };
    let Some(form) = p.form.as_mut() else {
        return list_key(state, key);
    };
    let ctrl_o = key.code == KeyCode::Char('o') && key.modifiers.contains(Modifiers::CONTROL);
    match key.code {
        _ if ctrl_o => state.queries.completion_order = state.queries.completion_order.toggled(),
        // Closes the completions until the next key (refreshing them here would list them
        // again, and Esc would never leave the form).
        KeyCode::Esc if !form.completion.is_empty() => {
            form.completion.clear();
            return Vec::new();
        }
        KeyCode::Esc => p.form = None,
        KeyCode::Tab | KeyCode::Enter if !form.completion.is_empty() => {
            let value = form.completion[form.selected].clone();
            let mut area = ratatui_textarea::TextArea::from([value]);
            area.move_cursor(ratatui_textarea::CursorMove::End);
            form.params[form.focus].1 = area;
            form.completion.clear();
            return Vec::new();
        }
        KeyCode::Up if !form.completion.is_empty() => {
            form.selected = (form.selected + form.completion.len() - 1) % form.completion.len()
        }
        KeyCode::Down if !form.completion.is_empty() => {
            form.selected = (form.selected + 1) % form.completion.len()
        }
        KeyCode::Tab | KeyCode::Down => form.focus = (form.focus + 1) % form.params.len().max(1),
        KeyCode::BackTab | KeyCode::Up => {
            let n = form.params.len().max(1);
            form.focus = (form.focus + n - 1) % n
        }
        KeyCode::Enter => return run_pattern(state),
        _ => {
            if let Some((_, input)) = form.params.get_mut(form.focus) {
                input.input(key);
                form.error = None;
            }
        }
    }
    refresh_form(state);
    Vec::new()
}

/// Pasted text into what is typed over the list, or into the focused parameter (one line), as
/// if typed.
pub(super) fn paste(state: &mut State, text: &str) -> Vec<Effect> {
    let Some(p) = shown_palette(state) else {
        return Vec::new();
    };
    let Some(form) = p.form.as_mut() else {
        crate::app::text_input::paste_line(&mut p.query, text);
        refilter(state);
        return Vec::new();
    };
    if let Some((_, input)) = form.params.get_mut(form.focus) {
        if crate::app::text_input::paste_area(input, text, false) {
            form.error = None;
        }
    }
    refresh_form(state);
    Vec::new()
}

/// Keys over the list: typing filters it, ↑/↓ choose, Enter runs, Ctrl-K checks a pattern, Esc
/// stops a running check or closes.
fn list_key(state: &mut State, key: Key) -> Vec<Effect> {
    let height = palette_rows(palette_popup(area(state)));
    let ctrl = key.modifiers.contains(Modifiers::CONTROL);
    let Some(p) = shown_palette(state) else {
        return Vec::new();
    };
    let len = p.rows.len();
    match key.code {
        KeyCode::Char('k') if ctrl => return super::pattern_check::check_highlighted(state),
        KeyCode::Char('u') if ctrl => p.query.clear(),
        KeyCode::Esc => return super::pattern_check::stop_or_close(state),
        KeyCode::Up => p.list.move_by(-1, len, height),
        KeyCode::Down => p.list.move_by(1, len, height),
        KeyCode::PageUp => p.list.move_by(-(height as isize), len, height),
        KeyCode::PageDown => p.list.move_by(height as isize, len, height),
        KeyCode::Enter => return run_highlighted(state),
        KeyCode::Backspace => {
            p.query.pop();
        }
        KeyCode::Char(c) if !ctrl && !key.modifiers.contains(Modifiers::ALT) => p.query.push(c),
        _ => return Vec::new(),
    }
    if !matches!(
        key.code,
        KeyCode::Up | KeyCode::Down | KeyCode::PageUp | KeyCode::PageDown
    ) {
        refilter(state);
    }
    Vec::new()
}

/// The rows for what is typed now, the cursor back on the best.
fn refilter(state: &mut State) {
    let Some((scope, query)) = state
        .table
        .as_ref()
        .and_then(|v| v.modal.as_ref().and_then(Modal::palette))
        .map(|p| (p.scope, p.query.clone()))
    else {
        return;
    };
    let rows = rows(state, scope, &query);
    if let Some(p) = shown_palette(state) {
        p.rows = rows;
        p.list = Default::default();
    }
}

/// Enter: an action runs through the same dispatch as its key (the palette closes first, so
/// the action sees the table as the key would); a pattern asks for its parameters.
fn run_highlighted(state: &mut State) -> Vec<Effect> {
    let Some(entry) = state
        .table
        .as_ref()
        .and_then(|v| v.modal.as_ref().and_then(Modal::palette))
        .and_then(Palette::highlighted)
    else {
        return Vec::new();
    };
    state.recent.retain(|e| *e != entry);
    state.recent.insert(0, entry);
    state.recent.truncate(RECENT_KEPT);
    match entry {
        PaletteEntry::Action(action) => {
            if let Some(v) = state.table.as_mut() {
                v.modal = None;
            }
            table_action(state, action)
        }
        PaletteEntry::Pattern(pattern) => choose_pattern(state, pattern),
    }
}

fn choose_pattern(state: &mut State, pattern: usize) -> Vec<Effect> {
    let params = state.patterns[pattern]
        .params()
        .into_iter()
        .map(|name| (name, ratatui_textarea::TextArea::default()))
        .collect();
    let Some(p) = shown_palette(state) else {
        return Vec::new();
    };
    p.form = Some(ParamForm {
        pattern,
        params,
        focus: 0,
        error: None,
        completion: Vec::new(),
        completion_counts: Vec::new(),
        selected: 0,
    });
    refresh_form(state);
    // A pattern without parameters runs straight away.
    let no_params = state
        .table
        .as_ref()
        .and_then(|v| v.modal.as_ref().and_then(Modal::palette))
        .and_then(|p| p.form.as_ref())
        .is_some_and(|f| f.params.is_empty());
    if no_params {
        return run_pattern(state);
    }
    Vec::new()
}

/// Completes a parameter from loaded partition keys: for `pk = "STATUS#{status}"`, keys that
/// start with `STATUS#` offer what follows.
fn refresh_form(state: &mut State) {
    let order = state.queries.completion_order;
    let patterns = &state.patterns;
    let Some(v) = state.table.as_mut() else {
        return;
    };
    let values: Vec<String> = v
        .view
        .store
        .as_ref()
        .map(|s| s.collections().iter().map(|c| c.key.clone()).collect())
        .unwrap_or_default();
    let Some(form) = v
        .modal
        .as_mut()
        .and_then(Modal::palette_mut)
        .and_then(|p| p.form.as_mut())
    else {
        return;
    };
    let pattern = &patterns[form.pattern];
    let Some((name, input)) = form.params.get(form.focus) else {
        return;
    };
    let typed = input.lines().join("");
    let marker = format!("{{{name}}}");
    // A partition template of a one-attribute key: the loaded collections are its values (a
    // multi-attribute key's collections are tuples, no one template's text).
    let pk = match pattern.pk.as_slice() {
        [one] => one.as_str(),
        _ => "",
    };
    (form.completion, form.completion_counts) = match pk.find(&marker) {
        Some(at) if !pk[..at].contains('{') => {
            let prefix = &pk[..at];
            let full = format!("{prefix}{typed}");
            let values = values.iter().map(String::as_str);
            complete_key(&full, values, MAX_COMPLETIONS, order, false)
                .into_iter()
                .map(|c| (c.text[prefix.len()..].to_string(), c.count))
                .unzip()
        }
        _ => Default::default(),
    };
    form.selected = form.selected.min(form.completion.len().saturating_sub(1));
}

fn run_pattern(state: &mut State) -> Vec<Effect> {
    let Some(info) = state.table_info() else {
        return Vec::new();
    };
    let Some(form) = state
        .table
        .as_ref()
        .and_then(|v| v.modal.as_ref().and_then(Modal::palette))
        .and_then(|p| p.form.as_ref())
    else {
        return Vec::new();
    };
    let pattern = state.patterns[form.pattern].clone();
    let params: BTreeMap<String, String> = form
        .params
        .iter()
        .map(|(n, a)| (n.clone(), a.lines().join("")))
        .collect();
    // One read, a segment per write shard: one cancel, one resume point per shard, one
    // capacity guard (the same requests `patterns check` sends).
    let spec = pattern
        .bind(&params)
        .map_err(|e| e.to_string())
        .and_then(|bound| crate::model::engine::pattern_read(&bound, &info));
    let spec = match spec {
        Ok(s) => s,
        Err(message) => {
            if let Some(f) = shown_palette(state).and_then(|p| p.form.as_mut()) {
                f.error = Some(message);
            }
            return Vec::new();
        }
    };
    let v = state.table.as_mut().expect("open");
    v.modal = None;
    v.view.index = spec.index.clone();
    let sharded = !spec.shards.is_empty();
    start(state, spec, ReadOrigin::Pattern { sharded })
}
