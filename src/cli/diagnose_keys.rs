//! `diagnose --sample-keys` and `--sample-writes`: where Contributor Insights names no hot
//! key, a keys-only Scan of each table or GSI that throttles on one ranks its stored partition
//! keys and names the largest, and following the table's stream names the key written most
//! ([`SampledKey`]). The Scan spends read capacity, so it runs only when asked, and all the
//! samples together stay within `--max-rcu` (split evenly between the targets); the stream
//! costs no read capacity but takes the time asked for.

use crate::aws::ReadCause;
use crate::aws::{Backend, DoneOutcome, Operation, ReadSpec};
use crate::model::design::schema::{KeySchema, TableInfo};
use crate::model::item::item_size::item_size;
use crate::model::text::sanitize::sanitize;
use crate::model::traffic::diagnose::{SampleSource, SampledKey};
use crate::model::traffic::distribution::KeyDistribution;
use crate::model::traffic::metrics::Target;

use std::time::Duration;

use super::drain::{drain, Next};
use super::hotkeys::partition_text;
use super::hotkeys_writes::{count_writes, Counted};
use super::say::say;
use super::CliError;
use crate::aws::stream::describe::stream_table;
use crate::aws::Connection;
use crate::model::input::duration::format_duration;
use crate::model::stream::attribution::WriteTargets;
use crate::model::text::wording::noun;

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
        let (mut spec, partition) = sample_spec(&info.name, index, keys);
        spec.budget.max_rcu = Some(share);
        spec.budget.rcu_per_second = rcu_per_second;
        let mut distribution = KeyDistribution::bounded(MAX_EXACT_KEYS);
        let drained = drain(engine, spec, |page| {
            for item in &page.items {
                distribution.add(&partition_text(item, &partition), item_size(item));
            }
            Next::Continue
        })
        .await;
        if let Some(failure) = drained.failure {
            notes.push(format!(
                "note: the key sample of the {} failed: {}",
                sanitize(&target.wording()),
                CliError::from(failure.error).message
            ));
            continue;
        }
        if let Some(top) = distribution.top(1).into_iter().next() {
            found.push(SampledKey {
                target: target.clone(),
                key: top.key,
                items: top.items,
                sampled: distribution.total_items(),
                source: SampleSource::Stored {
                    rcu: drained.stats.consumed_capacity.total,
                    partial: drained.outcome == Some(DoneOutcome::BudgetReached),
                },
            });
        }
    }
    (found, notes)
}

/// The keys-only Scan of a sample of `index` (`None`: the table) keyed by `keys`, and the
/// partition attributes its keys are counted by: every one of a multi-attribute key's, in
/// key-schema order, so a partition is the whole tuple (`WINTER2024 · EU-WEST`), not its
/// first attribute's value.
fn sample_spec(table: &str, index: Option<&str>, keys: &KeySchema) -> (ReadSpec, Vec<String>) {
    let partition: Vec<String> = keys.partition().iter().map(|k| k.name.clone()).collect();
    let mut spec = ReadSpec::new(Operation::Scan, table, ReadCause::SampleFlag);
    spec.index = index.map(str::to_string);
    let placeholders: Vec<String> = (0..partition.len()).map(|i| format!("#k{i}")).collect();
    spec.projection = Some(placeholders.join(", "));
    spec.names = placeholders.into_iter().zip(partition.clone()).collect();
    spec.segments = SAMPLE_SEGMENTS;
    (spec, partition)
}

/// The key written most to each of `targets` while `table`'s stream is followed once for
/// `duration`: reads only the stream, no read capacity. A table without a stream, or a stream
/// that fails, is a note.
pub async fn sample_writes(
    conn: &Connection,
    table: &str,
    targets: &[Target],
    duration: Duration,
) -> (Vec<SampledKey>, Vec<String>) {
    let stream = match stream_table(conn, table).await {
        Ok(stream) => stream,
        Err(e) => {
            let why = CliError::from(e).message;
            return (Vec::new(), vec![format!("note: --sample-writes: {why}")]);
        }
    };
    let writes = WriteTargets::from_table(&stream.info);
    // The partition key each target is written under: the table's, or its GSI's.
    let keyed: Vec<(Target, Option<usize>)> = targets
        .iter()
        .filter_map(|t| match t {
            Target::Table => Some((t.clone(), None)),
            Target::Index(name) => writes
                .gsis
                .iter()
                .position(|g| &g.index == name)
                .map(|i| (t.clone(), Some(i))),
        })
        .collect();
    let gsis: Vec<Option<usize>> = keyed.iter().map(|(_, g)| *g).collect();
    let announce = |shards: usize| {
        say(&format!(
            "diagnose: following '{}'s stream for {} to name the key written most ({shards} {})",
            sanitize(table),
            format_duration(duration),
            noun(shards as u64, "shard")
        ));
    };
    let tallies = match count_writes(conn, &stream, &writes, &gsis, duration, announce).await {
        Ok(Counted::Whole(tallies) | Counted::Interrupted(tallies)) => tallies,
        Err(e) => {
            return (
                Vec::new(),
                vec![format!("note: --sample-writes: {}", e.message)],
            )
        }
    };
    let found = keyed
        .into_iter()
        .zip(tallies)
        .filter_map(|((target, _), tally)| {
            let top = tally.top_by_events(1).into_iter().next()?;
            Some(SampledKey {
                target,
                key: top.key,
                items: top.events,
                sampled: tally.total_events(),
                source: SampleSource::Writes {
                    seconds: duration.as_secs_f64(),
                },
            })
        })
        .collect();
    (found, Vec::new())
}

#[cfg(test)]
#[path = "diagnose_keys_tests.rs"]
mod tests;
