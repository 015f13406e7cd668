//! The explorer's one state transition: `update(&mut State, Msg) -> Vec<Effect>`. Pure: no I/O,
//! no clock, no terminal; the loop in `tui` performs the effects.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers, MouseEventKind};
use ratatui::layout::Rect;

use super::keymap::Action;
use super::msg::{Effect, Msg};
use super::state::{JsonMode, Loadable, Pane, Prompt, Screen, State, TableView};
use crate::aws::{Operation, ReadSpec};
use crate::model::collection::ItemStore;
use crate::model::json::{pretty_line_count, write_plain};
use crate::model::key_condition::KeyCondition;
use crate::ui::layout::{
    list_rows, picker_layout, picker_rows, split_progress, table_layout, table_rows, TableLayout,
};

pub use super::reads::EXPLORER_PAGE_SIZE;
use super::reads::{engine_event, load_more, start_fresh};

pub fn update(state: &mut State, msg: Msg) -> Vec<Effect> {
    match msg {
        Msg::Resize(w, h) => {
            state.width = w;
            state.height = h;
            keep_cursors_visible(state);
            Vec::new()
        }
        Msg::Tables(result) => {
            state.picker.tables = Some(match result {
                Ok(names) => Loadable::Loaded(names),
                Err(e) => Loadable::Failed(e),
            });
            picker_moved(state)
        }
        Msg::Described { table, result } => described(state, table, result),
        Msg::Engine(event) => engine_event(state, event),
        Msg::Debounced(generation) => super::builder_update::debounced(state, generation),
        Msg::Tick(ms) => {
            state.clock_ms = ms;
            Vec::new()
        }
        Msg::Key(key) => key_event(state, key),
        Msg::Paste(text) => {
            for c in text.chars().filter(|c| !c.is_control()) {
                type_char(state, c);
            }
            Vec::new()
        }
        Msg::Mouse(mouse) => {
            let delta = match mouse.kind {
                MouseEventKind::ScrollDown => 3,
                MouseEventKind::ScrollUp => -3,
                _ => return Vec::new(),
            };
            move_cursor(state, delta)
        }
    }
}

/// The first effects: open `table` directly, or list tables for the picker.
pub fn start(state: &mut State, table: Option<String>) -> Vec<Effect> {
    match table {
        Some(name) => open_table(state, name),
        None => {
            state.picker.tables = Some(Loadable::Loading);
            vec![Effect::ListTables]
        }
    }
}

pub(super) fn area(state: &State) -> Rect {
    Rect::new(0, 0, state.width, state.height)
}

fn layout(state: &State) -> TableLayout {
    table_layout(area(state))
}

// ---------------------------------------------------------------- keys

fn key_event(state: &mut State, key: KeyEvent) -> Vec<Effect> {
    let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
    if ctrl && key.code == KeyCode::Char('c') {
        return quit(state);
    }
    if ctrl && key.code == KeyCode::Char('z') {
        return vec![Effect::Suspend];
    }
    if state.show_help {
        state.show_help = false;
        return Vec::new();
    }
    if let Some(effects) = super::builder_update::modal_key(state, key) {
        return effects;
    }
    if let Some(effects) = super::reads::budget_prompt_key(state, key) {
        return effects;
    }
    if let Some(effects) = prompt_key(state, key) {
        return effects;
    }
    if state.screen == Screen::Picker {
        return picker_key(state, key);
    }
    match state.keymap.action(&key) {
        Some(action) => table_action(state, action),
        None => Vec::new(),
    }
}

fn quit(state: &mut State) -> Vec<Effect> {
    state.quit = true;
    let mut effects: Vec<Effect> = running_read(state)
        .map(Effect::Cancel)
        .into_iter()
        .collect();
    effects.push(Effect::Quit);
    effects
}

pub(super) fn running_read(state: &State) -> Option<u64> {
    let read = state.table.as_ref()?.read.as_ref()?;
    read.running.then_some(read.id)
}

/// Text prompts take every printable key; returns `None` when no prompt is open.
fn prompt_key(state: &mut State, key: KeyEvent) -> Option<Vec<Effect>> {
    let view = state
        .table
        .as_mut()
        .filter(|_| state.screen == Screen::Table)?;
    let is_filter = view.filter_prompt.is_some();
    let prompt = match (view.filter_prompt.as_mut(), view.pk_prompt.as_mut()) {
        (Some(p), _) => p,
        (None, Some(p)) => p,
        (None, None) => return None,
    };
    match key.code {
        KeyCode::Esc => {
            if is_filter {
                view.filter_prompt = None;
                view.filter.clear();
                refilter(state);
            } else {
                view.pk_prompt = None;
            }
            Some(Vec::new())
        }
        KeyCode::Enter => {
            if is_filter {
                view.filter_prompt = None;
                Some(Vec::new())
            } else {
                let pk = prompt.text.clone();
                Some(submit_pk(state, pk))
            }
        }
        KeyCode::Backspace => {
            prompt.text.pop();
            prompt.error = None;
            if is_filter {
                view.filter = prompt.text.clone();
                refilter(state);
            }
            Some(Vec::new())
        }
        KeyCode::Char(c) if !key.modifiers.contains(KeyModifiers::CONTROL) => {
            type_char(state, c);
            Some(Vec::new())
        }
        _ => Some(Vec::new()),
    }
}

fn type_char(state: &mut State, c: char) {
    if state.screen == Screen::Picker {
        state.picker.filter.push(c);
        state.picker.list = Default::default();
        return;
    }
    let Some(view) = state.table.as_mut() else {
        return;
    };
    if let Some(p) = view.filter_prompt.as_mut() {
        p.text.push(c);
        view.filter = p.text.clone();
        refilter(state);
    } else if let Some(p) = view.pk_prompt.as_mut() {
        p.text.push(c);
        p.error = None;
    }
}

fn picker_key(state: &mut State, key: KeyEvent) -> Vec<Effect> {
    let rows = picker_rows(picker_layout(area(state)).list);
    let len = state.picker.visible().len();
    let delta: isize = match key.code {
        KeyCode::Up => -1,
        KeyCode::Down => 1,
        KeyCode::PageUp => -(rows as isize),
        KeyCode::PageDown => rows as isize,
        KeyCode::Home => -(len as isize),
        KeyCode::End => len as isize,
        KeyCode::Enter => {
            return match state.picker.highlighted() {
                Some(table) => open_table(state, table),
                None => Vec::new(),
            };
        }
        KeyCode::Esc if state.picker.filter.is_empty() => return quit(state),
        KeyCode::Esc => {
            state.picker.filter.clear();
            state.picker.list = Default::default();
            return picker_moved(state);
        }
        KeyCode::Backspace => {
            state.picker.filter.pop();
            state.picker.list = Default::default();
            return picker_moved(state);
        }
        KeyCode::Char('?') => {
            state.show_help = true;
            return Vec::new();
        }
        KeyCode::Char(c) if !key.modifiers.contains(KeyModifiers::CONTROL) => {
            type_char(state, c);
            return picker_moved(state);
        }
        _ => return Vec::new(),
    };
    state.picker.list.move_by(delta, len, rows);
    picker_moved(state)
}

/// Describes the highlighted table once, so its summary shows without a keypress.
fn picker_moved(state: &mut State) -> Vec<Effect> {
    let Some(table) = state.picker.highlighted() else {
        return Vec::new();
    };
    if state.picker.describes.contains_key(&table) {
        return Vec::new();
    }
    state
        .picker
        .describes
        .insert(table.clone(), Loadable::Loading);
    vec![Effect::Describe(table)]
}

fn table_action(state: &mut State, action: Action) -> Vec<Effect> {
    let rows = pane_rows(state);
    match action {
        Action::Quit => return quit(state),
        Action::Help => state.show_help = true,
        Action::Up => return move_cursor(state, -1),
        Action::Down => return move_cursor(state, 1),
        Action::PageUp => return move_cursor(state, -(rows as isize)),
        Action::PageDown => return move_cursor(state, rows as isize),
        Action::Top => return move_cursor(state, isize::MIN / 2),
        Action::Bottom => return move_cursor(state, isize::MAX / 2),
        Action::Left | Action::Right => {
            let right = action == Action::Right;
            if let Some(view) = state.table.as_mut() {
                // Stops at the last attribute column, so `←` answers at once after many `→`.
                let max = super::columns::max_column_offset(view);
                view.column_offset = view.column_offset.min(max);
                match (view.focus, right) {
                    (Pane::Items, true) => view.column_offset = (view.column_offset + 1).min(max),
                    (Pane::Items, false) if view.column_offset > 0 => view.column_offset -= 1,
                    (Pane::Items, false) => view.focus = Pane::Collections,
                    (Pane::Collections, true) => view.focus = Pane::Items,
                    _ => {}
                }
            }
        }
        Action::NextPane | Action::PrevPane => {
            if let Some(view) = state.table.as_mut() {
                let panes: &[Pane] = if view.detail_open {
                    &[Pane::Collections, Pane::Items, Pane::Detail]
                } else {
                    &[Pane::Collections, Pane::Items]
                };
                let at = panes.iter().position(|p| *p == view.focus).unwrap_or(0);
                let step = if action == Action::NextPane {
                    1
                } else {
                    panes.len() - 1
                };
                view.focus = panes[(at + step) % panes.len()];
            }
        }
        Action::Open => {
            if let Some(view) = state.table.as_mut() {
                match view.focus {
                    Pane::Collections => view.focus = Pane::Items,
                    Pane::Items if view.selected_item().is_some() => {
                        view.detail_open = true;
                        view.detail_scroll = 0;
                        view.focus = Pane::Detail;
                    }
                    _ => {}
                }
            }
        }
        Action::Back => return back(state),
        Action::Filter => {
            if let Some(view) = state.table.as_mut() {
                view.filter_prompt = Some(Prompt {
                    text: view.filter.clone(),
                    error: None,
                });
            }
        }
        Action::Copy => return copy(state),
        Action::ToggleJson => {
            if let Some(view) = state.table.as_mut() {
                view.json_mode = match view.json_mode {
                    JsonMode::Plain => JsonMode::Dynamo,
                    JsonMode::Dynamo => JsonMode::Plain,
                };
            }
        }
        Action::LoadMore => return load_more(state, false),
        Action::LoadAll => return load_more(state, true),
        Action::QueryPk => {
            if let Some(view) = state.table.as_mut() {
                view.pk_prompt = Some(Prompt::default());
            }
        }
        Action::CycleIndex => return cycle_index(state),
        Action::QueryBuilder => return super::builder_update::open_builder(state),
        Action::Patterns => return super::builder_update::open_palette(state),
        Action::ScanLauncher => return super::scan_launcher::open_launcher(state),
        Action::KeyDistribution => return super::scan_launcher::open_distribution(state),
        Action::Rescan => return new_scan(state),
        Action::Tables => {
            let mut effects: Vec<Effect> = running_read(state)
                .map(Effect::Cancel)
                .into_iter()
                .collect();
            state.table = None;
            state.screen = Screen::Picker;
            if state.picker.tables.is_none() {
                state.picker.tables = Some(Loadable::Loading);
                effects.push(Effect::ListTables);
            }
            return effects;
        }
    }
    Vec::new()
}

/// Esc: close what is open (detail, filter), else cancel the running read.
fn back(state: &mut State) -> Vec<Effect> {
    let running = running_read(state);
    let Some(view) = state.table.as_mut() else {
        return Vec::new();
    };
    if view.detail_open {
        view.detail_open = false;
        view.focus = Pane::Items;
    } else if !view.filter.is_empty() {
        view.filter.clear();
        refilter(state);
    } else if let Some(id) = running {
        return vec![Effect::Cancel(id)];
    } else if view.focus == Pane::Items {
        view.focus = Pane::Collections;
    }
    Vec::new()
}

fn pane_rows(state: &State) -> usize {
    let l = layout(state);
    match state.table.as_ref().map(|v| v.focus) {
        Some(Pane::Items) => table_rows(l.main),
        _ => list_rows(l.collections).max(list_rows(l.main)),
    }
}

/// Rows inside the item detail pane, which shares the main pane with a scan's progress panel.
fn detail_rows(state: &State) -> usize {
    let main = layout(state).main;
    let area = match state.table.as_ref().and_then(|v| v.progress.as_ref()) {
        Some(progress) => split_progress(main, progress.segments.len())[1],
        None => main,
    };
    list_rows(area)
}

fn move_cursor(state: &mut State, delta: isize) -> Vec<Effect> {
    if state.screen == Screen::Picker {
        let rows = picker_rows(picker_layout(area(state)).list);
        let len = state.picker.visible().len();
        state.picker.list.move_by(delta, len, rows);
        return picker_moved(state);
    }
    let l = layout(state);
    let detail_rows = detail_rows(state);
    let Some(view) = state.table.as_mut() else {
        return Vec::new();
    };
    let at_end;
    match view.focus {
        Pane::Collections => {
            let before = view.collections.cursor;
            let len = view.collection_count();
            view.collections
                .move_by(delta, len, list_rows(l.collections));
            if view.collections.cursor != before {
                view.items = Default::default();
                view.column_offset = 0;
                refilter_items(view);
            }
            at_end = len > 0 && view.collections.cursor + 1 == len;
        }
        Pane::Items => {
            let len = view.item_count();
            view.items.move_by(delta, len, table_rows(l.main));
            at_end = len > 0 && view.items.cursor + 1 == len;
        }
        Pane::Detail => {
            // Clamped to the item's lines: `G` pressed twice overflowed, and after one `G` the
            // scroll sat far past the end, so `↑` changed nothing visible.
            let lines = match (view.store.as_ref(), view.selected_item()) {
                (Some(store), Some(id)) => pretty_line_count(&store.item(id)),
                _ => 0,
            };
            let max = lines.saturating_sub(detail_rows) as isize;
            let from = view.detail_scroll.min(max as usize) as isize;
            view.detail_scroll = from.saturating_add(delta).clamp(0, max) as usize;
            at_end = false;
        }
    }
    // Scrolling onto the last row asks for the next page, as a pager would.
    if at_end && delta > 0 {
        return load_more(state, false);
    }
    Vec::new()
}

fn copy(state: &mut State) -> Vec<Effect> {
    let Some(view) = state.table.as_ref() else {
        return Vec::new();
    };
    let (Some(store), Some(id)) = (view.store.as_ref(), view.selected_item()) else {
        return Vec::new();
    };
    let mut json = String::new();
    write_plain(&mut json, &store.item(id));
    state.notice = Some(super::state::Notice {
        text: format!(
            "copied the item as JSON ({} bytes) to the clipboard",
            json.len()
        ),
        error: false,
    });
    vec![Effect::Copy(json)]
}

// ---------------------------------------------------------------- reads

fn open_table(state: &mut State, name: String) -> Vec<Effect> {
    state.screen = Screen::Table;
    let cached = state
        .picker
        .describes
        .get(&name)
        .and_then(|d| d.loaded())
        .cloned();
    let mut effects = Vec::new();
    let info = match cached {
        Some(info) => Loadable::Loaded(info),
        None => {
            effects.push(Effect::Describe(name.clone()));
            Loadable::Loading
        }
    };
    let ready = matches!(info, Loadable::Loaded(_));
    state.table = Some(TableView::new(name, info));
    if ready {
        effects.extend(new_scan(state));
    }
    effects
}

fn described(
    state: &mut State,
    table: String,
    result: Result<crate::model::schema::TableInfo, String>,
) -> Vec<Effect> {
    let loadable = match result {
        Ok(info) => Loadable::Loaded(info),
        Err(e) => Loadable::Failed(e),
    };
    state
        .picker
        .describes
        .insert(table.clone(), loadable.clone());
    let Some(view) = state.table.as_mut() else {
        return Vec::new();
    };
    if view.name != table || !matches!(view.info, Loadable::Loading) {
        return Vec::new();
    }
    view.info = loadable;
    if matches!(view.info, Loadable::Loaded(_)) {
        return new_scan(state);
    }
    Vec::new()
}

/// Starts over with the first page of a Scan of the table or the chosen index.
fn new_scan(state: &mut State) -> Vec<Effect> {
    let Some(view) = state.table.as_ref() else {
        return Vec::new();
    };
    let mut spec = ReadSpec::new(Operation::Scan, view.name.clone());
    spec.index = view.index.clone();
    start_fresh(state, spec)
}

fn submit_pk(state: &mut State, pk: String) -> Vec<Effect> {
    let Some(view) = state.table.as_mut() else {
        return Vec::new();
    };
    let Some(keys) = view.read_keys().cloned() else {
        return Vec::new();
    };
    let condition = match KeyCondition::build(&keys, &pk, None) {
        Ok(c) => c,
        Err(e) => {
            if let Some(p) = view.pk_prompt.as_mut() {
                p.error = Some(e.to_string());
            }
            return Vec::new();
        }
    };
    view.pk_prompt = None;
    let parts = condition.to_expression();
    let mut spec = ReadSpec::new(Operation::Query, view.name.clone());
    spec.index = view.index.clone();
    spec.key_condition = Some(parts.key_condition);
    spec.names = parts.names;
    spec.values = parts.values;
    start_fresh(state, spec)
}

fn cycle_index(state: &mut State) -> Vec<Effect> {
    let Some(view) = state.table.as_mut() else {
        return Vec::new();
    };
    let Some(info) = view.info.loaded() else {
        return Vec::new();
    };
    let names: Vec<Option<String>> = std::iter::once(None)
        .chain(info.indexes.iter().map(|i| Some(i.name.clone())))
        .collect();
    let at = names.iter().position(|n| *n == view.index).unwrap_or(0);
    view.index = names[(at + 1) % names.len()].clone();
    new_scan(state)
}

// ---------------------------------------------------------------- filtering

pub(super) fn refilter(state: &mut State) {
    let Some(view) = state.table.as_mut() else {
        return;
    };
    view.filtered_collections = match (&view.store, view.filter.is_empty()) {
        (Some(store), false) => {
            let needle = view.filter.to_lowercase();
            Some(
                store
                    .collections()
                    .iter()
                    .enumerate()
                    .filter(|(_, c)| {
                        c.key.to_lowercase().contains(&needle)
                            || c.items.iter().any(|id| item_matches(store, *id, &needle))
                    })
                    .map(|(i, _)| i)
                    .collect(),
            )
        }
        _ => None,
    };
    refilter_items(view);
}

fn refilter_items(view: &mut TableView) {
    view.filtered_items = None;
    if view.filter.is_empty() {
        return;
    }
    let needle = view.filter.to_lowercase();
    let (Some(store), Some(c)) = (view.store.as_ref(), view.selected_collection()) else {
        view.filtered_items = Some(Vec::new());
        return;
    };
    let collection = &store.collections()[c];
    // A collection that matched by its key shows all its items.
    if collection.key.to_lowercase().contains(&needle) {
        return;
    }
    view.filtered_items = Some(
        collection
            .items
            .iter()
            .copied()
            .filter(|id| item_matches(store, *id, &needle))
            .collect(),
    );
}

fn item_matches(store: &ItemStore, id: u32, needle: &str) -> bool {
    store
        .item(id)
        .iter()
        .any(|(_, v)| v.as_s().is_some_and(|s| s.to_lowercase().contains(needle)))
}

pub(super) fn keep_cursors_visible(state: &mut State) {
    let l = layout(state);
    let picker_len = state.picker.visible().len();
    state
        .picker
        .list
        .keep_visible(picker_len, picker_rows(picker_layout(area(state)).list));
    if let Some(view) = state.table.as_mut() {
        let (collections, items) = (view.collection_count(), view.item_count());
        view.collections
            .keep_visible(collections, list_rows(l.collections));
        view.items.keep_visible(items, table_rows(l.main));
    }
}
