//! A table's single-table design read back out of a sample of its items: the entity kinds,
//! each kind's key templates on the table and on every index it appears in, its attributes
//! with their DynamoDB types and presence, each index's use (kinds served, key meaning per
//! kind, coverage), the access patterns the keys make possible and the relationships they
//! encode. What `model export` writes; pure, so every figure is tested on items alone.
//!
//! Kinds come from the same rules the explorer uses ([`KindRules`]: a modelling library's
//! attribute first, then a common entity attribute, then the keys), so the document names
//! the kinds the user sees on screen.

mod index_sample;
mod markdown;
mod patterns;
mod templates;
mod warnings;
mod workbench_out;

use std::collections::BTreeMap;

use serde::Serialize;

use crate::design::entity::{infer_separator, KeyRole, KindRules, KindSource};
use crate::design::schema::{IndexKind, KeySchema, TableInfo};
use crate::item::value::Item;

use index_sample::Classifier;
pub use index_sample::{projection_note, IndexSample};
pub use markdown::design_markdown;
pub use patterns::{AccessPattern, Relationship};
pub use templates::{templates_of, Template};
pub use warnings::DesignWarning;
pub use workbench_out::{design_workbench, ValueMode};

/// Items whose kind no rule finds are gathered under this name.
pub const NO_KIND: &str = "(no kind)";
/// Items kept per kind as examples.
pub const EXAMPLES: usize = 3;

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct InferredDesign {
    pub table: String,
    /// Items the figures come from.
    pub sampled: usize,
    pub separator: char,
    pub table_keys: KeySchema,
    pub kinds: Vec<InferredKind>,
    pub indexes: Vec<InferredIndex>,
    pub access_patterns: Vec<AccessPattern>,
    pub relationships: Vec<Relationship>,
    /// What the samples show to watch, each with the items it rests on. A list a caller may
    /// extend with findings of its own.
    pub warnings: Vec<DesignWarning>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct InferredKind {
    pub name: String,
    /// `__edb_e__`, `entityType`, `keys`…: where the kind was read from.
    pub source: String,
    pub items: usize,
    /// The table's key first, then each index the kind's items appear in.
    pub keys: Vec<TargetTemplates>,
    pub attributes: Vec<InferredAttribute>,
    /// DynamoDB size of the kind's largest sampled item, and how many are near the 400 KB
    /// item limit (`hotkeys`' large-item threshold).
    pub largest_bytes: usize,
    pub large_items: usize,
    /// The index whose own sample alone showed the kind (none of the table's sampled items is
    /// of it): its figures are that sample's.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub index_only: Option<String>,
    /// The first few sampled items of the kind, for a model's `TableData`; not in the JSON
    /// document (item data leaves only when asked, through the Workbench writer).
    #[serde(skip)]
    pub examples: Vec<Item>,
}

/// A kind's templates on one target (`index: None` is the table), per key attribute in
/// key-schema order.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct TargetTemplates {
    pub index: Option<String>,
    /// The kind's items this target holds.
    pub items: usize,
    pub partition: Vec<Vec<Template>>,
    pub sort: Vec<Vec<Template>>,
}

impl TargetTemplates {
    /// The most common template of each attribute, as one line per side.
    pub fn main(side: &[Vec<Template>]) -> Vec<&str> {
        side.iter()
            .filter_map(|t| t.first().map(|t| t.template.as_str()))
            .collect()
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct InferredAttribute {
    pub name: String,
    /// Each DynamoDB type seen with its item count, most common first (more than one: a
    /// type conflict).
    pub types: Vec<(String, usize)>,
    /// Items of the kind that carry it.
    pub present: usize,
}

impl InferredAttribute {
    pub fn has_conflict(&self) -> bool {
        self.types.len() > 1
    }
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct InferredIndex {
    pub name: String,
    pub kind: IndexKind,
    pub keys: KeySchema,
    pub projection: String,
    /// What the index projects, said in words (`KEYS_ONLY: the table's and the index's keys`).
    pub projected: String,
    /// The table's sampled items that carry every key attribute, so the index holds them.
    pub items: usize,
    /// Items read from the index itself; `None`: it was not sampled on its own (an export,
    /// or a sample the budget did not reach).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub own_sample: Option<usize>,
    /// DescribeTable's item counts of the index and of the table (refreshed by DynamoDB about
    /// every six hours): its coverage of the whole table, where DynamoDB says it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub described: Option<(i64, i64)>,
    /// Kinds the index serves, most items first: counted in its own sample where there is
    /// one, else in the table's.
    pub kinds: Vec<(String, usize)>,
}

impl InferredIndex {
    /// The index holds fewer than all sampled items: a sparse index.
    pub fn is_sparse(&self, sampled: usize) -> bool {
        self.items < sampled
    }
}

/// The design `items` (a sample of `info`'s table) show.
pub fn infer_design(info: &TableInfo, items: &[Item]) -> InferredDesign {
    infer_design_sampled(info, items, &[])
}

/// The design `items` (a sample of the table) and `index_samples` (a sample read from each of
/// those indexes itself) show: an index's kinds and its keys for each come from its own sample
/// where there is one (a sparse index's few items are found there, not in a table sample that
/// may hold none of them); the kinds' attributes, counts and the coverage from the table's.
pub fn infer_design_sampled(
    info: &TableInfo,
    items: &[Item],
    index_samples: &[IndexSample],
) -> InferredDesign {
    let separator = infer_separator(
        items
            .iter()
            .flat_map(|i| info.keys.attributes().filter_map(|k| i.get(&k.name)))
            .filter_map(|v| v.as_s()),
    );
    let mut rules = KindRules::new(Vec::new(), None);
    rules.settle(items);
    if items.is_empty() {
        if let Some(sample) = index_samples.iter().find(|s| !s.items.is_empty()) {
            rules.settle(&sample.items);
        }
    }
    let classify = Classifier::new(info, &rules, separator, items);
    let by_kind = classify.group(items, None);
    let by_index: BTreeMap<&str, BTreeMap<String, (String, Vec<&Item>)>> = index_samples
        .iter()
        .map(|s| {
            (
                s.index.as_str(),
                classify.group(&s.items, info.keys_for(Some(&s.index))),
            )
        })
        .collect();
    let mut targets: Vec<(Option<&str>, &KeySchema)> = vec![(None, &info.keys)];
    targets.extend(
        info.indexes
            .iter()
            .map(|i| (Some(i.name.as_str()), &i.keys)),
    );
    let key_names: Vec<&str> = targets
        .iter()
        .flat_map(|(_, k)| k.attributes().map(|a| a.name.as_str()))
        .collect();
    let mut names: Vec<&String> = by_kind.keys().collect();
    for group in by_index.values() {
        names.extend(group.keys().filter(|n| !by_kind.contains_key(*n)));
    }
    names.sort();
    names.dedup();
    let mut kinds: Vec<InferredKind> = names
        .into_iter()
        .map(|name| {
            // A kind no table item showed is described by the first index sample holding it.
            let (index_only, (source, kind_items)) = match by_kind.get(name) {
                Some(found) => (None, found),
                None => by_index
                    .iter()
                    .find_map(|(index, g)| g.get(name).map(|f| (Some((*index).to_owned()), f)))
                    .expect("a kind comes from a sample"),
            };
            // Every index item carries the table's key too: a kind seen only in an index still
            // has its templates on the table.
            let on = |index: Option<&str>| match index.and_then(|i| by_index.get(i)) {
                Some(group) => group.get(name).map_or(&[][..], |(_, items)| &items[..]),
                None => &kind_items[..],
            };
            InferredKind {
                keys: targets
                    .iter()
                    .filter_map(|(index, keys)| {
                        target_templates(*index, keys, on(*index), separator, &key_names)
                    })
                    .collect(),
                attributes: attributes_of(kind_items),
                largest_bytes: sizes(kind_items).max().unwrap_or(0),
                large_items: sizes(kind_items)
                    .filter(|b| *b >= crate::traffic::distribution::LARGE_ITEM_BYTES)
                    .count(),
                examples: kind_items
                    .iter()
                    .take(EXAMPLES)
                    .map(|i| (*i).clone())
                    .collect(),
                items: kind_items.len(),
                name: name.clone(),
                source: source.clone(),
                index_only,
            }
        })
        .collect();
    kinds.sort_by(|a, b| b.items.cmp(&a.items).then(a.name.cmp(&b.name)));
    let indexes = info
        .indexes
        .iter()
        .map(|index| {
            let own = index_samples.iter().find(|s| s.index == index.name);
            index_sample::inferred_index(index, items, own, &kinds, info.item_count)
        })
        .collect();
    let access_patterns = patterns::access_patterns(info, &kinds);
    let relationships = patterns::relationships(&kinds);
    let warnings = warnings::design_warnings(info, items, index_samples, &kinds);
    InferredDesign {
        table: info.name.clone(),
        sampled: items.len(),
        separator,
        table_keys: info.keys.clone(),
        kinds,
        indexes,
        access_patterns,
        relationships,
        warnings,
    }
}

fn sizes<'a>(items: &'a [&Item]) -> impl Iterator<Item = usize> + 'a {
    items.iter().map(|i| crate::item::item_size::item_size(i))
}

fn source_name(source: KindSource<'_>) -> String {
    match source {
        KindSource::Attribute(name) => name.to_owned(),
        KindSource::Pattern => "[[entity]]".to_owned(),
        _ => "keys".to_owned(),
    }
}

/// An item is in an index when it carries every key attribute of it.
pub(super) fn holds(keys: &KeySchema, item: &Item) -> bool {
    keys.attributes().all(|k| item.get(&k.name).is_some())
}

fn target_templates(
    index: Option<&str>,
    keys: &KeySchema,
    items: &[&Item],
    separator: char,
    key_names: &[&str],
) -> Option<TargetTemplates> {
    let held: Vec<&Item> = items.iter().copied().filter(|i| holds(keys, i)).collect();
    if held.is_empty() {
        return None;
    }
    let side = |attrs: &[crate::design::schema::KeyAttr], role| {
        attrs
            .iter()
            .map(|a| templates_of(&held, &a.name, role, separator, key_names))
            .collect()
    };
    Some(TargetTemplates {
        index: index.map(str::to_owned),
        items: held.len(),
        partition: side(keys.partition(), KeyRole::Partition),
        sort: side(keys.sort(), KeyRole::Sort),
    })
}

fn attributes_of(items: &[&Item]) -> Vec<InferredAttribute> {
    let mut seen: BTreeMap<&str, BTreeMap<&'static str, usize>> = BTreeMap::new();
    for item in items {
        for (name, value) in item.iter() {
            *seen
                .entry(name)
                .or_default()
                .entry(value.type_name())
                .or_default() += 1;
        }
    }
    seen.into_iter()
        .map(|(name, types)| {
            let mut types: Vec<(String, usize)> =
                types.into_iter().map(|(t, n)| (t.to_owned(), n)).collect();
            types.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
            InferredAttribute {
                name: name.to_owned(),
                present: types.iter().map(|(_, n)| n).sum(),
                types,
            }
        })
        .collect()
}

#[cfg(test)]
#[path = "inferred_tests.rs"]
mod tests;

#[cfg(test)]
#[path = "writers_tests.rs"]
mod writers_tests;
