//! The items pane's columns after the kind and the sort key: the sort key's decoded parts and
//! the most common other attributes of the selected collection. Chosen when what is shown
//! changes (a page, another collection, the filter), not per frame, and kept in the state so
//! `update` can stop `→` at the last one and the ui draws the same ones.
//!
//! Part columns are named per entity kind, from that kind's items across the whole table (so
//! every collection names a kind's parts alike): by a configured `[[entity]]` pattern, else by
//! the names the keys spell themselves (ElectroDB), else after the attributes that hold the
//! same values (`model::design::part_names`), else `part1`, `part2`…; a collection of several kinds
//! joins their names (`date/sku`).
//! Every header is unique: an attribute a part column is named after is not shown again, and
//! the decoded kind's column takes a header no attribute has.

use super::state::OpenTable;
use crate::model::design::collection::{ItemStore, KindId};
use crate::model::design::entity::{decode_key_as, EntityPattern, KeyRole};
use crate::model::design::part_names::{part_names_from_data, KindPartNames};
use crate::model::design::schema::KeySchema;
use crate::model::item::attribute_rank::rank_attributes;
use crate::model::item::value::Item;

/// Items sampled to name the key parts: the first ones shown.
pub const COLUMN_SAMPLE: usize = 50;
/// Items whose attributes become columns: every attribute of these is reachable with `→`
/// (a collection's items mostly share attributes; this many cost about a millisecond).
pub const ATTRIBUTE_SAMPLE: usize = 500;
/// Headers tried, in order, for the decoded entity kind's column.
const KIND_HEADERS: [&str; 3] = ["kind", "entity", "entity kind"];

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ItemColumns {
    /// Header of the decoded entity kind's column: `kind` unless an attribute is named so.
    pub kind_header: String,
    /// Headers of the sort key's parts (`part1`…, a configured pattern's or attributes' names).
    pub part_names: Vec<String>,
    /// Other attributes, most common first (or as a choice made with `C` orders them).
    pub attrs: Vec<String>,
    /// Attributes of the sampled items a part column stands for, so not among `attrs` unless
    /// a choice shows them (`app::column_choice`).
    pub left_out: Vec<String>,
    /// Attributes of the sampled items a choice hides.
    pub hidden: usize,
}

impl Default for ItemColumns {
    fn default() -> Self {
        ItemColumns {
            kind_header: KIND_HEADERS[0].to_owned(),
            part_names: Vec::new(),
            attrs: Vec::new(),
            left_out: Vec::new(),
            hidden: 0,
        }
    }
}

/// The columns for `view`'s selected collection; `patterns` are the configured entity
/// templates for its table.
pub fn choose(
    view: &OpenTable,
    patterns: &[&EntityPattern],
    memory: &mut KindPartNames,
) -> ItemColumns {
    let Some(store) = view.view.store.as_ref() else {
        return ItemColumns::default();
    };
    let keys = store.group_keys();
    // Parts split a one-and-one key's sort attribute; a multi-attribute key's sort attributes
    // are real attributes, each its own key column.
    let sk_name = single_sort_key(keys);
    let sample: Vec<u32> = (0..view.view.item_count().min(COLUMN_SAMPLE))
        .map_while(|n| view.view.item_at(n))
        .collect();
    let items: Vec<_> = sample.iter().map(|&id| store.item(id)).collect();
    let sks: Vec<Option<&str>> = items
        .iter()
        .map(|item| sort_key_text(item, sk_name))
        .collect();
    let parts: Vec<Vec<&str>> = sks
        .iter()
        .map(|sk| sk.map_or_else(Vec::new, |sk| sort_key_parts(sk, store.separator())))
        .collect();
    let part_count = parts.iter().map(Vec::len).max().unwrap_or(0);
    let mut skip: Vec<&str> = keys.attributes().map(|k| k.name.as_str()).collect();
    // The attribute that named the items' kinds (`__edb_e__`, `_et`…) is the kind column.
    for item in &items {
        if let Some(name) = store.kind_attribute(item) {
            if !skip.contains(&name) {
                skip.push(name);
            }
        }
    }
    // Part names are a property of a kind across the table: each kind with parts here is
    // named from its own items in every collection; items of no kind from those shown.
    let mut groups: Vec<Option<KindId>> = Vec::new();
    for (&id, item_parts) in sample.iter().zip(&parts) {
        let kind = store.kind_id_of(id);
        if has_parts(item_parts) && !groups.contains(&kind) {
            groups.push(kind);
        }
    }
    // Every kind of the read learns its names (once its sample grows), so a kind met here in
    // one collection is named as it was across the whole scan.
    for (kind, name) in store.kind_names().enumerate() {
        let kind = kind as KindId;
        let samples = store.kind_sample(kind).len();
        if samples > 0 && memory.wants(name, samples) {
            let names = kind_part_names(store, kind, patterns, &skip);
            memory.best(name, samples, names);
        }
    }
    let mut per_group: Vec<Vec<Option<String>>> = Vec::new();
    for kind in groups {
        let named = match kind {
            Some(kind) => memory.best(store.kind_name(kind), 0, Vec::new()),
            None => {
                let unkinded: Vec<usize> = (0..sample.len())
                    .filter(|&i| store.kind_id_of(sample[i]).is_none())
                    .collect();
                let refs: Vec<&Item> = unkinded.iter().map(|&i| &items[i]).collect();
                let group_parts: Vec<Vec<&str>> =
                    unkinded.iter().map(|&i| parts[i].clone()).collect();
                let count = group_parts
                    .iter()
                    .map(|p| parts_shown(p))
                    .max()
                    .unwrap_or(0);
                part_names_from_data(&refs, &group_parts, count, &skip)
            }
        };
        per_group.push(named);
    }
    let (part_names, from_data) = merge_part_names(&per_group, part_count);
    let more: Vec<Item> = (COLUMN_SAMPLE..view.view.item_count().min(ATTRIBUTE_SAMPLE))
        .map_while(|n| view.view.item_at(n))
        .map(|id| store.item(id))
        .collect();
    let attrs = rank_attributes(items.iter().chain(&more), &skip, usize::MAX);
    // A part column stands for the attributes it is named after.
    let (attrs, left_out): (Vec<String>, Vec<String>) = attrs
        .into_iter()
        .partition(|a| !from_data.contains(a) && !part_names.contains(a));
    let taken = |h: &str| {
        sk_name.is_some_and(|s| s.eq_ignore_ascii_case(h))
            || part_names
                .iter()
                .chain(&attrs)
                .any(|n| n.eq_ignore_ascii_case(h))
    };
    let kind_header = KIND_HEADERS
        .iter()
        .map(|h| h.to_string())
        .chain((2..).map(|n| format!("kind {n}")))
        .find(|h| !taken(h))
        .expect("an unbounded list has a free header");
    ItemColumns {
        kind_header,
        part_names,
        attrs,
        left_out,
        ..ItemColumns::default()
    }
}

/// Parts up to the last non-empty one: `game:` (OneTable's own record) has none.
fn parts_shown(parts: &[&str]) -> usize {
    parts
        .iter()
        .rposition(|p| !p.is_empty())
        .map_or(0, |at| at + 1)
}

fn has_parts(parts: &[&str]) -> bool {
    parts_shown(parts) > 0
}

/// The sort key's text, when it is a string.
fn sort_key_text<'i>(item: &'i Item, sk_name: Option<&str>) -> Option<&'i str> {
    sk_name.and_then(|k| item.get(k)).and_then(|v| v.as_s())
}

/// The parts the items pane shows for a sort key (also what `ui::items` draws).
pub fn sort_key_parts(sk: &str, separator: char) -> Vec<&str> {
    decode_key_as(sk, separator, KeyRole::Sort).parts
}

/// The names of one kind's sort-key parts, from its first items across the table: its
/// configured template, else the names its keys spell (ElectroDB's `attr_value`, as the
/// items spell the attribute), else the attributes holding the same values.
fn kind_part_names(
    store: &ItemStore,
    kind: KindId,
    patterns: &[&EntityPattern],
    skip: &[&str],
) -> Vec<Option<String>> {
    let sk_name = single_sort_key(store.group_keys());
    let items: Vec<Item> = store
        .kind_sample(kind)
        .iter()
        .map(|&id| store.item(id))
        .collect();
    let decoded: Vec<_> = items
        .iter()
        .map(|item| {
            sort_key_text(item, sk_name)
                .map(|sk| decode_key_as(sk, store.separator(), KeyRole::Sort))
        })
        .collect();
    let count = decoded
        .iter()
        .flatten()
        .map(|d| d.parts.len())
        .max()
        .unwrap_or(0);
    let name = store.kind_name(kind);
    if let Some(pattern) = patterns
        .iter()
        .find(|p| p.kind() == name && p.part_names().len() >= count)
    {
        return pattern.part_names().iter().cloned().map(Some).collect();
    }
    if let Some((item, spelled)) = items.iter().zip(&decoded).find_map(|(item, d)| {
        d.as_ref()
            .filter(|d| !d.names.is_empty())
            .map(|d| (item, d))
    }) {
        return spelled
            .names
            .iter()
            .map(|n| {
                let attribute = item
                    .iter()
                    .map(|(a, _)| a)
                    .find(|a| a.eq_ignore_ascii_case(n));
                Some(attribute.unwrap_or(n).to_owned())
            })
            .collect();
    }
    let refs: Vec<&Item> = items.iter().collect();
    let parts: Vec<Vec<&str>> = decoded
        .iter()
        .map(|d| d.as_ref().map(|d| d.parts.clone()).unwrap_or_default())
        .collect();
    part_names_from_data(&refs, &parts, count, skip)
}

/// One header per part position from every kind's names: the names the kinds agree on, or all
/// of them (`date/sku`), else `part<n>`; a name already heading a column is not repeated. Also
/// returns every attribute a part was named after (their own columns are hidden).
fn merge_part_names(per_kind: &[Vec<Option<String>>], count: usize) -> (Vec<String>, Vec<String>) {
    let mut headers: Vec<String> = Vec::with_capacity(count);
    let mut named_after: Vec<String> = Vec::new();
    for n in 0..count {
        let numbered = format!("part{}", n + 1);
        let mut names: Vec<&str> = Vec::new();
        for kind_names in per_kind {
            // A kind with a part here that names nothing is said too: a header naming only
            // the other kind's attribute would mislabel its values.
            let name = match kind_names.get(n) {
                Some(Some(name)) => name.as_str(),
                Some(None) => numbered.as_str(),
                None => continue,
            };
            if !names.contains(&name) {
                names.push(name);
            }
            if name != numbered && !named_after.iter().any(|a| a == name) {
                named_after.push(name.to_owned());
            }
        }
        let header = names.join("/");
        if header.is_empty() || headers.contains(&header) {
            headers.push(numbered);
        } else {
            headers.push(header);
        }
    }
    (headers, named_after)
}

/// The largest useful `column_offset`: the last attribute column alone after the key columns.
pub fn max_column_offset(view: &OpenTable) -> usize {
    view.view.columns.attrs.len().saturating_sub(1)
}

/// The sort attribute whose value parts become columns: a one-and-one key's only.
pub(crate) fn single_sort_key(keys: &KeySchema) -> Option<&str> {
    match keys.sort() {
        [only] => Some(only.name.as_str()),
        _ => None,
    }
}
