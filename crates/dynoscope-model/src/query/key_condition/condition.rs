//! A whole key condition, built only through `KeyCondition::from_typed`, and its spelling for
//! the Query API.

use std::cmp::Ordering;

use super::error::KeyConditionError;
use super::key_value::KeyValue;
use super::sort_condition::{SortCondition, SortInput, SortOp};
use crate::design::schema::{KeyAttr, KeySchema, KeyType};
use crate::item::value::AttrValue;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeyCondition {
    pub partition_key: KeyAttr,
    pub pk_value: KeyValue,
    pub sort: Option<(KeyAttr, SortCondition)>,
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
    /// From CLI flags: `pk_raw` and the sort operands are typed by the keys' attribute types.
    pub fn build(
        keys: &KeySchema,
        pk_raw: &str,
        sort: Option<SortInput>,
    ) -> Result<KeyCondition, KeyConditionError> {
        Self::refuse_multi_attribute(keys)?;
        let pk_value = KeyValue::parse(pk_raw, keys.partition_key())?;
        let sort = match sort {
            None => None,
            Some(input) => {
                let sk = Self::check_sort_op(keys, input.op())?;
                Some(input.parse(sk)?)
            }
        };
        Self::from_typed(keys, pk_value, sort)
    }

    /// Operator rules that need no operands: the schema has a sort key, and `begins_with` is
    /// only for S and B keys. Returns the sort key. Callers that type operands themselves run
    /// this first so these messages win over operand type errors; `from_typed` runs it again.
    pub fn check_sort_op(keys: &KeySchema, op: SortOp) -> Result<&KeyAttr, KeyConditionError> {
        let sk = keys
            .sort_key()
            .ok_or_else(|| KeyConditionError::NoSortKey {
                partition_key: keys.partition_key().name.clone(),
            })?;
        if op == SortOp::BeginsWith && sk.key_type == KeyType::N {
            return Err(KeyConditionError::BeginsWithOnNumber {
                key: sk.name.clone(),
            });
        }
        Ok(sk)
    }

    /// multi-attribute: not yet — a condition on the first attribute alone is one DynamoDB
    /// refuses ("HASH key attributes … must have equality conditions"), so it is not built.
    fn refuse_multi_attribute(keys: &KeySchema) -> Result<(), KeyConditionError> {
        match keys.is_multi_attribute() {
            true => Err(KeyConditionError::MultiAttributeKey {
                keys: keys.display(),
            }),
            false => Ok(()),
        }
    }

    /// The one place every key condition passes through, checking all of DynamoDB's rules.
    pub fn from_typed(
        keys: &KeySchema,
        pk_value: KeyValue,
        sort: Option<SortCondition>,
    ) -> Result<KeyCondition, KeyConditionError> {
        Self::refuse_multi_attribute(keys)?;
        let pk = keys.partition_key();
        pk_value.check(pk, &format!("'{pk_value}'"))?;
        let sort = match sort {
            None => None,
            Some(condition) => {
                let sk = Self::check_sort_op(keys, condition.op())?;
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
            partition_key: pk.clone(),
            pk_value,
            sort,
        })
    }

    /// `#pk = :pk [AND <sort>]`; attribute names always go through `#pk`/`#sk` so reserved
    /// words and odd characters in key names are safe.
    pub fn to_expression(&self) -> ExpressionParts {
        let mut key_condition = String::from("#pk = :pk");
        let mut names = vec![("#pk".to_string(), self.partition_key.name.clone())];
        let mut values = vec![(":pk".to_string(), self.pk_value.to_attr())];
        if let Some((sk, condition)) = &self.sort {
            names.push(("#sk".to_string(), sk.name.clone()));
            let sort_text = match condition {
                SortCondition::Eq(_) => "#sk = :sk",
                SortCondition::Lt(_) => "#sk < :sk",
                SortCondition::Le(_) => "#sk <= :sk",
                SortCondition::Gt(_) => "#sk > :sk",
                SortCondition::Ge(_) => "#sk >= :sk",
                SortCondition::Between(..) => "#sk BETWEEN :sk_lo AND :sk_hi",
                SortCondition::BeginsWith(_) => "begins_with(#sk, :sk)",
            };
            key_condition.push_str(" AND ");
            key_condition.push_str(sort_text);
            match condition {
                SortCondition::Between(low, high) => {
                    values.push((":sk_lo".to_string(), low.to_attr()));
                    values.push((":sk_hi".to_string(), high.to_attr()));
                }
                other => values.push((":sk".to_string(), other.values()[0].to_attr())),
            }
        }
        ExpressionParts {
            key_condition,
            names,
            values,
        }
    }
}

#[cfg(test)]
#[path = "condition_tests.rs"]
mod tests;
