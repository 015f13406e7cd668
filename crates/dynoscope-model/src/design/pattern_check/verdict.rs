//! A pattern's findings in the primer's words, the worst first: that one is its verdict.

use serde::Serialize;

use super::measure::Measured;
use super::plan::{PatternPlan, ProjectionFit, ReadShape};
use super::risk::{LowCardinality, PARTITION_RCU, PARTITION_WCU};
use crate::query::partiql::Advice;
use crate::text::sanitize::sanitize;
use crate::text::wording::{percent, thousands};
use crate::traffic::capacity::format_units;

/// A filter returning less than this share of what it read does the heavy lifting: the read
/// costs what it reads, not what it returns.
pub const FILTER_HEAVY_SHARE: f64 = 0.2;

/// Worst first: the order verdicts are chosen in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum FindingKind {
    /// DynamoDB refused the pattern's request (a filter on a key attribute…): it cannot run.
    Refused,
    NeedsGsi,
    Scan,
    LowCardinality,
    FilterHeavy,
    FetchBack,
    AllProjectionBigGsi,
    Served,
    /// ALL on a GSI that is not big: worth knowing, not a failure (after the verdict).
    WiderProjection,
}

impl FindingKind {
    pub fn fails(self) -> bool {
        !matches!(self, FindingKind::Served | FindingKind::WiderProjection)
    }

    pub fn as_str(self) -> &'static str {
        match self {
            FindingKind::Refused => "refused",
            FindingKind::NeedsGsi => "needs a GSI",
            FindingKind::Scan => "scan",
            FindingKind::LowCardinality => "low-cardinality GSI key",
            FindingKind::FilterHeavy => "filter doing heavy lifting",
            FindingKind::FetchBack => "fetch back to the table",
            FindingKind::AllProjectionBigGsi => "ALL projection on a big GSI",
            FindingKind::WiderProjection => "projection wider than needed",
            FindingKind::Served => "served",
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Finding {
    pub kind: FindingKind,
    /// One line, sanitised: what is wrong and what to do.
    pub text: String,
}

pub(super) fn finding(kind: FindingKind, text: String) -> Finding {
    Finding {
        kind,
        text: sanitize(&text).into_owned(),
    }
}

/// What `judge` weighs.
pub struct Evidence<'a> {
    pub plan: &'a PatternPlan,
    pub measured: Option<&'a Measured>,
    pub risk: Option<&'a LowCardinality>,
    /// For a pattern on a missing index: PartiQL's advice on the SELECT it stands for.
    pub advice: Option<&'a Advice>,
}

/// Every finding, the verdict first (never empty).
pub fn judge(e: &Evidence) -> Vec<Finding> {
    let mut out = Vec::new();
    match &e.plan.shape {
        ReadShape::Scan { missing_index } => out.push(match e.advice {
            Some(Advice::Create(new)) => finding(
                FindingKind::NeedsGsi,
                format!(
                    "needs a GSI: the table has no index '{missing_index}', so no index serves it and only a Scan can; add one (it backfills automatically): {}",
                    new.command
                ),
            ),
            Some(Advice::Serving(serving)) => finding(
                FindingKind::NeedsGsi,
                format!(
                    "needs a GSI: the table has no index '{missing_index}'; its index {} serves it ({}): point the pattern at {}",
                    serving.index, serving.because, serving.index
                ),
            ),
            _ => finding(
                FindingKind::Scan,
                format!(
                    "Scan: the table has no index '{missing_index}' and the pattern does not name its keys (index_pk), so it reads the whole table and filters after"
                ),
            ),
        }),
        shape => out.push(finding(
            FindingKind::Served,
            match shape {
                ReadShape::GetItem => "served by one GetItem".to_string(),
                ReadShape::ShardedQueries { shards, .. } => {
                    format!("served by {shards} Queries, one per write shard")
                }
                _ => "served by one Query".to_string(),
            },
        )),
    }
    if let Some(risk) = e.risk {
        out.push(finding(
            FindingKind::LowCardinality,
            low_cardinality_text(risk),
        ));
    }
    if let Some(share) = e
        .measured
        .and_then(|m| m.filter_efficiency)
        .filter(|s| *s < FILTER_HEAVY_SHARE)
    {
        let m = e.measured.expect("checked");
        out.push(finding(
            FindingKind::FilterHeavy,
            format!(
                "FilterExpression doing heavy lifting: {} returned ({} of {} items read); the filter runs after the read, so it costs what it reads — put what it tests in the key",
                percent(share),
                thousands(m.items_returned),
                thousands(m.items_read)
            ),
        ));
    }
    let projection = e.plan.projection.as_deref().unwrap_or_default();
    match &e.plan.fit {
        Some(ProjectionFit::NeedsFetch { missing }) => {
            let per_call = e
                .measured
                .map(|m| {
                    format!(
                        ", {} GetItem a call",
                        format_units(m.items_returned as f64 / m.calls.len().max(1) as f64)
                    )
                })
                .unwrap_or_default();
            out.push(finding(
                FindingKind::FetchBack,
                format!(
                    "{projection} index lacks {}: each item it returns is fetched back from the table{per_call}; project them (INCLUDE) or read the table",
                    missing.join(", ")
                ),
            ))
        }
        Some(ProjectionFit::Wider { would_do, big: true }) => out.push(finding(
            FindingKind::AllProjectionBigGsi,
            format!("ALL projection on a big GSI: every write copies the whole item; {would_do} would do"),
        )),
        Some(ProjectionFit::Wider { would_do, big: false }) => out.push(finding(
            FindingKind::WiderProjection,
            format!("ALL projection where {would_do} would do"),
        )),
        _ => {}
    }
    out.sort_by_key(|f| f.kind);
    out
}

/// The primer's hot GSI in numbers: how few values the key takes in the sample, the hottest
/// one's share, the per-partition ceiling it runs into, and the shards that would spread it.
/// On a multi-attribute key it also names the attribute whose few values the others do not
/// spread (the first, a status enum, in the primer's pattern 4), and the shard is one more
/// partition attribute rather than a suffix in a value.
fn low_cardinality_text(risk: &LowCardinality) -> String {
    let head = format!(
        "low-cardinality GSI key: {} takes {} values in {} sampled items from {} of {} scan segments, and '{}' holds {}",
        risk.attribute,
        risk.values,
        risk.sampled_items,
        risk.segments_hit,
        risk.segments,
        risk.hottest,
        percent(risk.hottest_share),
    );
    let value = match risk.parts.is_empty() {
        true => "one value",
        false => "one tuple of values",
    };
    let ceiling = format!(
        "{value} is one partition, capped near {} WCU / {} RCU a second, so writes to the index cap near {} WCU a second",
        thousands(PARTITION_WCU),
        thousands(PARTITION_RCU),
        thousands(risk.index_wcu_ceiling),
    );
    let shards = risk.suggested_shards;
    let [first, others @ ..] = risk.parts.as_slice() else {
        return format!(
            "{head}; {ceiling}; shard it: {shards} suffixes ('{}#0' … '{}#{}')",
            risk.hottest,
            risk.hottest,
            shards - 1
        );
    };
    let others = others
        .iter()
        .map(|p| format!("{} ({} values)", p.attribute, p.values))
        .collect::<Vec<_>>()
        .join(" and ");
    format!(
        "{head}; {} takes {} values and {others} {} not spread them, so the whole key takes few values, like a status enum: a classic hot GSI; {ceiling}; shard it: a partition attribute of {shards} shard values (0 … {}) beside {} spreads '{}' over {shards} partitions",
        first.attribute,
        first.values,
        if risk.parts.len() > 2 { "do" } else { "does" },
        shards - 1,
        risk.attribute,
        risk.hottest,
    )
}
