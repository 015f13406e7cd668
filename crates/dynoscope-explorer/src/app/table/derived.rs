//! Derived view data: the collections and items matching the filter, the items pane's
//! columns, and the cursors kept on screen. Update code only asks for a refresh
//! ([`refilter`], [`refilter_items`], [`refresh_columns`], [`follow_collection`],
//! [`keep_cursors_visible`]); `update` refreshes once after each message ([`refresh`]), so
//! a message that changes the store, the filter and the cursor filters once.

use crate::app::explorer::{area, layout};
use crate::app::layout::{list_rows, picker_layout, picker_rows, table_rows};
use crate::app::state::{OpenTable, Stale, State};
use crate::app::{column_choice, columns};
use crate::model::design::collection::ItemStore;
use crate::model::item::value::AttrValue;

/// The store, the filter or the order changed: every derived list, then the columns.
pub(crate) fn refilter(state: &mut State) {
    state.refresh.ask(Stale::All);
}

/// Another collection is selected: its matching items, then the columns.
pub(super) fn refilter_items(state: &mut State) {
    state.refresh.ask(Stale::Items);
}

/// The items pane's columns: after a page, another collection, a new filter.
pub(super) fn refresh_columns(state: &mut State) {
    state.refresh.ask(Stale::Columns);
}

/// Puts the cursor back on collection `selected` after the order changed (`o`, or a page that
/// made a collection bigger): the list moves, the selection stays.
pub(crate) fn follow_collection(state: &mut State, selected: Option<usize>) {
    if selected.is_some() {
        state.refresh.follow = selected;
    }
}

/// Every list's cursor back on screen (after a resize, a page, a taller log).
pub(crate) fn keep_cursors_visible(state: &mut State) {
    state.refresh.keep_visible = true;
}

/// What the message asked for, once, in order: the filtered lists, the columns, the followed
/// collection, the cursors on screen.
pub(crate) fn refresh(state: &mut State) {
    let asked = std::mem::take(&mut state.refresh);
    if asked.stale == Stale::All {
        filter_collections(state);
    }
    if asked.stale >= Stale::Items {
        if let Some(table) = state.table.as_mut() {
            filter_items(table);
        }
    }
    if asked.stale >= Stale::Columns {
        choose_columns(state);
    }
    let mut keep_visible = asked.keep_visible;
    if let Some(selected) = asked.follow {
        keep_visible |= follow(state, selected);
    }
    if keep_visible {
        cursors_on_screen(state);
    }
}

fn filter_collections(state: &mut State) {
    let Some(view) = state.table.as_mut() else {
        return;
    };
    let selected = view.view.selected_collection();
    view.view.filtered_collections = match (&view.view.store, view.view.filter.is_empty()) {
        (Some(store), false) => {
            let needle = view.view.filter.to_lowercase();
            let len = store.collections().len();
            // In the order shown.
            Some(
                (0..len)
                    .filter_map(|n| view.view.ordering.at(n, len))
                    .filter(|&i| {
                        let c = &store.collections()[i];
                        c.key.to_lowercase().contains(&needle)
                            || c.items.iter().any(|id| item_matches(store, *id, &needle))
                    })
                    .collect(),
            )
        }
        _ => None,
    };
    // Another collection under the cursor: its items start at the top, as when moving to it.
    if view.view.selected_collection() != selected {
        view.view.items = Default::default();
        view.view.column_offset = 0;
    }
}

fn choose_columns(state: &mut State) {
    let Some(view) = state.table.as_mut() else {
        return;
    };
    let patterns = state.config.entity_patterns_for(&view.name);
    let mut memory = std::mem::take(&mut view.part_names);
    view.view.columns = columns::choose(view, &patterns, &mut memory);
    view.part_names = memory;
    // A choice made with `C` (its kind's, else the table's) overrides the automatic order.
    let scope = column_choice::view_scope(&state.endpoint, &view.name, &view.view);
    if let Some(choice) = state.column_choices.for_scope(&scope) {
        column_choice::apply(&mut view.view.columns, choice);
    }
    view.view.column_offset = view
        .view
        .column_offset
        .min(columns::max_column_offset(view));
}

fn filter_items(view: &mut OpenTable) {
    view.view.filtered_items = None;
    if view.view.filter.is_empty() {
        return;
    }
    let needle = view.view.filter.to_lowercase();
    let (Some(store), Some(c)) = (view.view.store.as_ref(), view.view.selected_collection()) else {
        view.view.filtered_items = Some(Vec::new());
        return;
    };
    let collection = &store.collections()[c];
    // A collection that matched by its key shows all its items.
    if collection.key.to_lowercase().contains(&needle) {
        return;
    }
    view.view.filtered_items = Some(
        collection
            .items
            .iter()
            .copied()
            .filter(|id| item_matches(store, *id, &needle))
            .collect(),
    );
}

/// An attribute holding a string or a number whose text contains `needle` (a number by the
/// digits DynamoDB returned: `404` finds `responsecode` 404).
fn item_matches(store: &ItemStore, id: u32, needle: &str) -> bool {
    store.item(id).iter().any(|(_, v)| match v {
        AttrValue::S(text) => text.to_lowercase().contains(needle),
        AttrValue::N(text) => text.to_lowercase().contains(needle),
        _ => false,
    })
}

/// The cursor on collection `selected` again; `true` when the cursors are to be kept on
/// screen (the selection had moved).
fn follow(state: &mut State, selected: usize) -> bool {
    let Some(view) = state.table.as_mut() else {
        return false;
    };
    if view.view.selected_collection() == Some(selected) {
        return false;
    }
    let position = match &view.view.filtered_collections {
        Some(f) => f.iter().position(|&c| c == selected),
        None => view.view.ordering.position_of(selected),
    };
    if let Some(n) = position {
        view.view.collections.cursor = n;
        filter_items(view);
        choose_columns(state);
    }
    true
}

fn cursors_on_screen(state: &mut State) {
    let l = layout(state);
    let picker_len = state.picker.visible().len();
    state
        .picker
        .list
        .keep_visible(picker_len, picker_rows(picker_layout(area(state)).list));
    if let Some(view) = state.table.as_mut() {
        let (collections, items) = (view.view.collection_count(), view.view.item_count());
        view.view
            .collections
            .keep_visible(collections, list_rows(l.collections));
        view.view.items.keep_visible(items, table_rows(l.main));
    }
}
