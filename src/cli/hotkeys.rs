//! `hotkeys`: scan a table or index (in parallel segments) and report how its items spread over
//! partition-key values: the hottest keys, the key histogram, write-shard families and the
//! warnings of [`crate::model::traffic::distribution`].

use crate::aws::ReadCause;
use crate::ui::format::bytes;
use std::fmt::Write as _;
use std::io::{self, Write};

use serde::Serialize;

use super::args::{HotkeysArgs, HotkeysOutput};
use super::drain::{drain, Next};
use super::read_spec::{check_guard_flags, index_keys};
use super::text_table::{write_table, write_warnings, Align};
use super::CliError;
use crate::aws::read::MAX_SEGMENTS;
use crate::aws::{Backend, Delivery, DoneOutcome, Operation, ReadSpec};
use crate::model::design::schema::{IndexKind, TableInfo};
use crate::model::formats::json::to_safe_json;
use crate::model::item::item_size::item_size;
use crate::model::item::value::Item;
use crate::model::text::sanitize::{sanitize, truncate_display};
use crate::model::text::wording::{noun, percent, thousands};
pub(super) use crate::model::traffic::distribution::partition_text;
use crate::model::traffic::distribution::{
    Approximation, KeyDistribution, KeyEntry, ShardFamily, Source, Warning, WarningContext,
};

/// Widest key column in `table` output; longer keys are truncated with `…`.
const MAX_KEY_WIDTH: usize = 48;
/// Width of the longest histogram bar.
const BAR_WIDTH: usize = 40;

/// The `json` output: one object.
#[derive(Debug, Serialize)]
struct Report<'a> {
    table: &'a str,
    index: Option<&'a str>,
    distinct_keys: usize,
    total_items: u64,
    total_bytes: u64,
    top_one_percent_share: f64,
    top: Vec<KeyEntry>,
    shard_families: Vec<ShardFamily>,
    warnings: Vec<Warning>,
    /// Present when more distinct keys were seen than `--max-exact-keys`.
    #[serde(skip_serializing_if = "Option::is_none")]
    approximation: Option<Approximation>,
}

pub async fn run<B: Backend>(
    engine: &B,
    args: HotkeysArgs,
    check: impl FnOnce(Option<DoneOutcome>) -> Result<(), CliError>,
) -> Result<(), CliError> {
    if !(1..=MAX_SEGMENTS).contains(&args.segments) {
        return Err(CliError::bad_input(format!(
            "--segments '{}' is out of range; use 1 to {MAX_SEGMENTS}",
            args.segments
        )));
    }
    if args.top == 0 {
        return Err(CliError::bad_input(
            "--top '0' lists no keys; give 1 or more",
        ));
    }
    check_guard_flags(args.max_rcu, args.rcu_per_second)?;
    let info = engine
        .describe_table(args.table.as_deref().unwrap_or_default())
        .await?;
    let keys = index_keys(&info, args.index.as_deref())?;
    // A multi-attribute partition key is counted by all its attributes' values together; its
    // name in the report is the attributes joined by ` + `.
    let partition: Vec<String> = keys.partition().iter().map(|k| k.name.clone()).collect();
    let partition_key = partition.join(" + ");
    let mut spec = ReadSpec::new(Operation::Scan, &info.name, ReadCause::Hotkeys);
    spec.index = args.index.clone();
    spec.segments = args.segments;
    spec.budget.max_rcu = args.max_rcu;
    spec.budget.rcu_per_second = args.rcu_per_second;
    // An export reads each line's key and size without building the item; DynamoDB sends items.
    // (By one attribute only: a multi-attribute key's export lines are built into items.)
    if let [one] = partition.as_slice() {
        spec.delivery = Delivery::SizedKeys(one.clone());
    }

    // An export with a damaged file is still reported; its shortfall is the error after it.
    let (distribution, stats_line, shortfall) = count(
        engine,
        spec,
        &partition,
        args.stats,
        KeyDistribution::bounded(args.max_exact_keys),
        check,
    )
    .await?;

    if let Some(line) = unmatched_key(&distribution, &partition) {
        super::say::say(&line);
    }
    let source = match args.index.as_deref().and_then(|name| info.index(name)) {
        Some(index) => Source::Index {
            name: &index.name,
            kind: index.kind,
        },
        None => Source::Table,
    };
    let context = WarningContext {
        table: &info.name,
        source,
        partition_key: &partition_key,
        table_has_lsi: info.indexes.iter().any(|i| i.kind == IndexKind::Lsi),
    };
    let report = Report {
        table: &info.name,
        index: args.index.as_deref(),
        distinct_keys: distribution.distinct_keys(),
        total_items: distribution.total_items(),
        total_bytes: distribution.total_bytes(),
        top_one_percent_share: distribution.top_one_percent_share(),
        top: distribution.top(args.top),
        shard_families: distribution.shard_families(),
        warnings: distribution.warnings(&context),
        approximation: distribution.approximation(),
    };
    let text = match args.output {
        HotkeysOutput::Json => {
            let mut s = to_safe_json(&report, true);
            s.push('\n');
            s
        }
        HotkeysOutput::Table => render_table(&report, &distribution, &info, &context),
    };
    let written = {
        let mut out = io::stdout().lock();
        out.write_all(text.as_bytes()).and_then(|()| out.flush())
    };
    match written {
        Ok(()) => {}
        // `| head`: the reader has what it wanted.
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => {}
        Err(e) => {
            return Err(CliError {
                trailer: stats_line,
                ..CliError::service(format!("cannot write output: {e}"))
            })
        }
    }
    if let Some(e) = shortfall {
        return Err(CliError {
            trailer: stats_line,
            ..e
        });
    }
    if let Some(line) = stats_line {
        super::say::say(&line);
    }
    Ok(())
}

/// The warning when the key schema matches no item counted (an export's items under a schema
/// from DescribeTable of another table, or a wrong `--key`): the report would rank one
/// `(no PK)` key holding every item, which reads as a hot key, not as a wrong schema.
fn unmatched_key(distribution: &KeyDistribution, partition: &[String]) -> Option<String> {
    let total = distribution.total_items();
    let top = distribution.top(1).into_iter().next()?;
    let missing = partition_text(&Item::default(), partition).into_owned();
    let partition_key = partition.join("' + '");
    (total > 0 && top.items == total && top.key == missing).then(|| {
        format!(
            "warning: none of the {} {} read has the partition key attribute '{partition_key}': the key schema does not match them, so the report ranks nothing; give their key attributes with --key PK[,SK] (or --index PK[,SK])",
            thousands(total),
            noun(total, "item")
        )
    })
}

/// Scans to the end, counting every item. Returns the `--stats` line when asked for; on
/// failure it rides on the error so it stays the last line of stderr.
async fn count<B: Backend>(
    engine: &B,
    spec: ReadSpec,
    partition: &[String],
    want_stats: bool,
    mut distribution: KeyDistribution,
    check: impl FnOnce(Option<DoneOutcome>) -> Result<(), CliError>,
) -> Result<(KeyDistribution, Option<String>, Option<CliError>), CliError> {
    let budget = spec.budget.max_rcu.unwrap_or_default();
    let drained = drain(engine, spec, |page| {
        for item in &page.items {
            distribution.add(&partition_text(item, partition), item_size(item));
        }
        if let Some(sized) = &page.sized_keys {
            distribution.add_sized(sized);
        }
        Next::Continue
    })
    .await;
    let stats = drained.stats;
    if let Some(note) = stats.throttle_note().filter(|_| drained.failure.is_none()) {
        super::say::say(&note);
    }
    let failure = drained.failure.map(|failure| {
        let mut e = CliError::from(failure.error);
        e.message = format!(
            "{} (segment {}, {} {}; {} {} in {} {} were counted before the failure; no report){}",
            e.message,
            failure.segment,
            failure.attempts.attempts,
            noun(failure.attempts.attempts as u64, "attempt"),
            distribution.total_items(),
            noun(distribution.total_items(), "item"),
            stats.pages,
            noun(stats.pages as u64, "page"),
            stats.throttle_clause()
        );
        e
    });
    let stats_line = want_stats.then(|| to_safe_json(&stats, false));
    let error = match failure {
        Some(f) => f,
        None if drained.interrupted => CliError::new(
            130,
            format!(
                "Scan interrupted after {} {} in {} {}; no report",
                distribution.total_items(),
                noun(distribution.total_items(), "item"),
                stats.pages,
                noun(stats.pages as u64, "page")
            ),
        ),
        None => {
            if drained.outcome == Some(DoneOutcome::BudgetReached) {
                say!(
                    "note: {}; the report covers the {} {} read so far",
                    crate::model::traffic::capacity::budget_stop(
                        budget,
                        stats.consumed_capacity.total
                    ),
                    distribution.total_items(),
                    noun(distribution.total_items(), "item")
                );
            }
            return Ok((distribution, stats_line, check(drained.outcome).err()));
        }
    };
    Err(CliError {
        trailer: stats_line,
        ..error
    })
}

/// Key text for a terminal: escapes shown visibly, long keys truncated.
fn shown(key: &str) -> String {
    truncate_display(&sanitize(key), MAX_KEY_WIDTH).into_owned()
}

fn render_table(
    report: &Report,
    distribution: &KeyDistribution,
    info: &TableInfo,
    context: &WarningContext,
) -> String {
    let mut out = String::new();
    let what = match context.source {
        Source::Table => format!("table '{}'", sanitize(&info.name)),
        Source::Index { name, kind } => format!(
            "{} '{}' of table '{}'",
            match kind {
                IndexKind::Gsi => "GSI",
                IndexKind::Lsi => "LSI",
            },
            sanitize(name),
            sanitize(&info.name)
        ),
    };
    let _ = writeln!(
        out,
        "{what}, partition key {}: {} {}, {} distinct {}, {}; the top 1% of keys hold {} of the items",
        sanitize(context.partition_key),
        report.total_items,
        noun(report.total_items, "item"),
        report.distinct_keys,
        noun(report.distinct_keys as u64, "key"),
        bytes(report.total_bytes),
        percent(report.top_one_percent_share),
    );
    if let Some(a) = &report.approximation {
        let _ = writeln!(
            out,
            "approximate: more than {} distinct keys; each key's items over-count by at most {}, distinct keys within {}",
            a.max_keys,
            a.max_items_error,
            percent(a.distinct_keys_relative_error)
        );
    }

    out.push('\n');
    let rows: Vec<Vec<String>> = report
        .top
        .iter()
        .enumerate()
        .map(|(i, e)| {
            vec![
                (i + 1).to_string(),
                shown(&e.key),
                e.items.to_string(),
                percent(e.share),
                bytes(e.bytes),
            ]
        })
        .collect();
    write_table(
        &mut out,
        &[
            ("RANK", Align::Right),
            ("KEY", Align::Left),
            ("ITEMS", Align::Right),
            ("SHARE", Align::Right),
            ("BYTES", Align::Right),
        ],
        &rows,
    );

    out.push('\n');
    let histogram = distribution.histogram();
    let most = histogram.iter().map(|b| b.keys).max().unwrap_or(0).max(1);
    let rows: Vec<Vec<String>> = histogram
        .iter()
        .map(|b| {
            let bar = (b.keys as usize * BAR_WIDTH).div_ceil(most as usize);
            vec![
                b.label.to_string(),
                b.keys.to_string(),
                b.items.to_string(),
                "#".repeat(bar),
            ]
        })
        .collect();
    write_table(
        &mut out,
        &[
            ("ITEMS PER KEY", Align::Left),
            ("KEYS", Align::Right),
            ("ITEMS", Align::Right),
            ("", Align::Left),
        ],
        &rows,
    );

    out.push('\n');
    if report.shard_families.is_empty() {
        out.push_str("shard families: none\n");
    } else {
        let rows: Vec<Vec<String>> = report
            .shard_families
            .iter()
            .map(|f| {
                vec![
                    shown(&f.prefix),
                    format!("{} ({}-{})", f.shards, f.lowest_suffix, f.highest_suffix),
                    f.items.to_string(),
                    f.min_items.to_string(),
                    f.max_items.to_string(),
                    format!("{:.1}", f.mean_items),
                    format!("{:.2}", f.skew),
                ]
            })
            .collect();
        write_table(
            &mut out,
            &[
                ("SHARD FAMILY", Align::Left),
                ("SHARDS", Align::Right),
                ("ITEMS", Align::Right),
                ("MIN", Align::Right),
                ("MAX", Align::Right),
                ("MEAN", Align::Right),
                ("SKEW", Align::Right),
            ],
            &rows,
        );
    }

    write_warnings(&mut out, report.warnings.iter().map(|w| w.message.as_str()));
    out
}

#[cfg(test)]
#[path = "hotkeys_tests.rs"]
mod tests;
