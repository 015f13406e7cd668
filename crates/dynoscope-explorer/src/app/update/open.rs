//! What to read: a table opened, its description arriving, a rescan, a partition-key query.

use crate::app::msg::{Effect, TableEffect};
use crate::app::reads::start;
use crate::app::state::{Loadable, Modal, OpenTable, ReadOrigin, Screen, State};
use crate::model::design::collection::TUPLE_SEPARATOR;
use crate::model::engine::read_cause::ReadCause;
use crate::model::engine::{Operation, ReadSpec};
use crate::model::query::key_condition::KeyCondition;
use crate::model::text::sanitize::sanitize;

pub(super) fn open_table(state: &mut State, name: String) -> Vec<Effect> {
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
            effects.push(Effect::Tables(TableEffect::Describe(name.clone())));
            Loadable::Loading
        }
    };
    let ready = matches!(info, Loadable::Loaded(_));
    state.table = Some(OpenTable::new(name, info));
    if ready {
        effects.extend(new_scan(state));
    }
    effects
}

pub(super) fn described(
    state: &mut State,
    table: String,
    result: Result<crate::model::design::schema::TableInfo, String>,
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
pub(super) fn new_scan(state: &mut State) -> Vec<Effect> {
    let Some(view) = state.table.as_ref() else {
        return Vec::new();
    };
    let mut spec = ReadSpec::new(Operation::Scan, view.name.clone(), ReadCause::OpenTable);
    spec.index = view.view.index.clone();
    start(state, spec, ReadOrigin::Plain)
}

pub(super) fn submit_pk(state: &mut State, pk: String) -> Vec<Effect> {
    let Some(view) = state.table.as_mut() else {
        return Vec::new();
    };
    let Some(keys) = view.read_keys().cloned() else {
        return Vec::new();
    };
    // A multi-attribute key takes its tuple as the collections show it (`A · B`); a value of
    // a one-attribute key is taken whole, whatever it holds.
    let parts: Vec<String> = match keys.partition() {
        [_] => vec![pk],
        attrs => {
            let parts: Vec<String> = pk.split(TUPLE_SEPARATOR).map(str::to_string).collect();
            if parts.len() != attrs.len() {
                let names: Vec<&str> = attrs.iter().map(|a| a.name.as_str()).collect();
                if let Some(p) = view.modal.as_mut().and_then(Modal::pk_prompt_mut) {
                    p.error = Some(format!(
                        "{} value(s) typed but the partition key is {}; give one value per attribute joined by '{TUPLE_SEPARATOR}', as the collections show them",
                        parts.len(),
                        sanitize(&names.join(TUPLE_SEPARATOR))
                    ));
                }
                return Vec::new();
            }
            parts
        }
    };
    let condition = match KeyCondition::build_parts(&keys, &parts, &[], None) {
        Ok(c) => c,
        Err(e) => {
            if let Some(p) = view.modal.as_mut().and_then(Modal::pk_prompt_mut) {
                p.error = Some(e.to_string());
            }
            return Vec::new();
        }
    };
    view.modal = None;
    let parts = condition.to_expression();
    let mut spec = ReadSpec::new(Operation::Query, view.name.clone(), ReadCause::Query);
    spec.index = view.view.index.clone();
    spec.key_condition = Some(parts.key_condition);
    spec.names = parts.names;
    spec.values = parts.values;
    start(state, spec, ReadOrigin::Plain)
}
