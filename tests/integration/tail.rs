//! `tail`, `hotkeys --writes` and `seed --churn` against DynamoDB Local's streams: a known mix
//! of puts, updates and deletes (a hot key, a hot GSI key, updates spread over many keys) is
//! written while the binary follows the stream, and must come out exactly, per item in order.

use crate::common;
use crate::common::fault_proxy;
use crate::common::stream_writes;

use std::collections::BTreeSet;
use std::time::Duration;

use aws_sdk_dynamodb::types::StreamViewType;
use common::*;
use stream_writes::*;

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap()
}

const READY: &str = "tail: reading 1 shard";
const STARTUP: Duration = Duration::from_secs(60);
const FINISH: Duration = Duration::from_secs(120);
/// A ten-minute write window's end, with a minute to report.
const WINDOW_BACKSTOP: Duration = Duration::from_secs(11 * 60);

/// A fresh streamed table, and the expected changes of `n` writes of the mix.
fn table_with_mix(
    rt: &tokio::runtime::Runtime,
    prefix: &str,
    n: u64,
) -> (String, Vec<Op>, Expected) {
    let client = rt.block_on(client());
    let table = table_name(prefix);
    rt.block_on(create_table(
        &client,
        &table,
        Some(StreamViewType::NewAndOldImages),
    ));
    let mut model = Model::default();
    let ops = mix(&model, 0, n);
    let mut expected = Expected::default();
    for op in &ops {
        model.apply(op, &mut expected);
    }
    (table, ops, expected)
}

#[test]
fn tail_delivers_every_change_in_order_live_and_the_same_from_trim_horizon() {
    let rt = runtime();
    let client = rt.block_on(client());
    let (table, ops, expected) = table_with_mix(&rt, "tail", 200);
    let n = expected.changes.len().to_string();
    let mut tail = Running::spawn(
        &local().endpoint,
        &["tail", &table, "--count", &n, "--stats"],
    );
    tail.wait_for(READY, STARTUP);
    rt.block_on(write(&client, &table, &ops));
    let (status, live_text, err) = tail.finish(FINISH);
    assert!(status.success(), "tail failed: {err}");
    let live = lines(&live_text);
    let seen_live: Vec<Seen> = live.iter().map(seen).collect();
    assert_eq!(seen_live.len(), expected.changes.len());
    assert_eq!(per_item(&seen_live), expected.per_item(), "per-item order");
    let sequence: BTreeSet<&str> = live
        .iter()
        .map(|l| l["sequence_number"].as_str().unwrap())
        .collect();
    assert_eq!(sequence.len(), live.len(), "a change was delivered twice");
    let stats: serde_json::Value =
        serde_json::from_str(err.lines().last().unwrap()).expect("--stats is the last line");
    assert_eq!(stats["changes"], expected.changes.len());
    for line in &live {
        assert_eq!(line["wcu"], 1, "small items cost one unit: {line}");
        assert_eq!(line["wcu_estimated"], false);
        assert_eq!(line["view_type"], "NEW_AND_OLD_IMAGES");
        assert!(line["time"].as_str().unwrap().ends_with('Z'));
        assert_eq!(line["ttl_delete"], false);
        match line["event"].as_str().unwrap() {
            "INSERT" => assert!(line.get("old_image").is_none() && line["new_image"].is_object()),
            "MODIFY" => assert!(line["old_image"].is_object() && line["new_image"].is_object()),
            _ => assert!(line["old_image"].is_object() && line.get("new_image").is_none()),
        }
    }

    // After the fact: the same changes, byte for byte, from TRIM_HORIZON and from --since.
    let from_start = ok(run(&["tail", &table, "--trim-horizon", "--count", &n]));
    assert_eq!(from_start, live_text);
    let since = ok(run(&["tail", &table, "--since", "10m", "--count", &n]));
    assert_eq!(since, live_text);

    // One collection followed.
    let hot = expected.by_pk[HOT_KEY].to_string();
    let followed = ok(run(&[
        "tail",
        &table,
        "--trim-horizon",
        "--follow-key",
        HOT_KEY,
        "--count",
        &hot,
    ]));
    let want: String = live_text
        .lines()
        .filter(|l| l.contains(&format!(r#""keys":{{"PK":"{HOT_KEY}""#)))
        .map(|l| format!("{l}\n"))
        .collect();
    assert_eq!(followed, want);

    // DynamoDB JSON and the table for people carry the same changes.
    let ddb = lines(&ok(run(&[
        "tail",
        &table,
        "--trim-horizon",
        "--count",
        &n,
        "--output",
        "ddb-jsonl",
    ])));
    assert_eq!(ddb.len(), live.len());
    assert_eq!(ddb[0]["keys"]["PK"]["S"], live[0]["keys"]["PK"]);
    let text = ok(run(&[
        "tail",
        &table,
        "--trim-horizon",
        "--count",
        &n,
        "--output",
        "table",
    ]));
    assert_eq!(text.lines().count(), live.len() + 2, "{text}");
    assert!(text.lines().next().unwrap().starts_with("TIME"), "{text}");
}

#[test]
fn hotkeys_writes_puts_the_hot_key_first_with_its_exact_count_for_the_table_and_the_gsi() {
    let rt = runtime();
    let client = rt.block_on(client());
    let (table, before, _) = table_with_mix(&rt, "hotwrites", 100);
    let mut model = Model::default();
    for op in &before {
        model.apply(op, &mut Expected::default());
    }
    // Written before counting starts: not counted.
    rt.block_on(write(&client, &table, &before));
    let ops = mix(&model, 1000, 200);
    let mut expected = Expected::default();
    for op in &ops {
        model.apply(op, &mut expected);
    }
    let endpoint = &local().endpoint;
    // The window ends a second after the last change the test writes arrives (debug builds
    // only): the count waits for the event, not for the clock; a change beyond the last still
    // fails the counts. The window's own length is only a backstop, ten minutes, so that a
    // loaded machine whose writes take minutes still counts them all, and a lost change shows
    // as a count short when it is up.
    let changes = expected.changes.len().to_string();
    let ends = [(WINDOW_ENDS_AFTER, changes.as_str())];
    let mut by_table = Running::spawn_with(
        endpoint,
        &["hotkeys", &table, "--writes", "--for", "10m", "--top", "3"],
        &ends,
    );
    let mut by_gsi = Running::spawn_with(
        endpoint,
        &[
            "hotkeys", &table, "--writes", "--for", "10m", "--index", "GSI1", "--top", "3",
        ],
        &ends,
    );
    by_table.wait_for("hotkeys: counting writes", STARTUP);
    by_gsi.wait_for("hotkeys: counting writes", STARTUP);
    rt.block_on(write(&client, &table, &ops));

    let (status, out, err) = by_table.finish(WINDOW_BACKSTOP);
    assert!(status.success(), "{err}");
    let report: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(report["source"], "stream");
    assert_eq!(report["total_events"], expected.changes.len(), "{out}");
    assert_eq!(report["top"][0]["key"], HOT_KEY, "{out}");
    assert_eq!(report["top"][0]["events"], expected.by_pk[HOT_KEY], "{out}");
    assert_eq!(report["top"][0]["items"], expected.by_pk[HOT_KEY]);
    assert_eq!(report["top"][0]["wcu"], expected.by_pk[HOT_KEY]);
    assert_eq!(report["top_by_wcu"][0]["key"], HOT_KEY);
    assert_eq!(report["distinct_keys"], expected.by_pk.len());
    let warnings = report["warnings"].as_array().unwrap();
    assert!(
        warnings
            .iter()
            .any(|w| w["rule"] == "hot-write-key"
                && w["message"].as_str().unwrap().contains(HOT_KEY)),
        "{out}"
    );

    let (status, out, err) = by_gsi.finish(WINDOW_BACKSTOP);
    assert!(status.success(), "{err}");
    let report: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(report["index"], "GSI1");
    assert_eq!(report["top"][0]["key"], HOT_GSI_KEY, "{out}");
    assert_eq!(
        report["top"][0]["events"], expected.by_gsi[HOT_GSI_KEY],
        "{out}"
    );
    assert_eq!(
        report["total_events"],
        expected.by_gsi.values().sum::<u64>(),
        "{out}"
    );
}

#[test]
fn every_view_type_is_read_and_says_what_it_cannot_show() {
    let rt = runtime();
    let client = rt.block_on(client());
    for (view, has_old, has_new) in [
        (StreamViewType::KeysOnly, false, false),
        (StreamViewType::NewImage, false, true),
        (StreamViewType::OldImage, true, false),
    ] {
        let table = table_name("view");
        rt.block_on(create_table(&client, &table, Some(view.clone())));
        let mut model = Model::default();
        let ops = mix(&model, 0, 30);
        let mut expected = Expected::default();
        for op in &ops {
            model.apply(op, &mut expected);
        }
        rt.block_on(write(&client, &table, &ops));
        let n = expected.changes.len().to_string();
        let out = run(&["tail", &table, "--trim-horizon", "--count", &n]);
        let err = stderr(&out);
        assert!(
            err.contains(&format!("note: {}", view.as_str())),
            "{view:?}: {err}"
        );
        let got = lines(&ok(out));
        assert_eq!(got.len(), expected.changes.len(), "{view:?}");
        for (line, want) in got.iter().zip(&expected.changes) {
            assert_eq!(line["event"], want.event.as_str(), "{view:?}");
            assert_eq!(line["keys"]["PK"], want.pk.as_str());
            assert_eq!(line["view_type"], view.as_str());
            let old = line.get("old_image").is_some();
            let new = line.get("new_image").is_some();
            let event = want.event.as_str();
            assert_eq!(old, has_old && event != "INSERT", "{view:?} {line}");
            assert_eq!(new, has_new && event != "REMOVE", "{view:?} {line}");
            // Exact only when the images the rule needs are there.
            let exact = match event {
                "INSERT" => has_new,
                "REMOVE" => has_old,
                _ => has_old && has_new,
            };
            assert_eq!(line["wcu_estimated"], !exact, "{view:?} {line}");
        }
    }
}

#[test]
fn a_table_without_a_stream_is_one_line_naming_the_command_and_nothing_is_changed() {
    let rt = runtime();
    let client = rt.block_on(client());
    let table = table_name("nostream");
    rt.block_on(create_table(&client, &table, None));
    let proxy = fault_proxy::FaultProxy::start(&local().endpoint, fault_proxy::FaultConfig::none());
    for args in [
        vec!["tail", table.as_str()],
        vec!["hotkeys", table.as_str(), "--writes", "--for", "5s"],
    ] {
        let mut full = vec!["--endpoint-url", proxy.url.as_str()];
        full.extend_from_slice(&args);
        let out = run_raw(&full, &[]);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = stderr(&out);
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.contains(&format!(
            "aws dynamodb update-table --table-name {table} --stream-specification StreamEnabled=true,StreamViewType=NEW_AND_OLD_IMAGES"
        )), "{err}");
    }
    // Only DescribeTable was sent: dynoscope never enables the stream itself.
    let ops: Vec<String> = proxy.operations().into_keys().collect();
    assert_eq!(ops, ["DescribeTable"], "{}", proxy.summary());
}

#[test]
fn bad_durations_and_flags_are_one_line_and_exit_2() {
    let cases: [(&[&str], &str); 9] = [
        (
            &["tail", "tbl", "--since", "25h"],
            "--since '25h' is longer than 24h",
        ),
        (
            &["tail", "tbl", "--since", "10"],
            "--since '10' is not a duration",
        ),
        (
            &["tail", "tbl", "--until", "soon"],
            "--until 'soon' is not a duration",
        ),
        (&["tail", "tbl", "--count", "0"], "--count '0'"),
        (
            &["hotkeys", "tbl", "--for", "10s"],
            "--for '10s' only applies to --writes",
        ),
        (
            &["hotkeys", "tbl", "--writes", "--segments", "4"],
            "--segments applies to the Scan",
        ),
        (
            &["hotkeys", "tbl", "--writes", "--for", "0s"],
            "--for '0s' must be longer than zero",
        ),
        (
            &["seed", "--churn", "0"],
            "--churn '0' must be a number of writes per second",
        ),
        (
            &["seed", "--for", "10s"],
            "--for '10s' only applies to --churn",
        ),
    ];
    for (args, want) in cases {
        let out = run_raw(args, &[]);
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.contains(want), "{args:?}: {err}");
    }
    // The write load refuses a remote endpoint before connecting, like seed.
    let out = run_raw(
        &[
            "--endpoint-url",
            "http://10.1.2.3:8000",
            "seed",
            "--churn",
            "5",
        ],
        &[],
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("only writes to a local endpoint"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn ctrl_c_ends_tail_cleanly_with_stats_last() {
    let rt = runtime();
    let client = rt.block_on(client());
    let (table, ops, _) = table_with_mix(&rt, "sigint", 20);
    let mut tail = Running::spawn(&local().endpoint, &["tail", &table, "--stats"]);
    tail.wait_for(READY, STARTUP);
    rt.block_on(write(&client, &table, &ops));
    std::thread::sleep(Duration::from_secs(2));
    unsafe {
        libc::kill(tail.pid() as i32, libc::SIGINT);
    }
    let (status, out, err) = tail.finish(FINISH);
    assert_eq!(status.code(), Some(130), "{err}");
    let last: serde_json::Value = serde_json::from_str(err.lines().last().unwrap()).unwrap();
    assert_eq!(last["changes"], lines(&out).len(), "{err}");
    assert!(err.contains("tail interrupted"), "{err}");
}

#[test]
fn seed_churn_writes_a_hot_tenant_and_the_sharded_status_key() {
    let table = table_name("churn");
    let out = run(&[
        "seed", "--table", &table, "--users", "30", "--churn", "100", "--for", "3s",
    ]);
    let err = stderr(&out);
    assert!(out.status.success(), "{err}");
    assert!(err.contains("churn: 300 writes"), "{err}");
    // The table was created with a stream: everything, loaded and churned, is in it.
    let loaded: usize = err
        .split("loaded ")
        .nth(1)
        .and_then(|s| s.split(' ').next())
        .and_then(|n| n.parse().ok())
        .expect("loaded N items");
    // A write that changes nothing (shipping an order twice) makes no record, so the count
    // is not known: read for a while instead.
    let changes = lines(&ok(run(&[
        "tail",
        &table,
        "--trim-horizon",
        "--until",
        "8s",
    ])));
    assert!(changes.len() > loaded + 200, "{} changes", changes.len());
    let churned = &changes[loaded..];
    let celebrity = churned
        .iter()
        .filter(|c| c["keys"]["PK"] == "USER#celebrity")
        .count();
    assert!(
        (40..=110).contains(&celebrity),
        "celebrity: {celebrity} of 300"
    );
    let pending: BTreeSet<&str> = churned
        .iter()
        .filter_map(|c| c["new_image"]["GSI1PK"].as_str())
        .filter(|k| k.starts_with("STATUS#PENDING#"))
        .collect();
    assert!(pending.len() >= 5, "{pending:?}");
}

#[test]
fn live_stats_fed_by_the_engine_rank_the_real_stream() {
    use dynoscope::aws::stream::describe::stream_table;
    use dynoscope::aws::stream::{
        start_stream, SdkStreamSource, StreamCounters, StreamEvent, StreamSpec, StreamStart,
    };
    use dynoscope::model::stream::{LiveConfig, LiveStats, RankBy, RankTarget, Window};
    use std::sync::Arc;

    let rt = runtime();
    let (table, ops, expected) = table_with_mix(&rt, "live", 200);
    rt.block_on(async {
        let client = client().await;
        let conn = dynoscope::aws::connect(&dynoscope::aws::ConnectOptions {
            endpoint_url: Some(local().endpoint.clone()),
            region: Some("us-east-1".into()),
            ..Default::default()
        })
        .await
        .unwrap();
        let target = stream_table(&conn, &table).await.unwrap();
        let counters = Arc::new(StreamCounters::default());
        let source = Arc::new(SdkStreamSource::new(
            conn.streams.clone(),
            conn.endpoint.clone(),
            target.view_type,
            counters.clone(),
        ));
        let now_ms = || {
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .unwrap()
                .as_millis() as u64
        };
        let spec = StreamSpec::new(&target.stream_arn, StreamStart::Latest, now_ms() as i64);
        let (tx, mut rx) = tokio::sync::mpsc::channel(16);
        let handle = start_stream(source, spec, counters, tx);
        let mut live = LiveStats::new(&target.info, LiveConfig::default());
        while !matches!(rx.recv().await, Some(StreamEvent::Ready { .. })) {}
        write(&client, &table, &ops).await;
        while (live.totals().events as usize) < expected.changes.len() {
            let event = tokio::time::timeout(Duration::from_secs(60), rx.recv())
                .await
                .expect("changes within a minute");
            if let Some(StreamEvent::Changes { changes, .. }) = event {
                for change in changes {
                    live.observe(change, now_ms());
                }
            }
        }
        handle.cancel();
        handle.join().await;
        let now = now_ms();
        let top = live.top(RankTarget::Table, RankBy::Events, Window::OneMinute, now, 3);
        assert_eq!(top[0].key, HOT_KEY);
        assert_eq!(
            (top[0].events, top[0].events_error),
            (expected.by_pk[HOT_KEY], 0)
        );
        let gsi = live.top(RankTarget::Gsi(0), RankBy::Wcu, Window::FiveMinutes, now, 3);
        assert_eq!(gsi[0].key, HOT_GSI_KEY);
        assert_eq!(gsi[0].events, expected.by_gsi[HOT_GSI_KEY]);
        assert_eq!(live.totals().events as usize, expected.changes.len());
        let warnings = live.warnings(Window::FiveMinutes, now);
        assert!(
            warnings.iter().any(|w| w.message.contains(HOT_KEY)),
            "{warnings:?}"
        );
        let series = live.series(Window::OneMinute, now);
        assert_eq!(
            series.iter().map(|p| p.events).sum::<u64>() as usize,
            expected.changes.len()
        );
        assert_eq!(live.tail().len(), expected.changes.len());
    });
}
