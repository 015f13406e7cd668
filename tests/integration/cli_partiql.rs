//! Headless `partiql` against DynamoDB Local: a scan-shaped statement refused with its
//! estimate and the GSI that serves it, the same read on the GSI run as a Query with its
//! capacity in --stats, several Queries (an IN or an OR of keys) merged in sort-key order, EXPLAIN, and what is refused or sent as is.
//! Here too, on the same demo table, `describe --sample`'s synthetic-key advice: GSI1's
//! `STATUS#<status>` / `<date>#ORDER#<id>` keys are the multi-attribute key status, date + orderId.

use crate::common;

use common::*;

fn demo() -> &'static str {
    shared_demo(60)
}

fn partiql(args: &[&str]) -> std::process::Output {
    let mut all = vec!["partiql"];
    all.extend_from_slice(args);
    run(&all)
}

#[test]
fn a_scan_shaped_statement_is_refused_with_its_estimate_and_the_gsi_that_serves_it() {
    let table = demo();
    let statement = format!("SELECT * FROM \"{table}\" WHERE status = 'SHIPPED'");
    // The index advice comes from a sample only when asked for (--sample): its note, then
    // the one line of the refusal.
    let out = partiql(&[&statement, "--sample"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stdout(&out).is_empty());
    let all = stderr(&out);
    assert_eq!(all.lines().count(), 2, "a note and one line: {all}");
    let err = all.lines().last().unwrap_or_default().to_string();
    assert!(
        err.contains("refused: this statement is a Scan of the whole table — estimated "),
        "{err}"
    );
    assert!(
        err.contains("GSI1 serves it for the items it holds (")
            && err.contains(&format!(
            "sampled matches): SELECT * FROM \"{table}\".\"GSI1\" WHERE \"GSI1PK\" = 'STATUS#SHIPPED' AND \"status\" = 'SHIPPED'"
        )),
        "{err}"
    );
    assert!(err.contains("add --allow-scan"), "{err}");
}

#[test]
fn the_same_read_on_the_gsi_runs_as_a_query_with_its_capacity_in_stats() {
    let table = demo();
    let statement = format!(
        "SELECT * FROM \"{table}\".\"GSI1\" WHERE GSI1PK = 'STATUS#SHIPPED' AND status = 'SHIPPED'"
    );
    let out = partiql(&[&statement, "--stats"]);
    let stats = stats(&out);
    let items = lines(&ok(out));
    assert!(!items.is_empty());
    assert!(items.iter().all(|i| i["status"] == "SHIPPED"));
    assert!(
        stats["consumed_capacity"]["total"].as_f64().unwrap() > 0.0,
        "{stats}"
    );
    assert!(
        stats["consumed_capacity"]["indexes"]["GSI1"]
            .as_f64()
            .unwrap()
            > 0.0,
        "{stats}"
    );
    // Exactly what `query` returns for the same key, and no more was read than it reads.
    let query = run(&[
        "query",
        table,
        "--index",
        "GSI1",
        "--pk",
        "STATUS#SHIPPED",
        "--stats",
    ]);
    let query_stats = common::stats(&query);
    assert_eq!(lines(&ok(query)), items);
    assert_eq!(stats["scanned_count"], query_stats["scanned_count"]);
}

#[test]
fn with_allow_scan_it_runs_as_a_scan_and_parameters_bind() {
    let table = demo();
    let statement = format!("SELECT PK, status FROM \"{table}\" WHERE status = ?");
    let out = partiql(&[
        &statement,
        "--parameters",
        r#"[{"S":"SHIPPED"}]"#,
        "--allow-scan",
        "--segments",
        "2",
        "--stats",
    ]);
    let stats = stats(&out);
    let items = lines(&ok(out));
    let scanned = lines(&ok(run(&[
        "scan",
        table,
        "--filter",
        "#s = :s",
        "--names",
        r##"{"#s":"status"}"##,
        "--values",
        r#"{":s":"SHIPPED"}"#,
    ])));
    assert_eq!(items.len(), scanned.len());
    assert!(items
        .iter()
        .all(|i| i.as_object().unwrap().len() == 2 && i["status"] == "SHIPPED"));
    assert!(stats["scanned_count"].as_u64().unwrap() > items.len() as u64);
}

/// `GSI1SK` of each item, checking the items are in descending sort-key order across both keys
/// (merged as sharded reads are), and each status appears.
fn merged_descending(items: &[serde_json::Value]) {
    let sks: Vec<&str> = items
        .iter()
        .map(|i| i["GSI1SK"].as_str().unwrap())
        .collect();
    let mut sorted = sks.clone();
    sorted.sort_by(|a, b| b.cmp(a));
    assert_eq!(sks, sorted);
    assert!(items.iter().any(|i| i["status"] == "DELIVERED"));
    assert!(items.iter().any(|i| i["status"] == "SHIPPED"));
    // The two keys interleave: not one partition, then the other.
    let first = &items[0]["GSI1PK"];
    let switches = items
        .windows(2)
        .filter(|w| w[0]["GSI1PK"] != w[1]["GSI1PK"])
        .count();
    assert!(switches > 1, "first {first}: {switches} switches");
}

#[test]
fn in_on_the_partition_key_is_several_queries_merged_in_sort_key_order() {
    let table = demo();
    let statement = format!(
        "SELECT * FROM \"{table}\".\"GSI1\" WHERE GSI1PK IN ['STATUS#SHIPPED', 'STATUS#DELIVERED'] ORDER BY GSI1SK DESC"
    );
    let out = partiql(&[&statement, "--stats"]);
    let stats = stats(&out);
    let items = lines(&ok(out));
    merged_descending(&items);
    assert!(stats["requests"].as_u64().unwrap() >= 2, "{stats}");
}

#[test]
fn an_or_of_partition_keys_is_the_same_queries_as_in() {
    let table = demo();
    let or = format!(
        "SELECT * FROM \"{table}\".\"GSI1\" WHERE (GSI1PK = 'STATUS#SHIPPED' OR GSI1PK = 'STATUS#DELIVERED') AND GSI1SK > '2' ORDER BY GSI1SK DESC"
    );
    let in_ = format!(
        "SELECT * FROM \"{table}\".\"GSI1\" WHERE GSI1PK IN ['STATUS#SHIPPED', 'STATUS#DELIVERED'] AND GSI1SK > '2' ORDER BY GSI1SK DESC"
    );
    // Not refused as a scan: Queries, with no --allow-scan.
    let out = partiql(&[&or, "--stats"]);
    let stats = stats(&out);
    let items = lines(&ok(out));
    merged_descending(&items);
    assert!(items.iter().all(|i| i["GSI1SK"].as_str().unwrap() > "2"));
    assert_eq!(items, lines(&ok(partiql(&[&in_]))));
    // Two Queries read only their keys' items, not the table.
    assert_eq!(
        stats["scanned_count"].as_u64(),
        Some(items.len() as u64),
        "{stats}"
    );
    let text = ok(partiql(&[&or, "--explain"]));
    assert!(
        text.starts_with("2 Queries on GSI1, merged in sort-key order: #pk = :pk AND #sk > :sk\n"),
        "{text}"
    );
    assert!(
        text.contains("DynamoDB's own ExecuteStatement would scan the whole index GSI1 for an OR of partition keys"),
        "{text}"
    );
    // Any other OR is still a scan, refused without --allow-scan.
    let other = format!(
        "SELECT * FROM \"{table}\".\"GSI1\" WHERE GSI1PK = 'STATUS#SHIPPED' OR status = 'SHIPPED'"
    );
    let out = partiql(&[&other]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("refused: this statement is a Scan of the whole index GSI1"));
}

#[test]
fn explain_says_what_it_reads_and_sends_nothing() {
    let table = demo();
    let statement =
        format!("SELECT * FROM \"{table}\" WHERE PK = 'USER#u0001' AND begins_with(SK, 'ORDER#')");
    let text = ok(partiql(&[&statement, "--explain"]));
    assert!(
        text.starts_with(&format!(
            "Query on table '{table}': #pk = :pk AND begins_with(#sk, :sk)\n"
        )),
        "{text}"
    );
    for dialect in [
        "── aws-cli ──",
        "── aws-cli (PartiQL) ──",
        "── PartiQL ──",
        "── boto3 ──",
        "── AWS SDK for JavaScript v3 ──",
        "── aws-sdk-rust ──",
    ] {
        assert!(text.contains(dialect), "{dialect}: {text}");
    }
    let scan = format!("SELECT * FROM \"{table}\" WHERE total > 100");
    let text = ok(partiql(&[&scan, "--explain"]));
    assert!(
        text.starts_with("Scan of the whole table — estimated "),
        "{text}"
    );
}

#[test]
fn writes_are_refused_and_untranslated_selects_need_allow_scan() {
    let table = demo();
    let insert = format!("INSERT INTO \"{table}\" VALUE {{'PK': 'x', 'SK': 'y'}}");
    let out = partiql(&[&insert]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("writes go through the explorer's conditional edits"),
        "{}",
        stderr(&out)
    );

    let odd = format!("SELECT * FROM \"{table}\" WHERE PK = 'USER#u0001' AND total IS NULL");
    let out = partiql(&[&odd]);
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(
        err.contains("not translated: IS NULL is not translated"),
        "{err}"
    );
    assert!(
        err.contains(
            "what it reads cannot be shown beforehand (it runs page by page under --max-rcu"
        ),
        "{err}"
    );
    let out = partiql(&[&odd, "--allow-scan"]);
    let err = stderr(&out);
    ok(out);
    assert!(err.contains("sending it as ExecuteStatement"), "{err}");
}

#[test]
fn bad_statements_fail_in_one_line_naming_the_token() {
    let out = partiql(&["SELECT * FROM \"x-table\" WHERE a = 'open"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("never closed"), "{}", stderr(&out));
    let table = demo();
    let statement = format!("SELECT * FROM \"{table}\".\"GSI9\" WHERE PK = 'a'");
    let out = partiql(&[&statement]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("index 'GSI9' not found"),
        "{}",
        stderr(&out)
    );
}

/// Statements nested past the parser's bound (they overflowed its stack: exit 134, and in the
/// explorer a terminal left in the alternate screen) are refused before anything is sent:
/// exit 2, one line. The endpoint does not listen, so a request would fail with exit 1.
#[test]
fn deeply_nested_statements_exit_2_in_one_line_before_anything_is_sent() {
    let shapes = [
        format!(
            "SELECT * FROM t WHERE {}a = 1{}",
            "(".repeat(8_000),
            ")".repeat(8_000)
        ),
        format!("SELECT * FROM t WHERE {}a = 1", "NOT ".repeat(30_000)),
        format!("SELECT * FROM t WHERE a = {}", "[".repeat(60_000)),
        format!("SELECT * FROM t WHERE a = {}", "{'k':".repeat(20_000)),
    ];
    for statement in &shapes {
        let out = run_raw(
            &["--endpoint-url", "http://127.0.0.1:1", "partiql", statement],
            &[],
        );
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{err}");
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.contains("nested deeper than 64 levels"), "{err}");
        assert!(stdout(&out).is_empty());
    }
}

#[test]
fn duplicate_struct_keys_and_set_elements_exit_2_in_one_line() {
    for (statement, needle) in [
        (
            "SELECT * FROM t WHERE a = {'k':1,'k':2}",
            "names the key 'k' twice",
        ),
        ("SELECT * FROM t WHERE a = <<1,1>>", "holds 1 twice"),
    ] {
        let out = run_raw(
            &["--endpoint-url", "http://127.0.0.1:1", "partiql", statement],
            &[],
        );
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{err}");
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.contains(needle), "{err}");
    }
}

#[test]
fn describe_with_a_sample_says_which_multi_attribute_key_replaces_gsi1_s_synthetic_keys() {
    let table = demo();
    let out = run(&["describe", table, "--sample", "--max-rcu", "5"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let described: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    let advice = described["synthetic_keys"]
        .as_array()
        .expect("synthetic_keys");
    let keyed: Vec<&serde_json::Value> = advice.iter().filter(|a| !a["key"].is_null()).collect();
    assert_eq!(keyed.len(), 1, "{advice:#?}");
    let gsi1 = keyed[0];
    assert_eq!(gsi1["index"], "GSI1");
    assert_eq!(gsi1["replaces"], serde_json::json!(["GSI1PK", "GSI1SK"]));
    assert_eq!(
        gsi1["key"],
        serde_json::json!({
            "partition": [{"name": "status", "type": "S"}],
            "sort": [{"name": "date", "type": "S"}, {"name": "orderId", "type": "S"}]
        })
    );
    // A verdict from a sample names its size, and the sample kept to its budget.
    let all = stderr(&out);
    let read = gsi1["read"].as_u64().unwrap();
    assert!(
        read > 0 && gsi1["items"].as_u64().unwrap() <= read,
        "{gsi1}"
    );
    assert!(
        all.contains(&format!(
            "note: read a sample of {read} items of '{table}' for "
        )),
        "{all}"
    );
    assert!(
        all.contains("advice: GSI GSI1: GSI1PK = STATUS#{status}, GSI1SK = {date}#ORDER#{orderId} are concatenations"),
        "{all}"
    );
}
