//! Key samples for completion, read only when the user asks: `Ctrl-S` in the query form reads
//! one small keys-only page (the table's or index's partition keys, or the sort keys of the
//! typed partition), priced first from DescribeTable's average item size — a projection does
//! not lower what DynamoDB charges — logged like any request, and kept for the session per
//! table and index. Opening the form, typing and completing read nothing.

use super::form::KeySample;
use super::sample_offer::{estimate, wanted, Wanted, SAMPLE_KEYS};
use crate::app::msg::{Effect, ReadEffect};
use crate::app::request_log::RequestRow;
use crate::app::state::{Modal, Notice, State};
use crate::model::design::collection::TUPLE_SEPARATOR;
use crate::model::design::schema::KeySchema;
use crate::model::engine::read_cause::ReadCause;
use crate::model::engine::{DoneOutcome, EngineEvent, Operation, ReadSpec};
use crate::model::query::key_condition::KeyCondition;
use crate::model::text::cell::cell_text;
use crate::model::traffic::capacity::format_units;

fn cache_key(endpoint: &str, table: &str, index: Option<&str>) -> String {
    format!("{endpoint}\u{0}{table}\u{0}{}", index.unwrap_or(""))
}

/// The session's sample of the form's table or index, if one was read: on opening the form
/// and on choosing another index.
pub(super) fn restore(state: &mut State) {
    let Some(info) = state.table_info() else {
        return;
    };
    let endpoint = state.endpoint.clone();
    let cache = &state.queries.key_samples;
    let Some(b) = state
        .table
        .as_mut()
        .and_then(|v| v.modal.as_mut().and_then(Modal::query_form_mut))
    else {
        return;
    };
    let key = cache_key(&endpoint, &info.name, b.index_name(&info).as_deref());
    b.sample = cache.get(&key).cloned().unwrap_or_default();
    b.sample.request_id = None;
}

/// `Ctrl-S`: reads the sample the popup offers, after saying what it should cost.
pub(super) fn sample_keys(state: &mut State) -> Vec<Effect> {
    let Some(info) = state.table_info() else {
        return Vec::new();
    };
    let id = state.next_request_id;
    let Some(b) = state
        .table
        .as_mut()
        .and_then(|v| v.modal.as_mut().and_then(Modal::query_form_mut))
    else {
        return Vec::new();
    };
    let Some(wanted) = wanted(b, &info) else {
        state.notice = Some(Notice {
            text: "nothing to sample here: the keys offered are all the sample has".into(),
            error: false,
        });
        return Vec::new();
    };
    let keys = b.keys(&info).clone();
    let index = b.index_name(&info);
    let estimated = estimate(b, &info);
    let units = format_units(estimated);
    // Priced before it is sent: a sample that would pass the session's budget is not sent.
    if let Some(left) = state.session_budget.left(state.log.total.total) {
        if estimated > left {
            state.notice = Some(Notice {
                text: format!(
                    "not sampled: ≈ {units} RCU would pass the session's --max-rcu {} ({} left); nothing was sent",
                    format_units(state.session_budget.max_rcu.unwrap_or_default()),
                    format_units(left)
                ),
                error: true,
            });
            return Vec::new();
        }
    }
    let mut spec = ReadSpec::new(Operation::Scan, info.name.clone(), ReadCause::KeySample);
    let what = match wanted {
        Wanted::PartitionKeys => {
            b.sample.pk_sampled = true;
            b.sample.pk_values.clear();
            format!("{SAMPLE_KEYS} keys")
        }
        Wanted::SortKeysOf(pk) => {
            let whole = pk.join(TUPLE_SEPARATOR);
            let Ok(condition) = KeyCondition::build_parts(&keys, &pk, &[], None) else {
                state.notice = Some(Notice {
                    text: format!(
                        "cannot sample the sort keys of '{whole}': not a valid partition key"
                    ),
                    error: true,
                });
                return Vec::new();
            };
            let parts = condition.to_expression();
            spec.operation = Operation::Query;
            if keys.is_multi_attribute() {
                // Its names (#pk0, #pk1 …) are the projection's too: see `keys_only`.
                spec.key_condition = Some(parts.key_condition);
                spec.names = parts.names;
            } else {
                spec.key_condition = Some(parts.key_condition.replace("#pk", "#kp"));
            }
            spec.values = parts.values;
            b.sample.for_pk = Some(whole);
            b.sample.sk_values.clear();
            format!("{SAMPLE_KEYS} sort keys")
        }
    };
    spec.index = index.clone();
    keys_only(&mut spec, &keys);
    b.sample.request_id = Some(id);
    state.next_request_id += 1;
    state.notice = Some(Notice {
        text: format!(
            "sampling {what} of '{}' · ≈ {units} RCU (DescribeTable's average item size)",
            index.as_deref().unwrap_or(&info.name)
        ),
        error: false,
    });
    vec![Effect::Read(ReadEffect::Start {
        id,
        spec: Box::new(spec),
    })]
}

/// The sample reads the key attributes alone: on a multi-attribute key every one of them,
/// under the key condition's names where it has them (DynamoDB refuses a name no expression
/// uses, and one attribute named twice).
fn keys_only(spec: &mut ReadSpec, keys: &KeySchema) {
    if keys.is_multi_attribute() {
        let mut projection = Vec::new();
        for (n, attr) in keys.attributes().enumerate() {
            let tag = match spec.names.iter().find(|(_, name)| *name == attr.name) {
                Some((tag, _)) => tag.clone(),
                None => {
                    let tag = format!("#ka{n}");
                    spec.names.push((tag.clone(), attr.name.clone()));
                    tag
                }
            };
            projection.push(tag);
        }
        spec.projection = Some(projection.join(", "));
        spec.page_size = Some(SAMPLE_KEYS);
        spec.limit = Some(SAMPLE_KEYS as usize);
        spec.budget.max_pages = Some(1);
        return;
    }
    let mut projection = vec!["#kp".to_string()];
    spec.names = vec![("#kp".into(), keys.partition_key().name.clone())];
    if let Some(sk) = keys.sort_key() {
        projection.push("#ks".into());
        spec.names.push(("#ks".into(), sk.name.clone()));
    }
    spec.projection = Some(projection.join(", "));
    spec.page_size = Some(SAMPLE_KEYS);
    spec.limit = Some(SAMPLE_KEYS as usize);
    spec.budget.max_pages = Some(1);
}

/// Pages of a key sample go to the form and the session's cache, not the item store. Their
/// capacity is logged like any other request's.
pub(crate) fn sample_event(state: &mut State, event: &EngineEvent) -> Option<Vec<Effect>> {
    let info = state.table_info()?;
    let endpoint = state.endpoint.clone();
    let session_max = state.session_budget.max_rcu.unwrap_or_default();
    let b = state
        .table
        .as_mut()?
        .modal
        .as_mut()
        .and_then(Modal::query_form_mut)?;
    if b.sample.request_id != Some(event.request_id()) {
        return None;
    }
    let refused = match event {
        EngineEvent::Done {
            outcome: DoneOutcome::BudgetReached,
            ..
        } => Some(format!(
            "not sampled: the session's --max-rcu {} is spent; nothing was sent",
            format_units(session_max)
        )),
        EngineEvent::Failed { error, .. } => {
            Some(format!("the key sample failed: {}", error.message))
        }
        _ => None,
    };
    if let Some(text) = refused {
        // Not read: Ctrl-S may offer it again.
        b.sample.request_id = None;
        b.sample.pk_sampled = b.sample.pk_sampled && !b.sample.pk_values.is_empty();
        if b.sample.sk_values.is_empty() {
            b.sample.for_pk = None;
        }
        state.notice = Some(Notice { text, error: true });
        super::completion::refresh(state);
        return Some(Vec::new());
    }
    if let EngineEvent::Page(page) = event {
        state.log.push(RequestRow::from_page(page, 1));
        let b = state
            .table
            .as_mut()?
            .modal
            .as_mut()
            .and_then(Modal::query_form_mut)?;
        let keys = b.keys(&info).clone();
        if keys.is_multi_attribute() {
            // Every key attribute of each sampled item, partition first (`completion_values`).
            let rows = page.items.iter().filter_map(|i| {
                keys.attributes()
                    .map(|k| i.get(&k.name).map(cell_text))
                    .collect::<Option<Vec<String>>>()
            });
            b.sample.rows.extend(rows);
        } else {
            let attr = match &b.sample.for_pk {
                None => Some(keys.partition_key().name.clone()),
                Some(_) => keys.sort_key().map(|k| k.name.clone()),
            };
            let values: Vec<String> = page
                .items
                .iter()
                .filter_map(|i| attr.as_ref().and_then(|a| i.get(a)).map(cell_text))
                .collect();
            if b.sample.for_pk.is_none() {
                b.sample.pk_values.extend(values);
            } else {
                b.sample.sk_values.extend(values);
            }
        }
        let key = cache_key(&endpoint, &info.name, b.index_name(&info).as_deref());
        let kept: KeySample = b.sample.clone();
        state.queries.key_samples.insert(key, kept);
        super::completion::refresh(state);
    }
    Some(Vec::new())
}
