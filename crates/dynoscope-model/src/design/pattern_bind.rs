//! A pattern bound to its parameters: the key values its Query gives, one per partition
//! attribute and per sort-prefix attribute, checked against the key schema of the table or
//! index it reads before anything is sent.

use crate::design::schema::attribute_names;
use std::collections::BTreeMap;

use crate::design::access_pattern::{AccessPattern, Order, PatternError, SortTemplate, MAX_SHARDS};
use crate::design::pattern_filter::pattern_filter;
use crate::design::schema::KeySchema;
use crate::query::key_condition::SortInput;

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

/// Every shard's partition key, in shard order.
pub fn shard_keys(pk_template: &str, (first, last): (u32, u32)) -> Vec<String> {
    (first..=last)
        .map(|n| pk_template.replace("{shard}", &n.to_string()))
        .collect()
}

/// A pattern with its parameters filled in: what the Query needs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BoundPattern {
    /// The pattern's name, for the messages that refuse it.
    pub name: String,
    pub table: String,
    pub index: Option<String>,
    /// One value per partition attribute, in key-schema order, still with `{shard}` when
    /// sharded.
    pub pk: Vec<String>,
    /// Equalities on the first sort attributes, in key-schema order.
    pub sort_prefix: Vec<String>,
    /// The condition on the sort attribute after the prefix.
    pub sort: Option<SortInput>,
    pub descending: bool,
    pub limit: Option<usize>,
    pub filter: Option<String>,
    pub projection: Option<String>,
    pub names: BTreeMap<String, String>,
    pub values: Option<String>,
    pub shards: Option<(u32, u32)>,
}

fn plural(n: usize, one: &str) -> String {
    match n {
        1 => format!("1 {one}"),
        n => format!("{n} {one}s"),
    }
}

impl BoundPattern {
    /// The partition values of each request: one list, or one per write shard (`{shard}`
    /// replaced in every template by the shard's number).
    pub fn partitions(&self) -> Vec<Vec<String>> {
        match self.shards {
            None => vec![self.pk.clone()],
            Some((first, last)) => (first..=last)
                .map(|n| {
                    self.pk
                        .iter()
                        .map(|t| t.replace("{shard}", &n.to_string()))
                        .collect()
                })
                .collect(),
        }
    }

    /// `Err` with one line when the pattern's templates do not fit `keys`, the key of
    /// `target` (the table or index it reads): a template per partition attribute, and no
    /// more sort conditions than sort attributes. Said in the pattern's own terms (`pk`,
    /// `sk_eq`) before the key condition's rule checks the values.
    pub fn check_keys(&self, keys: &KeySchema, target: &str) -> Result<(), String> {
        let partition = keys.partition();
        if self.pk.len() != partition.len() {
            let example = partition
                .iter()
                .map(|a| format!("\"{{{}}}\"", a.name))
                .collect::<Vec<_>>()
                .join(", ");
            let fix = match partition.len() {
                1 => format!("pk = {example}"),
                _ => format!("pk = [{example}]"),
            };
            return Err(format!(
                "pattern '{}' gives {} but {target} is keyed by {}; give one per partition attribute, in that order: {fix}",
                self.name,
                plural(self.pk.len(), "partition template"),
                keys.display()
            ));
        }
        let sort = self.sort_prefix.len() + usize::from(self.sort.is_some());
        if sort > keys.sort().len() {
            let has = match keys.sort() {
                [] => "has no sort key".to_string(),
                attrs => format!("has the sort attributes {}", attribute_names(attrs)),
            };
            return Err(format!(
                "pattern '{}' gives {} (sk_eq and sk) but {target} {has}; give equalities on the first ones in order (sk_eq) and at most one condition (sk) on the next",
                self.name,
                plural(sort, "sort condition"),
            ));
        }
        Ok(())
    }
}

impl AccessPattern {
    /// The pattern with `params` filled in; a parameter missing or unknown is refused by name.
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
            name: self.name.clone(),
            table: self.table.clone(),
            index: self.index.clone(),
            pk: self.pk.iter().map(|t| fill(t, params)).collect(),
            sort_prefix: self.sk_eq.iter().map(|t| fill(t, params)).collect(),
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

#[cfg(test)]
#[path = "pattern_bind_tests.rs"]
mod tests;
