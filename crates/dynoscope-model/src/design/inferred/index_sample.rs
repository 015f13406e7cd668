//! What a sample read from an index itself adds to a design read from the table's: the kinds
//! the index serves and their keys on it, found among the index's own items (a sparse index's
//! few items are rarely in a table sample), each item's kind taken from the table sample's
//! item of the same primary key where there is one, since a KEYS_ONLY or INCLUDE projection
//! may leave out the attribute a modelling library names the kind by; an index item the table
//! sample does not hold and that lacks that attribute is named the kind that the table
//! sample's items on the same index with the same key-read kind have (a Post's `User:{id}`
//! partition names it `User` by its keys, while its `EntityType` says `post`).

use std::collections::{BTreeMap, HashMap};

use super::{holds, source_name, InferredIndex, InferredKind, NO_KIND};
use crate::design::entity::KindRules;
use crate::design::schema::{IndexInfo, KeySchema, Projection, TableInfo};
use crate::item::value::Item;

/// Items read from one index (a parallel Scan of it, spread over its key space).
#[derive(Debug, Clone, Default)]
pub struct IndexSample {
    pub index: String,
    pub items: Vec<Item>,
}

/// What an index projection holds, in words.
pub fn projection_note(projection: &Projection) -> String {
    match projection.projection_type.as_str() {
        "KEYS_ONLY" => "KEYS_ONLY: the table's and the index's keys".to_owned(),
        "INCLUDE" => format!(
            "INCLUDE: the keys and {}",
            projection.non_key_attributes.join(", ")
        ),
        "ALL" => "ALL: every attribute".to_owned(),
        other => other.to_owned(),
    }
}

/// Names each item's kind: by the table sample's item of the same primary key, else by the
/// kind rules.
pub(super) struct Classifier<'a> {
    rules: &'a KindRules,
    /// The rules with nothing settled, given only an item's table key: its kind as the keys
    /// alone read it.
    plain: KindRules,
    table_items: &'a [Item],
    pk: String,
    sk: Option<String>,
    separator: char,
    known: HashMap<String, (String, String)>,
}

impl<'a> Classifier<'a> {
    pub(super) fn new(
        info: &TableInfo,
        rules: &'a KindRules,
        separator: char,
        table_items: &'a [Item],
    ) -> Self {
        let mut classifier = Classifier {
            rules,
            plain: KindRules::new(Vec::new(), None),
            table_items,
            pk: info.keys.partition_key().name.clone(),
            sk: info.keys.sort_key().map(|k| k.name.clone()),
            separator,
            known: HashMap::new(),
        };
        for item in table_items {
            let kind = classifier.by_rules(item);
            classifier.known.insert(classifier.primary_key(item), kind);
        }
        classifier
    }

    fn primary_key(&self, item: &Item) -> String {
        let part = |name: Option<&str>| name.and_then(|n| item.get(n)).map(|v| format!("{v:?}"));
        format!("{:?}", (part(Some(&self.pk)), part(self.sk.as_deref())))
    }

    fn by_rules(&self, item: &Item) -> (String, String) {
        match self
            .rules
            .kind(item, &self.pk, self.sk.as_deref(), self.separator)
        {
            Some((name, source)) => (name.to_owned(), source_name(source)),
            None => (NO_KIND.to_owned(), "none".to_owned()),
        }
    }

    /// The kind `item`'s table key alone names.
    fn keys_kind(&self, item: &Item) -> Option<String> {
        let mut keys = Item::default();
        for name in std::iter::once(&self.pk).chain(self.sk.as_ref()) {
            if let Some(value) = item.get(name) {
                keys.insert(name.clone(), value.clone());
            }
        }
        let kind = self
            .plain
            .kind(&keys, &self.pk, self.sk.as_deref(), self.separator)?;
        Some(kind.0.to_owned())
    }

    /// `items` by kind: each kind's source and its items, in the order read. `index`: the key
    /// of the index they were read from.
    pub(super) fn group<'i>(
        &self,
        items: &'i [Item],
        index: Option<&KeySchema>,
    ) -> BTreeMap<String, (String, Vec<&'i Item>)> {
        // On an index: what the table sample's items on it are, by the kind their keys read.
        let mut by_keys: HashMap<Option<String>, (String, String)> = HashMap::new();
        if let Some(keys) = index {
            for item in self.table_items.iter().filter(|i| holds(keys, i)) {
                by_keys
                    .entry(self.keys_kind(item))
                    .or_insert_with(|| self.known[&self.primary_key(item)].clone());
            }
        }
        let mut out: BTreeMap<String, (String, Vec<&Item>)> = BTreeMap::new();
        for item in items {
            let (name, source) = match self.known.get(&self.primary_key(item)) {
                Some(kind) => kind.clone(),
                None => {
                    let (name, source) = self.by_rules(item);
                    let named_by_attribute = item.get(&source).is_some();
                    match by_keys.get(&self.keys_kind(item)) {
                        Some(kind) if !named_by_attribute => kind.clone(),
                        _ => (name, source),
                    }
                }
            };
            out.entry(name).or_insert((source, Vec::new())).1.push(item);
        }
        out
    }
}

/// One index's figures: coverage from the table sample (and DescribeTable's counts), kinds
/// served from its own sample where there is one.
pub(super) fn inferred_index(
    index: &IndexInfo,
    table_items: &[Item],
    own: Option<&IndexSample>,
    kinds: &[InferredKind],
    table_count: i64,
) -> InferredIndex {
    let mut served: Vec<(String, usize)> = kinds
        .iter()
        .filter_map(|k| {
            let t = k
                .keys
                .iter()
                .find(|t| t.index.as_deref() == Some(&index.name))?;
            Some((k.name.clone(), t.items))
        })
        .collect();
    served.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    InferredIndex {
        name: index.name.clone(),
        kind: index.kind,
        keys: index.keys.clone(),
        projection: index.projection.projection_type.clone(),
        projected: projection_note(&index.projection),
        items: table_items.iter().filter(|i| holds(&index.keys, i)).count(),
        own_sample: own.map(|s| s.items.len()),
        described: index
            .item_count
            .filter(|_| table_count > 0)
            .map(|n| (n, table_count)),
        kinds: served,
    }
}
