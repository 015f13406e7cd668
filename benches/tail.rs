//! How many stream records a second `tail` and the live view can decode and rank on one core.
//!
//! GetRecords responses of 1,000 demo-shaped MODIFY records (NEW_AND_OLD_IMAGES, 20,000 user
//! keys plus a hot tenant, a GSI key on every image) are built once as the JSON DynamoDB
//! Streams sends, then taken through, on a current-thread runtime:
//!
//! - **SDK parse** (the baseline): the Streams SDK client answering `GetRecords` from the body
//!   through a canned HTTP connector, its whole pipeline (request, signing, its own
//!   deserialiser into `Record`s): what any Rust client of the stream pays at least;
//! - **SDK parse -> Change**: and each record converted with `convert::change_from_sdk`;
//! - **decode** (`tail`'s path): `SdkStreamSource::records`, where dynoscope's own reader
//!   (aws/stream/wire.rs) reads the body into `Change`s inside the same SDK pipeline;
//! - **decode + rank**: and each change fed to `LiveStats` (rates, table and GSI rankings,
//!   tail): the live view's work, and `hotkeys --writes`' kind of work;
//! - **decode + JSON line**: and each change written as `tail`'s output line;
//! - **rank only**: `LiveStats::count` on changes already decoded;
//! - and, for scale, `serde_json` parsing the body into a generic `Value` (with this crate's
//!   `arbitrary_precision` and `preserve_order` features).
//!
//! Each is reported in records/s and as a ratio to the baseline measured in the same run.
//!
//! run: cargo bench --bench tail [-- PAGES]    (default 200 pages: 200,000 records)

use std::fmt::Write as _;
use std::hint::black_box;
use std::time::Duration;

use aws_sdk_dynamodbstreams::config::{BehaviorVersion, Credentials, Region};
use aws_smithy_runtime_api::client::http::{
    HttpClient, HttpConnector, HttpConnectorFuture, HttpConnectorSettings, SharedHttpConnector,
};
use aws_smithy_runtime_api::client::orchestrator::{HttpRequest, HttpResponse};
use aws_smithy_runtime_api::client::runtime_components::RuntimeComponents;
use aws_smithy_types::body::SdkBody;
use std::sync::Arc;

use dynoscope::aws::stream::convert::change_from_sdk;
use dynoscope::aws::stream::source::StreamSource;
use dynoscope::aws::stream::{SdkStreamSource, StreamCounters};
use dynoscope::model::design::schema::TableInfo;
use dynoscope::model::formats::json::{append_dynamo_json, JsonSpelling};
use dynoscope::model::item::value::{AttrValue, Item};
use dynoscope::model::stream::change_json::write_change;
use dynoscope::model::stream::{Change, LiveConfig, LiveStats, ViewType};

const PER_PAGE: usize = 1000;
const KEYS: usize = 20_000;
const ROUNDS: usize = 5;

/// Answers every request with the same GetRecords body.
#[derive(Debug, Clone)]
struct Canned(std::sync::Arc<Vec<u8>>);

impl HttpConnector for Canned {
    fn call(&self, _request: HttpRequest) -> HttpConnectorFuture {
        let mut response = HttpResponse::new(
            200.try_into().expect("status"),
            SdkBody::from(self.0.as_slice().to_vec()),
        );
        response
            .headers_mut()
            .insert("content-type", "application/x-amz-json-1.0");
        HttpConnectorFuture::ready(Ok(response))
    }
}

impl HttpClient for Canned {
    fn http_connector(
        &self,
        _settings: &HttpConnectorSettings,
        _components: &RuntimeComponents,
    ) -> SharedHttpConnector {
        SharedHttpConnector::new(self.clone())
    }
}

fn table() -> TableInfo {
    dynoscope::model::demo::demo_data::stream_table_info()
}

/// An order of the demo's shape, as it was (`status` PENDING) or is (SHIPPED).
fn order(n: usize, shipped: bool) -> Item {
    let user = if n.is_multiple_of(5) {
        "celebrity".to_string()
    } else {
        format!("u{:05}", (n * 7919) % KEYS)
    };
    let s = |v: String| AttrValue::S(v);
    Item::from_attrs(vec![
        ("PK".into(), s(format!("USER#{user}"))),
        (
            "SK".into(),
            s(format!("ORDER#2026-12-{:02}#c{n:08}", n % 28 + 1)),
        ),
        (
            "GSI1PK".into(),
            s(if shipped {
                "STATUS#SHIPPED".into()
            } else {
                format!("STATUS#PENDING#{}", n % 10)
            }),
        ),
        ("GSI1SK".into(), s(format!("2026-12-01#ORDER#c{n:08}"))),
        (
            "LSI1SK".into(),
            AttrValue::N(format!("{}", 100 + n % 20_000)),
        ),
        (
            "status".into(),
            s(if shipped { "SHIPPED" } else { "PENDING" }.into()),
        ),
        (
            "total".into(),
            AttrValue::N(format!("{}.{:02}", n % 500, n % 100)),
        ),
        ("lines".into(), AttrValue::N(format!("{}", 1 + n % 4))),
    ])
}

/// One GetRecords response body of `PER_PAGE` records starting at record `first`.
fn body(first: usize) -> Vec<u8> {
    let mut out = String::from(r#"{"NextShardIterator":"next","Records":["#);
    for n in first..first + PER_PAGE {
        if n > first {
            out.push(',');
        }
        let (old, new) = (order(n, false), order(n, true));
        let keys = Item::from_attrs(vec![
            ("PK".into(), old.get("PK").unwrap().clone()),
            ("SK".into(), old.get("SK").unwrap().clone()),
        ]);
        let _ = write!(
            out,
            r#"{{"eventID":"{n:032x}","eventName":"MODIFY","eventVersion":"1.1","eventSource":"aws:dynamodb","awsRegion":"us-east-1","dynamodb":{{"ApproximateCreationDateTime":{},"Keys":"#,
            1_800_000_000 + n / 200
        );
        append_dynamo_json(&mut out, &keys);
        out.push_str(r#","NewImage":"#);
        append_dynamo_json(&mut out, &new);
        out.push_str(r#","OldImage":"#);
        append_dynamo_json(&mut out, &old);
        let _ = write!(
            out,
            r#","SequenceNumber":"{:021}","SizeBytes":{},"StreamViewType":"NEW_AND_OLD_IMAGES"}}}}"#,
            n + 1,
            300 + n % 64
        );
    }
    out.push_str("]}");
    out.into_bytes()
}

fn client(body: Vec<u8>) -> aws_sdk_dynamodbstreams::Client {
    let config = aws_sdk_dynamodbstreams::Config::builder()
        .behavior_version(BehaviorVersion::latest())
        .region(Region::new("us-east-1"))
        .credentials_provider(Credentials::new("bench", "bench", None, None, "bench"))
        .endpoint_url("http://127.0.0.1:9")
        .http_client(Canned(std::sync::Arc::new(body)))
        .build();
    aws_sdk_dynamodbstreams::Client::from_conf(config)
}

/// One page the way `tail` reads it: `SdkStreamSource`, whose GetRecords body is read by
/// dynoscope's own reader (aws/stream/wire.rs) inside the SDK's pipeline.
async fn decode(source: &SdkStreamSource) -> Vec<Change> {
    source
        .records("it".into(), PER_PAGE as i32)
        .await
        .expect("canned response")
        .changes
}

/// One page the SDK's way: its deserializer, then each record converted.
async fn decode_sdk(client: &aws_sdk_dynamodbstreams::Client) -> Vec<Change> {
    let out = client
        .get_records()
        .shard_iterator("it")
        .send()
        .await
        .expect("canned response");
    out.records
        .unwrap_or_default()
        .into_iter()
        .filter_map(|r| change_from_sdk(r, Some(ViewType::NewAndOldImages)))
        .collect()
}

/// CPU time of this thread: on a shared machine, time spent waiting for a core is not the
/// code's. (Everything runs on this thread: the runtime is current-thread.)
fn cpu_time() -> Duration {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a valid timespec for the call to fill.
    unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32)
}

/// The stages, each run over `pages` pages once per round, round after round, so that the
/// machine's mood in any moment falls on all of them alike; each keeps its best round.
type Stage<'a> = Box<dyn FnMut(usize) + 'a>;

struct Stages<'a> {
    stages: Vec<(&'static str, Stage<'a>)>,
}

impl<'a> Stages<'a> {
    fn add(&mut self, name: &'static str, stage: impl FnMut(usize) + 'a) {
        self.stages.push((name, Box::new(stage)));
    }

    /// Records per CPU second of each stage, in the order added.
    fn run(mut self, pages: usize) -> Vec<(&'static str, f64)> {
        let mut best = vec![Duration::MAX; self.stages.len()];
        for _ in 0..ROUNDS {
            for (i, (_, stage)) in self.stages.iter_mut().enumerate() {
                let started = cpu_time();
                for p in 0..pages {
                    stage(p);
                }
                best[i] = best[i].min(cpu_time() - started);
            }
        }
        self.stages
            .iter()
            .zip(best)
            .map(|((name, _), t)| (*name, (pages * PER_PAGE) as f64 / t.as_secs_f64()))
            .collect()
    }
}

fn main() {
    let pages: usize = std::env::args()
        .skip(1)
        .find_map(|a| a.parse().ok())
        .unwrap_or(200);
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    // Eight distinct pages, cycled: more would only measure memory, not the code.
    let bodies: Vec<Vec<u8>> = (0..8).map(|i| body(i * PER_PAGE)).collect();
    let clients: Vec<_> = bodies.iter().map(|b| client(b.clone())).collect();
    let sources: Vec<SdkStreamSource> = clients
        .iter()
        .map(|c| {
            SdkStreamSource::new(
                c.clone(),
                "bench",
                Some(ViewType::NewAndOldImages),
                Arc::new(StreamCounters::default()),
            )
        })
        .collect();
    let page_bytes = bodies.iter().map(Vec::len).sum::<usize>() / bodies.len();
    let info = table();

    let mut live = LiveStats::new(&info, LiveConfig::default());
    let mut live_only = LiveStats::new(&info, LiveConfig::default());
    let clock = std::cell::Cell::new(1_800_000_000_000u64);
    let tick = || {
        clock.set(clock.get() + 1);
        clock.get()
    };
    // Ranking alone, on changes already decoded.
    let changes: Vec<Vec<Change>> = sources
        .iter()
        .map(|c| runtime.block_on(decode(c)))
        .collect();
    let mut line = String::new();
    let mut stages = Stages { stages: Vec::new() };
    // `TAIL_BENCH_PROFILE=1`: only decode + rank, for a profiler.
    let profile = std::env::var_os("TAIL_BENCH_PROFILE").is_some();
    if !profile {
        stages.add("SDK parse (baseline)", |p| {
            let out = runtime.block_on(clients[p % 8].get_records().shard_iterator("it").send());
            black_box(out.unwrap());
        });
        stages.add("SDK parse -> Change", |p| {
            black_box(runtime.block_on(decode_sdk(&clients[p % 8])));
        });
        stages.add("decode (SdkStreamSource, tail's path)", |p| {
            black_box(runtime.block_on(decode(&sources[p % 8])));
        });
    }
    stages.add("decode + rank (LiveStats::observe)", |p| {
        for c in runtime.block_on(decode(&sources[p % 8])) {
            live.observe(c, tick());
        }
    });
    if !profile {
        stages.add("decode + JSON line (tail's output)", |p| {
            for c in runtime.block_on(decode(&sources[p % 8])) {
                line.clear();
                write_change(&mut line, &c, JsonSpelling::Plain);
                line.push('\n');
                black_box(&line);
            }
        });
        let mut alone = 1_800_000_000_000u64;
        stages.add("rank only (LiveStats::count)", move |p| {
            for c in &changes[p % 8] {
                alone += 1;
                live_only.count(c, alone);
            }
        });
        stages.add("serde_json::Value parse, for scale", |p| {
            let v: serde_json::Value = serde_json::from_slice(&bodies[p % 8]).unwrap();
            black_box(v);
        });
    }
    let results = stages.run(pages);
    let baseline = results[0].1;
    let ranked = results
        .iter()
        .find(|(name, _)| name.starts_with("decode + rank"))
        .map_or(0.0, |(_, rate)| *rate);

    println!(
        "{} records in pages of {PER_PAGE} ({} KB of JSON a page), one core, records per CPU second, best of {ROUNDS} interleaved rounds",
        pages * PER_PAGE,
        page_bytes / 1024
    );
    for (stage, rate) in &results {
        println!(
            "{stage:<40} {:>10.0} records/s   ratio to the SDK parse {:.2}",
            rate,
            rate / baseline
        );
    }
    println!(
        "goal: decode + rank >= 200,000 records/s: {}",
        if ranked >= 200_000.0 {
            "met"
        } else {
            "NOT met"
        }
    );
    println!(
        "top key over the last minute: {:?}",
        live.top(
            dynoscope::model::stream::RankTarget::Table,
            dynoscope::model::stream::RankBy::Events,
            dynoscope::model::stream::Window::OneMinute,
            clock.get(),
            1
        )
        .first()
        .map(|k| (&k.key, k.events))
    );
}
