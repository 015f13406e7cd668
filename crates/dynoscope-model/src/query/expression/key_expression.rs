//! The aws-cli `--key-condition-expression` spelling, read into a typed `KeyCondition`: the
//! parser yields conjuncts, and this sorts them into the partition- and sort-key conditions.

use super::brackets::check_brackets;
use super::check::Placeholders;
use super::error::ExpressionError;
use super::key_parser::KeyParser;
use super::tokenizer::tokenize;
use crate::design::schema::KeySchema;
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

/// Sorts conjuncts into the PK and SK conditions, then hands the values to the same typing and
/// rules as `KeyCondition::build`.
fn assemble(keys: &KeySchema, conjuncts: Vec<Conjunct>) -> Result<KeyCondition, ExpressionError> {
    // multi-attribute: not yet — refused whole, before a conjunct on a later attribute is
    // called "not a key".
    if keys.is_multi_attribute() {
        let keys = keys.display();
        return Err(KeyConditionError::MultiAttributeKey { keys }.into());
    }
    let pk = keys.partition_key();
    let mut pk_conjunct: Option<Conjunct> = None;
    let mut sk_conjunct: Option<Conjunct> = None;
    for conjunct in conjuncts {
        if conjunct.attr == pk.name {
            if pk_conjunct.is_some() {
                return Err(ExpressionError::DuplicatePartitionKey {
                    key: pk.name.clone(),
                });
            }
            if !matches!(conjunct.rel, Rel::Eq) {
                return Err(ExpressionError::PartitionKeyOp {
                    key: pk.name.clone(),
                    op: conjunct.rel.text().to_string(),
                });
            }
            pk_conjunct = Some(conjunct);
        } else if let Some(sk) = keys.sort_key().filter(|sk| sk.name == conjunct.attr) {
            if sk_conjunct.is_some() {
                return Err(ExpressionError::DuplicateSortKey {
                    key: sk.name.clone(),
                });
            }
            sk_conjunct = Some(conjunct);
        } else {
            return Err(not_a_key(keys, conjunct.attr));
        }
    }

    let pk_conjunct = pk_conjunct.ok_or_else(|| ExpressionError::MissingPartitionKey {
        key: pk.name.clone(),
    })?;
    let (placeholder, value) = &pk_conjunct.value;
    let pk_value = KeyValue::from_placeholder(placeholder, value, pk)?;

    let sort = match sk_conjunct {
        None => None,
        Some(Conjunct { rel, value, .. }) => {
            // Operator rules first, so `begins_with` on a number key says so rather than
            // complaining about the prefix's type.
            let sk = KeyCondition::check_sort_op(keys, rel.op())?;
            let typed = |(placeholder, value): &Placeheld| {
                KeyValue::from_placeholder(placeholder, value, sk)
            };
            let low = typed(&value)?;
            Some(match rel {
                Rel::Eq => SortCondition::Eq(low),
                Rel::Lt => SortCondition::Lt(low),
                Rel::Le => SortCondition::Le(low),
                Rel::Gt => SortCondition::Gt(low),
                Rel::Ge => SortCondition::Ge(low),
                Rel::BeginsWith => SortCondition::BeginsWith(low),
                Rel::Between { high } => SortCondition::Between(low, typed(&high)?),
            })
        }
    };
    Ok(KeyCondition::from_typed(keys, pk_value, sort)?)
}

#[cfg(test)]
#[path = "key_expression_tests.rs"]
mod tests;
