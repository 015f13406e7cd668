//! Typed key conditions for Query.
//!
//! DynamoDB refuses a bad key condition only after a round trip, with a terse message. Checking
//! DynamoDB's rules here — value types, `begins_with` only on strings and binary, ordered
//! `between` bounds, no sort condition without a sort key — lets us name the exact value and
//! the fix before any request. Every way of building a condition (CLI flags, the aws-cli
//! expression spelling) ends in `KeyCondition::from_typed`, so the rules live in one place.

use std::cmp::Ordering;
use std::fmt;

use base64::Engine as _;

use super::number::{compare_numbers, validate_number, NumberError};
use super::schema::{KeyAttr, KeySchema, KeyType};
use super::value::AttrValue;

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum KeyConditionError {
    #[error(
        "key '{key}' cannot be empty; DynamoDB rejects empty key values, so give a non-empty value"
    )]
    EmptyValue { key: String },
    #[error("key '{key}' is a number (N) but {source}")]
    BadNumber { key: String, source: NumberError },
    #[error(
        "key '{key}' is binary (B) but '{value}' is not base64; give the bytes as standard base64 like 'AQID'"
    )]
    BadBase64 { key: String, value: String },
    /// `label` is already quoted (`':sk'`) or a phrase (`the value`), so messages read naturally
    /// for placeholders and for plain values alike.
    #[error(
        "key '{key}' is {} but {label} is {}; give it as {{\"{}\": ...}}",
        describe_type(.expected.as_str()), describe_type(.found), .expected.as_str()
    )]
    TypeMismatch {
        key: String,
        expected: KeyType,
        found: String,
        label: String,
    },
    #[error(
        "begins_with is not allowed on number (N) sort key '{key}'; use between with a low and a high number instead"
    )]
    BeginsWithOnNumber { key: String },
    #[error(
        "between on sort key '{key}' needs low <= high, but '{low}' is greater than '{high}'; swap the two values"
    )]
    BetweenOrder {
        key: String,
        low: String,
        high: String,
    },
    #[error(
        "this table/index has no sort key, only partition key '{partition_key}'; drop the sort key condition"
    )]
    NoSortKey { partition_key: String },
}

/// "a number (N)" for "N": how messages name DynamoDB types.
fn describe_type(type_name: &str) -> String {
    let words = match type_name {
        "S" => "a string",
        "N" => "a number",
        "B" => "binary",
        "SS" => "a string set",
        "NS" => "a number set",
        "BS" => "a binary set",
        "M" => "a map",
        "L" => "a list",
        "NULL" => "null",
        "BOOL" => "a boolean",
        _ => "a value",
    };
    format!("{words} ({type_name})")
}

/// A key attribute value; key attributes can only be strings, numbers or binary.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum KeyValue {
    S(String),
    /// Exact decimal text, validated against DynamoDB's number rules.
    N(String),
    B(Vec<u8>),
}

impl KeyValue {
    pub fn key_type(&self) -> KeyType {
        match self {
            KeyValue::S(_) => KeyType::S,
            KeyValue::N(_) => KeyType::N,
            KeyValue::B(_) => KeyType::B,
        }
    }

    pub fn to_attr(&self) -> AttrValue {
        match self {
            KeyValue::S(s) => AttrValue::S(s.clone()),
            KeyValue::N(n) => AttrValue::N(n.clone()),
            KeyValue::B(b) => AttrValue::B(b.clone()),
        }
    }

    /// Reads user text as a value of `attr`'s type: strings as is, numbers as decimal text,
    /// binary as standard base64.
    pub fn parse(raw: &str, attr: &KeyAttr) -> Result<KeyValue, KeyConditionError> {
        let value = match attr.key_type {
            KeyType::S => KeyValue::S(raw.to_string()),
            KeyType::N => KeyValue::N(raw.to_string()),
            KeyType::B => KeyValue::B(
                base64::engine::general_purpose::STANDARD
                    .decode(raw)
                    .map_err(|_| KeyConditionError::BadBase64 {
                        key: attr.name.clone(),
                        value: raw.to_string(),
                    })?,
            ),
        };
        value.check(attr, &format!("'{raw}'"))?;
        Ok(value)
    }

    /// Takes an already-typed value (e.g. from `--values`); its type must be the key's type.
    pub fn from_attr(value: &AttrValue, attr: &KeyAttr) -> Result<KeyValue, KeyConditionError> {
        Self::from_labeled_attr(value, attr, "the value")
    }

    /// Like `from_attr`, but messages name the placeholder (`':sk'`) the value came from.
    pub fn from_placeholder(
        placeholder: &str,
        value: &AttrValue,
        attr: &KeyAttr,
    ) -> Result<KeyValue, KeyConditionError> {
        Self::from_labeled_attr(value, attr, &format!("'{placeholder}'"))
    }

    fn from_labeled_attr(
        value: &AttrValue,
        attr: &KeyAttr,
        label: &str,
    ) -> Result<KeyValue, KeyConditionError> {
        let key_value = match value {
            AttrValue::S(s) => KeyValue::S(s.clone()),
            AttrValue::N(n) => KeyValue::N(n.clone()),
            AttrValue::B(b) => KeyValue::B(b.clone()),
            other => {
                return Err(KeyConditionError::TypeMismatch {
                    key: attr.name.clone(),
                    expected: attr.key_type,
                    found: other.type_name().to_string(),
                    label: label.to_string(),
                })
            }
        };
        key_value.check(attr, label)?;
        Ok(key_value)
    }

    /// The per-value rules: right type, not empty, a number DynamoDB can store.
    fn check(&self, attr: &KeyAttr, label: &str) -> Result<(), KeyConditionError> {
        if self.key_type() != attr.key_type {
            return Err(KeyConditionError::TypeMismatch {
                key: attr.name.clone(),
                expected: attr.key_type,
                found: self.key_type().as_str().to_string(),
                label: label.to_string(),
            });
        }
        let empty = match self {
            KeyValue::S(s) => s.is_empty(),
            KeyValue::B(b) => b.is_empty(),
            KeyValue::N(n) => {
                return validate_number(n).map_err(|source| KeyConditionError::BadNumber {
                    key: attr.name.clone(),
                    source,
                })
            }
        };
        if empty {
            return Err(KeyConditionError::EmptyValue {
                key: attr.name.clone(),
            });
        }
        Ok(())
    }

    /// DynamoDB's sort order for two values of the same type: numeric for N, byte order for S
    /// (UTF-8) and B.
    fn dynamo_cmp(&self, other: &KeyValue) -> Ordering {
        match (self, other) {
            (KeyValue::N(a), KeyValue::N(b)) => compare_numbers(a, b),
            (KeyValue::S(a), KeyValue::S(b)) => a.as_bytes().cmp(b.as_bytes()),
            (KeyValue::B(a), KeyValue::B(b)) => a.cmp(b),
            // Mixed types never reach here (`check` runs first); order by type to stay total.
            _ => self.key_type().as_str().cmp(other.key_type().as_str()),
        }
    }
}

/// Text for messages: binary shows as the base64 the user typed.
impl fmt::Display for KeyValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            KeyValue::S(s) => f.write_str(s),
            KeyValue::N(n) => f.write_str(n),
            KeyValue::B(b) => f.write_str(&base64::engine::general_purpose::STANDARD.encode(b)),
        }
    }
}

/// Shorthand for `KeyValue::from_attr`.
pub fn from_attr(value: &AttrValue, attr: &KeyAttr) -> Result<KeyValue, KeyConditionError> {
    KeyValue::from_attr(value, attr)
}

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

    fn values(&self) -> Vec<&KeyValue> {
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

    fn parse(&self, sk: &KeyAttr) -> Result<SortCondition, KeyConditionError> {
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
        let pk_value = KeyValue::parse(pk_raw, &keys.partition_key)?;
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
            .sort_key
            .as_ref()
            .ok_or_else(|| KeyConditionError::NoSortKey {
                partition_key: keys.partition_key.name.clone(),
            })?;
        if op == SortOp::BeginsWith && sk.key_type == KeyType::N {
            return Err(KeyConditionError::BeginsWithOnNumber {
                key: sk.name.clone(),
            });
        }
        Ok(sk)
    }

    /// The one place every key condition passes through, checking all of DynamoDB's rules.
    pub fn from_typed(
        keys: &KeySchema,
        pk_value: KeyValue,
        sort: Option<SortCondition>,
    ) -> Result<KeyCondition, KeyConditionError> {
        let pk = &keys.partition_key;
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
mod tests {
    use super::*;

    fn attr(name: &str, key_type: KeyType) -> KeyAttr {
        KeyAttr {
            name: name.into(),
            key_type,
        }
    }

    fn schema(pk: KeyType, sk: Option<KeyType>) -> KeySchema {
        KeySchema {
            partition_key: attr("PK", pk),
            sort_key: sk.map(|t| attr("SK", t)),
        }
    }

    fn s(v: &str) -> KeyValue {
        KeyValue::S(v.into())
    }

    fn n(v: &str) -> KeyValue {
        KeyValue::N(v.into())
    }

    #[test]
    fn parse_types_values_by_key_type() {
        let cases = [
            ("abc", KeyType::S, s("abc")),
            (" spaced ", KeyType::S, s(" spaced ")),
            ("42", KeyType::N, n("42")),
            ("-1.5e3", KeyType::N, n("-1.5e3")),
            ("AQID", KeyType::B, KeyValue::B(vec![1, 2, 3])),
        ];
        for (raw, key_type, expected) in cases {
            let value = KeyValue::parse(raw, &attr("K", key_type)).unwrap();
            assert_eq!(value, expected, "{raw:?}");
        }
    }

    #[test]
    fn parse_errors_name_the_value() {
        let cases = [
            ("", KeyType::S, "key 'K' cannot be empty; DynamoDB rejects empty key values"),
            ("", KeyType::B, "key 'K' cannot be empty"),
            (
                "12a",
                KeyType::N,
                "key 'K' is a number (N) but '12a' is not a number (expected digits like 42, -1.5 or 6.02E23)",
            ),
            ("", KeyType::N, "key 'K' is a number (N) but '' is not a number"),
            ("1e200", KeyType::N, "'1e200' is too large"),
            (
                "not base64!",
                KeyType::B,
                "key 'K' is binary (B) but 'not base64!' is not base64; give the bytes as standard base64 like 'AQID'",
            ),
        ];
        for (raw, key_type, expected) in cases {
            let message = KeyValue::parse(raw, &attr("K", key_type))
                .unwrap_err()
                .to_string();
            assert!(message.contains(expected), "{raw:?}: {message}");
        }
    }

    #[test]
    fn from_attr_requires_matching_type() {
        let sk = attr("SK", KeyType::N);
        let cases: [(AttrValue, Result<KeyValue, &str>); 6] = [
            (AttrValue::N("7".into()), Ok(n("7"))),
            (
                AttrValue::S("7".into()),
                Err("key 'SK' is a number (N) but the value is a string (S); give it as {\"N\": ...}"),
            ),
            (
                AttrValue::Bool(true),
                Err("key 'SK' is a number (N) but the value is a boolean (BOOL)"),
            ),
            (AttrValue::Null, Err("but the value is null (NULL)")),
            (AttrValue::N("x".into()), Err("'x' is not a number")),
            (AttrValue::L(vec![]), Err("the value is a list (L)")),
        ];
        for (value, expected) in cases {
            match (from_attr(&value, &sk), expected) {
                (Ok(got), Ok(want)) => assert_eq!(got, want),
                (Err(e), Err(want)) => assert!(e.to_string().contains(want), "{e}"),
                (got, want) => panic!("{value:?}: got {got:?}, want {want:?}"),
            }
        }
        let err = KeyValue::from_placeholder(":sk", &AttrValue::S("a".into()), &sk).unwrap_err();
        assert_eq!(
            err.to_string(),
            "key 'SK' is a number (N) but ':sk' is a string (S); give it as {\"N\": ...}"
        );
        let pk = attr("PK", KeyType::S);
        let err = KeyValue::from_placeholder(":pk", &AttrValue::S(String::new()), &pk).unwrap_err();
        assert_eq!(err, KeyConditionError::EmptyValue { key: "PK".into() });
    }

    #[test]
    fn build_accepts_valid_conditions() {
        use SortInput as I;
        let num = schema(KeyType::S, Some(KeyType::N));
        let text = schema(KeyType::S, Some(KeyType::S));
        let bin = schema(KeyType::N, Some(KeyType::B));
        let cases = [
            (&text, "u#1", None, None),
            (
                &text,
                "u#1",
                Some(I::Eq("a".into())),
                Some(SortCondition::Eq(s("a"))),
            ),
            (
                &num,
                "u#1",
                Some(I::Lt("5".into())),
                Some(SortCondition::Lt(n("5"))),
            ),
            (
                &num,
                "u#1",
                Some(I::Le("5".into())),
                Some(SortCondition::Le(n("5"))),
            ),
            (
                &num,
                "u#1",
                Some(I::Gt("5".into())),
                Some(SortCondition::Gt(n("5"))),
            ),
            (
                &num,
                "u#1",
                Some(I::Ge("5".into())),
                Some(SortCondition::Ge(n("5"))),
            ),
            // Numeric, not textual, order: "9" < "10".
            (
                &num,
                "u#1",
                Some(I::Between("9".into(), "10".into())),
                Some(SortCondition::Between(n("9"), n("10"))),
            ),
            (
                &num,
                "u#1",
                Some(I::Between("1e2".into(), "100".into())),
                Some(SortCondition::Between(n("1e2"), n("100"))),
            ),
            (
                &text,
                "u#1",
                Some(I::Between("A".into(), "a".into())),
                Some(SortCondition::Between(s("A"), s("a"))),
            ),
            (
                &text,
                "u#1",
                Some(I::BeginsWith("ORDER#".into())),
                Some(SortCondition::BeginsWith(s("ORDER#"))),
            ),
            (
                &bin,
                "42",
                Some(I::BeginsWith("AQ==".into())),
                Some(SortCondition::BeginsWith(KeyValue::B(vec![1]))),
            ),
            (
                &bin,
                "42",
                Some(I::Between("AQ==".into(), "Ag==".into())),
                Some(SortCondition::Between(
                    KeyValue::B(vec![1]),
                    KeyValue::B(vec![2]),
                )),
            ),
        ];
        for (keys, pk, input, expected) in cases {
            let condition = KeyCondition::build(keys, pk, input.clone())
                .unwrap_or_else(|e| panic!("{input:?}: {e}"));
            assert_eq!(condition.partition_key, keys.partition_key);
            assert_eq!(condition.sort.map(|(_, c)| c), expected, "{input:?}");
        }
    }

    #[test]
    fn build_enforces_dynamodb_rules() {
        use SortInput as I;
        let num = schema(KeyType::S, Some(KeyType::N));
        let text = schema(KeyType::S, Some(KeyType::S));
        let bin = schema(KeyType::S, Some(KeyType::B));
        let pk_only = schema(KeyType::S, None);
        let cases = [
            (&text, "", None, "key 'PK' cannot be empty"),
            (&num, "x", Some(I::Eq("abc".into())), "key 'SK' is a number (N) but 'abc' is not a number"),
            (
                &num,
                "x",
                Some(I::BeginsWith("12".into())),
                "begins_with is not allowed on number (N) sort key 'SK'; use between with a low and a high number instead",
            ),
            // The operator rule wins over the operand's type.
            (&num, "x", Some(I::BeginsWith("abc".into())), "begins_with is not allowed"),
            (
                &num,
                "x",
                Some(I::Between("10".into(), "9".into())),
                "between on sort key 'SK' needs low <= high, but '10' is greater than '9'; swap the two values",
            ),
            (&num, "x", Some(I::Between("-1".into(), "-2".into())), "'-1' is greater than '-2'"),
            (&text, "x", Some(I::Between("b".into(), "a".into())), "'b' is greater than 'a'"),
            // Byte order: lower case sorts after upper case.
            (&text, "x", Some(I::Between("a".into(), "B".into())), "'a' is greater than 'B'"),
            (&bin, "x", Some(I::Between("Ag==".into(), "AQ==".into())), "'Ag==' is greater than 'AQ=='"),
            (&text, "x", Some(I::Between("".into(), "a".into())), "key 'SK' cannot be empty"),
            (
                &pk_only,
                "x",
                Some(I::Eq("a".into())),
                "this table/index has no sort key, only partition key 'PK'; drop the sort key condition",
            ),
            (&pk_only, "x", Some(I::BeginsWith("a".into())), "no sort key"),
        ];
        for (keys, pk, input, expected) in cases {
            let message = KeyCondition::build(keys, pk, input.clone())
                .unwrap_err()
                .to_string();
            assert!(message.contains(expected), "{input:?}: {message}");
            assert!(!message.contains('\n'));
        }
    }

    #[test]
    fn from_typed_rechecks_hand_built_values() {
        let num = schema(KeyType::S, Some(KeyType::N));
        let cases = [
            (s(""), None, "key 'PK' cannot be empty"),
            (
                n("1"),
                None,
                "key 'PK' is a string (S) but '1' is a number (N)",
            ),
            (
                s("x"),
                Some(SortCondition::Eq(s("a"))),
                "key 'SK' is a number (N) but 'a' is a string (S)",
            ),
            (
                s("x"),
                Some(SortCondition::Gt(n("1x"))),
                "'1x' is not a number",
            ),
            (
                s("x"),
                Some(SortCondition::BeginsWith(n("1"))),
                "begins_with is not allowed",
            ),
            (
                s("x"),
                Some(SortCondition::Between(n("2"), n("1"))),
                "'2' is greater than '1'",
            ),
        ];
        for (pk, sort, expected) in cases {
            let message = KeyCondition::from_typed(&num, pk, sort)
                .unwrap_err()
                .to_string();
            assert!(message.contains(expected), "{message}");
        }
    }

    #[test]
    fn to_expression_uses_placeholders() {
        use SortInput as I;
        let keys = KeySchema {
            partition_key: attr("status", KeyType::S),
            sort_key: Some(attr("date", KeyType::N)),
        };
        let cases = [
            (None, "#pk = :pk"),
            (Some(I::Eq("1".into())), "#pk = :pk AND #sk = :sk"),
            (Some(I::Lt("1".into())), "#pk = :pk AND #sk < :sk"),
            (Some(I::Le("1".into())), "#pk = :pk AND #sk <= :sk"),
            (Some(I::Gt("1".into())), "#pk = :pk AND #sk > :sk"),
            (Some(I::Ge("1".into())), "#pk = :pk AND #sk >= :sk"),
            (
                Some(I::Between("1".into(), "2".into())),
                "#pk = :pk AND #sk BETWEEN :sk_lo AND :sk_hi",
            ),
        ];
        for (input, expected) in cases {
            let parts = KeyCondition::build(&keys, "OPEN", input)
                .unwrap()
                .to_expression();
            assert_eq!(parts.key_condition, expected);
            assert_eq!(parts.names[0], ("#pk".into(), "status".into()));
            assert_eq!(parts.values[0], (":pk".into(), AttrValue::S("OPEN".into())));
        }

        let parts = KeyCondition::build(&keys, "OPEN", Some(I::Between("1".into(), "2".into())))
            .unwrap()
            .to_expression();
        assert_eq!(
            parts.names,
            [
                ("#pk".into(), "status".into()),
                ("#sk".into(), "date".into())
            ]
        );
        assert_eq!(
            parts.values,
            [
                (":pk".into(), AttrValue::S("OPEN".into())),
                (":sk_lo".into(), AttrValue::N("1".into())),
                (":sk_hi".into(), AttrValue::N("2".into())),
            ]
        );

        let text = schema(KeyType::S, Some(KeyType::S));
        let parts = KeyCondition::build(&text, "u", Some(I::BeginsWith("O#".into())))
            .unwrap()
            .to_expression();
        assert_eq!(parts.key_condition, "#pk = :pk AND begins_with(#sk, :sk)");
        assert_eq!(parts.values[1], (":sk".into(), AttrValue::S("O#".into())));
    }
}
