//! An export's key schema when neither DescribeTable nor `--key` gives it: the attributes
//! present on every item with one scalar key type (S, N or B). The manifests do not name the
//! keys, so this is a guess, and the callers say so.

use crate::design::schema::{KeyAttr, KeySchema, KeyType};
use crate::item::value::{AttrValue, Item};

/// Names that single-table designs and DynamoDB's guides use for keys, most likely first.
const PARTITION_NAMES: &[&str] = &["PK", "pk", "Pk", "id", "Id", "ID", "partition_key"];
const SORT_NAMES: &[&str] = &["SK", "sk", "Sk", "sort_key", "sortKey"];

#[derive(Debug, Clone, Default)]
pub struct KeyInference {
    /// `None` until the first item; then the candidates every item so far had.
    candidates: Option<Vec<KeyAttr>>,
}

fn key_type(value: &AttrValue) -> Option<KeyType> {
    match value {
        AttrValue::S(_) => Some(KeyType::S),
        AttrValue::N(_) => Some(KeyType::N),
        AttrValue::B(_) => Some(KeyType::B),
        _ => None,
    }
}

impl KeyInference {
    pub fn add(&mut self, item: &Item) {
        match &mut self.candidates {
            None => {
                self.candidates = Some(
                    item.iter()
                        .filter_map(|(name, v)| {
                            key_type(v).map(|key_type| KeyAttr {
                                name: name.to_string(),
                                key_type,
                            })
                        })
                        .collect(),
                )
            }
            Some(kept) => kept.retain(|k| {
                item.get(&k.name)
                    .and_then(key_type)
                    .is_some_and(|t| t == k.key_type)
            }),
        }
    }

    /// `keys` (named by the user, typed S) with each attribute's type as every item so far
    /// had it: a key attribute is on every item, with one type.
    pub fn typed(&self, mut keys: KeySchema) -> KeySchema {
        keys.retype(|attr| {
            self.candidates
                .iter()
                .flatten()
                .find(|k| k.name == attr.name)
                .map_or(attr.key_type, |k| k.key_type)
        });
        keys
    }

    /// The guess: a partition key (a conventional name first, else the first candidate by
    /// name) and a sort key when a second candidate has a conventional sort-key name.
    pub fn schema(&self) -> Option<KeySchema> {
        let candidates = self.candidates.as_ref()?;
        let by_name = |names: &[&str]| {
            names
                .iter()
                .find_map(|n| candidates.iter().find(|k| k.name == *n))
                .cloned()
        };
        let partition_key = by_name(PARTITION_NAMES).or_else(|| candidates.first().cloned())?;
        let sort_key = by_name(SORT_NAMES).filter(|k| k.name != partition_key.name);
        Some(KeySchema::simple(partition_key, sort_key))
    }
}
