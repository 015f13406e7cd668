//! Walking the single-table design: the selected item's related collections, opening one
//! with a Query, and going back through the views left on the way, as they were.

use super::derived::{follow_collection, refilter};
use crate::app::explorer::running_read;
use crate::app::keymap::Action;
use crate::app::msg::{Effect, ExportEffect, ReadEffect};
use crate::app::reads::start;
use crate::app::state::{Notice, Pane, ReadOrigin, ReadOutcome, State, MAX_VISITED};
use crate::model::design::collection::{ItemStore, TUPLE_SEPARATOR};
use crate::model::design::relations::{related_collections, KeyKnowledge, RelationInputs};
use crate::model::engine::read_cause::ReadCause;
use crate::model::engine::{Operation, ReadSpec};
use crate::model::query::key_condition::KeyCondition;

/// Recomputes the related collections when another item is selected (or a page asked for it
/// by clearing `for_item`). Runs after every message; costs one item's decoding when it acts.
pub(crate) fn refresh_related(state: &mut State) {
    let Some(view) = state.table.as_mut() else {
        return;
    };
    let selected = view.view.selected_item();
    if selected.is_some() && selected == view.view.related.for_item && !view.view.related.stale {
        return;
    }
    let (Some(id), Some(store)) = (selected, view.view.store.as_ref()) else {
        view.view.related = Default::default();
        return;
    };
    if view.knowledge.targets().is_empty() {
        if let Some(info) = view.info.loaded() {
            view.knowledge = KeyKnowledge::new(info);
        }
    }
    let item = store.item(id);
    let current_key = view
        .view
        .selected_collection()
        .map(|c| store.collections()[c].key.as_str());
    let targets = view.knowledge.targets();
    // A collection of `index` is loaded when a store grouped by that index's key holds it: the
    // current one or one kept for going back.
    let loaded = |index: Option<&str>, key: &str| {
        let Some(target) = targets.iter().find(|t| t.index.as_deref() == index) else {
            return false;
        };
        std::iter::once(store)
            .chain(view.visited.stores())
            .any(|s| groups_by(s, &target.partition_names) && s.collection_of(key).is_some())
    };
    let rules = state.config.relations_for(&view.name);
    // The target the store is: the one grouped by all of its partition attributes (a
    // multi-attribute GSI's tuple collections), never by its first alone.
    let current_index = targets
        .iter()
        .find(|t| groups_by(store, &t.partition_names))
        .map(|t| t.index.as_deref());
    let inputs = RelationInputs {
        separator: store.separator(),
        knowledge: &view.knowledge,
        loaded: &loaded,
        rules: &rules,
        infer: state.config.infer_relations,
        current: current_index.zip(current_key),
    };
    let links = related_collections(&item, &inputs);
    // The same item again (after a page or going back): keep the selected link.
    let keep = (view.view.related.for_item == Some(id))
        .then(|| view.view.related.selected().cloned())
        .flatten()
        .and_then(|old| links.iter().position(|l| *l == old));
    view.view.related.list.cursor = keep.unwrap_or(0);
    view.view.related.list.offset = 0;
    view.view.related.links = links;
    view.view.related.for_item = Some(id);
    view.view.related.stale = false;
}

/// `g r`, or Enter on the list: opens the selected related collection.
pub(super) fn follow_related(state: &mut State) -> Vec<Effect> {
    refresh_related(state);
    let Some(link) = state
        .table
        .as_ref()
        .and_then(|v| v.view.related.selected().cloned())
    else {
        state.notice = Some(Notice {
            text: "no related collection for this item".into(),
            error: false,
        });
        return Vec::new();
    };
    open_partition(state, link.index, link.partition)
}

/// Queries one collection of the table or of `index`, keeping the view it leaves.
pub(crate) fn open_collection(
    state: &mut State,
    index: Option<String>,
    key: String,
) -> Vec<Effect> {
    open_partition(state, index, vec![key])
}

/// [`open_collection`] by the value of each partition attribute, in key-schema order (a
/// multi-attribute GSI's tuple collection).
fn open_partition(state: &mut State, index: Option<String>, partition: Vec<String>) -> Vec<Effect> {
    let key = partition.join(TUPLE_SEPARATOR);
    let Some(view) = state.table.as_mut() else {
        return Vec::new();
    };
    let Some(keys) = view
        .info
        .loaded()
        .and_then(|i| i.keys_for(index.as_deref()))
        .cloned()
    else {
        return Vec::new();
    };
    let condition = match KeyCondition::build_parts(&keys, &partition, &[], None) {
        Ok(c) => c,
        Err(e) => {
            state.notice = Some(Notice {
                text: format!("cannot open '{key}': {e}"),
                error: true,
            });
            return Vec::new();
        }
    };
    let parts = condition.to_expression();
    let mut spec = ReadSpec::new(Operation::Query, view.name.clone(), ReadCause::Navigate);
    spec.index = index.clone();
    spec.key_condition = Some(parts.key_condition);
    spec.names = parts.names;
    spec.values = parts.values;
    view.view.index = index;
    let effects = start(state, spec, ReadOrigin::Walk);
    if let Some(view) = state.table.as_mut() {
        // The collection is what was asked for: its items, not the list of one collection.
        view.view.focus = Pane::Items;
    }
    state.notice = Some(Notice {
        text: "Backspace goes back".into(),
        error: false,
    });
    effects
}

/// Before a new read replaces the loaded items: the table gets the next view (same index,
/// JSON spelling, wrapping and order, nothing loaded) and keeps the one it leaves for going
/// back; what belongs to the table (knowledge, live stream, export, undo, dialog) stays. A
/// view with nothing loaded is not worth keeping.
pub(crate) fn leave_view(state: &mut State) {
    let cap = state.max_items;
    let Some(table) = state.table.as_mut() else {
        return;
    };
    let next = table.view.next();
    let mut old = std::mem::replace(&mut table.view, next);
    if old.store.as_ref().is_none_or(|s| s.is_empty()) {
        return;
    }
    // Callers set the new read's index before starting it; the kept view shows its own.
    if let Some(read) = old.read.as_mut() {
        old.index = read.spec.index.clone();
        // Its read is cancelled by the caller; it resumes with `n` after going back.
        if read.running {
            read.running = false;
            read.continuous = false;
            read.outcome = Some(ReadOutcome::Cancelled);
        }
    }
    table.visited.push(old);
    table.visited.fit(cap);
}

/// `o`: the next collection order; the selected collection stays selected.
pub(super) fn cycle_order(state: &mut State) {
    let Some(view) = state.table.as_mut() else {
        return;
    };
    let selected = view.view.selected_collection();
    let next = view.view.ordering.order().next();
    match view.view.store.as_ref() {
        Some(store) => view.view.ordering.set(next, store),
        None => view.view.ordering = crate::model::design::collection::DisplayOrder::new(next),
    }
    state.notice = Some(Notice {
        text: format!("collections by {}", next.label()),
        error: false,
    });
    refilter(state);
    follow_collection(state, selected);
}

/// Backspace / Alt-←: the previous view, as it was; nothing is read again.
pub(super) fn go_back(state: &mut State) -> Vec<Effect> {
    let running = running_read(state);
    let Some(table) = state.table.as_mut() else {
        return Vec::new();
    };
    let Some(mut back) = table.visited.pop() else {
        state.notice = Some(Notice {
            text: "nothing to go back to: g r on an item opens a related collection".into(),
            error: false,
        });
        return Vec::new();
    };
    // The read a streaming export follows is cancelled below: so is the export.
    let mut effects: Vec<Effect> = table
        .end_streaming_export()
        .map(|x| Effect::Export(ExportEffect::Cancel(x)))
        .into_iter()
        .collect();
    // Recomputed with what was learnt since, keeping the selected link.
    back.related.stale = true;
    table.view = back;
    state.notice = Some(Notice {
        text: format!(
            "back: {} more of {MAX_VISITED} views kept",
            table.visited.len()
        ),
        error: false,
    });
    effects.extend(running.map(|x| Effect::Read(ReadEffect::Cancel(x))));
    effects
}

/// `o` orders the collections, Backspace goes back to the previous view.
pub(crate) fn walk_action(state: &mut State, action: Action) -> Vec<Effect> {
    if action == Action::NavBack {
        return go_back(state);
    }
    cycle_order(state);
    Vec::new()
}

/// The attribute a store groups by, when it is one: a store grouped by a multi-attribute
/// partition key is no relationship target (its collections are tuples), so its first
/// attribute must not pass for the key.
/// Whether `store` groups by exactly these partition attributes, in this order.
fn groups_by(store: &ItemStore, names: &[String]) -> bool {
    let keys = store.group_keys().partition();
    keys.iter().map(|k| &k.name).eq(names)
}
