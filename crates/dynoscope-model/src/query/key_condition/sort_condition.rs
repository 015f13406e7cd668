//! Sort-key conditions: the operator alone, typed operands, and raw operands from CLI flags.

use super::error::KeyConditionError;
use super::key_value::KeyValue;
use crate::design::schema::KeyAttr;

/// The operator of a sort condition without its operands, so rules about operators can run
/// before operands are typed (a `begins_with` on a number key should say so, not complain that
/// the prefix is not a number).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SortOp {
    Eq,
    Lt,
    Le,
    Gt,
    Ge,
    Between,
    BeginsWith,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SortCondition {
    Eq(KeyValue),
    Lt(KeyValue),
    Le(KeyValue),
    Gt(KeyValue),
    Ge(KeyValue),
    Between(KeyValue, KeyValue),
    BeginsWith(KeyValue),
}

impl SortCondition {
    pub fn op(&self) -> SortOp {
        match self {
            SortCondition::Eq(_) => SortOp::Eq,
            SortCondition::Lt(_) => SortOp::Lt,
            SortCondition::Le(_) => SortOp::Le,
            SortCondition::Gt(_) => SortOp::Gt,
            SortCondition::Ge(_) => SortOp::Ge,
            SortCondition::Between(..) => SortOp::Between,
            SortCondition::BeginsWith(_) => SortOp::BeginsWith,
        }
    }

    pub(super) fn values(&self) -> Vec<&KeyValue> {
        match self {
            SortCondition::Eq(v)
            | SortCondition::Lt(v)
            | SortCondition::Le(v)
            | SortCondition::Gt(v)
            | SortCondition::Ge(v)
            | SortCondition::BeginsWith(v) => vec![v],
            SortCondition::Between(lo, hi) => vec![lo, hi],
        }
    }
}

/// Raw user text from CLI flags, typed later against the sort key.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SortInput {
    Eq(String),
    Lt(String),
    Le(String),
    Gt(String),
    Ge(String),
    Between(String, String),
    BeginsWith(String),
}

impl SortInput {
    pub fn op(&self) -> SortOp {
        match self {
            SortInput::Eq(_) => SortOp::Eq,
            SortInput::Lt(_) => SortOp::Lt,
            SortInput::Le(_) => SortOp::Le,
            SortInput::Gt(_) => SortOp::Gt,
            SortInput::Ge(_) => SortOp::Ge,
            SortInput::Between(..) => SortOp::Between,
            SortInput::BeginsWith(_) => SortOp::BeginsWith,
        }
    }

    pub(super) fn parse(&self, sk: &KeyAttr) -> Result<SortCondition, KeyConditionError> {
        let one = |raw: &str| KeyValue::parse(raw, sk);
        Ok(match self {
            SortInput::Eq(v) => SortCondition::Eq(one(v)?),
            SortInput::Lt(v) => SortCondition::Lt(one(v)?),
            SortInput::Le(v) => SortCondition::Le(one(v)?),
            SortInput::Gt(v) => SortCondition::Gt(one(v)?),
            SortInput::Ge(v) => SortCondition::Ge(one(v)?),
            SortInput::Between(lo, hi) => SortCondition::Between(one(lo)?, one(hi)?),
            SortInput::BeginsWith(v) => SortCondition::BeginsWith(one(v)?),
        })
    }
}
