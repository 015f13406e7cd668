//! `tail` through the fault-injecting proxy (tests/integration/common/fault_proxy.rs): throttled
//! GetRecords (DynamoDB's codes and Streams' LimitExceededException), expired iterators,
//! connection resets, cut-off responses and 5xx, with the SDK's own retries off
//! (`--max-attempts 1`) so the engine's recovery does the work. Nothing may be lost or
//! delivered twice, and only stream read operations may be sent.

use crate::common;
use crate::common::fault_proxy;
use crate::common::stream_writes;

use std::collections::BTreeSet;
use std::process::Output;
use std::sync::MutexGuard;
use std::time::Duration;

use aws_sdk_dynamodb::types::StreamViewType;
use common::*;
use fault_proxy::{Fault, FaultConfig, FaultProxy};
use stream_writes::*;

const READ_OPERATIONS: [&str; 4] = [
    "DescribeTable",
    "DescribeStream",
    "GetShardIterator",
    "GetRecords",
];
/// Every fault GetRecords can meet.
const RECORDS_FAULTS: [Fault; 8] = [
    Fault::Throttling,
    Fault::ProvisionedThroughput,
    Fault::LimitExceeded,
    Fault::ExpiredIterator,
    Fault::Reset,
    Fault::Truncate,
    Fault::InternalServerError,
    Fault::ServiceUnavailable,
];
/// The faults of any call (an expired iterator only means something to GetRecords).
const ANY_CALL_FAULTS: [Fault; 5] = [
    Fault::Throttling,
    Fault::LimitExceeded,
    Fault::Reset,
    Fault::Truncate,
    Fault::InternalServerError,
];

/// One at a time: each test retries on a 2-second attempt timeout, and several at once on
/// 2 cores could make a fault-free attempt time out.
fn serial() -> MutexGuard<'static, ()> {
    common::attempt_timeouts()
}

/// The DynamoDB Local these tests write and read, apart from the shared one
/// ([`common::timeouts_local`]).
fn endpoint() -> &'static str {
    &common::timeouts_local().endpoint
}

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap()
}

fn via(proxy: &FaultProxy, args: &[&str]) -> Output {
    let mut full = vec![
        "--endpoint-url",
        proxy.url.as_str(),
        "--timeout",
        "2",
        "--max-attempts",
        "1",
    ];
    full.extend_from_slice(args);
    run_raw(&full, &[])
}

fn stat(out: &Output, name: &str) -> u64 {
    stats(out)[name]
        .as_u64()
        .unwrap_or_else(|| panic!("--stats has no {name}: {}", stderr(out)))
}

fn only_reads(proxy: &FaultProxy) {
    for op in proxy.operations().keys() {
        assert!(
            READ_OPERATIONS.contains(&op.as_str()),
            "tail sent {op}: {}",
            proxy.summary()
        );
    }
}

/// The fault on the last GetRecords the proxy saw. `--count` cancels the read once the last
/// change is out, and by then the shard's reader has asked for its next page (it does not wait
/// for the pages it sent to be written). When that request reached the proxy and was faulted,
/// the answer can arrive after the cancel, which drops it unread: the tool cannot count what it
/// never read (its `attempts` still counts the request). Seen once at three test threads: 4
/// throttles counted of 5, the fifth on the last of 15 GetRecords.
fn last_records_fault(proxy: &FaultProxy) -> Option<Fault> {
    proxy
        .log()
        .iter()
        .rfind(|r| r.operation == "GetRecords")
        .and_then(|r| r.fault)
}

/// `counted` is the `injected` faults of a kind, or one fewer when the last GetRecords had one
/// of them (see [`last_records_fault`]); every earlier one must be counted.
fn counted_all_read(counted: u64, injected: usize, last_was_this_kind: bool) -> bool {
    let injected = injected as u64;
    counted == injected || (last_was_this_kind && counted + 1 == injected)
}

fn no_duplicates(text: &str) {
    let lines = lines(text);
    let sequence: BTreeSet<&str> = lines
        .iter()
        .map(|l| l["sequence_number"].as_str().unwrap())
        .collect();
    assert_eq!(sequence.len(), lines.len(), "a change was delivered twice");
}

#[test]
fn trim_horizon_through_faults_reads_exactly_what_a_fault_free_read_does() {
    let _serial = serial();
    let rt = runtime();
    let client = rt.block_on(client_at(endpoint()));
    let table = table_name("faults");
    rt.block_on(create_table(
        &client,
        &table,
        Some(StreamViewType::NewAndOldImages),
    ));
    let mut model = Model::default();
    let ops = mix(&model, 0, 300);
    let mut expected = Expected::default();
    for op in &ops {
        model.apply(op, &mut expected);
    }
    rt.block_on(write(&client, &table, &ops));
    let n = expected.changes.len().to_string();
    let args = [
        "tail",
        table.as_str(),
        "--trim-horizon",
        "--count",
        &n,
        "--page-size",
        "7",
        "--stats",
    ];
    let baseline = ok(run_at(endpoint(), &args));
    let seen: Vec<Seen> = lines(&baseline).iter().map(seen).collect();
    assert_eq!(per_item(&seen), expected.per_item());

    let passes = [
        (
            "GetRecords",
            FaultConfig::new(0.35, 21, &RECORDS_FAULTS).only(&["GetRecords"]),
        ),
        (
            "every stream call",
            FaultConfig::new(0.35, 22, &ANY_CALL_FAULTS).only(&[
                "DescribeStream",
                "GetShardIterator",
                "GetRecords",
            ]),
        ),
    ];
    // The two passes read the stream at once, each through its own proxy: two readers of a
    // shard, as AWS advises at most, and each pass's checks are its own proxy's.
    std::thread::scope(|scope| {
        for (what, config) in passes {
            let (args, baseline) = (&args, &baseline);
            scope.spawn(move || {
                let proxy = FaultProxy::start(endpoint(), config);
                let out = via(&proxy, args);
                let summary = proxy.summary();
                let (throttles, retries) = (stat(&out, "throttles"), stat(&out, "retries"));
                let expired = stat(&out, "expired_iterators");
                let text = ok(out);
                assert_eq!(&text, baseline, "{what}: {summary}");
                no_duplicates(&text);
                only_reads(&proxy);
                let faults = proxy.faults("GetRecords");
                assert!(
                    faults.len() >= 4,
                    "{what}: too few kinds injected: {summary}"
                );
                // What the engine counted is what the proxy did, but for a fault on a request
                // the `--count` stop left unread.
                let last = last_records_fault(&proxy);
                assert!(
                    counted_all_read(
                        throttles,
                        proxy.throttles("GetRecords")
                            + proxy.throttles("GetShardIterator")
                            + proxy.throttles("DescribeStream"),
                        last.is_some_and(Fault::is_throttle)
                    ),
                    "{what}: counted {throttles}: {summary}"
                );
                assert!(
                    counted_all_read(
                        expired,
                        faults.get(&Fault::ExpiredIterator).copied().unwrap_or(0),
                        last == Some(Fault::ExpiredIterator)
                    ),
                    "{what}: counted {expired}: {summary}"
                );
                assert!(retries > 0, "{what}: {summary}");
                eprintln!("{what}: {summary}");
            });
        }
    });
}

#[test]
fn a_live_tail_through_faults_loses_and_repeats_nothing() {
    let _serial = serial();
    let rt = runtime();
    let client = rt.block_on(client_at(endpoint()));
    let table = table_name("livefaults");
    rt.block_on(create_table(
        &client,
        &table,
        Some(StreamViewType::NewAndOldImages),
    ));
    let mut model = Model::default();
    let ops = mix(&model, 0, 200);
    let mut expected = Expected::default();
    for op in &ops {
        model.apply(op, &mut expected);
    }
    let proxy = FaultProxy::start(
        endpoint(),
        FaultConfig::new(0.3, 31, &RECORDS_FAULTS).only(&["GetRecords"]),
    );
    let n = expected.changes.len().to_string();
    let mut tail = Running::spawn(
        &proxy.url,
        &[
            "--timeout",
            "2",
            "--max-attempts",
            "1",
            "tail",
            &table,
            "--count",
            &n,
            "--page-size",
            "5",
            "--stats",
        ],
    );
    tail.wait_for("tail: reading 1 shard", Duration::from_secs(60));
    rt.block_on(write(&client, &table, &ops));
    let (status, text, err) = tail.finish(Duration::from_secs(180));
    assert!(status.success(), "{err}\n{}", proxy.summary());
    let seen: Vec<Seen> = lines(&text).iter().map(seen).collect();
    assert_eq!(per_item(&seen), expected.per_item(), "{}", proxy.summary());
    no_duplicates(&text);
    only_reads(&proxy);
    assert!(proxy.faulted("GetRecords") > 5, "{}", proxy.summary());
}

#[test]
fn sdk_retries_of_throttled_calls_are_counted() {
    let _serial = serial();
    let rt = runtime();
    let client = rt.block_on(client_at(endpoint()));
    let table = table_name("sdkretry");
    rt.block_on(create_table(
        &client,
        &table,
        Some(StreamViewType::NewAndOldImages),
    ));
    let model = Model::default();
    let ops = mix(&model, 0, 50);
    rt.block_on(write(&client, &table, &ops));
    let proxy = FaultProxy::start(
        endpoint(),
        FaultConfig::new(0.25, 41, &[Fault::LimitExceeded, Fault::Throttling])
            .only(&["GetRecords"]),
    );
    // The SDK's own retries (6 attempts) absorb the throttles; they are still counted.
    let out = run_raw(
        &[
            "--endpoint-url",
            &proxy.url,
            "tail",
            &table,
            "--trim-horizon",
            "--count",
            "50",
            "--page-size",
            "5",
            "--stats",
        ],
        &[],
    );
    let throttled = stat(&out, "throttled_attempts");
    let attempts = stat(&out, "attempts");
    assert_eq!(lines(&ok(out)).len(), 50);
    let last = last_records_fault(&proxy);
    assert!(
        counted_all_read(
            throttled,
            proxy.throttles("GetRecords"),
            last.is_some_and(Fault::is_throttle)
        ),
        "counted {throttled}: {}",
        proxy.summary()
    );
    assert!(throttled > 0);
    assert_eq!(
        attempts as usize,
        proxy.log().len() - proxy.requests("DescribeTable")
    );
}
