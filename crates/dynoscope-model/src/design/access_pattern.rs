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

use std::collections::BTreeMap;

use serde::Deserialize;

use crate::design::pattern_file::check_template;
pub use crate::design::pattern_file::{error_line, parse_patterns_file};
use crate::design::pattern_filter::pattern_filter;
use crate::input::limits::LIMIT;
use crate::query::key_condition::SortInput;

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
    fn texts(&self) -> Vec<&str> {
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
    pub pk: String,
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
    /// The partition and sort key attributes of `index` when the table may not have it yet:
    /// `patterns check` says such a pattern needs a GSI and proposes it.
    #[serde(default)]
    pub index_pk: Option<String>,
    #[serde(default)]
    pub index_sk: Option<String>,
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
fn placeholders(text: &str) -> Vec<String> {
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

fn fill(template: &str, params: &BTreeMap<String, String>) -> String {
    let mut out = template.to_string();
    for (name, value) in params {
        out = out.replace(&format!("{{{name}}}"), value);
    }
    out
}

/// `"0..9"` → `(0, 9)`, inclusive.
pub fn parse_shards(text: &str) -> Result<(u32, u32), PatternError> {
    let bad = || PatternError::BadShards(text.to_string());
    let (a, b) = text.split_once("..").ok_or_else(bad)?;
    let b = b.strip_prefix('=').unwrap_or(b);
    let (a, b): (u32, u32) = (
        a.trim().parse().map_err(|_| bad())?,
        b.trim().parse().map_err(|_| bad())?,
    );
    if a > b || b - a >= MAX_SHARDS {
        return Err(bad());
    }
    Ok((a, b))
}

/// A pattern with its parameters filled in: what the Query needs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BoundPattern {
    pub table: String,
    pub index: Option<String>,
    /// The partition key, still with `{shard}` when sharded.
    pub pk: String,
    pub sort: Option<SortInput>,
    pub descending: bool,
    pub limit: Option<usize>,
    pub filter: Option<String>,
    pub projection: Option<String>,
    pub names: BTreeMap<String, String>,
    pub values: Option<String>,
    pub shards: Option<(u32, u32)>,
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
        check_template(&pattern.pk).map_err(|problem| field("pk", format!("pk {problem}")))?;
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
        if let Some(shards) = &pattern.shards {
            parse_shards(shards)?;
            if !pattern.pk.contains("{shard}") {
                return Err(PatternError::Invalid(
                    label,
                    "declares shards but its pk has no {shard} placeholder".into(),
                ));
            }
        } else if pattern.pk.contains("{shard}") {
            return Err(PatternError::Invalid(
                label,
                "uses {shard} in pk but declares no shards range (e.g. shards = \"0..9\")".into(),
            ));
        }
        Ok(pattern)
    }

    /// Parameters the user must give, in order of appearance (`{shard}` excluded).
    pub fn params(&self) -> Vec<String> {
        let mut texts = vec![self.pk.as_str()];
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

    pub fn bind(&self, params: &BTreeMap<String, String>) -> Result<BoundPattern, PatternError> {
        let wanted = self.params();
        for given in params.keys() {
            if !wanted.contains(given) {
                return Err(PatternError::UnknownParam {
                    pattern: self.name.clone(),
                    param: given.clone(),
                    known: if wanted.is_empty() {
                        "(none)".into()
                    } else {
                        wanted.join(", ")
                    },
                });
            }
        }
        if let Some(missing) = wanted.iter().find(|p| !params.contains_key(*p)) {
            return Err(PatternError::MissingParam {
                pattern: self.name.clone(),
                param: missing.clone(),
            });
        }
        let sort = self.sk.as_ref().map(|sk| match sk {
            SortTemplate::Eq(v) => SortInput::Eq(fill(v, params)),
            SortTemplate::Lt(v) => SortInput::Lt(fill(v, params)),
            SortTemplate::Le(v) => SortInput::Le(fill(v, params)),
            SortTemplate::Gt(v) => SortInput::Gt(fill(v, params)),
            SortTemplate::Ge(v) => SortInput::Ge(fill(v, params)),
            SortTemplate::Between([a, b]) => SortInput::Between(fill(a, params), fill(b, params)),
            SortTemplate::BeginsWith(v) => SortInput::BeginsWith(fill(v, params)),
        });
        // Checked when the pattern was read: a builder filter compiles.
        let filter = match &self.filter {
            Some(text) => Some(
                pattern_filter(text, &self.names, self.values.as_deref()).map_err(|problem| {
                    PatternError::Invalid(format!("'{}'", self.name), problem)
                })?,
            ),
            None => None,
        };
        Ok(BoundPattern {
            table: self.table.clone(),
            index: self.index.clone(),
            pk: fill(&self.pk, params),
            sort,
            descending: self.order == Order::Desc,
            limit: self.limit,
            projection: self.projection.clone(),
            names: filter
                .as_ref()
                .map_or_else(|| self.names.clone(), |f| f.names.clone()),
            values: filter
                .as_ref()
                .map_or_else(|| self.values.clone(), |f| f.values.clone()),
            filter: filter.map(|f| f.expression),
            shards: self.shards.as_deref().map(parse_shards).transpose()?,
        })
    }
}

/// Every shard's partition key, in shard order.
pub fn shard_keys(pk_template: &str, (first, last): (u32, u32)) -> Vec<String> {
    (first..=last)
        .map(|n| pk_template.replace("{shard}", &n.to_string()))
        .collect()
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
