//! A table's or an index's key: an ordered list of partition attributes and an ordered list of
//! sort attributes. A base table has one and at most one; since November 2025 a global secondary
//! index may have up to four of each (`KeySchema` lists the `HASH` elements, then the `RANGE`
//! ones, in order). The one-and-one key is a case of this type, not a second path.

use serde::Serialize;

/// Scalar type of a key attribute (`AttributeDefinitions`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum KeyType {
    S,
    N,
    B,
}

impl KeyType {
    pub fn as_str(self) -> &'static str {
        match self {
            KeyType::S => "S",
            KeyType::N => "N",
            KeyType::B => "B",
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct KeyAttr {
    pub name: String,
    #[serde(rename = "type")]
    pub key_type: KeyType,
}

impl KeyAttr {
    pub fn new(name: impl Into<String>, key_type: KeyType) -> KeyAttr {
        KeyAttr {
            name: name.into(),
            key_type,
        }
    }
}

/// Key attributes' names as a message lists them: `tournamentId, region`.
pub fn attribute_names(attrs: &[KeyAttr]) -> String {
    attrs
        .iter()
        .map(|k| k.name.as_str())
        .collect::<Vec<_>>()
        .join(", ")
}

/// DynamoDB's limit on each side of a multi-attribute key.
pub const MAX_KEY_ATTRIBUTES: usize = 4;

/// The key of a table or an index. Built only through [`KeySchema::simple`] or
/// [`KeySchema::new`], so the partition list is never empty, neither list is longer than
/// DynamoDB allows, and no attribute appears twice.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct KeySchema {
    partition: Vec<KeyAttr>,
    sort: Vec<KeyAttr>,
}

/// Why a list of key elements is not a key schema DynamoDB would hold.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum KeySchemaError {
    #[error("a key schema needs at least one partition (HASH) attribute")]
    NoPartition,
    #[error("a key schema holds at most {MAX_KEY_ATTRIBUTES} {side} attributes, not {count}")]
    TooMany { side: &'static str, count: usize },
    #[error("key attribute '{0}' appears twice in one key schema")]
    Repeated(String),
}

impl KeySchema {
    /// The one-and-one key of a base table (or of an index with single-attribute keys).
    pub fn simple(partition: KeyAttr, sort: Option<KeyAttr>) -> KeySchema {
        KeySchema {
            partition: vec![partition],
            sort: sort.into_iter().collect(),
        }
    }

    /// A key of `partition` then `sort` attributes, in the order DynamoDB lists them.
    pub fn new(partition: Vec<KeyAttr>, sort: Vec<KeyAttr>) -> Result<KeySchema, KeySchemaError> {
        if partition.is_empty() {
            return Err(KeySchemaError::NoPartition);
        }
        for (side, list) in [("partition", &partition), ("sort", &sort)] {
            if list.len() > MAX_KEY_ATTRIBUTES {
                let count = list.len();
                return Err(KeySchemaError::TooMany { side, count });
            }
        }
        let all: Vec<&KeyAttr> = partition.iter().chain(&sort).collect();
        for (i, attr) in all.iter().enumerate() {
            if all[..i].iter().any(|a| a.name == attr.name) {
                return Err(KeySchemaError::Repeated(attr.name.clone()));
            }
        }
        Ok(KeySchema { partition, sort })
    }

    /// The partition attributes, in key-schema order (never empty).
    pub fn partition(&self) -> &[KeyAttr] {
        &self.partition
    }

    /// The sort attributes, in key-schema order (empty: no sort key).
    pub fn sort(&self) -> &[KeyAttr] {
        &self.sort
    }

    /// Every key attribute, partition attributes first, each side in order.
    pub fn attributes(&self) -> impl Iterator<Item = &KeyAttr> {
        self.partition.iter().chain(&self.sort)
    }

    /// The key attributes' names, partition attributes first.
    pub fn names(&self) -> Vec<String> {
        self.attributes().map(|k| k.name.clone()).collect()
    }

    /// Whether `name` is one of the key's attributes.
    pub fn contains(&self, name: &str) -> bool {
        self.attributes().any(|k| k.name == name)
    }

    /// More than one attribute on either side: a key only a GSI can have.
    pub fn is_multi_attribute(&self) -> bool {
        self.partition.len() > 1 || self.sort.len() > 1
    }

    /// The partition attribute of a one-and-one key (a base table's is always one). On a
    /// multi-attribute key it is only the first of several: code that reads it there checks
    /// [`KeySchema::is_multi_attribute`] first or works on [`KeySchema::partition`].
    pub fn partition_key(&self) -> &KeyAttr {
        &self.partition[0]
    }

    /// The sort attribute of a one-and-one key (`None`: no sort key); the first of several on
    /// a multi-attribute key, with the same caveat as [`KeySchema::partition_key`].
    pub fn sort_key(&self) -> Option<&KeyAttr> {
        self.sort.first()
    }

    /// Each attribute's type replaced by what `typed` says (an export's key, named by the
    /// user, typed from the items).
    pub fn retype(&mut self, typed: impl Fn(&KeyAttr) -> KeyType) {
        for attr in self.partition.iter_mut().chain(self.sort.iter_mut()) {
            attr.key_type = typed(attr);
        }
    }

    /// The key in one line, each side's attributes joined by ` + ` in order, the sides by
    /// `, sort `: `tournamentId S + region S, sort round S + bracket S`.
    pub fn display(&self) -> String {
        let side = |list: &[KeyAttr]| {
            list.iter()
                .map(|k| format!("{} {}", k.name, k.key_type.as_str()))
                .collect::<Vec<_>>()
                .join(" + ")
        };
        match self.sort.is_empty() {
            true => side(&self.partition),
            false => format!("{}, sort {}", side(&self.partition), side(&self.sort)),
        }
    }

    /// `Err` with one line for a multi-attribute key on a path that reads only one-and-one
    /// keys so far (`what` names the path, `target` the table or index): refused rather than
    /// read by its first attributes, which would send a request DynamoDB refuses or count
    /// the wrong partitions.
    pub fn refuse_multi_attribute(&self, what: &str, target: &str) -> Result<(), String> {
        if !self.is_multi_attribute() {
            return Ok(());
        }
        Err(format!(
            "{what} does not read multi-attribute keys yet: {target} is keyed by {}; read it with `dynoscope query` and --pk (and --sk-eq) once per attribute, in that order",
            self.display()
        ))
    }
}

#[cfg(test)]
#[path = "key_schema_tests.rs"]
mod tests;
