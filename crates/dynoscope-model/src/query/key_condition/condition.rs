//! A whole key condition, built only through `KeyCondition::new`, and its spelling for the
//! Query API.
//!
//! DynamoDB's rule, held by construction: an equality on every partition attribute (one on a
//! table, up to four on a multi-attribute GSI), then on the sort attributes equalities on a
//! prefix, in key-schema order, and at most one condition (any operator) on the next.

use crate::design::schema::attribute_names;
use std::cmp::Ordering;

use super::error::KeyConditionError;
use super::key_value::KeyValue;
use super::sort_condition::{SortCondition, SortInput, SortOp};
use crate::design::schema::{KeyAttr, KeySchema, KeyType};
use crate::item::value::AttrValue;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeyCondition {
    /// Every partition attribute with its value, in key-schema order (never empty).
    partition: Vec<(KeyAttr, KeyValue)>,
    /// Equalities on the first sort attributes, in key-schema order.
    sort_prefix: Vec<(KeyAttr, KeyValue)>,
    /// At most one condition on the sort attribute after the prefix.
    sort: Option<(KeyAttr, SortCondition)>,
}

/// A key condition spelled for the Query API. Names and values are in a fixed order so output
/// and tests are deterministic.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExpressionParts {
    pub key_condition: String,
    pub names: Vec<(String, String)>,
    pub values: Vec<(String, AttrValue)>,
}

impl KeyCondition {
    /// From CLI flags on a one-partition-attribute key: `pk_raw` and the sort operands are
    /// typed by the keys' attribute types.
    pub fn build(
        keys: &KeySchema,
        pk_raw: &str,
        sort: Option<SortInput>,
    ) -> Result<KeyCondition, KeyConditionError> {
        Self::build_parts(keys, &[pk_raw.to_string()], &[], sort)
    }

    /// From CLI flags: one raw value per partition attribute and per sort-prefix attribute,
    /// in key-schema order, then at most one condition on the next sort attribute.
    pub fn build_parts(
        keys: &KeySchema,
        partition_raw: &[String],
        sort_prefix_raw: &[String],
        sort: Option<SortInput>,
    ) -> Result<KeyCondition, KeyConditionError> {
        check_partition_count(keys, partition_raw.len())?;
        let partition = keys
            .partition()
            .iter()
            .zip(partition_raw)
            .map(|(attr, raw)| KeyValue::parse(raw, attr))
            .collect::<Result<Vec<_>, _>>()?;
        check_sort_count(keys, sort_prefix_raw.len() + usize::from(sort.is_some()))?;
        let sort_prefix = keys
            .sort()
            .iter()
            .zip(sort_prefix_raw)
            .map(|(attr, raw)| KeyValue::parse(raw, attr))
            .collect::<Result<Vec<_>, _>>()?;
        let sort = match sort {
            None => None,
            Some(input) => {
                let sk = Self::check_sort_op_at(keys, sort_prefix.len(), input.op())?;
                Some(input.parse(sk)?)
            }
        };
        Self::new(keys, partition, sort_prefix, sort)
    }

    /// Operator rules that need no operands, for a condition on the first sort attribute.
    pub fn check_sort_op(keys: &KeySchema, op: SortOp) -> Result<&KeyAttr, KeyConditionError> {
        Self::check_sort_op_at(keys, 0, op)
    }

    /// Operator rules that need no operands: the key has a sort attribute at `position`, and
    /// `begins_with` is only for S and B. Returns that attribute. Callers that type operands
    /// themselves run this first so these messages win over operand type errors; `new` runs
    /// it again.
    pub fn check_sort_op_at(
        keys: &KeySchema,
        position: usize,
        op: SortOp,
    ) -> Result<&KeyAttr, KeyConditionError> {
        if keys.sort().is_empty() {
            return Err(KeyConditionError::NoSortKey {
                partition_key: attribute_names(keys.partition()),
            });
        }
        check_sort_count(keys, position + 1)?;
        let sk = &keys.sort()[position];
        if op == SortOp::BeginsWith && sk.key_type == KeyType::N {
            return Err(KeyConditionError::BeginsWithOnNumber {
                key: sk.name.clone(),
            });
        }
        Ok(sk)
    }

    /// On a one-partition-attribute key: its value and at most one condition on the first
    /// sort attribute.
    pub fn from_typed(
        keys: &KeySchema,
        pk_value: KeyValue,
        sort: Option<SortCondition>,
    ) -> Result<KeyCondition, KeyConditionError> {
        Self::new(keys, vec![pk_value], Vec::new(), sort)
    }

    /// The one place every key condition passes through, checking all of DynamoDB's rules:
    /// a value of the attribute's type for every partition attribute, equalities on a prefix
    /// of the sort attributes, then at most one condition on the next.
    pub fn new(
        keys: &KeySchema,
        partition: Vec<KeyValue>,
        sort_prefix: Vec<KeyValue>,
        sort: Option<SortCondition>,
    ) -> Result<KeyCondition, KeyConditionError> {
        check_partition_count(keys, partition.len())?;
        check_sort_count(keys, sort_prefix.len() + usize::from(sort.is_some()))?;
        let typed = |attrs: &[KeyAttr], values: Vec<KeyValue>| {
            attrs
                .iter()
                .zip(values)
                .map(|(attr, value)| {
                    value.check(attr, &format!("'{value}'"))?;
                    Ok((attr.clone(), value))
                })
                .collect::<Result<Vec<_>, KeyConditionError>>()
        };
        let partition = typed(keys.partition(), partition)?;
        let sort_prefix = typed(keys.sort(), sort_prefix)?;
        let sort = match sort {
            None => None,
            Some(condition) => {
                let sk = Self::check_sort_op_at(keys, sort_prefix.len(), condition.op())?;
                for value in condition.values() {
                    value.check(sk, &format!("'{value}'"))?;
                }
                if let SortCondition::Between(low, high) = &condition {
                    if low.dynamo_cmp(high) == Ordering::Greater {
                        return Err(KeyConditionError::BetweenOrder {
                            key: sk.name.clone(),
                            low: low.to_string(),
                            high: high.to_string(),
                        });
                    }
                }
                Some((sk.clone(), condition))
            }
        };
        Ok(KeyCondition {
            partition,
            sort_prefix,
            sort,
        })
    }

    /// Every partition attribute with its value, in key-schema order.
    pub fn partition(&self) -> &[(KeyAttr, KeyValue)] {
        &self.partition
    }

    /// The first partition attribute's value: the whole partition key of a table.
    pub fn pk_value(&self) -> &KeyValue {
        &self.partition[0].1
    }

    /// The equalities on the first sort attributes, in order.
    pub fn sort_prefix(&self) -> &[(KeyAttr, KeyValue)] {
        &self.sort_prefix
    }

    /// The condition on the sort attribute after the prefix, if any.
    pub fn sort(&self) -> Option<&(KeyAttr, SortCondition)> {
        self.sort.as_ref()
    }

    /// `#pk = :pk [AND <sort>]` for a one-attribute partition and no sort prefix; otherwise
    /// `#pk0 = :pk0 AND #pk1 = :pk1 … AND #sk0 = :sk0 … AND <sort on #skN>`. Attribute names
    /// always go through placeholders, so reserved words and odd characters are safe.
    pub fn to_expression(&self) -> ExpressionParts {
        let indexed = self.partition.len() > 1 || !self.sort_prefix.is_empty();
        let tag = |side: &str, i: usize| match indexed {
            true => format!("{side}{i}"),
            false => side.to_string(),
        };
        let mut clauses = Vec::new();
        let mut names = Vec::new();
        let mut values = Vec::new();
        let equalities = self
            .partition
            .iter()
            .enumerate()
            .map(|(i, p)| (tag("pk", i), p));
        let prefix = self.sort_prefix.iter().enumerate();
        for (tag, (attr, value)) in equalities.chain(prefix.map(|(i, p)| (tag("sk", i), p))) {
            clauses.push(format!("#{tag} = :{tag}"));
            names.push((format!("#{tag}"), attr.name.clone()));
            values.push((format!(":{tag}"), value.to_attr()));
        }
        if let Some((sk, condition)) = &self.sort {
            let t = tag("sk", self.sort_prefix.len());
            names.push((format!("#{t}"), sk.name.clone()));
            clauses.push(match condition {
                SortCondition::Eq(_) => format!("#{t} = :{t}"),
                SortCondition::Lt(_) => format!("#{t} < :{t}"),
                SortCondition::Le(_) => format!("#{t} <= :{t}"),
                SortCondition::Gt(_) => format!("#{t} > :{t}"),
                SortCondition::Ge(_) => format!("#{t} >= :{t}"),
                SortCondition::Between(..) => format!("#{t} BETWEEN :{t}_lo AND :{t}_hi"),
                SortCondition::BeginsWith(_) => format!("begins_with(#{t}, :{t})"),
            });
            match condition {
                SortCondition::Between(low, high) => {
                    values.push((format!(":{t}_lo"), low.to_attr()));
                    values.push((format!(":{t}_hi"), high.to_attr()));
                }
                other => values.push((format!(":{t}"), other.values()[0].to_attr())),
            }
        }
        ExpressionParts {
            key_condition: clauses.join(" AND "),
            names,
            values,
        }
    }
}

/// DynamoDB needs an equality on every partition attribute, and no more values than those.
fn check_partition_count(keys: &KeySchema, given: usize) -> Result<(), KeyConditionError> {
    let attrs = keys.partition();
    match given.cmp(&attrs.len()) {
        Ordering::Equal => Ok(()),
        Ordering::Less => Err(KeyConditionError::MissingPartition {
            attribute: attrs[given].name.clone(),
            all: attribute_names(attrs),
            given,
        }),
        Ordering::Greater => Err(KeyConditionError::ExtraPartition {
            all: attribute_names(attrs),
            given,
        }),
    }
}

/// No more sort conditions (prefix equalities and the last one) than sort attributes.
fn check_sort_count(keys: &KeySchema, given: usize) -> Result<(), KeyConditionError> {
    let attrs = keys.sort();
    if attrs.is_empty() && given > 0 {
        return Err(KeyConditionError::NoSortKey {
            partition_key: attribute_names(keys.partition()),
        });
    }
    match given > attrs.len() {
        true => Err(KeyConditionError::ExtraSort {
            all: attribute_names(attrs),
            given,
        }),
        false => Ok(()),
    }
}

#[cfg(test)]
#[path = "condition_tests.rs"]
mod tests;
