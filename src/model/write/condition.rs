//! The condition a write carries: the stored item is still what the user saw.

use crate::model::number::compare_numbers;
use crate::model::value::{AttrValue, Item};

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

/// Equality as DynamoDB compares values: numbers by value (`1.0` = `1`), sets as sets
/// (order does not matter), maps by their attributes, lists element by element.
pub fn same_value(a: &AttrValue, b: &AttrValue) -> bool {
    use AttrValue::*;
    let same_set = |x: &[String], y: &[String], eq: &dyn Fn(&str, &str) -> bool| {
        x.len() == y.len() && x.iter().all(|e| y.iter().any(|f| eq(e, f)))
    };
    match (a, b) {
        (N(x), N(y)) => compare_numbers(x, y).is_eq(),
        (Ss(x), Ss(y)) => same_set(x, y, &|e, f| e == f),
        (Ns(x), Ns(y)) => same_set(x, y, &|e, f| compare_numbers(e, f).is_eq()),
        (Bs(x), Bs(y)) => x.len() == y.len() && x.iter().all(|e| y.contains(e)),
        (M(x), M(y)) => {
            x.len() == y.len()
                && x.iter()
                    .all(|(n, v)| y.get(n).is_some_and(|w| same_value(v, w)))
        }
        (L(x), L(y)) => x.len() == y.len() && x.iter().zip(y).all(|(v, w)| same_value(v, w)),
        _ => a == b,
    }
}
