//! `tail TABLE`: the table's changes from its DynamoDB stream, one JSON object per line (or an
//! aligned table), as they happen or from a point in the last 24 hours. It sends nothing but
//! DescribeTable, DescribeStream, GetShardIterator and GetRecords.

use std::io::{self, Write};
use std::sync::Arc;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use serde::Serialize;
use tokio::sync::mpsc;
use tokio::time::Instant;

use super::args::GlobalArgs;
pub use super::tail_args::{ChangeOutput, TailArgs};
use super::CliError;
use crate::aws::stream::describe::{stream_table, StreamTable};
use crate::aws::stream::{
    start_stream, SdkStreamSource, StreamCounters, StreamEvent, StreamOutcome, StreamSpec,
    StreamStart, StreamStats, RECORDS_PER_CALL, RETENTION,
};
use crate::aws::Connection;
use crate::model::formats::json::JsonSpelling;
use crate::model::input::duration::{format_duration, parse_duration, parse_duration_at_most};
use crate::model::stream::attribution::WriteTargets;
use crate::model::stream::change_json::write_change;
use crate::model::stream::Change;
use crate::model::text::sanitize::sanitize;
use crate::model::text::wording::{noun, were};

/// GetRecords pages the engine may have queued ahead of stdout.
const CHANNEL_BATCHES: usize = 4;

/// The `--stats` line.
#[derive(Debug, Serialize)]
struct TailStats {
    /// Changes written to stdout.
    changes: u64,
    #[serde(flatten)]
    stream: StreamStats,
    elapsed_ms: u64,
}

/// Milliseconds since the Unix epoch, from the wall clock.
pub(super) fn now_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64)
}

/// The flags, checked before anything is sent.
struct Plan {
    start: StreamStart,
    until: Option<Duration>,
    count: Option<u64>,
    page_size: i32,
}

fn plan(args: &TailArgs, now_ms: i64) -> Result<Plan, CliError> {
    let bad = |e: crate::model::input::duration::DurationError| CliError::bad_input(e.to_string());
    let start = match (&args.since, args.trim_horizon) {
        (Some(text), _) => {
            let since = parse_duration_at_most(
                "--since",
                text,
                RETENTION,
                "a stream keeps 24 hours; use --trim-horizon for all of it",
            )
            .map_err(bad)?;
            StreamStart::Since {
                cutoff_ms: now_ms - since.as_millis() as i64,
            }
        }
        (None, true) => StreamStart::TrimHorizon,
        (None, false) => StreamStart::Latest,
    };
    let until = args
        .until
        .as_deref()
        .map(|t| parse_duration("--until", t))
        .transpose()
        .map_err(bad)?;
    if args.count == Some(0) {
        return Err(CliError::bad_input(
            "--count '0' stops before the first change; give 1 or more",
        ));
    }
    let page_size = match args.page_size {
        None => RECORDS_PER_CALL,
        Some(n) if (1..=RECORDS_PER_CALL).contains(&n) => n,
        Some(n) => {
            return Err(CliError::bad_input(format!(
                "--page-size '{n}' is out of range; GetRecords takes 1 to {RECORDS_PER_CALL}"
            )))
        }
    };
    Ok(Plan {
        start,
        until,
        count: args.count,
        page_size,
    })
}

/// Starts reading the stream of `target` from `start`; returns the handle and its events.
pub(super) fn start(
    conn: &Connection,
    target: &StreamTable,
    start: StreamStart,
    started_at_ms: i64,
    page_size: i32,
) -> (
    crate::aws::stream::StreamHandle,
    mpsc::Receiver<StreamEvent>,
) {
    let counters = Arc::new(StreamCounters::default());
    let source = Arc::new(SdkStreamSource::new(
        conn.streams.clone(),
        conn.endpoint.clone(),
        target.view_type,
        counters.clone(),
    ));
    let mut spec = StreamSpec::new(target.stream_arn.clone(), start, started_at_ms);
    spec.view_type = target.view_type;
    spec.records_per_call = page_size;
    let (tx, rx) = mpsc::channel(CHANNEL_BATCHES);
    (start_stream(source, spec, counters, tx), rx)
}

/// Why the loop stopped writing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Stop {
    Count,
    Until,
    Interrupted,
    StdoutClosed,
}

pub async fn run(global: &GlobalArgs, args: TailArgs) -> Result<(), CliError> {
    let started_ms = now_ms();
    let plan = plan(&args, started_ms)?;
    let conn = super::connect(global).await?;
    let target = stream_table(&conn, super::read_cmd::required_table(&args.table)?).await?;
    let targets = WriteTargets::from_table(&target.info);
    let key_names = target.info.keys.names();
    if let Some(note) = target.view_type.and_then(|v| v.blind_spot()) {
        say!("note: {note}");
    }
    let spelling = match args.output {
        ChangeOutput::DdbJsonl => JsonSpelling::Dynamo,
        _ => JsonSpelling::Plain,
    };

    let started = Instant::now();
    let (handle, mut rx) = start(&conn, &target, plan.start, started_ms, plan.page_size);
    let deadline = plan.until.map(|d| started + d);
    let ctrl_c = tokio::signal::ctrl_c();
    tokio::pin!(ctrl_c);
    let mut stdout = io::stdout().lock();
    let mut written = 0u64;
    let mut stop: Option<Stop> = None;
    let mut failure: Option<CliError> = None;
    let mut text = String::new();
    if args.output == ChangeOutput::Table {
        text.push_str(&super::tail_table::header(&key_names));
    }
    loop {
        let event = tokio::select! {
            event = rx.recv() => event,
            _ = &mut ctrl_c, if stop.is_none() => {
                stop = Some(Stop::Interrupted);
                handle.cancel();
                continue;
            }
            _ = tokio::time::sleep_until(deadline.unwrap_or(started)), if deadline.is_some() && stop.is_none() => {
                stop = Some(Stop::Until);
                handle.cancel();
                continue;
            }
        };
        match event {
            Some(StreamEvent::Done {
                outcome: StreamOutcome::StreamDisabled,
            }) => {
                say!("tail: the stream was disabled, and every shard has been read to its end");
                break;
            }
            None | Some(StreamEvent::Done { .. }) => break,
            Some(StreamEvent::Failed { error }) => {
                failure = Some(CliError::from(error));
                break;
            }
            Some(StreamEvent::Ready { shards }) => say!(
                "tail: reading {shards} {} of the stream of '{}' ({}) from {}",
                noun(shards as u64, "shard"),
                sanitize(&target.info.name),
                target.view_type.map_or("unknown view type", |v| v.as_str()),
                plan.start.describe()
            ),
            Some(StreamEvent::Changes { changes, .. }) if stop.is_none() => {
                for change in &changes {
                    if !follows(&targets, change, args.follow_key.as_deref()) {
                        continue;
                    }
                    match args.output {
                        ChangeOutput::Table => {
                            super::tail_table::row(&mut text, change, &key_names)
                        }
                        _ => {
                            write_change(&mut text, change, spelling);
                            text.push('\n');
                        }
                    }
                    written += 1;
                    if plan.count.is_some_and(|n| written >= n) {
                        stop = Some(Stop::Count);
                        handle.cancel();
                        break;
                    }
                }
                // Streamed: each page reaches a pipe as soon as it arrives.
                match stdout
                    .write_all(text.as_bytes())
                    .and_then(|()| stdout.flush())
                {
                    Ok(()) => {}
                    Err(e) if e.kind() == io::ErrorKind::BrokenPipe => {
                        stop = Some(Stop::StdoutClosed);
                        handle.cancel();
                    }
                    Err(e) => {
                        failure = Some(CliError::service(format!("cannot write output: {e}")));
                        handle.cancel();
                    }
                }
                text.clear();
            }
            Some(_) => {}
        }
    }
    if !text.is_empty() {
        let _ = stdout
            .write_all(text.as_bytes())
            .and_then(|()| stdout.flush());
    }
    let counters = handle.counters().clone();
    handle.join().await;
    let stats_line = args.stats.then(|| {
        serde_json::to_string(&TailStats {
            changes: written,
            stream: counters.snapshot(),
            elapsed_ms: started.elapsed().as_millis() as u64,
        })
        .unwrap_or_default()
    });
    // "1 change was" / "3 changes were", said the same way on every way out.
    let changes = were(written, "change");
    let outcome = match (failure, stop) {
        (Some(mut e), _) => {
            e.message = format!("{} ({written} {changes} written before it)", e.message);
            Err(e)
        }
        (None, Some(Stop::Interrupted)) => Err(CliError::new(
            130,
            format!("tail interrupted; {written} {changes} written"),
        )),
        (None, Some(Stop::Until)) => {
            say!(
                "tail: stopped after --until {}; {written} {changes} written",
                format_duration(plan.until.unwrap_or_default())
            );
            Ok(())
        }
        (None, _) => Ok(()),
    };
    super::finish_with_stats(outcome, stats_line)
}

/// Whether `change` is to the followed partition key (every change without `--follow-key`).
fn follows(targets: &WriteTargets, change: &Change, key: Option<&str>) -> bool {
    key.is_none_or(|key| targets.table_key(change).as_deref() == Some(key))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(line: &[&str]) -> TailArgs {
        use clap::Parser;
        #[derive(Parser)]
        struct T {
            #[command(flatten)]
            tail: TailArgs,
        }
        let mut all = vec!["tail"];
        all.extend_from_slice(line);
        T::try_parse_from(all).unwrap().tail
    }

    #[test]
    fn start_points_and_stops_from_the_flags() {
        let now = 10_000_000_000;
        assert_eq!(
            plan(&args(&["tbl"]), now).unwrap().start,
            StreamStart::Latest
        );
        assert_eq!(
            plan(&args(&["tbl", "--trim-horizon"]), now).unwrap().start,
            StreamStart::TrimHorizon
        );
        assert_eq!(
            plan(&args(&["tbl", "--since", "10m"]), now).unwrap().start,
            StreamStart::Since {
                cutoff_ms: now - 600_000
            }
        );
        let p = plan(&args(&["tbl", "--until", "1m30s"]), now).unwrap();
        assert_eq!(p.until, Some(Duration::from_secs(90)));
    }

    #[test]
    fn bad_flags_are_one_line_naming_the_value() {
        let now = 10_000_000_000;
        let cases = [
            (
                vec!["tbl", "--since", "25h"],
                "--since '25h' is longer than 24h",
            ),
            (
                vec!["tbl", "--since", "10"],
                "--since '10' is not a duration",
            ),
            (
                vec!["tbl", "--until", "0s"],
                "--until '0s' must be longer than zero",
            ),
            (vec!["tbl", "--count", "0"], "--count '0'"),
            (
                vec!["tbl", "--page-size", "1001"],
                "--page-size '1001' is out of range",
            ),
        ];
        for (line, want) in cases {
            let e = plan(&args(&line), now).err().expect("refused");
            assert_eq!(e.code, 2);
            assert!(e.message.starts_with(want), "{}", e.message);
            assert!(!e.message.contains('\n'));
        }
    }
}
