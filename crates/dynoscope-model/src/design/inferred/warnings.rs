//! The warnings of a design document, each from a rule the project already applies elsewhere
//! and each naming the items it rests on: type conflicts within a kind, low-cardinality or hot
//! partition keys on the table and each index (the `hotkeys` rules of
//! [`KeyDistribution::warnings`], applied to the sample), an ALL projection on a big GSI (the
//! pattern check's [`BIG_GSI_BYTES`] by DescribeTable's size), items near the 400 KB item limit
//! (`hotkeys`' [`LARGE_ITEM_BYTES`]), and synthetic keys a multi-attribute key could replace
//! ([`synthetic_key_warnings`], `describe --sample`'s detector).

use serde::Serialize;

use super::{holds, IndexSample, InferredKind};
use crate::design::pattern_check::plan::BIG_GSI_BYTES;
use crate::design::schema::{IndexKind, KeySchema, TableInfo};
use crate::design::synthetic_keys::synthetic_keys;
use crate::item::item_size::{item_size, MAX_ITEM_BYTES};
use crate::item::value::Item;
use crate::text::sanitize::sanitize;
use crate::text::wording::bytes;
use crate::traffic::distribution::{
    partition_text, KeyDistribution, Rule, Source, WarningContext, LARGE_ITEM_BYTES,
};

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct DesignWarning {
    /// `type-conflict`, `low-cardinality`, `hot-shard`, `all-projection`, `item-size`,
    /// `synthetic-key`.
    pub rule: String,
    /// The items the finding rests on (sampled, or DynamoDB's count for a size rule).
    pub items: u64,
    /// One line, names sanitised; each writer escapes it for where it goes.
    pub message: String,
}

impl DesignWarning {
    fn new(rule: &str, items: u64, message: String) -> Self {
        DesignWarning {
            rule: rule.to_owned(),
            items,
            message,
        }
    }
}

/// Every warning the samples support, in the order above.
pub(super) fn design_warnings(
    info: &TableInfo,
    items: &[Item],
    index_samples: &[IndexSample],
    kinds: &[InferredKind],
) -> Vec<DesignWarning> {
    let mut out = type_conflicts(kinds);
    out.extend(key_distribution(info, None, &info.keys, items));
    for index in &info.indexes {
        let held: Vec<Item>;
        let items = match index_samples.iter().find(|s| s.index == index.name) {
            Some(own) => &own.items[..],
            None => {
                held = items
                    .iter()
                    .filter(|i| holds(&index.keys, i))
                    .cloned()
                    .collect();
                &held[..]
            }
        };
        out.extend(key_distribution(
            info,
            Some((&index.name, index.kind)),
            &index.keys,
            items,
        ));
    }
    out.extend(all_projections(info));
    out.extend(large_items(kinds));
    out.extend(synthetic_key_warnings(info, items));
    out
}

/// Synthetic keys (`TOURNAMENT#{id}#REGION#{region}`) a multi-attribute key could replace,
/// from [`synthetic_keys`] (the advice `describe --sample` and the index chooser give). Only
/// the GSIs' shapes a key can replace: a shape with a part no attribute carries is no design
/// warning, and the table's own key cannot be a multi-attribute key (that advice, "a GSI keyed
/// so", stays `describe`'s).
fn synthetic_key_warnings(info: &TableInfo, items: &[Item]) -> Vec<DesignWarning> {
    synthetic_keys(info, items)
        .into_iter()
        .filter(|advice| advice.key.is_some() && advice.index.is_some())
        .map(|advice| {
            DesignWarning::new(
                "synthetic-key",
                advice.items as u64,
                sanitize(&advice.message()).into_owned(),
            )
        })
        .collect()
}

fn type_conflicts(kinds: &[InferredKind]) -> Vec<DesignWarning> {
    let mut out = Vec::new();
    for kind in kinds {
        for a in kind.attributes.iter().filter(|a| a.has_conflict()) {
            let types: Vec<String> = a.types.iter().map(|(t, n)| format!("{t} in {n}")).collect();
            out.push(DesignWarning::new(
                "type-conflict",
                a.present as u64,
                format!(
                    "{} {}: types differ ({})",
                    sanitize(&kind.name),
                    sanitize(&a.name),
                    types.join(", ")
                ),
            ));
        }
    }
    out
}

/// The `hotkeys` rules on the sample's partition keys of one target.
fn key_distribution(
    info: &TableInfo,
    index: Option<(&str, IndexKind)>,
    keys: &KeySchema,
    items: &[Item],
) -> Vec<DesignWarning> {
    let names: Vec<String> = keys.partition().iter().map(|k| k.name.clone()).collect();
    let mut distribution = KeyDistribution::new();
    for item in items {
        distribution.add(&partition_text(item, &names), item_size(item));
    }
    let partition_key = names.join(" + ");
    let context = WarningContext {
        table: &info.name,
        source: match index {
            None => Source::Table,
            Some((name, kind)) => Source::Index { name, kind },
        },
        partition_key: &partition_key,
        table_has_lsi: info.indexes.iter().any(|i| i.kind == IndexKind::Lsi),
    };
    distribution
        .warnings(&context)
        .into_iter()
        .filter(|w| matches!(w.rule, Rule::LowCardinality | Rule::HotShard))
        .map(|w| {
            DesignWarning::new(
                w.rule.as_str(),
                items.len() as u64,
                format!("in the sample, {}", w.message),
            )
        })
        .collect()
}

fn all_projections(info: &TableInfo) -> Vec<DesignWarning> {
    info.indexes
        .iter()
        .filter(|i| i.kind == IndexKind::Gsi && i.projection.projection_type == "ALL")
        .filter_map(|i| {
            let size = i.size_bytes.filter(|b| *b >= BIG_GSI_BYTES)?;
            Some(DesignWarning::new(
                "all-projection",
                i.item_count.unwrap_or(0).max(0) as u64,
                format!(
                    "index {} projects ALL and holds {} (DescribeTable; {} or more is big): every write copies the whole item into it; project the attributes its reads need (INCLUDE or KEYS_ONLY)",
                    sanitize(&i.name),
                    bytes(size as u64),
                    bytes(BIG_GSI_BYTES as u64)
                ),
            ))
        })
        .collect()
}

fn large_items(kinds: &[InferredKind]) -> Vec<DesignWarning> {
    kinds
        .iter()
        .filter(|k| k.largest_bytes >= LARGE_ITEM_BYTES)
        .map(|k| {
            DesignWarning::new(
                "item-size",
                k.items as u64,
                format!(
                    "{}: {} of {} sampled items are {} or more, the largest {}, of DynamoDB's {} item limit: an update that grows one fails, and each read of one costs 38+ RCU",
                    sanitize(&k.name),
                    k.large_items,
                    k.items,
                    bytes(LARGE_ITEM_BYTES as u64),
                    bytes(k.largest_bytes as u64),
                    bytes(MAX_ITEM_BYTES as u64)
                ),
            )
        })
        .collect()
}

#[cfg(test)]
#[path = "warnings_tests.rs"]
mod tests;
