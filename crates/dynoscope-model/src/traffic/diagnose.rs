//! The verdicts of `diagnose`: the primer's troubleshooting sentences, each decided by plain
//! rules over the evidence (CloudWatch's series, Contributor Insights' top keys, the table's
//! description) and stated with the numbers behind it.

use serde::Serialize;

use crate::text::wording::percent;
use crate::traffic::insights::TargetInsights;
use crate::traffic::metrics::report::{MetricsReport, Series, TargetReport, ThrottleEvents};
use crate::traffic::metrics::Target;

/// Consumed below this share of provisioned while throttled: capacity to spare — a hot key.
pub const SPARE_SHARE: f64 = 0.5;
/// A GSI with ALL projection at least this share of the table's size doubles the storage and
/// the write cost for little.
pub const ALL_PROJECTION_SHARE: f64 = 0.8;
/// Scan returning more than this share of the items read by Query and Scan is where the cost is.
pub const SCAN_SHARE: f64 = 0.5;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum VerdictKind {
    HotPartition,
    HotGsi,
    UnderProvisioned,
    Limit,
    ScanHeavy,
    BigAllProjection,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Verdict {
    pub kind: VerdictKind,
    pub target: Target,
    /// The sentence, with its numbers.
    pub says: String,
    /// Throttle events in the window's last periods.
    pub throttling_now: bool,
}

/// What the description says of an index (its projection, its size against the table's).
#[derive(Debug, Clone, PartialEq)]
pub struct IndexFacts {
    pub name: String,
    pub projection_all: bool,
    pub size_bytes: Option<i64>,
}

impl IndexFacts {
    /// The facts of every GSI of `info`.
    pub fn of_gsis(info: &crate::design::schema::TableInfo) -> Vec<IndexFacts> {
        info.indexes
            .iter()
            .filter(|i| i.kind == crate::design::schema::IndexKind::Gsi)
            .map(|i| IndexFacts {
                name: i.name.clone(),
                projection_all: i.projection.projection_type == "ALL",
                size_bytes: i.size_bytes,
            })
            .collect()
    }
}

pub struct Evidence<'a> {
    pub table_size_bytes: i64,
    pub indexes: &'a [IndexFacts],
    pub metrics: Option<&'a MetricsReport>,
    pub insights: &'a [TargetInsights],
    /// The largest stored keys of throttled targets, from `diagnose --sample-keys`.
    pub sampled: &'a [SampledKey],
}

/// A partition key dynoscope's own sample names where Contributor Insights names none: the
/// largest of a table's or GSI's stored keys (a key holding most of the items is the
/// low-cardinality key the primer warns about), or the key written most while the stream was
/// followed (the key a write storm lands on).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SampledKey {
    pub target: Target,
    pub key: String,
    /// Items (or changes) under `key` in the sample, and the sample's items (or changes).
    pub items: u64,
    pub sampled: u64,
    #[serde(flatten)]
    pub source: SampleSource,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "from", rename_all = "snake_case")]
pub enum SampleSource {
    /// A keys-only Scan: the read units it spent, and whether it stopped at its budget
    /// (covering part of the table or index).
    Stored { rcu: f64, partial: bool },
    /// The table's stream, followed for `seconds`.
    Writes { seconds: f64 },
}

impl SampledKey {
    fn words(&self) -> String {
        let share = percent(self.items as f64 / self.sampled.max(1) as f64);
        match self.source {
            SampleSource::Stored { rcu, partial } => format!(
                "the largest stored key is '{}' ({share} of the {} items of a keys-only sample{}, {rcu:.1} RCU) — the likely hot key",
                self.key,
                self.sampled,
                if partial { " that stopped at its budget" } else { " of every item" },
            ),
            SampleSource::Writes { seconds } => format!(
                "the key written most is '{}' ({share} of the {} changes the stream showed in {seconds:.0} s) — the key the writes land on",
                self.key, self.sampled,
            ),
        }
    }
}

/// Targets whose verdict says a hot key but names none: what `--sample-keys` samples.
pub fn keys_wanted(verdicts: &[Verdict], insights: &[TargetInsights]) -> Vec<Target> {
    let mut wanted: Vec<Target> = verdicts
        .iter()
        .filter(|v| matches!(v.kind, VerdictKind::HotPartition | VerdictKind::HotGsi))
        .filter(|v| {
            !insights
                .iter()
                .any(|i| i.target == v.target && i.hot_key().is_some())
        })
        .map(|v| v.target.clone())
        .collect();
    wanted.dedup();
    wanted
}

/// One side of a target's capacity: its name, throttle events, consumed and provisioned.
type Side<'a> = (
    &'static str,
    &'a ThrottleEvents,
    &'a Series,
    Option<&'a Series>,
);

fn side_of(t: &TargetReport) -> Option<Side<'_>> {
    let read = (
        "read",
        &t.read_throttles,
        &t.consumed_read,
        t.provisioned_read.as_ref(),
    );
    let write = (
        "write",
        &t.write_throttles,
        &t.consumed_write,
        t.provisioned_write.as_ref(),
    );
    // The side that throttled most speaks.
    [read, write]
        .into_iter()
        .filter(|s| s.1.any())
        .max_by(|a, b| (a.1.all.max(a.1.key_range)).total_cmp(&b.1.all.max(b.1.key_range)))
}

fn hot_key_words(e: &Evidence, target: &Target) -> String {
    // Both samples, when both were taken, stored first.
    let said: Vec<String> = e
        .sampled
        .iter()
        .filter(|s| &s.target == target)
        .map(SampledKey::words)
        .collect();
    let sampled = (!said.is_empty()).then(|| said.join("; "));
    match e.insights.iter().find(|i| &i.target == target) {
        Some(i) => match i.hot_key() {
            Some((c, kind)) => format!(
                "the hot key is '{}' ({} of the {}, Contributor Insights)",
                c.keys.join(" / "),
                percent(c.share),
                kind.wording()
            ),
            None if i.enabled() => match sampled {
                Some(s) => format!("Contributor Insights names no key yet; {s}"),
                None => "Contributor Insights names no key yet".into(),
            },
            None => match sampled {
                Some(s) => format!("Contributor Insights is off; {s}"),
                None => format!(
                    "Contributor Insights is off: {} names the key, or 'dynoscope hotkeys' ranks the stored keys ('dynoscope diagnose --sample-keys' names the largest from a guarded sample, --sample-writes 30s the one written most)",
                    i.enable_with.as_deref().unwrap_or("update-contributor-insights")
                ),
            },
        },
        None => match sampled {
            Some(s) => s,
            None => "run 'dynoscope hotkeys' to rank the stored keys, or 'dynoscope insights' for Contributor Insights".into(),
        },
    }
}

fn throttle_verdict(t: &TargetReport, table_throttled: bool, e: &Evidence) -> Option<Verdict> {
    let (side, events, consumed, provisioned) = side_of(t)?;
    let unit = if side == "read" { "RCU" } else { "WCU" };
    let what = t.target.wording();
    let count = events
        .all
        .max(events.key_range + events.provisioned + events.account_limit + events.max_on_demand);
    let reason = events.top_reason();
    let capacity = match provisioned {
        Some(p) => format!(
            "consumed peaked at {:.1} {unit}/s of {:.1} provisioned ({})",
            consumed.peak,
            p.peak,
            percent(if p.peak > 0.0 {
                consumed.peak / p.peak
            } else {
                0.0
            })
        ),
        None => {
            let max = if side == "read" {
                t.max_on_demand_read
            } else {
                t.max_on_demand_write
            };
            match max {
                Some(max) => format!(
                    "consumed peaked at {:.1} {unit}/s (on-demand, {} of its maximum {max:.0}/s)",
                    consumed.peak,
                    percent(consumed.peak / max)
                ),
                None => format!(
                    "consumed peaked at {:.1} {unit}/s (on-demand)",
                    consumed.peak
                ),
            }
        }
    };
    let now = events.recent > 0.0;
    let gsi = matches!(t.target, Target::Index(_)) && !table_throttled;
    let (kind, says) = match reason {
        Some((r @ ("AccountLimit" | "MaxOnDemand"), n)) => (
            VerdictKind::Limit,
            format!(
                "{what}: {n} {side} throttle events hit the {} — the limit, not a key; raise it (Service Quotas, or the table's MaxOnDemandThroughput); {capacity}",
                if r == "AccountLimit" { "account's per-table quota" } else { "table's maximum on-demand throughput" }
            ),
        ),
        _ => {
            let spare = provisioned.is_some_and(|p| consumed.peak < SPARE_SHARE * p.peak);
            let key_range = matches!(reason, Some(("KeyRange", _)));
            if spare || key_range {
                let why = if key_range {
                    format!("{} of them KeyRange (a hot key)", events.key_range)
                } else {
                    "with capacity to spare".to_string()
                };
                let key = hot_key_words(e, &t.target);
                if gsi {
                    (
                        VerdictKind::HotGsi,
                        format!(
                            "{what} throttles but the base table does not — GSIs have separate capacity, a low-cardinality GSI key is a classic hot GSI: shard it; {count} {side} throttle events, {why}; {capacity}; {key}; a throttled GSI holds back the table's writes too (each write waits for its indexes)"
                        ),
                    )
                } else {
                    (
                        VerdictKind::HotPartition,
                        format!(
                            "{what}: throttling with capacity to spare — hot partition: shard the key or raise its cardinality; {count} {side} throttle events, {why}; {capacity}; {key}"
                        ),
                    )
                }
            } else {
                (
                    VerdictKind::UnderProvisioned,
                    format!(
                        "{what}: {count} {side} throttle events at its provisioned capacity — under-provisioned: raise it or use on-demand; {capacity}{}",
                        if gsi { "; a throttled GSI holds back the table's writes too" } else { "" }
                    ),
                )
            }
        }
    };
    Some(Verdict {
        kind,
        target: t.target.clone(),
        says,
        throttling_now: now,
    })
}

/// Every verdict the evidence supports, the throttling ones first.
pub fn diagnose(e: &Evidence) -> Vec<Verdict> {
    let mut verdicts = Vec::new();
    if let Some(m) = e.metrics {
        let table_throttled = m
            .target(&Target::Table)
            .is_some_and(TargetReport::throttled);
        for t in &m.targets {
            verdicts.extend(throttle_verdict(t, table_throttled, e));
        }
        let returned = |op: &str| {
            m.operations
                .get(op)
                .and_then(|o| o.returned_items)
                .unwrap_or(0.0)
        };
        let (scan, query) = (returned("Scan"), returned("Query"));
        if scan > 0.0 && scan / (scan + query) > SCAN_SHARE {
            verdicts.push(Verdict {
                kind: VerdictKind::ScanHeavy,
                target: Target::Table,
                says: format!(
                    "Scan returned {} of the {} items Query and Scan returned — costs higher than expected are a Scan somewhere: find it in the request log or serve it with a GSI",
                    percent(scan / (scan + query)),
                    scan + query
                ),
                throttling_now: false,
            });
        }
    }
    for i in e.indexes {
        let Some(size) = i.size_bytes else { continue };
        if i.projection_all
            && e.table_size_bytes > 0
            && size as f64 >= ALL_PROJECTION_SHARE * e.table_size_bytes as f64
        {
            verdicts.push(Verdict {
                kind: VerdictKind::BigAllProjection,
                target: Target::Index(i.name.clone()),
                says: format!(
                    "index {}: ALL projection, {} of the table's size ({size} of {} bytes) — every write is paid twice; project KEYS_ONLY or INCLUDE what its queries need",
                    i.name,
                    percent(size as f64 / e.table_size_bytes as f64),
                    e.table_size_bytes
                ),
                throttling_now: false,
            });
        }
    }
    verdicts
}

#[cfg(test)]
#[path = "diagnose_tests.rs"]
mod tests;
