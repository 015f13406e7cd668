//! The aws-cli `--key-condition-expression` spelling, read into a typed `KeyCondition`: the
//! parser yields conjuncts, and this sorts them into the partition- and sort-key conditions.

use super::brackets::check_brackets;
use super::check::Placeholders;
use super::error::ExpressionError;
use super::key_parser::KeyParser;
use super::tokenizer::tokenize;
use crate::design::schema::{KeyAttr, KeySchema};
use crate::item::value::AttrValue;
use crate::query::key_condition::{
    KeyCondition, KeyConditionError, KeyValue, SortCondition, SortOp,
};

pub(super) const KEY_CONDITION: &str = "key condition";

/// Reads the aws-cli `--key-condition-expression` spelling into a `KeyCondition`, checked by
/// the same rules as one built from flags.
pub fn parse_key_condition(
    expr: &str,
    names: &[(String, String)],
    values: &[(String, AttrValue)],
    keys: &KeySchema,
) -> Result<KeyCondition, ExpressionError> {
    parse_key_condition_with_usage(expr, names, values, keys).map(|(condition, _)| condition)
}

/// Like `parse_key_condition`, also returning the placeholders the expression used.
pub fn parse_key_condition_with_usage(
    expr: &str,
    names: &[(String, String)],
    values: &[(String, AttrValue)],
    keys: &KeySchema,
) -> Result<(KeyCondition, Placeholders), ExpressionError> {
    let tokens = tokenize(KEY_CONDITION, expr)?;
    check_brackets(KEY_CONDITION, &tokens)?;
    let mut parser = KeyParser {
        tokens: &tokens,
        pos: 0,
        depth: 0,
        expr,
        names,
        values,
        keys,
        used: Placeholders::default(),
    };
    let conjuncts = if tokens.is_empty() {
        Vec::new()
    } else {
        let conjuncts = parser.parse_and()?;
        if parser.pos < tokens.len() {
            return Err(parser.syntax("AND or the end of the key condition"));
        }
        conjuncts
    };
    let condition = assemble(keys, conjuncts)?;
    Ok((condition, parser.used))
}

/// A placeholder and the value it stands for.
pub(super) type Placeheld = (String, AttrValue);

/// How one conjunct relates its attribute to its value(s).
pub(super) enum Rel {
    Eq,
    Lt,
    Le,
    Gt,
    Ge,
    BeginsWith,
    Between { high: Placeheld },
}

impl Rel {
    fn op(&self) -> SortOp {
        match self {
            Rel::Eq => SortOp::Eq,
            Rel::Lt => SortOp::Lt,
            Rel::Le => SortOp::Le,
            Rel::Gt => SortOp::Gt,
            Rel::Ge => SortOp::Ge,
            Rel::BeginsWith => SortOp::BeginsWith,
            Rel::Between { .. } => SortOp::Between,
        }
    }

    fn text(&self) -> &'static str {
        match self {
            Rel::Eq => "=",
            Rel::Lt => "<",
            Rel::Le => "<=",
            Rel::Gt => ">",
            Rel::Ge => ">=",
            Rel::BeginsWith => "begins_with",
            Rel::Between { .. } => "BETWEEN",
        }
    }
}

/// One `attribute op :value` comparison, before we know whether it is about the PK or the SK.
pub(super) struct Conjunct {
    pub(super) attr: String,
    pub(super) rel: Rel,
    pub(super) value: Placeheld,
}

pub(super) fn not_a_key(keys: &KeySchema, name: String) -> ExpressionError {
    ExpressionError::NotAKey {
        name,
        keys: keys.names().join(", "),
    }
}

/// Sorts conjuncts onto the key's attributes — an equality for each partition attribute, a
/// condition for some sort attributes — then hands the values to the same typing and rules as
/// `KeyCondition::build_parts`: every partition attribute, a sort prefix of equalities in
/// key-schema order, at most one other condition on the next.
fn assemble(keys: &KeySchema, conjuncts: Vec<Conjunct>) -> Result<KeyCondition, ExpressionError> {
    let mut partition: Vec<Option<Conjunct>> = keys.partition().iter().map(|_| None).collect();
    let mut sort: Vec<Option<Conjunct>> = keys.sort().iter().map(|_| None).collect();
    for conjunct in conjuncts {
        let position = |attrs: &[KeyAttr]| attrs.iter().position(|k| k.name == conjunct.attr);
        if let Some(at) = position(keys.partition()) {
            let key = keys.partition()[at].name.clone();
            if partition[at].is_some() {
                return Err(ExpressionError::DuplicatePartitionKey { key });
            }
            if !matches!(conjunct.rel, Rel::Eq) {
                let op = conjunct.rel.text().to_string();
                return Err(ExpressionError::PartitionKeyOp { key, op });
            }
            partition[at] = Some(conjunct);
        } else if let Some(at) = position(keys.sort()) {
            if sort[at].is_some() {
                let key = keys.sort()[at].name.clone();
                return Err(ExpressionError::DuplicateSortKey { key });
            }
            sort[at] = Some(conjunct);
        } else {
            return Err(not_a_key(keys, conjunct.attr));
        }
    }
    let mut pk_values = Vec::new();
    for (attr, conjunct) in keys.partition().iter().zip(partition) {
        let conjunct = conjunct.ok_or_else(|| ExpressionError::MissingPartitionKey {
            key: attr.name.clone(),
        })?;
        let (placeholder, value) = &conjunct.value;
        pk_values.push(KeyValue::from_placeholder(placeholder, value, attr)?);
    }
    // The sort conditions given must be the first ones, in order, all equalities but the last.
    let given: Vec<usize> = (0..sort.len()).filter(|&i| sort[i].is_some()).collect();
    if let Some(gap) = (0..given.len()).find(|&i| given[i] != i) {
        return Err(KeyConditionError::SortGap {
            attribute: keys.sort()[given[gap]].name.clone(),
            missing: keys.sort()[gap].name.clone(),
        }
        .into());
    }
    let mut sort_prefix = Vec::new();
    let mut last = None;
    let count = given.len();
    for (at, conjunct) in sort.into_iter().take(count).enumerate() {
        let Conjunct { rel, value, .. } = conjunct.expect("given above");
        if at + 1 < count {
            if !matches!(rel, Rel::Eq) {
                return Err(KeyConditionError::RangeNotLast {
                    attribute: keys.sort()[at].name.clone(),
                    next: keys.sort()[at + 1].name.clone(),
                }
                .into());
            }
            let (placeholder, value) = &value;
            sort_prefix.push(KeyValue::from_placeholder(
                placeholder,
                value,
                &keys.sort()[at],
            )?);
            continue;
        }
        // Operator rules first, so `begins_with` on a number key says so rather than
        // complaining about the prefix's type.
        let sk = KeyCondition::check_sort_op_at(keys, at, rel.op())?;
        let typed =
            |(placeholder, value): &Placeheld| KeyValue::from_placeholder(placeholder, value, sk);
        let low = typed(&value)?;
        last = Some(match rel {
            Rel::Eq => SortCondition::Eq(low),
            Rel::Lt => SortCondition::Lt(low),
            Rel::Le => SortCondition::Le(low),
            Rel::Gt => SortCondition::Gt(low),
            Rel::Ge => SortCondition::Ge(low),
            Rel::BeginsWith => SortCondition::BeginsWith(low),
            Rel::Between { high } => SortCondition::Between(low, typed(&high)?),
        });
    }
    Ok(KeyCondition::new(keys, pk_values, sort_prefix, last)?)
}

#[cfg(test)]
#[path = "key_expression_tests.rs"]
mod tests;
