//! Completions for the query form: partition and sort keys from loaded items and from the key
//! samples the user asked for (`key_sample`), attributes for filters. Nothing here reads.

use std::collections::BTreeSet;

use super::field::Field;
use super::form::{Completion, QueryForm};
use super::partiql::check_partiql;
use crate::app::state::{Modal, State};
use crate::model::design::collection::ItemStore;
use crate::model::design::schema::KeySchema;
use crate::model::design::schema::KeyType;
use crate::model::query::completion::{complete_key, complete_last_word, KeyCompletion};
use crate::model::query::partiql::complete::{
    keywords, open_key_value, open_sort_value, pinned_partition,
};
use crate::model::text::cell::cell_text;

pub(crate) const MAX_COMPLETIONS: usize = 8;
/// Loaded items a scan-shaped statement's index advice is drawn from.
const ADVICE_SAMPLE: usize = 200;

/// Revalidates and recomputes completions after any change.
pub(super) fn refresh(state: &mut State) {
    let Some(info) = state.table_info() else {
        return;
    };
    let order = state.queries.completion_order;
    let Some(v) = state.table.as_mut() else {
        return;
    };
    let store = v.view.store.as_ref();
    let Some(b) = v.modal.as_mut().and_then(Modal::query_form_mut) else {
        return;
    };
    b.fit_focus(&info);
    b.check = b.prepare(&info);
    b.sample_offer = super::sample_offer::offer(b, &info);
    if b.partiql {
        // A scan-shaped statement's advice is drawn from the loaded items.
        let sample: Vec<_> = store
            .map(|s| {
                (0..s.stored().min(ADVICE_SAMPLE) as u32)
                    .map(|id| s.item(id))
                    .collect()
            })
            .unwrap_or_default();
        b.pql.check = check_partiql(
            &b.text(Field::Statement),
            &b.text(Field::Parameters),
            &info,
            &sample,
        );
    }
    // Keys as completions, with how many loaded keys are behind each.
    let split = |c: Vec<KeyCompletion>| -> (Vec<String>, Vec<usize>) {
        c.into_iter().map(|c| (c.text, c.count)).unzip()
    };
    let keys = b.keys(&info).clone();
    let same_keys = store.filter(|s| *s.group_keys() == keys);
    // The store groups by other keys: the loaded items' own attributes hold these keys. A
    // multi-attribute key's collections are tuples, so its values are always read per
    // attribute from the items.
    let multi = keys.is_multi_attribute();
    if let (Some(s), true) = (store, same_keys.is_none() || multi) {
        b.loaded_keys.update(s, &keys);
    }
    let typed = b.text(b.focus);
    // Nothing typed, nothing offered: Tab on an empty field moves on instead of accepting.
    let (items, counts): (Vec<String>, Vec<usize>) = match b.focus {
        _ if typed.is_empty() => Default::default(),
        Field::PkAt(_) | Field::SkAt(_) | Field::SkHigh if multi => {
            match super::multi_key::completion_values(b, &keys, b.focus) {
                Some((numeric, values)) => split(complete_key(
                    &typed,
                    values.iter().map(String::as_str),
                    MAX_COMPLETIONS,
                    order,
                    numeric,
                )),
                None => Default::default(),
            }
        }
        Field::Pk => {
            let mut values: BTreeSet<&str> =
                b.sample.pk_values.iter().map(String::as_str).collect();
            match same_keys {
                Some(s) => values.extend(s.collections().iter().map(|c| c.key.as_str())),
                None if store.is_some() => {
                    values.extend(b.loaded_keys.partition.iter().map(String::as_str))
                }
                None => {}
            }
            let numeric = keys.partition_key().key_type == KeyType::N;
            split(complete_key(
                &typed,
                values,
                MAX_COMPLETIONS,
                order,
                numeric,
            ))
        }
        Field::Sk | Field::SkHigh => {
            let pk = b.text(Field::Pk);
            let values = sort_values(b, store, same_keys, &keys, Some(&pk));
            let numeric = keys.sort_key().is_some_and(|k| k.key_type == KeyType::N);
            let values = values.iter().map(String::as_str);
            split(complete_key(
                &typed,
                values,
                MAX_COMPLETIONS,
                order,
                numeric,
            ))
        }
        Field::Statement if multi => {
            match super::multi_key::statement_completion(b, &keys, &typed) {
                Some((head, partial, numeric, values)) => {
                    let (texts, counts) = split(complete_key(
                        &partial,
                        values.iter().map(String::as_str),
                        MAX_COMPLETIONS,
                        order,
                        numeric,
                    ));
                    let items = texts
                        .iter()
                        .map(|t| format!("{head}'{}", t.replace('\'', "''")))
                        .collect();
                    (items, counts)
                }
                None => statement_words(&typed, store, &info),
            }
        }
        Field::Statement if open_key_value(&typed, &keys.partition_key().name).is_some() => {
            let (head, partial) =
                open_key_value(&typed, &keys.partition_key().name).expect("matched");
            let mut values: BTreeSet<&str> =
                b.sample.pk_values.iter().map(String::as_str).collect();
            if let Some(s) = same_keys {
                values.extend(s.collections().iter().map(|c| c.key.as_str()));
            }
            let (texts, counts) = split(complete_key(
                &partial,
                values,
                MAX_COMPLETIONS,
                order,
                keys.partition_key().key_type == KeyType::N,
            ));
            let items = texts
                .iter()
                .map(|t| format!("{head}'{}", t.replace('\'', "''")))
                .collect();
            (items, counts)
        }
        Field::Statement
            if keys
                .sort_key()
                .is_some_and(|sk| open_sort_value(&typed, &sk.name).is_some()) =>
        {
            let sk = keys.sort_key().expect("matched");
            let (head, partial) = open_sort_value(&typed, &sk.name).expect("matched");
            // Within the partition the statement pins, when it pins one.
            let pinned = pinned_partition(head, &keys.partition_key().name);
            let values = sort_values(b, store, same_keys, &keys, pinned.as_deref());
            let (texts, counts) = split(complete_key(
                &partial,
                values.iter().map(String::as_str),
                MAX_COMPLETIONS,
                order,
                sk.key_type == KeyType::N,
            ));
            let items = texts
                .iter()
                .map(|t| format!("{head}'{}", t.replace('\'', "''")))
                .collect();
            (items, counts)
        }
        Field::Statement => statement_words(&typed, store, &info),
        Field::Filter | Field::Projection => {
            let names = loaded_attributes(store);
            let words =
                complete_last_word(&typed, names.iter().map(String::as_str), MAX_COMPLETIONS);
            (words, Vec::new())
        }
        _ => Default::default(),
    };
    let keep = b
        .completion
        .as_ref()
        .filter(|c| c.field == b.focus)
        .map_or(0, |c| c.selected);
    b.completion = (!items.is_empty() && !b.completion_dismissed).then(|| Completion {
        field: b.focus,
        selected: keep.min(items.len() - 1),
        items,
        counts,
        order,
    });
}

/// The table's and its indexes' names, and the loaded items' attributes, where the statement
/// can spell them bare, and the keywords the grammar expects there.
fn statement_words(
    typed: &str,
    store: Option<&ItemStore>,
    info: &crate::model::design::schema::TableInfo,
) -> (Vec<String>, Vec<usize>) {
    let mut names = loaded_attributes(store);
    names.insert(info.name.clone());
    names.extend(info.indexes.iter().map(|i| i.name.clone()));
    names.retain(|n| n.chars().all(|c| c.is_alphanumeric() || c == '_'));
    let mut words = keywords(typed);
    words.extend(complete_last_word(
        typed,
        names.iter().map(String::as_str),
        MAX_COMPLETIONS,
    ));
    words.truncate(MAX_COMPLETIONS);
    (words, Vec::new())
}

/// The attribute names of the first thousand loaded items.
fn loaded_attributes(
    store: Option<&crate::model::design::collection::ItemStore>,
) -> BTreeSet<String> {
    store
        .map(|s| {
            (0..s.len().min(1000) as u32)
                .flat_map(|id| {
                    s.item(id)
                        .iter()
                        .map(|(n, _)| n.to_string())
                        .collect::<Vec<_>>()
                })
                .collect()
        })
        .unwrap_or_default()
}

/// Loaded sort-key values: of partition `pk` when given (the form's sample, the store's
/// collection or the loaded keys), else of every loaded item.
fn sort_values(
    b: &QueryForm,
    store: Option<&ItemStore>,
    same_keys: Option<&ItemStore>,
    keys: &KeySchema,
    pk: Option<&str>,
) -> BTreeSet<String> {
    let mut values: BTreeSet<String> = BTreeSet::new();
    let Some(sk) = keys.sort_key() else {
        return values;
    };
    let Some(pk) = pk else {
        if let Some(s) = store {
            values.extend(
                (0..s.len().min(1000) as u32)
                    .filter_map(|id| s.item(id).get(&sk.name).map(cell_text)),
            );
        }
        return values;
    };
    if b.sample.for_pk.as_deref() == Some(pk) {
        values.extend(b.sample.sk_values.iter().cloned());
    }
    if same_keys.is_none() && store.is_some() {
        if let Some(loaded) = b.loaded_keys.sort.get(pk) {
            values.extend(loaded.iter().cloned());
        }
    }
    if let Some(s) = same_keys {
        if let Some(c) = s.collection_of(pk) {
            values.extend(
                s.collections()[c]
                    .items
                    .iter()
                    .filter_map(|id| s.item(*id).get(&sk.name).map(cell_text)),
            );
        }
    }
    values
}
