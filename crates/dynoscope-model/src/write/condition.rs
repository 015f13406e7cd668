//! The condition a write carries: the stored item is still what the user saw.

/// Equality as DynamoDB compares values; it lives with the values, so the live pane's diff
/// and the write preview's compare alike.
pub use crate::item::value::same_value;
use crate::item::value::{AttrValue, Item};

/// One clause of a condition.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Check {
    /// The attribute exists and equals this value (`#a = :v`).
    Equals(String, AttrValue),
    /// The attribute does not exist (`attribute_not_exists(#a)`).
    Absent(String),
}

/// Clauses that must all hold (`AND`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Guard {
    pub checks: Vec<Check>,
}

impl Guard {
    /// The stored item equals `image`: each of its attributes has its value, and each of
    /// `absent` (attributes the write adds) is still missing. Or, with `version`, only that
    /// attribute is compared: every writer bumps it, so it stands for the whole item.
    pub fn unchanged(image: &Item, absent: &[String], version: Option<&str>) -> Guard {
        if let Some(name) = version {
            return Guard {
                checks: vec![match image.get(name) {
                    Some(v) => Check::Equals(name.to_string(), v.clone()),
                    None => Check::Absent(name.to_string()),
                }],
            };
        }
        let mut checks: Vec<Check> = image
            .iter()
            .map(|(n, v)| Check::Equals(n.to_string(), v.clone()))
            .collect();
        checks.extend(
            absent
                .iter()
                .filter(|n| image.get(n).is_none())
                .map(|n| Check::Absent(n.clone())),
        );
        Guard { checks }
    }

    /// No item with this key exists: the partition key attribute is absent.
    pub fn absent(partition_key: &str) -> Guard {
        Guard {
            checks: vec![Check::Absent(partition_key.to_string())],
        }
    }

    /// Whether the condition holds for the stored item (`None`: no item), as DynamoDB
    /// evaluates it: for the in-memory writer and for tests.
    pub fn holds(&self, stored: Option<&Item>) -> bool {
        self.checks.iter().all(|check| match check {
            Check::Equals(name, value) => stored
                .and_then(|item| item.get(name))
                .is_some_and(|v| same_value(v, value)),
            Check::Absent(name) => stored.and_then(|item| item.get(name)).is_none(),
        })
    }
}
