//! The filter over loaded items, and keeping every cursor on screen.

use super::{area, layout};
use crate::app::columns;
use crate::app::layout::{list_rows, picker_layout, picker_rows, table_rows};
use crate::app::state::{OpenTable, State};
use crate::model::collection::ItemStore;
use crate::model::value::AttrValue;

pub(super) fn refilter(state: &mut State) {
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
    refilter_items(view);
    refresh_columns(state);
}

/// Chooses the items pane's columns again: after a page, another collection, a new filter.
pub(super) fn refresh_columns(state: &mut State) {
    let Some(view) = state.table.as_mut() else {
        return;
    };
    let patterns = state.config.entity_patterns_for(&view.name);
    let mut memory = std::mem::take(&mut view.part_names);
    view.view.columns = columns::choose(view, &patterns, &mut memory);
    view.part_names = memory;
    view.view.column_offset = view
        .view
        .column_offset
        .min(columns::max_column_offset(view));
}

pub(super) fn refilter_items(view: &mut OpenTable) {
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

/// Puts the cursor back on collection `selected` after the order changed (`o`, or a page that
/// made a collection bigger): the list moves, the selection stays.
pub(super) fn follow_collection(state: &mut State, selected: Option<usize>) {
    let Some(view) = state.table.as_mut() else {
        return;
    };
    let Some(selected) = selected else {
        return;
    };
    if view.view.selected_collection() == Some(selected) {
        return;
    }
    let position = match &view.view.filtered_collections {
        Some(f) => f.iter().position(|&c| c == selected),
        None => view.view.ordering.position_of(selected),
    };
    if let Some(n) = position {
        view.view.collections.cursor = n;
        refilter_items(view);
        refresh_columns(state);
    }
    keep_cursors_visible(state);
}

pub(super) fn keep_cursors_visible(state: &mut State) {
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
