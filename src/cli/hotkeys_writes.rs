//! `hotkeys TABLE --writes --for 60s`: rank partition keys by the writes the table's stream
//! shows while it is followed, instead of by the items a Scan finds. The report has the shape
//! of the scan-based one (`items` are changes, `bytes` their stream record sizes) plus
//! `events` and `wcu` per key. With `--index` a GSI's partition keys are ranked: each change
//! counts against the GSI keys its images carry. Reads only the stream.

use std::fmt::Write as _;
use std::io::{self, Write};
use std::time::Duration;

use serde::Serialize;
use tokio::time::Instant;

use super::args::{GlobalArgs, HotkeysArgs, HotkeysOutput};
use super::tail::{now_ms, start};
use super::text_table::{write_table, Align};
use super::CliError;
use crate::aws::stream::describe::stream_table;
use crate::aws::stream::{StreamEvent, StreamStart, RECORDS_PER_CALL, RETENTION};
use crate::model::design::schema::IndexKind;
use crate::model::input::duration::{format_duration, parse_duration_at_most};
use crate::model::stream::attribution::WriteTargets;
use crate::model::stream::tally::{WriteKeyEntry, WriteTally};
use crate::model::stream::warnings::{Subject, WriteWarning};
use crate::model::text::sanitize::{sanitize, truncate_display};
use crate::model::text::wording::{noun, percent};
use crate::model::traffic::distribution::ShardFamily;

/// How long `--writes` counts without `--for`.
const DEFAULT_FOR: Duration = Duration::from_secs(60);
const MAX_KEY_WIDTH: usize = 48;

#[derive(Debug, Serialize)]
struct Report<'a> {
    table: &'a str,
    index: Option<&'a str>,
    /// Where the counts come from: the table's stream, followed for `seconds`.
    source: &'static str,
    seconds: f64,
    distinct_keys: usize,
    /// Changes counted (a MODIFY moving a GSI key counts against both keys).
    total_items: u64,
    total_bytes: u64,
    total_events: u64,
    total_wcu: u64,
    top_one_percent_share: f64,
    top: Vec<WriteKeyEntry>,
    top_by_wcu: Vec<WriteKeyEntry>,
    shard_families: Vec<ShardFamily>,
    warnings: Vec<WriteWarning>,
}

fn check(args: &HotkeysArgs) -> Result<Duration, CliError> {
    if !args.writes {
        return Err(CliError::bad_input(format!(
            "--for '{}' only applies to --writes (count the stream's writes for that long); add --writes, or drop --for to rank keys by a Scan",
            args.for_duration.as_deref().unwrap_or_default()
        )));
    }
    let scan_only = [
        ("--segments", args.segments != 1),
        ("--max-rcu", args.max_rcu.is_some()),
        ("--rcu-per-second", args.rcu_per_second.is_some()),
    ];
    if let Some((flag, _)) = scan_only.iter().find(|(_, set)| *set) {
        return Err(CliError::bad_input(format!(
            "{flag} applies to the Scan, and --writes reads the table's stream instead; drop {flag} or --writes"
        )));
    }
    if args.top == 0 {
        return Err(CliError::bad_input(
            "--top '0' lists no keys; give 1 or more",
        ));
    }
    match &args.for_duration {
        None => Ok(DEFAULT_FOR),
        Some(text) => parse_duration_at_most("--for", text, RETENTION, "count for at most 24h")
            .map_err(|e| CliError::bad_input(e.to_string())),
    }
}

pub async fn run(global: &GlobalArgs, args: HotkeysArgs) -> Result<(), CliError> {
    let duration = check(&args)?;
    let conn = super::connect(global).await?;
    let target = stream_table(&conn, super::read_cmd::required_table(&args.table)?).await?;
    let targets = WriteTargets::from_table(&target.info);
    // Which partition key is ranked: the table's, or one GSI's.
    let gsi = match args.index.as_deref() {
        None => None,
        Some(name) => Some(match targets.gsis.iter().position(|g| g.index == name) {
            Some(i) => i,
            None => {
                let lsi = target
                    .info
                    .index(name)
                    .is_some_and(|i| i.kind == IndexKind::Lsi);
                let gsis: Vec<&str> = targets.gsis.iter().map(|g| g.index.as_str()).collect();
                return Err(CliError::bad_input(if lsi {
                    format!("index '{name}' is an LSI: it shares the table's partition key, so its writes land on the table's partitions; drop --index to rank them")
                } else if gsis.is_empty() {
                    format!(
                        "index '{name}' not found on table '{}'; it has no GSIs",
                        target.info.name
                    )
                } else {
                    format!(
                        "index '{name}' not found on table '{}'; its GSIs are: {}",
                        target.info.name,
                        gsis.join(", ")
                    )
                }));
            }
        }),
    };
    let partition_key = match gsi {
        Some(i) => targets.gsis[i].partition_key.clone(),
        None => targets.partition_key.clone(),
    };

    let index = args.index.as_deref();
    let announce = |shards: usize| {
        say!(
            "hotkeys: counting writes to '{}'{} for {} from its stream ({shards} {})",
            sanitize(&target.info.name),
            index
                .map(|i| format!(" by GSI '{}'", sanitize(i)))
                .unwrap_or_default(),
            format_duration(duration),
            noun(shards as u64, "shard")
        );
    };
    let tally = match count_writes(&conn, &target, &targets, &[gsi], duration, announce).await? {
        Counted::Whole(mut tallies) => tallies.remove(0),
        Counted::Interrupted(tallies) => {
            let tally = &tallies[0];
            return Err(CliError::new(
                130,
                format!(
                    "hotkeys --writes interrupted after {} {}; no report",
                    tally.total_events(),
                    noun(tally.total_events(), "change")
                ),
            ));
        }
    };
    let seconds = duration.as_secs_f64();
    let subject = Subject {
        table: &target.info.name,
        index: gsi.map(|i| targets.gsis[i].index.as_str()),
        partition_key: &partition_key,
    };
    let distribution = tally.distribution();
    let report = Report {
        table: &target.info.name,
        index: args.index.as_deref(),
        source: "stream",
        seconds,
        distinct_keys: distribution.distinct_keys(),
        total_items: distribution.total_items(),
        total_bytes: distribution.total_bytes(),
        total_events: tally.total_events(),
        total_wcu: tally.total_wcu(),
        top_one_percent_share: distribution.top_one_percent_share(),
        top: tally.top_by_events(args.top),
        top_by_wcu: tally.top_by_wcu(args.top),
        shard_families: tally.shard_families(),
        warnings: tally.warnings(subject, duration.as_secs().max(1)),
    };
    let text = match args.output {
        HotkeysOutput::Json => {
            let mut s = serde_json::to_string_pretty(&report).unwrap_or_default();
            s.push('\n');
            s
        }
        HotkeysOutput::Table => render_table(&report, &partition_key),
    };
    let mut out = io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Err(e) if e.kind() != io::ErrorKind::BrokenPipe => {
            Err(CliError::service(format!("cannot write output: {e}")))
        }
        _ => Ok(()),
    }
}

/// How a count of the stream's writes ended: a tally per partition key counted.
pub(super) enum Counted {
    /// It counted for the whole duration.
    Whole(Vec<WriteTally>),
    /// Ctrl-C: what was counted until then.
    Interrupted(Vec<WriteTally>),
}

/// Follows `target`'s stream from now for `duration` (counted from when its shards are
/// open, which `announce` is told with their number) and tallies the writes by each of
/// `keyed`: the table's partition key (`None`) or GSI `i`'s (each change counts against the
/// GSI keys its images carry). Reads only the stream.
pub(super) async fn count_writes(
    conn: &crate::aws::Connection,
    target: &crate::aws::stream::describe::StreamTable,
    targets: &WriteTargets,
    keyed: &[Option<usize>],
    duration: Duration,
    announce: impl Fn(usize),
) -> Result<Counted, CliError> {
    let started_ms = now_ms();
    let started = Instant::now();
    let (handle, mut rx) = start(
        conn,
        target,
        StreamStart::Latest,
        started_ms,
        RECORDS_PER_CALL,
    );
    let mut deadline = started + duration;
    let ends_after = test_window_ends_after();
    let mut counted: usize = 0;
    let ctrl_c = tokio::signal::ctrl_c();
    tokio::pin!(ctrl_c);
    let mut tallies: Vec<WriteTally> = keyed.iter().map(|_| WriteTally::new()).collect();
    let (mut interrupted, mut stopping, mut failure) = (false, false, None);
    loop {
        let event = tokio::select! {
            event = rx.recv() => event,
            _ = &mut ctrl_c, if !interrupted => {
                interrupted = true;
                handle.cancel();
                continue;
            }
            _ = tokio::time::sleep_until(deadline), if !stopping => {
                stopping = true;
                handle.cancel();
                continue;
            }
        };
        match event {
            None | Some(StreamEvent::Done { .. }) => break,
            Some(StreamEvent::Failed { error }) => {
                failure = Some(CliError::from(error));
                break;
            }
            Some(StreamEvent::Ready { shards }) => {
                // Counting starts now: the time to open the shards is not counted.
                deadline = Instant::now() + duration;
                announce(shards);
            }
            Some(StreamEvent::Changes { changes, .. }) if !stopping && !interrupted => {
                let at = now_ms().max(0) as u64;
                for change in &changes {
                    let units = change.write_units().units;
                    for (tally, gsi) in tallies.iter_mut().zip(keyed) {
                        match gsi {
                            None => {
                                if let Some(key) = targets.table_key(change) {
                                    tally.add(&key, change.size_bytes, units, at);
                                }
                            }
                            Some(wanted) => targets.for_each_gsi_key(change, |i, key| {
                                if i == *wanted {
                                    tally.add(&key, change.size_bytes, units, at);
                                }
                            }),
                        }
                    }
                }
                counted += changes.len();
                if let Some((wanted, grace)) = ends_after {
                    if counted >= wanted {
                        deadline = deadline.min(Instant::now() + grace);
                    }
                }
            }
            Some(_) => {}
        }
    }
    handle.join().await;
    if let Some(e) = failure {
        return Err(e);
    }
    Ok(if interrupted {
        Counted::Interrupted(tallies)
    } else {
        Counted::Whole(tallies)
    })
}

/// Debug builds only: `DYNOSCOPE_TEST_WINDOW_ENDS_AFTER=N` ends the window one second after
/// the N-th change is counted, when that comes before the duration. The tests know how many
/// changes they write: they give the window a duration far longer than any load can stretch
/// the writes to, and end it on the event they wait for instead of on the clock; the second
/// after it still counts any change beyond N, so a duplicate fails the exact counts. The
/// report still says the duration asked for. Release builds never read it.
fn test_window_ends_after() -> Option<(usize, Duration)> {
    if !cfg!(debug_assertions) {
        return None;
    }
    let wanted = std::env::var("DYNOSCOPE_TEST_WINDOW_ENDS_AFTER").ok()?;
    Some((wanted.parse().ok()?, Duration::from_secs(1)))
}

fn render_table(report: &Report, partition_key: &str) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "writes to table '{}'{}, partition key {}, over {:.0} s: {} {}, {} WCU, {} distinct {}",
        sanitize(report.table),
        report
            .index
            .map(|i| format!(" by GSI '{}'", sanitize(i)))
            .unwrap_or_default(),
        sanitize(partition_key),
        report.seconds,
        report.total_events,
        noun(report.total_events, "change"),
        report.total_wcu,
        report.distinct_keys,
        noun(report.distinct_keys as u64, "key"),
    );
    for (title, entries) in [("by changes", &report.top), ("by WCU", &report.top_by_wcu)] {
        let _ = writeln!(out, "\ntop keys {title}:");
        let rows: Vec<Vec<String>> = entries
            .iter()
            .enumerate()
            .map(|(i, e)| {
                vec![
                    (i + 1).to_string(),
                    truncate_display(&sanitize(&e.key), MAX_KEY_WIDTH).into_owned(),
                    e.events.to_string(),
                    percent(e.share),
                    e.wcu.to_string(),
                    percent(e.wcu_share),
                ]
            })
            .collect();
        write_table(
            &mut out,
            &[
                ("RANK", Align::Right),
                ("KEY", Align::Left),
                ("CHANGES", Align::Right),
                ("SHARE", Align::Right),
                ("WCU", Align::Right),
                ("WCU SHARE", Align::Right),
            ],
            &rows,
        );
    }
    out.push('\n');
    if report.shard_families.is_empty() {
        out.push_str("shard families: none\n");
    } else {
        out.push_str("shard families:\n");
        for f in &report.shard_families {
            let _ = writeln!(
                out,
                "  {} {} {} ({}-{}): {} {}, busiest shard {} (skew {:.2})",
                truncate_display(&sanitize(&f.prefix), MAX_KEY_WIDTH),
                f.shards,
                noun(f.shards as u64, "shard"),
                f.lowest_suffix,
                f.highest_suffix,
                f.items,
                noun(f.items, "change"),
                f.max_items,
                f.skew
            );
        }
    }
    super::text_table::write_warnings(&mut out, report.warnings.iter().map(|w| w.message.as_str()));
    out
}
