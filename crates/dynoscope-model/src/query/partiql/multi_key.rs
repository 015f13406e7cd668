//! A WHERE on an index keyed by several attributes (a multi-attribute GSI) as the Query it
//! means: an equality on every partition attribute, equalities on a prefix of the sort
//! attributes in key-schema order, then at most one condition on the next — DynamoDB's rule,
//! which `KeyCondition::new` holds. Whatever else the WHERE says stays a filter.

use super::ast::{CmpOp, Expr, Operand};
use super::error::PartiqlError;
use super::filter::attributes;
use super::translate::{is_attr, sort_condition};
use crate::design::schema::KeySchema;
use crate::item::value::AttrValue;
use crate::query::key_condition::{KeyCondition, KeyValue};

pub(super) enum MultiKey {
    /// The WHERE pins every partition attribute: this Query, its conjuncts taken.
    Query(KeyCondition),
    /// It pins them, but a condition on this key attribute is beyond what a key condition
    /// holds (a second range, a gap in the sort prefix, `<>`): DynamoDB scans.
    Beyond(String),
    /// A partition attribute is not pinned with `=`: a Scan.
    Scan,
}

/// `attr = value` (either way round): the value.
fn equality(expr: &Expr, name: &str) -> Option<AttrValue> {
    match expr {
        Expr::Cmp(a, CmpOp::Eq, Operand::Value(v)) if is_attr(a, name) => Some(v.clone()),
        Expr::Cmp(Operand::Value(v), CmpOp::Eq, b) if is_attr(b, name) => Some(v.clone()),
        _ => None,
    }
}

fn bad(e: impl ToString) -> PartiqlError {
    PartiqlError::bad_input(e.to_string())
}

/// Takes the key condition out of `conjuncts` when they make one.
pub(super) fn take(conjuncts: &mut Vec<Expr>, keys: &KeySchema) -> Result<MultiKey, PartiqlError> {
    let mut rest = conjuncts.clone();
    let take_equality = |rest: &mut Vec<Expr>, name: &str| {
        let at = rest.iter().position(|c| equality(c, name).is_some())?;
        equality(&rest.remove(at), name)
    };
    let mut partition = Vec::new();
    for attr in keys.partition() {
        let Some(value) = take_equality(&mut rest, &attr.name) else {
            return Ok(MultiKey::Scan);
        };
        partition.push(KeyValue::from_attr(&value, attr).map_err(bad)?);
    }
    let mut prefix = Vec::new();
    let mut last = None;
    for attr in keys.sort() {
        if let Some(value) = take_equality(&mut rest, &attr.name) {
            prefix.push(KeyValue::from_attr(&value, attr).map_err(bad)?);
            continue;
        }
        for (i, c) in rest.iter().enumerate() {
            if let Some(found) = sort_condition(c, attr)? {
                rest.remove(i);
                last = Some(found);
                break;
            }
        }
        break;
    }
    let names = keys.names();
    let beyond = rest.iter().find_map(|c| {
        let mut named = Vec::new();
        attributes(c, &mut named);
        named.into_iter().find(|a| names.contains(a))
    });
    if let Some(key) = beyond {
        return Ok(MultiKey::Beyond(key));
    }
    let condition = KeyCondition::new(keys, partition, prefix, last).map_err(bad)?;
    *conjuncts = rest;
    Ok(MultiKey::Query(condition))
}

#[cfg(test)]
#[path = "multi_key_tests.rs"]
mod tests;
