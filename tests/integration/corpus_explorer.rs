//! The explorer on tables written by the modelling libraries (tests/integration/common/corpus.rs): the
//! real binary in a pty against DynamoDB Local, reading what ElectroDB, dynamodb-toolbox and
//! OneTable wrote. What it shows must be what the design's author would call things: kinds
//! from the library's own attribute, the parts its keys name, and the collections they link.
//! Each screen region is also an insta snapshot (tests/integration/snapshots/).

use crate::common;

use std::time::Duration;

use common::corpus::{self, design};
use common::pty::Session;
use common::*;

const ROWS: u16 = 50;
const COLS: u16 = 200;

/// Loads the design into a fresh table and opens it in the explorer at 50x200, waiting for
/// the opening scan to have read everything.
async fn open(name: &str) -> Session {
    let d = design(name);
    let table = table_name(&name.replace('_', "-"));
    corpus::load(&d, &table).await;
    let args = ["--endpoint-url", local().endpoint.as_str(), table.as_str()];
    let s = Session::spawn(&args, &[], ROWS, COLS);
    let want = format!("Scan · 1 page · {} items · all loaded", d.items.len());
    s.wait_for("the whole design loaded", |sc| sc.contains(&want));
    s
}

/// The screen's `kinds:` line.
fn kinds_line(screen: &str) -> String {
    screen
        .lines()
        .map(str::trim)
        .find(|l| l.starts_with("kinds:"))
        .unwrap_or_else(|| panic!("no kinds line in\n{screen}"))
        .to_string()
}

/// The right-hand pane (items, or related and detail), from its header to its last row.
fn right_pane(screen: &str) -> String {
    screen
        .lines()
        .filter_map(|l| {
            l.split_once("││")
                .map(|(_, r)| r.trim_end_matches('│').trim_end())
        })
        .filter(|l| !l.is_empty())
        .collect::<Vec<_>>()
        .join("\n")
}

/// The items pane's header cells.
fn header(pane: &str) -> Vec<String> {
    let first = pane.lines().next().unwrap_or_default();
    first.split_whitespace().map(str::to_owned).collect()
}

/// `p KEY Enter`: that one collection, with the items pane focused.
fn open_collection(s: &mut Session, key: &str) -> String {
    s.keys("p");
    s.wait_text("partition key");
    s.send(key);
    s.keys("\r");
    let title = format!("Items in {}", &key[..key.len().min(20)]);
    s.wait_for("the collection queried", |sc| {
        sc.contains("Query · 1 page ") && sc.contains(&title)
    });
    s.keys("\t");
    right_pane(&s.settle(Duration::from_millis(200), Duration::from_secs(5)))
}

/// Enter on the selected item: its related collections above its JSON.
fn related(s: &mut Session) -> String {
    s.keys("\r");
    let screen = s.wait_for("the item's related collections", |sc| {
        sc.contains("Related (")
    });
    let pane = right_pane(&screen);
    s.keys("\x1b");
    pane.lines()
        .take_while(|l| !l.starts_with("┌ Item"))
        .collect::<Vec<_>>()
        .join("\n")
}

#[tokio::test]
async fn electrodb_kinds_parts_and_links_are_the_library_s_own() {
    let mut s = open("electrodb_task_manager").await;
    let kinds = kinds_line(&s.screen());
    assert_eq!(kinds, "kinds: task 60 · employee 40 · project 5 · office 3");

    let office = open_collection(&mut s, "$task-manager#country_us#state_or");
    // `$office_1#city_portland#office_portland`: the parts the key names, and the attributes
    // they stand for are not shown again; `__edb_e__` is the kind column.
    assert_eq!(header(&office)[..4], ["kind", "sk", "city", "office"]);
    assert!(
        !header(&office).iter().any(|h| h == "__edb_e__"),
        "{office}"
    );
    assert!(
        office.lines().nth(1).unwrap().starts_with("office "),
        "{office}"
    );

    let task = open_collection(
        &mut s,
        "$task-manager#task_b245caa0-5e05-4af2-9496-b6ba01298926",
    );
    assert_eq!(
        header(&task)[..4],
        ["kind", "sk", "project", "employee"],
        "{task}"
    );
    let task_links = related(&mut s);
    // The task's `employee_…` segment names that employee's collection.
    assert!(
        task_links.contains("$task-manager#employee_e7e38d18-d512-4e58-a4c4-2286e432d8ce"),
        "{task_links}"
    );

    let employee = open_collection(
        &mut s,
        "$task-manager#employee_ce05725c-2900-4ad1-8a69-410de7e26861",
    );
    assert!(
        employee.lines().nth(1).unwrap().starts_with("employee "),
        "{employee}"
    );
    let links = related(&mut s);
    // `manager: 69118bd7-…` names the manager's own collection.
    assert!(
        links.contains("$task-manager#employee_69118bd7-3129-42e4-8f72-4ed04ef7634d")
            && links.contains("value of manager"),
        "{links}"
    );
    insta::assert_snapshot!(
        "electrodb_task_manager",
        format!("{kinds}\n\n{office}\n\n{task}\n\n{task_links}\n\n{employee}\n\n{links}")
    );
}

#[tokio::test]
async fn toolbox_kinds_come_from_its_entity_attribute_and_lines_link_to_products() {
    let mut s = open("toolbox_shop").await;
    let kinds = kinds_line(&s.screen());
    assert_eq!(
        kinds,
        "kinds: orderLine 103 · order 40 · customer 24 · product 10"
    );

    let customer = open_collection(&mut s, "CUSTOMER#1200");
    let rows: Vec<&str> = customer.lines().skip(1).collect();
    // `#PROFILE#1200` is the customer's own record; the rest are its orders.
    assert!(
        rows[0].starts_with("customer ") && rows[0].contains("#PROFILE#1200"),
        "{customer}"
    );
    assert!(
        rows[1..].iter().all(|r| r.starts_with("order ")),
        "{customer}"
    );
    assert!(!header(&customer).iter().any(|h| h == "_et"), "{customer}");
    // Each kind's part is named as the whole scan named it: one customer names nothing alone.
    assert_eq!(header(&customer)[2], "customerId/orderId", "{customer}");

    let order = open_collection(&mut s, "ORDER#01K979DBB8R28TTRDBX8BFTCZH");
    assert!(
        order.lines().skip(1).all(|r| r.starts_with("orderLine ")),
        "{order}"
    );
    let links = related(&mut s);
    assert!(
        links.contains("PRODUCT#"),
        "an order line names its product: {links}"
    );
    insta::assert_snapshot!(
        "toolbox_shop",
        format!("{kinds}\n\n{customer}\n\n{order}\n\n{links}")
    );
}

#[tokio::test]
async fn onetable_kinds_come_from_type_and_a_timestamp_is_one_part() {
    let mut s = open("onetable_game").await;
    let kinds = kinds_line(&s.screen());
    assert_eq!(kinds, "kinds: Score 61 · Match 20 · Player 18 · Game 4");

    // `match:2026-02-15T04:24:52.000Z:01KH…`: the timestamp is one part, named after the
    // attribute holding it, however many `:` it has.
    let game = open_collection(&mut s, "game:g003");
    assert_eq!(
        header(&game)[..4],
        ["kind", "sk", "created", "matchId"],
        "{game}"
    );
    let first_match = game
        .lines()
        .find(|l| l.starts_with("Match "))
        .expect("a match");
    assert!(
        first_match.contains("2026-02-15T04:24:52.000Z  01KHFRPMH0ZGNGWW27XCPHEABA"),
        "{game}"
    );

    let scores = open_collection(&mut s, "match:01KHFRPMH0ZGNGWW27XCPHEABA");
    assert_eq!(header(&scores)[..3], ["kind", "sk", "playerId"], "{scores}");
    let links = related(&mut s);
    assert!(
        links.contains("player:"),
        "a score names its player: {links}"
    );
    insta::assert_snapshot!(
        "onetable_game",
        format!("{kinds}\n\n{game}\n\n{scores}\n\n{links}")
    );
}

fn seed_model(file: &str) {
    corpus::seed_workbench(file);
}

/// Seeds a NoSQL Workbench model file (tests/corpus/workbench/) with `seed --model` and opens
/// its table.
fn open_model(file: &str, table: &str, items: usize) -> Session {
    seed_model(file);
    let args = ["--endpoint-url", local().endpoint.as_str(), table];
    let s = Session::spawn(&args, &[], ROWS, COLS);
    let want = format!("Scan · 1 page · {items} items · all loaded");
    s.wait_for("the whole model loaded", |sc| sc.contains(&want));
    s
}

#[tokio::test]
async fn workbench_timeline_kinds_come_from_entity_type_and_timestamps_stay_whole() {
    let mut s = open_model("social_timeline.json", "Timeline", 55);
    let kinds = kinds_line(&s.screen());
    assert_eq!(kinds, "kinds: post 31 · reaction 16 · user 8");
    // Posts are sort keys that are ISO timestamps: one part each, never split at `:`.
    let user = open_collection(&mut s, "User:UserA");
    let post = user
        .lines()
        .find(|l| l.starts_with("post "))
        .expect("a post");
    assert!(
        post.contains("2023-04-01T08:00:00.001Z  2023-04-01T08:00:00.001Z"),
        "{user}"
    );
    // (Split at `:`, the cells would read `2023-04-01T08`, `00`, `00.001Z`.)
    assert!(
        !post
            .split_whitespace()
            .any(|cell| cell == "00" || cell.ends_with("T08")),
        "{user}"
    );
    // `Post:UserA:2023-04-01T08:00:00.001Z`: two parts, the timestamp whole.
    let reactions = open_collection(&mut s, "Reaction:UserB");
    assert_eq!(
        header(&reactions)[..4],
        ["kind", "SK", "part1", "part2"],
        "{reactions}"
    );
    let row = reactions.lines().nth(1).expect("a reaction");
    assert!(
        row.starts_with("reaction ") && row.contains("UserA  2023-04-01T08:00:00.001Z"),
        "{reactions}"
    );
    insta::assert_snapshot!(
        "workbench_timeline",
        format!("{kinds}\n\n{user}\n\n{reactions}")
    );
}

#[tokio::test]
async fn workbench_adjacency_list_edges_own_records_and_a_sparse_index() {
    let mut s = open_model("shop_adjacency.json", "Shop", 142);
    let kinds = kinds_line(&s.screen());
    assert_eq!(
        kinds,
        "kinds: invoice 60 · line 60 · product 12 · customer 10"
    );
    // `C#933`: its own record `#METADATA#933`, and its invoice edges `I#…`.
    let customer = open_collection(&mut s, "C#933");
    let rows: Vec<&str> = customer.lines().skip(1).collect();
    assert!(
        rows[0].starts_with("customer ") && rows[0].contains("#METADATA#933"),
        "{customer}"
    );
    assert!(
        rows[1..].iter().all(|r| r.starts_with("invoice ")),
        "{customer}"
    );
    let own = related(&mut s);
    // CustomerId holds customers' ids: invoice 933 is another collection by chance only.
    assert!(!own.contains("I#933  table"), "{own}");
    s.keys("j");
    let edge = related(&mut s);
    assert!(
        edge.contains("I#1008  table"),
        "the edge's SK is the invoice's key: {edge}"
    );
    // The invoice's own record is in the KEYS_ONLY shard index; its edge is not.
    let invoice = open_collection(&mut s, "I#933");
    let invoice_links = related(&mut s);
    assert!(
        invoice_links.contains("shard#1  ByShard · the item's ShardKey"),
        "{invoice_links}"
    );
    assert!(
        !invoice_links.contains("shard#5"),
        "Total = 5 names no shard: {invoice_links}"
    );
    assert!(!edge.contains("ByShard"), "an edge has no ShardKey: {edge}");
    insta::assert_snapshot!(
        "workbench_shop_adjacency",
        format!("{kinds}\n\n{customer}\n\n{own}\n\n{edge}\n\n{invoice}\n\n{invoice_links}")
    );
}

/// `dynoscope hotkeys ARGS --output json`.
fn hotkeys(args: &[&str]) -> serde_json::Value {
    let mut full = vec!["hotkeys"];
    full.extend_from_slice(args);
    full.extend(["--output", "json"]);
    serde_json::from_str(&ok(run(&full))).expect("hotkeys prints JSON")
}

fn family_prefixes(report: &serde_json::Value) -> Vec<String> {
    report["shard_families"]
        .as_array()
        .expect("shard_families")
        .iter()
        .map(|f| f["prefix"].as_str().unwrap().to_owned())
        .collect()
}

/// Ids are not write shards: no library design is sharded, on its table or any of its indexes.
#[tokio::test]
async fn hotkeys_finds_no_write_shards_in_the_library_designs() {
    for name in ["electrodb_task_manager", "toolbox_shop", "onetable_game"] {
        let d = design(name);
        let table = table_name(&format!("hk-{}", name.replace('_', "-")));
        corpus::load(&d, &table).await;
        let mut targets = vec![None];
        let indexes = d.table["GlobalSecondaryIndexes"]
            .as_array()
            .cloned()
            .unwrap_or_default();
        targets.extend(
            indexes
                .iter()
                .map(|i| i["IndexName"].as_str().map(str::to_owned)),
        );
        for index in targets {
            let mut args = vec![table.as_str()];
            if let Some(index) = index.as_deref() {
                args.extend(["--index", index]);
            }
            let report = hotkeys(&args);
            assert_eq!(
                family_prefixes(&report),
                Vec::<String>::new(),
                "{name} {index:?}: {report}"
            );
            let advice = report["warnings"].to_string();
            assert!(
                !advice.contains("add a write-shard suffix") || index.is_some(),
                "{name}: {advice}"
            );
        }
    }
}

/// The Workbench shop's KEYS_ONLY `ByShard` index is write-sharded over `shard#1..10`: one
/// family, and no advice to add a suffix it already has.
#[tokio::test]
async fn hotkeys_finds_the_workbench_shard_index_and_only_it() {
    seed_model("shop_adjacency.json");
    let shards = hotkeys(&["Shop", "--index", "ByShard"]);
    assert_eq!(family_prefixes(&shards), ["shard#"], "{shards}");
    let family = &shards["shard_families"][0];
    assert_eq!(
        (family["shards"].as_u64(), family["lowest_suffix"].as_u64()),
        (Some(10), Some(1))
    );
    assert!(
        !shards["warnings"]
            .to_string()
            .contains("add a write-shard suffix"),
        "{shards}"
    );
    // The table's own keys (C#933, I#1001, P#17) are ids.
    let table = hotkeys(&["Shop"]);
    assert_eq!(family_prefixes(&table), Vec::<String>::new(), "{table}");
}
