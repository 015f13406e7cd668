//! One item's related collections (see the module documentation for the rules).

use super::knowledge::{KeyKnowledge, TargetKeys};
use super::rule::RelationRule;
use crate::design::collection::TUPLE_SEPARATOR;
use crate::item::value::{AttrValue, Item};

/// Links listed per item at most.
pub const MAX_RELATED: usize = 24;
/// Values longer than a partition key can be (2048 bytes) name nothing.
const MAX_KEY_BYTES: usize = 2048;

/// Why a value names a collection.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Evidence {
    Configured,
    KeyPart,
    Key,
    Value,
    OwnKey,
}

impl Evidence {
    /// How the link was found, in the words of the related list: `part of SK`.
    pub fn describe(self, attribute: &str) -> String {
        match self {
            Evidence::Configured => format!("[[relation]] on {attribute}"),
            Evidence::KeyPart => format!("part of {attribute}"),
            Evidence::Key => format!("{attribute} is its key"),
            Evidence::Value => format!("value of {attribute}"),
            Evidence::OwnKey => format!("the item's {attribute}"),
        }
    }
}

/// A collection an item names: a Query of `key` on `index` (`None`: the table) opens it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RelatedCollection {
    pub index: Option<String>,
    /// The collection as the explorer shows it: on a multi-attribute GSI the partition
    /// values joined by `TUPLE_SEPARATOR` (`WINTER2024 · EU-WEST`).
    pub key: String,
    /// The value of each partition attribute, in key-schema order (one on a table): what
    /// the Query's key condition is built from, since a value may hold the separator.
    pub partition: Vec<String>,
    /// The attribute whose value names it.
    pub attribute: String,
    pub evidence: Evidence,
}

/// What inference knows besides the item.
pub struct RelationInputs<'a> {
    pub separator: char,
    pub knowledge: &'a KeyKnowledge,
    /// Whether a collection of `index` with this key is loaded in a view the explorer holds.
    pub loaded: &'a dyn Fn(Option<&str>, &str) -> bool,
    pub rules: &'a [&'a RelationRule],
    /// Rules 2 to 4; configured relations and own keys are listed either way.
    pub infer: bool,
    /// The collection being viewed (`index`, key): never a link to itself.
    pub current: Option<(Option<&'a str>, &'a str)>,
}

impl RelationInputs<'_> {
    fn seen(&self, target: &TargetKeys, key: &str) -> bool {
        let index = target.index.as_deref();
        self.knowledge.remembers(index, key) || (self.loaded)(index, key)
    }
}

struct Links<'a> {
    out: Vec<RelatedCollection>,
    current: Option<(Option<&'a str>, &'a str)>,
    /// `[[relation]]`s with `ignore = true`: corrections of what inference finds.
    ignored: Vec<&'a RelationRule>,
}

impl Links<'_> {
    /// Adds the link from `value` of `attribute` to collection `key` of `index`, unless it is
    /// the current collection, already listed, or corrected away by an ignore rule (own keys
    /// are facts and are never dropped).
    fn push(&mut self, index: Option<&str>, key: String, from: (&str, &str), evidence: Evidence) {
        self.push_tuple(index, vec![key], from, evidence);
    }

    /// [`Links::push`] of a collection keyed by several partition values, in order.
    fn push_tuple(
        &mut self,
        index: Option<&str>,
        partition: Vec<String>,
        (attribute, value): (&str, &str),
        evidence: Evidence,
    ) {
        let key = partition.join(TUPLE_SEPARATOR);
        if evidence != Evidence::OwnKey
            && self
                .ignored
                .iter()
                .any(|r| r.drops(attribute, value, index, &key))
        {
            return;
        }
        let is_current = self.current == Some((index, key.as_str()));
        let known = self
            .out
            .iter()
            .any(|l| l.index.as_deref() == index && l.key == key);
        if is_current || known || self.out.len() >= MAX_RELATED || key.len() > MAX_KEY_BYTES {
            return;
        }
        self.out.push(RelatedCollection {
            index: index.map(String::from),
            key,
            partition,
            attribute: attribute.to_owned(),
            evidence,
        });
    }
}

/// Top-level strings and numbers (what a key can be made of): the table's key attributes
/// first, then the indexes', then the rest, so the links a key spells come first.
fn scalars<'i>(item: &'i Item, knowledge: &KeyKnowledge) -> Vec<(&'i str, &'i str)> {
    let mut out: Vec<(&str, &str)> = item
        .iter()
        .filter_map(|(name, value)| match value {
            AttrValue::S(text) | AttrValue::N(text) if text.len() <= MAX_KEY_BYTES => {
                Some((name, text.as_str()))
            }
            _ => None,
        })
        .collect();
    out.sort_by_key(|(name, _)| knowledge.key_rank(name));
    out
}

pub fn related_collections(item: &Item, inputs: &RelationInputs<'_>) -> Vec<RelatedCollection> {
    let mut links = Links {
        out: Vec::new(),
        current: inputs.current,
        ignored: inputs.rules.iter().copied().filter(|r| r.ignore).collect(),
    };
    let scalars = scalars(item, inputs.knowledge);
    for rule in inputs.rules.iter().filter(|r| !r.ignore) {
        for &(name, value) in &scalars {
            if let Some(key) = rule.apply(name, value) {
                links.push(
                    rule.index.as_deref(),
                    key,
                    (name, value),
                    Evidence::Configured,
                );
            }
        }
    }
    if inputs.infer {
        for &(name, value) in &scalars {
            key_parts(inputs, &scalars, name, value, &mut links);
            electrodb_parts(inputs, &scalars, name, value, &mut links);
        }
        for &(name, value) in &scalars {
            // One value never names a tuple: a collection of a multi-attribute GSI needs a
            // value for each of its partition attributes, which only the item's own key has.
            for target in inputs.knowledge.targets().iter().filter(|t| !t.is_tuple()) {
                let own = scalars.contains(&(target.key_name.as_str(), value));
                if !own && inputs.seen(target, value) {
                    links.push(
                        target.index.as_deref(),
                        value.to_owned(),
                        (name, value),
                        Evidence::Key,
                    );
                }
            }
        }
    }
    // Own keys are facts, not inference: listed either way, before bare values. An item
    // lacking an index's sort key is not in that (sparse) index.
    for target in inputs.knowledge.targets() {
        let in_target =
            target.index.is_none() || target.sort_names.iter().all(|sk| item.get(sk).is_some());
        if !in_target {
            continue;
        }
        if target.is_tuple() {
            own_tuple(target, &scalars, &mut links);
            continue;
        }
        if let Some((_, value)) = scalars.iter().find(|(n, _)| *n == target.key_name) {
            let index = target.index.as_deref();
            links.push(
                index,
                (*value).to_owned(),
                (&target.key_name, value),
                Evidence::OwnKey,
            );
        }
    }
    if inputs.infer {
        let sep = inputs.separator;
        for &(name, value) in scalars
            .iter()
            .filter(|(_, v)| !v.is_empty() && !v.contains(sep))
        {
            // An attribute seen holding its own collection's id (`CustomerId = 933` in
            // `C#933`) names only collections of that kind, not the `I#933` beside it.
            let id_of = inputs.knowledge.id_prefixes(name);
            // A bare number names an index's collection only through such an attribute:
            // index keys of small numbers are shards and buckets (`Total = 5` ≠ `shard#5`).
            let numeric = value
                .bytes()
                .all(|b| b.is_ascii_digit() || b == b'.' || b == b'-');
            for target in inputs.knowledge.targets() {
                if numeric && id_of.is_none() && target.index.is_some() {
                    continue;
                }
                for profile in target.kinds() {
                    if id_of
                        .as_ref()
                        .is_some_and(|p| !p.contains(&profile.value_prefix.as_str()))
                    {
                        continue;
                    }
                    for key in profile.keys_for_value(value) {
                        if inputs.seen(target, &key) {
                            links.push(
                                target.index.as_deref(),
                                key,
                                (name, value),
                                Evidence::Value,
                            );
                        }
                    }
                }
            }
        }
    }
    links.out
}

/// The item's own collection of a GSI keyed by several partition attributes: the tuple of
/// its values, when it has every one (else DynamoDB keeps it out of the index).
fn own_tuple(target: &TargetKeys, scalars: &[(&str, &str)], links: &mut Links<'_>) {
    let value_of = |name: &String| scalars.iter().find(|(n, _)| n == name).map(|(_, v)| *v);
    let Some(values) = target
        .partition_names
        .iter()
        .map(value_of)
        .collect::<Option<Vec<&str>>>()
    else {
        return;
    };
    let attribute = target.partition_names.join(" + ");
    let key = values.join(TUPLE_SEPARATOR);
    let partition = values.into_iter().map(String::from).collect();
    let index = target.index.as_deref();
    links.push_tuple(index, partition, (&attribute, &key), Evidence::OwnKey);
}

/// Rule 2 in ElectroDB's grammar: each `attr_value` segment of a key
/// (`$task_1#project_552-79#employee_8016`) names the collection `$service#attr_value` of a
/// target whose keys were seen in that form, when that collection was seen.
fn electrodb_parts(
    inputs: &RelationInputs<'_>,
    scalars: &[(&str, &str)],
    name: &str,
    value: &str,
    links: &mut Links<'_>,
) {
    if inputs.separator != '#' || !value.starts_with('$') {
        return;
    }
    for segment in value.split('#').skip(1) {
        let Some((attribute, _)) = segment.split_once('_') else {
            continue;
        };
        for target in inputs.knowledge.targets() {
            for profile in target.kinds() {
                let Some(service) = profile.value_prefix.strip_suffix(&format!("#{attribute}_"))
                else {
                    continue;
                };
                let key = format!("{service}#{segment}");
                let own = scalars.contains(&(target.key_name.as_str(), key.as_str()));
                if !own && key != value && inputs.seen(target, &key) {
                    links.push(
                        target.index.as_deref(),
                        key,
                        (name, value),
                        Evidence::KeyPart,
                    );
                }
            }
        }
    }
}

/// Rule 2: `KIND#part` for each segment that is a known prefix, taking the runs of segments
/// after it (up to the next known prefix) that have as many parts as keys of that kind.
fn key_parts(
    inputs: &RelationInputs<'_>,
    scalars: &[(&str, &str)],
    name: &str,
    value: &str,
    links: &mut Links<'_>,
) {
    let sep = inputs.separator;
    let body = value.strip_prefix(sep).unwrap_or(value);
    if !body.contains(sep) {
        return;
    }
    let segments: Vec<&str> = body.split(sep).collect();
    let is_prefix = |segment: &str| {
        inputs
            .knowledge
            .targets()
            .iter()
            .any(|t| t.kinds().iter().any(|k| k.kind == segment))
    };
    for (at, segment) in segments.iter().enumerate() {
        let end = (at + 1..segments.len())
            .find(|&j| is_prefix(segments[j]))
            .unwrap_or(segments.len());
        for target in inputs.knowledge.targets() {
            // The target's own key: its sub-parts (`STATUS#PENDING` of `STATUS#PENDING#3`)
            // are not other collections of that target.
            if target.key_name == name {
                continue;
            }
            let Some(profile) = target.kinds().iter().find(|k| k.kind == *segment) else {
                continue;
            };
            for from in at + 1..end {
                for to in from + 1..=end {
                    let parts = to - from;
                    if !profile.has_part_count(parts) {
                        continue;
                    }
                    let rest = segments[from..to].join(&sep.to_string());
                    let key = format!("{segment}{sep}{rest}");
                    // The item's own key in that target is listed as such, below.
                    if scalars.contains(&(target.key_name.as_str(), key.as_str())) {
                        continue;
                    }
                    if profile.admits(&rest, parts) || inputs.seen(target, &key) {
                        links.push(
                            target.index.as_deref(),
                            key,
                            (name, value),
                            Evidence::KeyPart,
                        );
                    }
                }
            }
        }
    }
}

#[cfg(test)]
#[path = "infer_tests.rs"]
mod tests;
