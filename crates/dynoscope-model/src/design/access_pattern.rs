//! Named access patterns: the Queries a single-table design was built for, kept as data with
//! `{parameters}`, e.g.
//!
//! ```toml
//! [[pattern]]
//! table = "app"
//! name = "orders-by-status"
//! index = "GSI1"
//! pk = "STATUS#{status}"
//! sk = { begins_with = "{month}" }
//! order = "desc"
//! ```
//!
//! A pattern may declare write-sharded partition keys (`pk = "STATUS#PENDING#{shard}"`,
//! `shards = "0..9"`): every shard is queried and the results merged.
//!
//! On a GSI with a multi-attribute key (up to four partition and four sort attributes) `pk`
//! is a list, one template per partition attribute in key-schema order, and `sk_eq` a list of
//! equalities on the first sort attributes; `sk` is then the condition on the next one:
//!
//! ```toml
//! [[pattern]]
//! table = "matches"
//! name = "matches-of-a-round"
//! index = "TournamentRegionIndex"
//! pk = ["{tournamentId}", "{region}"]
//! sk_eq = ["{round}"]
//! sk = { begins_with = "UP" }
//! ```
//!
//! A string is the one-template list, so a file written before such keys reads as it did.

use std::collections::BTreeMap;

use serde::Deserialize;

pub use crate::design::pattern_bind::{parse_shards, shard_keys, BoundPattern};
use crate::design::pattern_file::{check_template, one_or_many};
pub use crate::design::pattern_file::{error_line, parse_patterns_file};
use crate::design::pattern_filter::pattern_filter;
use crate::design::schema::MAX_KEY_ATTRIBUTES;
use crate::input::limits::LIMIT;

/// The parameter that stands for a shard number; it is never asked for.
pub const SHARD_PARAM: &str = "shard";
/// More shards than this is almost certainly a typo in the range.
pub const MAX_SHARDS: u32 = 1000;

#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum SortTemplate {
    Eq(String),
    Lt(String),
    Le(String),
    Gt(String),
    Ge(String),
    Between([String; 2]),
    BeginsWith(String),
}

impl SortTemplate {
    pub(crate) fn texts(&self) -> Vec<&str> {
        match self {
            SortTemplate::Eq(v)
            | SortTemplate::Lt(v)
            | SortTemplate::Le(v)
            | SortTemplate::Gt(v)
            | SortTemplate::Ge(v)
            | SortTemplate::BeginsWith(v) => vec![v],
            SortTemplate::Between([a, b]) => vec![a, b],
        }
    }

    /// The operator spelled as the builder and the CLI spell it.
    pub fn operator(&self) -> &'static str {
        match self {
            SortTemplate::Eq(_) => "=",
            SortTemplate::Lt(_) => "<",
            SortTemplate::Le(_) => "<=",
            SortTemplate::Gt(_) => ">",
            SortTemplate::Ge(_) => ">=",
            SortTemplate::Between(_) => "between",
            SortTemplate::BeginsWith(_) => "begins_with",
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum Order {
    #[default]
    Asc,
    Desc,
}

#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AccessPattern {
    pub table: String,
    pub name: String,
    #[serde(default)]
    pub description: Option<String>,
    #[serde(default)]
    pub index: Option<String>,
    /// One template per partition attribute, in key-schema order (a string in the file for
    /// a key of one partition attribute, a list for a multi-attribute GSI's).
    #[serde(deserialize_with = "one_or_many")]
    pub pk: Vec<String>,
    /// Equalities on the first sort attributes, in key-schema order (a multi-attribute GSI's
    /// sort prefix); `sk` is then the condition on the sort attribute after them.
    #[serde(default, deserialize_with = "one_or_many")]
    pub sk_eq: Vec<String>,
    #[serde(default)]
    pub sk: Option<SortTemplate>,
    #[serde(default)]
    pub order: Order,
    #[serde(default)]
    pub limit: Option<usize>,
    /// The query builder's filter syntax (`total > 100 AND status = "SHIPPED"`), or, with
    /// `names` or `values`, a FilterExpression that uses their placeholders.
    #[serde(default)]
    pub filter: Option<String>,
    #[serde(default)]
    pub projection: Option<String>,
    /// ExpressionAttributeNames for the filter/projection.
    #[serde(default)]
    pub names: BTreeMap<String, String>,
    /// Plain-JSON ExpressionAttributeValues for the filter, as a JSON object string.
    #[serde(default)]
    pub values: Option<String>,
    /// Inclusive shard range for `{shard}` in `pk`, e.g. `"0..9"`.
    #[serde(default)]
    pub shards: Option<String>,
    /// The partition and sort key attributes of `index` when the table may not have it yet
    /// (a list each for a multi-attribute key): `patterns check` says such a pattern needs a
    /// GSI and proposes it.
    #[serde(default, deserialize_with = "one_or_many")]
    pub index_pk: Vec<String>,
    #[serde(default, deserialize_with = "one_or_many")]
    pub index_sk: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PatternError {
    #[error("access pattern {0}: {1}")]
    Invalid(String, String),
    /// A field's value is wrong: `field` lets a file's reader name its line.
    #[error("access pattern {label}: {message}")]
    Field {
        label: String,
        field: &'static str,
        message: String,
    },
    #[error("pattern '{pattern}' needs parameter '{param}'; pass --param {param}=VALUE")]
    MissingParam { pattern: String, param: String },
    #[error("pattern '{pattern}' has no parameter '{param}'; its parameters are: {known}")]
    UnknownParam {
        pattern: String,
        param: String,
        known: String,
    },
    #[error("no access pattern named '{name}'; known patterns: {known}")]
    Unknown { name: String, known: String },
    #[error(
        "bad shard range '{0}'; write it as FIRST..LAST, e.g. 0..9 (at most {MAX_SHARDS} shards)"
    )]
    BadShards(String),
}

/// `{name}` placeholders in order of first appearance.
pub(crate) fn placeholders(text: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut rest = text;
    while let Some(open) = rest.find('{') {
        let Some(close) = rest[open..].find('}') else {
            break;
        };
        let name = &rest[open + 1..open + close];
        if !name.is_empty() && !out.iter().any(|n| n == name) {
            out.push(name.to_string());
        }
        rest = &rest[open + close + 1..];
    }
    out
}

impl AccessPattern {
    /// Parses one `[[pattern]]` table; `position` names it in messages when it has no name.
    pub fn from_toml(table: toml::Table, position: usize) -> Result<AccessPattern, PatternError> {
        let label = table
            .get("name")
            .and_then(|v| v.as_str())
            .map(|n| format!("'{n}'"))
            .unwrap_or_else(|| format!("#{}", position + 1));
        // serde would say "unknown variant"; a bare string is the one slip everyone makes.
        if let Some(toml::Value::String(text)) = table.get("sk") {
            return Err(PatternError::Field {
                label,
                field: "sk",
                message: format!(
                    "sk '{text}' needs its operator: write sk = {{ eq = \"{text}\" }} (or begins_with, between, lt, le, gt, ge)"
                ),
            });
        }
        let pattern: AccessPattern =
            toml::Value::Table(table)
                .try_into()
                .map_err(|e: toml::de::Error| {
                    PatternError::Invalid(label.clone(), one_line(&e.to_string()))
                })?;
        let field = |field: &'static str, message: String| PatternError::Field {
            label: label.clone(),
            field,
            message,
        };
        if pattern.name.trim().is_empty() {
            return Err(field(
                "name",
                "name is empty; give the pattern a name to run it by".into(),
            ));
        }
        if pattern.table.trim().is_empty() {
            return Err(field(
                "table",
                "table is empty; name the table it queries".into(),
            ));
        }
        if pattern.pk.is_empty() {
            return Err(field(
                "pk",
                "pk is an empty list; give one template per partition attribute, in key-schema order, e.g. pk = [\"{tournamentId}\", \"{region}\"]".into(),
            ));
        }
        if pattern.pk.len() > MAX_KEY_ATTRIBUTES {
            return Err(field(
                "pk",
                format!(
                    "pk has {} templates but a key has at most {MAX_KEY_ATTRIBUTES} partition attributes; give one template per partition attribute",
                    pattern.pk.len()
                ),
            ));
        }
        let sort_conditions = pattern.sk_eq.len() + usize::from(pattern.sk.is_some());
        if sort_conditions > MAX_KEY_ATTRIBUTES {
            return Err(field(
                "sk_eq",
                format!(
                    "sk_eq and sk give {sort_conditions} sort conditions but a key has at most {MAX_KEY_ATTRIBUTES} sort attributes; give equalities on the first ones and at most one condition (sk) on the next"
                ),
            ));
        }
        for text in &pattern.pk {
            check_template(text).map_err(|problem| field("pk", format!("pk {problem}")))?;
        }
        for text in &pattern.sk_eq {
            check_template(text).map_err(|problem| field("sk_eq", format!("sk_eq {problem}")))?;
        }
        if let Some(sk) = &pattern.sk {
            for text in sk.texts() {
                check_template(text).map_err(|problem| field("sk", format!("sk {problem}")))?;
            }
        }
        if let Some(filter) = &pattern.filter {
            pattern_filter(filter, &pattern.names, pattern.values.as_deref())
                .map_err(|problem| field("filter", format!("filter '{filter}': {problem}")))?;
        }
        if let Some(limit) = pattern.limit.filter(|n| !LIMIT.contains(*n as u64)) {
            return Err(PatternError::Invalid(
                label,
                format!("limit '{limit}' is out of range; use {}", LIMIT.describe()),
            ));
        }
        if pattern.pk.iter().filter(|t| t.contains("{shard}")).count() > 1 {
            return Err(field(
                "pk",
                "pk has {shard} in more than one template; write-shard one partition attribute"
                    .into(),
            ));
        }
        if let Some(shards) = &pattern.shards {
            parse_shards(shards)?;
            if !pattern.sharded() {
                return Err(PatternError::Invalid(
                    label,
                    "declares shards but its pk has no {shard} placeholder".into(),
                ));
            }
        } else if pattern.sharded() {
            return Err(PatternError::Invalid(
                label,
                "uses {shard} in pk but declares no shards range (e.g. shards = \"0..9\")".into(),
            ));
        }
        Ok(pattern)
    }

    /// A partition template holds `{shard}`.
    fn sharded(&self) -> bool {
        self.pk.iter().any(|t| t.contains("{shard}"))
    }

    /// The partition templates as one line: the template of a one-attribute key, or each
    /// attribute's joined by ` · ` (as a multi-attribute key's collection is named).
    pub fn pk_display(&self) -> String {
        self.pk.join(crate::design::collection::TUPLE_SEPARATOR)
    }

    /// Parameters the user must give, in order of appearance (`{shard}` excluded).
    pub fn params(&self) -> Vec<String> {
        let mut texts: Vec<&str> = self.pk.iter().map(String::as_str).collect();
        texts.extend(self.sk_eq.iter().map(String::as_str));
        if let Some(sk) = &self.sk {
            texts.extend(sk.texts());
        }
        let mut out: Vec<String> = Vec::new();
        for t in texts {
            for p in placeholders(t) {
                if p != SHARD_PARAM && !out.contains(&p) {
                    out.push(p);
                }
            }
        }
        out
    }
}

pub(crate) fn one_line(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Finds `name` among `patterns`, naming the known ones when it is missing.
pub fn find<'a>(
    patterns: &'a [AccessPattern],
    name: &str,
) -> Result<&'a AccessPattern, PatternError> {
    patterns
        .iter()
        .find(|p| p.name == name)
        .ok_or_else(|| PatternError::Unknown {
            name: name.to_string(),
            known: if patterns.is_empty() {
                "(none; declare [[pattern]] in the config file or pass --patterns FILE)".into()
            } else {
                patterns
                    .iter()
                    .map(|p| p.name.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            },
        })
}

#[cfg(test)]
#[path = "access_pattern_tests.rs"]
mod tests;
