//! Which entity kind an item is, in the order a person who wrote the design would ask:
//!
//! 1. a configured `[[entity]]` template that the item's sort (else partition) key matches;
//! 2. a modelling library's own attribute: ElectroDB's `__edb_e__`, dynamodb-toolbox's `_et`
//!    (and `entity`), OneTable's `_type`;
//! 3. the table's entity attribute: one named in the config (`entity_attribute`), else the
//!    first of `entityType`, `EntityType`, `entity_type`, `type`, `Type` that most items of the
//!    first page carry with name-like values (a `type` on a few items is data, not a kind);
//! 4. the keys: the sort key's prefix, except for a collection's own record, which is the
//!    partition key's kind — a sort key that is a bare marker (`PROFILE`, `#META`) or that
//!    repeats the collection's own id (`#METADATA#alice` under `USER#alice`, `I#933` under
//!    `C#933`); without a usable sort key, the partition key's prefix.

use super::decode::{key_kind, looks_like_hex_id, KeyRole};
use super::pattern::EntityPattern;
use crate::design::entity::decode::decode_key_as;
use crate::item::value::{AttrValue, Item};

/// Attributes modelling libraries write on every item to name its entity.
pub const LIBRARY_ATTRIBUTES: [&str; 4] = ["__edb_e__", "_et", "_type", "entity"];
/// Attributes hand-written designs commonly name the entity with.
pub const COMMON_ENTITY_ATTRIBUTES: [&str; 5] =
    ["entityType", "EntityType", "entity_type", "type", "Type"];
/// Distinct values an entity attribute may take on one page: more are data, not kinds.
const MAX_ENTITY_VALUES: usize = 100;
/// An id repeated in the sort key marks the own record only when it is this long: a line
/// number (`ITEM#12` under `ORDER#12`) repeats a short id by chance.
const MIN_OWN_ID_CHARS: usize = 3;
/// An entity name is short; longer text is data.
const MAX_NAME_CHARS: usize = 64;

/// Where an item's kind came from, as the item detail tells it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KindSource<'a> {
    Pattern,
    Attribute(&'a str),
    SortKey,
    PartitionKey,
    /// The collection's own record: the partition key's kind.
    OwnRecord,
}

impl KindSource<'_> {
    /// `from __edb_e__`, `from its sort key`…
    pub fn describe(&self) -> String {
        match self {
            KindSource::Pattern => "from [[entity]]".to_owned(),
            KindSource::Attribute(name) => format!("from {name}"),
            KindSource::SortKey => "from its sort key".to_owned(),
            KindSource::PartitionKey => "from its partition key".to_owned(),
            // The sort key marks the collection's own record.
            KindSource::OwnRecord => "from its partition key (own record)".to_owned(),
        }
    }
}

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct KindRules {
    patterns: Vec<EntityPattern>,
    /// `[[table]] entity_attribute`.
    configured_attribute: Option<String>,
    /// One of [`COMMON_ENTITY_ATTRIBUTES`], chosen by [`KindRules::settle`].
    common_attribute: Option<&'static str>,
    settled: bool,
}

/// The rules with nothing configured and nothing settled: library attributes, then keys.
pub static DEFAULT_KIND_RULES: KindRules = KindRules {
    patterns: Vec::new(),
    configured_attribute: None,
    common_attribute: None,
    settled: false,
};

impl KindRules {
    pub fn new(patterns: Vec<EntityPattern>, configured_attribute: Option<String>) -> Self {
        KindRules {
            patterns,
            configured_attribute,
            common_attribute: None,
            settled: false,
        }
    }

    /// Chooses the table's common entity attribute from its first non-empty page, once, so
    /// kinds never change under the user. A configured attribute needs no choosing.
    pub fn settle(&mut self, page: &[Item]) {
        if self.settled || page.is_empty() {
            return;
        }
        self.settled = true;
        if self.configured_attribute.is_some() {
            return;
        }
        self.common_attribute = COMMON_ENTITY_ATTRIBUTES.into_iter().find(|&name| {
            let mut values: Vec<&str> = Vec::new();
            let mut carried = 0usize;
            for item in page {
                if let Some(value) = item
                    .get(name)
                    .and_then(AttrValue::as_s)
                    .filter(|v| is_name(v))
                {
                    carried += 1;
                    if !values.contains(&value) && values.len() <= MAX_ENTITY_VALUES {
                        values.push(value);
                    }
                }
            }
            carried * 2 > page.len() && values.len() <= MAX_ENTITY_VALUES
        });
    }

    /// The entity attribute in use: the configured one, else the chosen common one.
    pub fn entity_attribute(&self) -> Option<&str> {
        self.configured_attribute
            .as_deref()
            .or(self.common_attribute)
    }

    /// The item's kind and where it came from (see the module documentation for the order).
    /// Runs for every loaded item: it borrows and, without configured patterns, allocates
    /// nothing.
    pub fn kind<'a>(
        &'a self,
        item: &'a Item,
        pk_name: &str,
        sk_name: Option<&str>,
        separator: char,
    ) -> Option<(&'a str, KindSource<'a>)> {
        let key = |name: &str| item.get(name).and_then(AttrValue::as_s);
        let pk = key(pk_name);
        let sk = sk_name.and_then(key);
        if !self.patterns.is_empty() {
            for (value, role) in [(sk, KeyRole::Sort), (pk, KeyRole::Partition)] {
                let Some(value) = value else { continue };
                let decoded = decode_key_as(value, separator, role);
                if let Some(pattern) = self.patterns.iter().find(|p| p.matches(&decoded)) {
                    return Some((pattern.kind(), KindSource::Pattern));
                }
            }
        }
        let attributes = LIBRARY_ATTRIBUTES
            .iter()
            .copied()
            .chain(self.entity_attribute());
        for name in attributes {
            if let Some(kind) = item
                .get(name)
                .and_then(AttrValue::as_s)
                .filter(|v| is_name(v))
            {
                return Some((kind, KindSource::Attribute(name)));
            }
        }
        let pk_kind = pk.and_then(|v| key_kind(v, separator, KeyRole::Partition));
        let sk_kind = sk.and_then(|v| key_kind(v, separator, KeyRole::Sort));
        match (sk_kind, pk_kind) {
            (Some((_, None)), Some((kind, _))) => Some((kind, KindSource::OwnRecord)),
            (Some((_, Some(rest))), Some((kind, Some(pk_rest))))
                if rest == pk_rest && rest.len() >= MIN_OWN_ID_CHARS =>
            {
                Some((kind, KindSource::OwnRecord))
            }
            (Some((kind, _)), _) => Some((kind, KindSource::SortKey)),
            (None, Some((kind, _))) => Some((kind, KindSource::PartitionKey)),
            (None, None) => None,
        }
    }
}

/// An entity name: short, starting with a letter, of letters, digits, `_`, `-` and `.`, and not
/// an id that happens to start with a letter.
fn is_name(value: &str) -> bool {
    value.len() <= MAX_NAME_CHARS
        && value.starts_with(|c: char| c.is_ascii_alphabetic())
        && value
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.'))
        && !looks_like_hex_id(value)
}

#[cfg(test)]
#[path = "kind_rules_tests.rs"]
mod tests;
