//! Export end to end, in a pty against DynamoDB Local: thirty items marked across two
//! collections exported to CSV and to DynamoDB JSON, which re-import exactly; a 4-segment
//! triage scan streamed to a file, cancelled halfway and resumed, holding each item once; a
//! cancelled export leaving no file.

use crate::common;

use std::collections::{BTreeSet, HashMap};
use std::path::Path;
use std::time::{Duration, Instant};

use aws_sdk_dynamodb::types::AttributeValue;
use common::pty::Session;
use common::tables::TableSpec;
use common::*;
use dynoscope::aws::convert::{item_from_sdk, item_to_sdk};
use dynoscope::model::formats::json::parse_dynamo_item;
use dynoscope::model::item::value::Item;
use dynoscope::model::text::cell::cell_text;

type Sdk = HashMap<String, AttributeValue>;

async fn scan_all(table: &str) -> Vec<Sdk> {
    let mut items = Vec::new();
    let mut start = None;
    loop {
        let out = client()
            .await
            .scan()
            .table_name(table)
            .set_exclusive_start_key(start)
            .send()
            .await
            .unwrap();
        items.extend(out.items.unwrap_or_default());
        start = out.last_evaluated_key;
        if start.is_none() {
            return items;
        }
    }
}

fn key(item: &Item) -> (String, String) {
    let s = |n: &str| {
        item.get(n)
            .and_then(|v| v.as_s())
            .unwrap_or_default()
            .to_string()
    };
    (s("PK"), s("SK"))
}

fn start(table: &str, rows: u16) -> Session {
    start_with(table, rows, &[])
}

fn start_with(table: &str, rows: u16, flags: &[&str]) -> Session {
    let mut args = vec!["--endpoint-url", &local().endpoint, table];
    args.extend_from_slice(flags);
    let s = Session::spawn(&args, &[], rows, 140);
    s.wait_for("the first page", |s| {
        s.contains("Collections by PK") && s.contains("-/1")
    });
    s
}

/// `x`, then scope (`→` presses), format (`→` presses), path; Enter.
fn export(s: &mut Session, scope_right: usize, format_right: usize, path: &Path) {
    s.keys("x");
    s.wait_text(" Export ");
    s.keys(&"\x1b[C".repeat(scope_right));
    s.keys("\x1b[B");
    s.keys(&"\x1b[C".repeat(format_right));
    // Down to the path (past Columns for CSV), cleared and typed.
    s.keys(if format_right == 2 {
        "\x1b[B\x1b[B"
    } else {
        "\x1b[B"
    });
    s.keys("\x15");
    s.keys(&format!("{}\r", path.display()));
}

async fn create_like_demo(name: &str) {
    TableSpec::pk_sk(name).create(&client().await).await;
}

#[tokio::test(flavor = "multi_thread")]
async fn thirty_marked_items_across_two_collections_export_and_reimport_exactly() {
    let table = seeded_demo(10);
    let dir = tempfile::tempdir().unwrap();
    let mut s = start(&table, 40);
    // Mark 25 of the celebrity's items and 5 of a user's: the filter finds each collection,
    // and the marks survive it.
    s.keys("/");
    s.keys("USER#celebrity\r");
    s.wait_text("Items in USER#celebrity");
    s.keys("\t");
    for _ in 0..25 {
        s.send(" ");
    }
    s.wait_text("25 marked");
    s.keys("\x1b"); // clears the filter
    s.keys("\x1b[Z"); // back to the collections
    s.keys("/");
    s.keys("USER#u00000\r");
    s.wait_text("Items in USER#u00000");
    s.keys("\t");
    for _ in 0..5 {
        s.send(" ");
    }
    s.wait_text("30 marked");
    s.keys("\x1b");

    let csv_path = dir.path().join("marked.csv");
    export(&mut s, 0, 2, &csv_path);
    s.wait_text("exported 30 items");
    s.wait_text(&format!("to {}", csv_path.display()));
    let ddb_path = dir.path().join("marked.jsonl");
    export(&mut s, 0, 1, &ddb_path);
    s.wait_text(&format!("to {}", ddb_path.display()));
    s.keys("q");
    assert!(s.wait_exit().success());

    let stored: HashMap<(String, String), Item> = scan_all(&table)
        .await
        .into_iter()
        .map(|i| {
            let item = item_from_sdk(i);
            (key(&item), item)
        })
        .collect();

    // DynamoDB JSON: loaded into a new table, the items come back identical.
    let text = std::fs::read_to_string(&ddb_path).unwrap();
    let exported: Vec<Item> = text
        .lines()
        .map(|l| parse_dynamo_item(l).unwrap())
        .collect();
    assert_eq!(exported.len(), 30);
    let pks: BTreeSet<String> = exported.iter().map(|i| key(i).0).collect();
    assert_eq!(pks.len(), 2, "{pks:?}");
    let copy = table_name("reimport");
    create_like_demo(&copy).await;
    for item in &exported {
        assert_eq!(Some(item), stored.get(&key(item)), "exported as stored");
        client()
            .await
            .put_item()
            .table_name(&copy)
            .set_item(Some(item_to_sdk(item)))
            .send()
            .await
            .unwrap();
    }
    let back: Vec<Item> = scan_all(&copy)
        .await
        .into_iter()
        .map(item_from_sdk)
        .collect();
    assert_eq!(back.len(), 30);
    for item in &back {
        assert_eq!(Some(item), stored.get(&key(item)), "re-imported exactly");
    }

    // CSV: a real reader gives back each cell as the item holds it.
    let mut reader = csv::Reader::from_path(&csv_path).unwrap();
    let header: Vec<String> = reader.headers().unwrap().iter().map(String::from).collect();
    assert_eq!(&header[..2], ["PK", "SK"]);
    let rows: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
    assert_eq!(rows.len(), 30);
    for row in &rows {
        let item = &stored[&(row[0].to_string(), row[1].to_string())];
        for (column, cell) in header.iter().zip(row.iter()) {
            assert_eq!(
                cell,
                item.get(column).map(cell_text).unwrap_or_default(),
                "{column}"
            );
        }
    }
}

/// A triage scan in 4 segments, rate-limited so it is still running when the export takes it
/// over; cancelled halfway (Esc) and resumed (n): the file holds every item exactly once,
/// including those past `--max-items`, which the explorer does not keep.
#[tokio::test(flavor = "multi_thread")]
async fn a_streamed_four_segment_scan_cancelled_and_resumed_holds_each_item_once() {
    let table = shared_demo(60).to_string();
    let all: BTreeSet<(String, String)> = scan_all(&table)
        .await
        .into_iter()
        .map(|i| key(&item_from_sdk(i)))
        .collect();
    let dir = tempfile::tempdir().unwrap();
    let mut s = start_with(&table, 40, &["--max-items", "600"]);
    assert!(all.len() > 900, "well past --max-items: {}", all.len());
    // The launcher: 4 segments, 6 RCU/s.
    s.keys("S");
    s.wait_text("Parallel scan");
    s.keys("\x7f4");
    for _ in 0..6 {
        s.keys("\t");
    }
    s.keys("2\r");
    s.wait_text("running");
    let path = dir.path().join("stream.jsonl");
    // Scope: from the collection → everything loaded → the stream.
    export(&mut s, 2, 0, &path);
    s.wait_for("the export under way", |sc| sc.contains("exporting"));
    let started = Instant::now();
    while started.elapsed() < Duration::from_secs(1) {
        std::thread::sleep(Duration::from_millis(50));
    }
    s.keys("\x1b");
    s.wait_text("paused with the read");
    assert!(
        !path.exists(),
        "no file under the final name while it is paused"
    );
    s.keys("n");
    let screen = s.wait_for_within("the stream to end", Duration::from_secs(120), |sc| {
        sc.contains("exported")
    });
    assert!(
        screen.contains(&format!("exported {}", thousands(all.len()))),
        "{screen}"
    );
    assert!(
        screen.contains("· 600 items · all loaded") && screen.contains(" items not kept"),
        "the explorer kept only 600: {screen}"
    );
    s.keys("q");
    assert!(s.wait_exit().success());
    let text = std::fs::read_to_string(&path).unwrap();
    let keys: Vec<(String, String)> = text
        .lines()
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).unwrap();
            (
                v["PK"].as_str().unwrap().into(),
                v["SK"].as_str().unwrap().into(),
            )
        })
        .collect();
    let unique: BTreeSet<_> = keys.iter().cloned().collect();
    assert_eq!(keys.len(), unique.len(), "an item twice");
    assert_eq!(unique, all, "every item");
    let others: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
    assert_eq!(others.len(), 1, "no temporary file left");
}

fn thousands(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[test]
fn a_cancelled_export_leaves_no_file() {
    let table = shared_demo(60).to_string();
    let dir = tempfile::tempdir().unwrap();
    let mut s = start(&table, 40);
    s.keys("S");
    s.wait_text("Parallel scan");
    for _ in 0..6 {
        s.keys("\t");
    }
    s.keys("2\r");
    s.wait_text("running");
    let path = dir.path().join("cancelled.csv");
    export(&mut s, 2, 2, &path);
    s.wait_for("the export under way", |sc| sc.contains("exporting"));
    s.keys("x");
    s.wait_text("cancel the export");
    s.keys("y");
    s.wait_text("cancelled; no file was written");
    s.keys("q");
    assert!(s.wait_exit().success());
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
}
