//! What the explorer has learnt about a table's item collections from every page it read: per
//! read target (the table, each GSI) the partition-key prefixes seen, how many parts follow
//! each and in what shapes, and the keys themselves. Kept for the whole time a table is open,
//! across queries, so an order id met in a user's collection can be recognised after the scan
//! that showed `ORDER#…` collections is gone.
//!
//! Memory is bounded: at most [`MAX_REMEMBERED_KEYS`] keys per target, and only for targets
//! whose collections the item store does not already hold (the store groups by one target's
//! key; the explorer asks the stores it holds about those).

use hashbrown::{HashMap, HashSet};

use super::shape::shape;
use crate::design::entity::{decode_key, electrodb_value_prefix};
use crate::design::schema::{IndexKind, KeyAttr, KeySchema, TableInfo};
use crate::item::value::{AttrValue, Item};

/// Keys remembered per target: about 70 bytes each, so at most ~7 MB per index.
pub const MAX_REMEMBERED_KEYS: usize = 100_000;
/// Past this many distinct shapes a prefix's parts are too varied for a shape to mean anything.
const MAX_SHAPES: usize = 16;
/// Prefixes kept per target: a table with more distinct kinds is not a single-table design.
const MAX_KINDS: usize = 256;

/// What keys starting with one kind (`ORDER#…`) look like in one target.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KindProfile {
    pub kind: String,
    /// What comes before a one-part key's value: `ORDER#`, or ElectroDB's
    /// `$task-manager#employee_` (such a profile's `kind` is that text).
    pub value_prefix: String,
    /// Every key seen was lower case (ElectroDB's default casing): values are looked up
    /// lower-cased too.
    pub lower_case: bool,
    /// Bit n: a key with n parts after the kind was seen (n < 16).
    part_counts: u16,
    /// Shapes of what follows the kind (the parts joined by the separator).
    shapes: Vec<String>,
    /// More than [`MAX_SHAPES`] shapes: the shape says nothing.
    varied: bool,
}

impl KindProfile {
    fn new(kind: &str, value_prefix: String) -> Self {
        KindProfile {
            kind: kind.to_owned(),
            value_prefix,
            lower_case: true,
            part_counts: 0,
            shapes: Vec::new(),
            varied: false,
        }
    }

    fn record(&mut self, parts: usize, rest_shape: &str) {
        if parts < 16 {
            self.part_counts |= 1 << parts;
        }
        if self.varied || self.shapes.iter().any(|s| s == rest_shape) {
            return;
        }
        if self.shapes.len() == MAX_SHAPES {
            self.varied = true;
            self.shapes.clear();
        } else {
            self.shapes.push(rest_shape.to_owned());
        }
    }

    /// The keys a bare value would be in this kind: `ORDER#o1`, and for lower-cased keys also
    /// the lower-cased value (`manager: B2EC` → `$svc#employee_b2ec`).
    pub fn keys_for_value(&self, value: &str) -> Vec<String> {
        let mut keys = vec![format!("{}{value}", self.value_prefix)];
        let lower = value.to_lowercase();
        if self.lower_case && lower != value {
            keys.push(format!("{}{lower}", self.value_prefix));
        }
        keys
    }

    /// Whether keys of this kind were seen with `parts` parts after it.
    pub fn has_part_count(&self, parts: usize) -> bool {
        parts < 16 && self.part_counts & (1 << parts) != 0
    }

    /// Whether `rest` (what would follow the kind, `parts` parts) looks like the keys seen.
    pub fn admits(&self, rest: &str, parts: usize) -> bool {
        !self.varied && self.has_part_count(parts) && self.shapes.contains(&shape(rest))
    }
}

/// The keys of one read target seen so far.
#[derive(Debug, Clone)]
pub struct TargetKeys {
    /// `None`: the table itself.
    pub index: Option<String>,
    /// The target's partition-key attribute (the first of several on a multi-attribute key).
    pub key_name: String,
    /// The target's sort-key attribute: an item without it is not in that index.
    pub sort_key_name: Option<String>,
    /// Every partition attribute, in key-schema order: more than one on a multi-attribute GSI,
    /// whose collections are tuples of their values.
    pub partition_names: Vec<String>,
    /// Every sort attribute: an item without one of them is not in that index.
    pub sort_names: Vec<String>,
    remembered: HashSet<String>,
    /// The last key observed: pages hold collections together, so runs are skipped cheaply.
    last: String,
    kinds: Vec<KindProfile>,
}

impl TargetKeys {
    fn new(index: Option<String>, keys: &KeySchema) -> Self {
        let names = |list: &[KeyAttr]| list.iter().map(|k| k.name.clone()).collect::<Vec<_>>();
        TargetKeys {
            index,
            key_name: keys.partition_key().name.clone(),
            sort_key_name: keys.sort_key().map(|k| k.name.clone()),
            partition_names: names(keys.partition()),
            sort_names: names(keys.sort()),
            remembered: HashSet::new(),
            last: String::new(),
            kinds: Vec::new(),
        }
    }

    pub fn kinds(&self) -> &[KindProfile] {
        &self.kinds
    }

    /// Keyed by several partition attributes: a collection is a tuple of values.
    pub fn is_tuple(&self) -> bool {
        self.partition_names.len() > 1
    }

    /// Learns one key; for a new one-part key returns its value prefix and value
    /// (`ORDER#`, `o1`), which an attribute of the item holding the same value is the id of.
    fn observe(&mut self, key: &str, separator: char, remember: bool) -> Option<(String, String)> {
        if key == self.last {
            return None;
        }
        self.last.clear();
        self.last.push_str(key);
        if remember && self.remembered.len() < MAX_REMEMBERED_KEYS && !self.remembered.contains(key)
        {
            self.remembered.insert(key.to_owned());
        }
        // ElectroDB's `$service#attr_value`: the profile is the text before the value.
        let electrodb = (separator == '#')
            .then(|| electrodb_value_prefix(key))
            .flatten();
        let (kind, rest, parts, value_prefix) = match electrodb {
            Some(prefix) => (prefix, key[prefix.len()..].to_owned(), 1, prefix.to_owned()),
            None => {
                let decoded = decode_key(key, separator);
                let kind = decoded.kind?;
                let rest = decoded.parts.join(&separator.to_string());
                let prefix = format!("{kind}{separator}");
                (kind, rest, decoded.parts.len(), prefix)
            }
        };
        let rest_shape = shape(&rest);
        let lower = !key.chars().any(char::is_uppercase);
        let at = match self.kinds.iter().position(|k| k.kind == kind) {
            Some(at) => at,
            None if self.kinds.len() < MAX_KINDS => {
                self.kinds.push(KindProfile::new(kind, value_prefix));
                self.kinds.len() - 1
            }
            None => return None,
        };
        let profile = &mut self.kinds[at];
        profile.lower_case &= lower;
        profile.record(parts, &rest_shape);
        (parts == 1).then(|| (profile.value_prefix.clone(), rest))
    }
}

/// Collection keys and key shapes seen in a table, per read target.
#[derive(Debug, Clone, Default)]
pub struct KeyKnowledge {
    targets: Vec<TargetKeys>,
    /// Key attributes: the table's (rank 0), then its indexes' (rank 1).
    key_attributes: Vec<(String, u8)>,
    /// Attributes that hold the id of the collection their item is in (`CustomerId = 933` in
    /// `C#933`), with the value prefixes of those collections: a value of such an attribute
    /// names a collection of those kinds only.
    id_attributes: HashMap<String, Vec<(String, u32)>>,
}

impl KeyKnowledge {
    /// The table and its GSIs. (An LSI's collections are the table's: same partition key.)
    pub fn new(info: &TableInfo) -> Self {
        let mut targets = vec![TargetKeys::new(None, &info.keys)];
        // A GSI keyed by several partition attributes is a target too: its collections are
        // tuples, which only an item's own key names (see `related_collections`).
        let gsis = info.indexes.iter().filter(|i| i.kind == IndexKind::Gsi);
        for index in gsis {
            targets.push(TargetKeys::new(Some(index.name.clone()), &index.keys));
        }
        let mut key_attributes: Vec<(String, u8)> =
            info.keys.names().into_iter().map(|n| (n, 0)).collect();
        for index in &info.indexes {
            for name in index.keys.names() {
                if !key_attributes.iter().any(|(n, _)| *n == name) {
                    key_attributes.push((name, 1));
                }
            }
        }
        KeyKnowledge {
            targets,
            key_attributes,
            id_attributes: HashMap::new(),
        }
    }

    pub fn targets(&self) -> &[TargetKeys] {
        &self.targets
    }

    /// Learns from one page. Keys of the attribute named `stored_key` (the one the item store
    /// groups by, so it holds them itself) are not remembered, only profiled.
    pub fn observe(&mut self, items: &[Item], separator: char, stored_key: Option<&str>) {
        for (at, target) in self.targets.iter_mut().enumerate() {
            // A tuple is no one attribute's value: nothing to profile or remember.
            if target.is_tuple() {
                continue;
            }
            let remember = stored_key != Some(target.key_name.as_str());
            for item in items {
                let Some(AttrValue::S(key) | AttrValue::N(key)) = item.get(&target.key_name) else {
                    continue;
                };
                // The table's collections tell which attributes hold their ids.
                if let Some((prefix, id)) = target.observe(key, separator, remember) {
                    if at == 0 {
                        learn_id_attributes(
                            &mut self.id_attributes,
                            item,
                            &target.key_name,
                            &prefix,
                            &id,
                        );
                    }
                }
            }
        }
    }

    /// The value prefixes of the collections whose ids `attribute` holds, when it is known to
    /// hold ids: the kinds it matched in most collections (`CustomerId` is the id of every
    /// `C#` collection, and matches the one `I#933` by chance).
    pub fn id_prefixes(&self, attribute: &str) -> Option<Vec<&str>> {
        let counts = self.id_attributes.get(attribute)?;
        let most = counts.iter().map(|(_, n)| *n).max()?;
        Some(
            counts
                .iter()
                .filter(|(_, n)| n * 2 > most)
                .map(|(p, _)| p.as_str())
                .collect(),
        )
    }

    /// 0 for the table's key attributes, 1 for its indexes', 2 for any other attribute.
    pub fn key_rank(&self, attribute: &str) -> u8 {
        self.key_attributes
            .iter()
            .find(|(n, _)| n == attribute)
            .map_or(2, |(_, rank)| *rank)
    }

    /// Whether `key` was seen as a partition key of `index` (`None`: the table) and
    /// remembered.
    pub fn remembers(&self, index: Option<&str>, key: &str) -> bool {
        self.targets
            .iter()
            .any(|t| t.index.as_deref() == index && t.remembered.contains(key))
    }
}

/// Attributes tracked as id holders, at most: a table with more is not keyed by ids.
const MAX_ID_ATTRIBUTES: usize = 256;
/// Kinds counted per id attribute (a shared `id` across kinds).
const MAX_KINDS_PER_ID: usize = 4;

/// Records every top-level attribute of `item` whose text is `id` (case aside, as ElectroDB
/// lower-cases keys) as an id of collections starting with `prefix`.
fn learn_id_attributes(
    ids: &mut HashMap<String, Vec<(String, u32)>>,
    item: &Item,
    key_name: &str,
    prefix: &str,
    id: &str,
) {
    for (name, value) in item.iter() {
        let (AttrValue::S(text) | AttrValue::N(text)) = value else {
            continue;
        };
        if name == key_name || text.is_empty() || !text.eq_ignore_ascii_case(id) {
            continue;
        }
        if !ids.contains_key(name) && ids.len() >= MAX_ID_ATTRIBUTES {
            continue;
        }
        let prefixes = ids.entry(name.to_owned()).or_default();
        if let Some((_, count)) = prefixes.iter_mut().find(|(p, _)| p == prefix) {
            *count += 1;
        } else if prefixes.len() < MAX_KINDS_PER_ID {
            prefixes.push((prefix.to_owned(), 1));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixtures::{demo_info, string_item as item};

    #[test]
    fn profiles_prefixes_and_remembers_keys_the_store_does_not_hold() {
        let mut k = KeyKnowledge::new(&demo_info());
        let page = [
            item(&[("PK", "USER#u00001"), ("SK", "PROFILE")]),
            item(&[("PK", "USER#u00001"), ("GSI1PK", "STATUS#SHIPPED")]),
            item(&[("PK", "ORDER#o000001"), ("SK", "#META")]),
            item(&[("PK", "PRODUCT#p0001"), ("GSI1PK", "CATEGORY#books")]),
            item(&[("PK", "x"), ("GSI1PK", "STATUS#PENDING#3")]),
        ];
        k.observe(&page, '#', Some("PK"));
        assert!(
            !k.remembers(None, "USER#u00001"),
            "the store holds PK values"
        );
        assert!(k.remembers(Some("GSI1"), "STATUS#SHIPPED"));
        assert!(k.remembers(Some("GSI1"), "STATUS#PENDING#3"));
        assert!(
            !k.remembers(None, "STATUS#SHIPPED"),
            "keys belong to their target"
        );
        let table = &k.targets()[0];
        let kinds: Vec<&str> = table.kinds().iter().map(|p| p.kind.as_str()).collect();
        assert_eq!(kinds, ["USER", "ORDER", "PRODUCT"]);
        let order = &table.kinds()[1];
        assert!(order.admits("o000042", 1));
        assert!(!order.admits("2026-08-27", 1), "another shape");
        assert!(!order.admits("o1#o2", 2), "another part count");
        let status = &k.targets()[1].kinds()[0];
        assert!(status.admits("DELIVERED", 1) && status.admits("PENDING#7", 2));
    }

    #[test]
    fn too_many_shapes_mean_nothing_and_memory_is_capped() {
        let mut k = KeyKnowledge::new(&demo_info());
        // Twenty shapes of one kind: `T#1`, `T#1-1`, `T#1-1-1`, …
        let page: Vec<Item> = (1..=20)
            .map(|n| format!("T#{}", vec!["1"; n].join("-")))
            .map(|pk| item(&[("PK", "p"), ("GSI1PK", &pk)]))
            .collect();
        k.observe(&page, '#', None);
        let t = &k.targets()[1].kinds()[0];
        assert!(!t.admits("1", 1), "varied shapes admit nothing");
        let many: Vec<Item> = (0..MAX_REMEMBERED_KEYS + 10)
            .map(|i| item(&[("PK", &format!("K#{i}"))]))
            .collect();
        k.observe(&many, '#', Some("SK"));
        assert_eq!(k.targets()[0].remembered.len(), MAX_REMEMBERED_KEYS);
    }
}
