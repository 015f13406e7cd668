//! `diagnose --sample-keys`: where Contributor Insights names no hot key, a keys-only Scan of
//! each table or GSI that throttles on one ranks its stored partition keys and names the
//! largest ([`SampledKey`]). It spends read capacity, so it runs only when asked, and all the
//! samples together stay within `--max-rcu` (split evenly between the targets).

use crate::aws::{Backend, DoneOutcome, Operation, ReadSpec};
use crate::model::diagnose::SampledKey;
use crate::model::distribution::KeyDistribution;
use crate::model::item_size::item_size;
use crate::model::metrics::Target;
use crate::model::sanitize::sanitize;
use crate::model::schema::TableInfo;

use super::drain::{drain, Next};
use super::hotkeys::key_text;

/// The samples' read budget when `--max-rcu` is not given: enough for thousands of keys of a
/// keys-only projection, little beside a throttling table's traffic.
pub const DEFAULT_SAMPLE_RCU: f64 = 25.0;
/// Segments spread the sample over the key space (one segment reads its part in key-hash
/// order, a few collections at a time).
const SAMPLE_SEGMENTS: u32 = 4;
/// Distinct keys counted exactly before the count turns approximate.
const MAX_EXACT_KEYS: usize = 100_000;

/// The largest stored key of each of `targets`, and a note for each sample that failed.
pub async fn sample<B: Backend>(
    engine: &B,
    info: &TableInfo,
    targets: &[Target],
    max_rcu: f64,
    rcu_per_second: Option<f64>,
) -> (Vec<SampledKey>, Vec<String>) {
    let share = max_rcu / targets.len().max(1) as f64;
    let (mut found, mut notes) = (Vec::new(), Vec::new());
    for target in targets {
        let index = match target {
            Target::Table => None,
            Target::Index(name) => Some(name.as_str()),
        };
        let Some(keys) = info.keys_for(index) else {
            continue;
        };
        let partition_key = keys.partition_key.name.clone();
        let mut spec = ReadSpec::new(Operation::Scan, &info.name);
        spec.index = index.map(str::to_string);
        spec.projection = Some("#k".into());
        spec.names = vec![("#k".into(), partition_key.clone())];
        spec.segments = SAMPLE_SEGMENTS;
        spec.max_rcu = Some(share);
        spec.rcu_per_second = rcu_per_second;
        let mut distribution = KeyDistribution::bounded(MAX_EXACT_KEYS);
        let drained = drain(engine, spec, |page| {
            for item in &page.items {
                distribution.add(&key_text(item, &partition_key), item_size(item));
            }
            Next::Continue
        })
        .await;
        if let Some(failure) = drained.failure {
            notes.push(format!(
                "note: the key sample of the {} failed: {}",
                sanitize(&target.wording()),
                crate::cli::CliError::from(failure.error).message
            ));
            continue;
        }
        if let Some(top) = distribution.top(1).into_iter().next() {
            found.push(SampledKey {
                target: target.clone(),
                key: top.key,
                items: top.items,
                sampled: distribution.total_items(),
                rcu: drained.stats.consumed_capacity.total,
                partial: drained.outcome == Some(DoneOutcome::BudgetReached),
            });
        }
    }
    (found, notes)
}
