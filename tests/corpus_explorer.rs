//! The explorer on tables written by the modelling libraries (tests/common/corpus.rs): the
//! real binary in a pty against DynamoDB Local, reading what ElectroDB, dynamodb-toolbox and
//! OneTable wrote. What it shows must be what the design's author would call things: kinds
//! from the library's own attribute, the parts its keys name, and the collections they link.

mod common;

use std::time::Duration;

use common::corpus::{self, design};
use common::pty::Session;
use common::*;

const ROWS: u16 = 50;
const COLS: u16 = 200;

/// Loads the design into a fresh table and opens it in the explorer at 50x200.
async fn open(name: &str, extra: &[&str]) -> (Session, String) {
    let d = design(name);
    let table = table_name(&name.replace('_', "-"));
    corpus::load(&d, &table).await;
    let mut args = vec!["--endpoint-url", local().endpoint.as_str(), table.as_str()];
    args.extend_from_slice(extra);
    let s = Session::spawn(&args, &[], ROWS, COLS);
    let want = format!("Scan · 1 pages · {} items · all loaded", d.items.len());
    s.wait_for("the whole design loaded", |sc| sc.contains(&want));
    (s, table)
}

/// The screen's line that starts with `prefix` (trimmed).
fn line_of(screen: &str, prefix: &str) -> String {
    screen
        .lines()
        .map(str::trim)
        .find(|l| l.starts_with(prefix))
        .unwrap_or_else(|| panic!("no line starting {prefix:?} in\n{screen}"))
        .to_string()
}

/// The items pane: the right-hand column of the two panes, from its header to its last row.
fn items_pane(screen: &str) -> String {
    screen
        .lines()
        .filter_map(|l| {
            l.split_once("││")
                .map(|(_, right)| right.trim_end_matches('│').trim_end())
        })
        .filter(|l| !l.is_empty())
        .collect::<Vec<_>>()
        .join("\n")
}

/// `p KEY Enter`: the one collection, then the items pane focused.
fn query_partition(s: &mut Session, key: &str) -> String {
    s.keys("p");
    s.wait_text("partition key");
    s.send(key);
    s.keys("\r");
    s.wait_for("the collection queried", |sc| sc.contains("Query"));
    s.keys("\t");
    s.settle(Duration::from_millis(300), Duration::from_secs(5))
}

#[tokio::test]
async fn electrodb_screens() {
    let (mut s, _) = open("electrodb_task_manager", &[]).await;
    let screen = s.screen();
    println!("{screen}");
    for key in [
        "$task-manager#employee_69118bd7-3129-42e4-8f72-4ed04ef7634d",
        "$task-manager#country_us#state_or",
    ] {
        let screen = query_partition(&mut s, key);
        println!("{}", items_pane(&screen));
        s.keys("\x1b");
    }
}

#[tokio::test]
async fn toolbox_screens() {
    let (mut s, _) = open("toolbox_shop", &[]).await;
    println!("{}", s.screen());
    for key in [
        "CUSTOMER#1200",
        "CUSTOMER#1412",
        "ORDER#01K979DBB8R28TTRDBX8BFTCZH",
    ] {
        let screen = query_partition(&mut s, key);
        println!("{}", items_pane(&screen));
        s.keys("\x1b");
    }
}

#[tokio::test]
async fn onetable_screens() {
    let (mut s, _) = open("onetable_game", &[]).await;
    println!("{}", s.screen());
    for key in ["game:g003", "match:01KHFRPMH0ZGNGWW27XCPHEABA"] {
        let screen = query_partition(&mut s, key);
        println!("{}", items_pane(&screen));
        s.keys("\x1b");
    }
}
