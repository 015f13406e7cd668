//! The read a named access pattern with its parameters stands for: one Query, or one read
//! with a segment per write shard (one cancel, one resume point per shard, one capacity
//! guard). The explorer's palette and `patterns check` send the same requests. On a
//! multi-attribute GSI the Query gives every partition attribute and the pattern's sort prefix,
//! the shape `KeyCondition::new` holds.

use super::{Operation, ReadSpec};
use crate::design::access_pattern::BoundPattern;
use crate::design::schema::TableInfo;
use crate::engine::read_cause::ReadCause;
use crate::formats::json::parse_plain_values;
use crate::query::key_condition::KeyCondition;

/// The read of `bound` on the table `info` describes, checked by the builder's rules; the
/// message names what is wrong.
pub fn pattern_read(bound: &BoundPattern, info: &TableInfo) -> Result<ReadSpec, String> {
    let keys = info.keys_for(bound.index.as_deref()).ok_or_else(|| {
        format!(
            "index '{}' not found on table '{}'",
            bound.index.clone().unwrap_or_default(),
            info.name
        )
    })?;
    let target = match &bound.index {
        Some(index) => format!("index '{index}'"),
        None => format!("table '{}'", info.name),
    };
    bound.check_keys(keys, &target)?;
    let filter_values = match &bound.values {
        Some(values) => parse_plain_values(values).map_err(|e| e.to_string())?,
        None => Vec::new(),
    };
    let mut specs = Vec::new();
    for pks in bound.partitions() {
        let condition =
            KeyCondition::build_parts(keys, &pks, &bound.sort_prefix, bound.sort.clone())
                .map_err(|e| e.to_string())?;
        let parts = condition.to_expression();
        let mut spec = ReadSpec::new(Operation::Query, info.name.clone(), ReadCause::Pattern);
        spec.index = bound.index.clone();
        spec.key_condition = Some(parts.key_condition);
        spec.names = parts.names;
        spec.values = parts.values;
        spec.descending = bound.descending;
        spec.limit = bound.limit;
        if bound.filter.is_some() || bound.values.is_some() {
            spec.filter = bound.filter.clone();
            spec.names.extend(bound.names.clone());
            spec.values.extend(filter_values.clone());
        }
        spec.projection = bound.projection.clone();
        specs.push(spec);
    }
    let mut specs = specs.into_iter();
    let mut spec = specs.next().expect("at least one partition key");
    let rest: Vec<ReadSpec> = specs.collect();
    if !rest.is_empty() {
        // Each shard reads to its end (or the limit); the caller merges in sort-key order.
        spec.shards = std::iter::once(spec.values.clone())
            .chain(rest.into_iter().map(|s| s.values))
            .collect();
        spec.limit_per_segment = true;
    }
    Ok(spec)
}
