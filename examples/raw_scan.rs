//! The baseline for the scan benchmark: a bare aws-sdk-rust parallel Scan loop that pages with
//! LastEvaluatedKey and discards the items. dynoscope's `scan` is measured against this.
//!
//! usage: raw_scan ENDPOINT TABLE SEGMENTS [--capacity]
//!
//! `--capacity` asks for ReturnConsumedCapacity=INDEXES on every page, as dynoscope does.
//!
//! It sends through dynoscope's HTTP client (`aws::https`), the one every client of dynoscope
//! uses: the SDK crates are built without their default client, and a config given none fails
//! its first request.

use aws_sdk_dynamodb::config::{BehaviorVersion, Credentials, Region};
use aws_sdk_dynamodb::types::ReturnConsumedCapacity;

#[tokio::main]
async fn main() {
    let args: Vec<String> = std::env::args().collect();
    let (args, capacity) = match args.split_last() {
        Some((last, rest)) if last == "--capacity" => (rest, true),
        _ => (args.as_slice(), false),
    };
    let [_, endpoint, table, segments] = args else {
        eprintln!("usage: raw_scan ENDPOINT TABLE SEGMENTS [--capacity]");
        std::process::exit(2);
    };
    let segments: i32 = segments.parse().expect("SEGMENTS is a number");
    let config = aws_sdk_dynamodb::Config::builder()
        .behavior_version(BehaviorVersion::latest())
        .region(Region::new("us-east-1"))
        .credentials_provider(Credentials::new("bench", "bench", None, None, "bench"))
        .endpoint_url(endpoint)
        .http_client(dynoscope::aws::https::client())
        .build();
    let client = aws_sdk_dynamodb::Client::from_conf(config);
    let mut tasks = Vec::new();
    for segment in 0..segments {
        let client = client.clone();
        let table = table.clone();
        tasks.push(tokio::spawn(async move {
            let mut start = None;
            let mut count = 0usize;
            loop {
                let mut req = client
                    .scan()
                    .table_name(&table)
                    .set_exclusive_start_key(start);
                if capacity {
                    req = req.return_consumed_capacity(ReturnConsumedCapacity::Indexes);
                }
                if segments > 1 {
                    req = req.segment(segment).total_segments(segments);
                }
                let out = req.send().await.expect("scan page");
                count += out.items.map(|i| i.len()).unwrap_or(0);
                start = out.last_evaluated_key;
                if start.is_none() {
                    return count;
                }
            }
        }));
    }
    let mut total = 0;
    for t in tasks {
        total += t.await.expect("segment task");
    }
    println!("{total}");
}
