//! `scan --export` and `hotkeys --export` against the same table in DynamoDB Local: an export
//! written in AWS's documented layout from the table's own Scan, in both formats, must give
//! the same items (as multisets, DynamoDB JSON compared exactly) and the same key report;
//! damaged files are named and the shortfall stated.

use crate::common;
use crate::common::table_export;

use crate::common::export_fixture;

use common::*;
use export_fixture::*;
use table_export::*;

#[test]
fn scan_export_equals_scan_of_the_table_in_both_formats() {
    let f = fixture();
    assert_eq!(f.scanned.len(), 402);
    let want = sorted(&f.scanned.join("\n"));
    for (layout, given) in [
        (&f.json, path(&f.json.folder)),
        (&f.ion, path(&f.ion.folder)),
        // A folder above AWSDynamoDB/<id>/ is accepted too.
        (&f.json, path(&f.json.root)),
    ] {
        for segments in ["1", "3"] {
            let out = ok(run(&[
                "scan",
                "--export",
                &given,
                "--output",
                "ddb-jsonl",
                "--segments",
                segments,
            ]));
            assert_eq!(sorted(&out), want, "{} segments {segments}", layout.id);
        }
    }
}

#[test]
fn filters_projections_and_outputs_are_applied_as_a_scan_applies_them() {
    let f = fixture();
    let reads: [&[&str]; 5] = [
        &[
            "--filter",
            "#s = :s AND #t > :t",
            "--names",
            r##"{"#s":"status","#t":"total"}"##,
            "--values",
            r#"{":s":"SHIPPED",":t":100}"#,
        ],
        &[
            "--filter",
            "attribute_exists(GSI1PK) OR begins_with(PK, :p)",
            "--values",
            r#"{":p":"EVIL"}"#,
            "--projection",
            "PK, SK, #m.deep, #l[2], ns",
            "--names",
            r##"{"#m":"map","#l":"list"}"##,
        ],
        &[
            "--filter",
            "contains(#set, :c) OR size(ns) = :three OR #t BETWEEN :a AND :b",
            "--names",
            r##"{"#set":"set","#t":"total"}"##,
            "--values",
            r#"{":c":"b",":three":3,":a":10,":b":20.5}"#,
        ],
        &["--output", "jsonl"],
        &["--output", "csv", "--columns", "PK,SK,total,bin,set"],
    ];
    for read in reads {
        let mut table_args = vec!["scan", f.table.as_str()];
        table_args.extend_from_slice(read);
        if !read.contains(&"--output") {
            table_args.extend_from_slice(&["--output", "ddb-jsonl"]);
        }
        let want = sorted(&ok(run(&table_args)));
        assert!(!want.is_empty(), "{read:?}");
        for layout in [&f.json, &f.ion] {
            let folder = path(&layout.folder);
            let mut export_args = vec!["scan", "--export", folder.as_str(), "--segments", "2"];
            export_args.extend_from_slice(&table_args[2..]);
            assert_eq!(
                sorted(&ok(run(&export_args))),
                want,
                "{read:?} {}",
                layout.id
            );
        }
    }
    // The JSON array and the table show the same items.
    let json_array = |args: &[&str]| {
        let out = ok(run(args));
        let mut items: Vec<String> = serde_json::from_str::<Vec<serde_json::Value>>(&out)
            .unwrap()
            .iter()
            .map(|v| v.to_string())
            .collect();
        items.sort();
        items
    };
    let folder = path(&f.ion.folder);
    assert_eq!(
        json_array(&["scan", "--export", &folder, "--output", "json"]),
        json_array(&["scan", &f.table, "--output", "json"])
    );
    let table = ok(run(&[
        "scan", "--export", &folder, "--output", "table", "--limit", "5",
    ]));
    assert!(table.lines().next().unwrap().starts_with("PK"), "{table}");
}

#[test]
fn hotkeys_export_equals_hotkeys_of_the_table_and_its_index() {
    let f = fixture();
    for index in [None, Some("GSI1")] {
        let mut table_args = vec!["hotkeys", f.table.as_str(), "--top", "50"];
        if let Some(i) = index {
            table_args.extend_from_slice(&["--index", i]);
        }
        let want = ok(run(&table_args));
        for layout in [&f.json, &f.ion] {
            let folder = path(&layout.folder);
            let mut args = vec![
                "hotkeys",
                "--export",
                folder.as_str(),
                "--top",
                "50",
                "--segments",
                "3",
            ];
            if let Some(i) = index {
                args.extend_from_slice(&["--index", i]);
            }
            assert_eq!(ok(run(&args)), want, "{index:?} {}", layout.id);
        }
    }
    let report: serde_json::Value =
        serde_json::from_str(&ok(run(&["hotkeys", "--export", &path(&f.json.folder)]))).unwrap();
    assert_eq!(report["top"][0]["key"], "TENANT#hot");
    assert_eq!(report["top"][0]["items"], 100);
}

#[test]
fn keys_come_from_the_flag_or_are_inferred_and_said_so() {
    let f = fixture();
    let folder = path(&f.json.folder);
    // A table DynamoDB Local does not have: DescribeTable fails, the keys are inferred.
    let out = run(&["hotkeys", "missing-table", "--export", &folder]);
    let err = stderr(&out);
    assert!(out.status.success(), "{err}");
    assert!(
        err.contains("key schema inferred as PK, SK")
            && err.contains("'missing-table' cannot be described"),
        "{err}"
    );
    let inferred: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    let want: serde_json::Value =
        serde_json::from_str(&ok(run(&["hotkeys", "--export", &folder]))).unwrap();
    assert_eq!(inferred["top"], want["top"]);
    // --key skips DescribeTable (so a GSI is named by its keys).
    let out = run(&[
        "hotkeys",
        "missing-table",
        "--export",
        &folder,
        "--key",
        "PK,SK",
        "--index",
        "GSI1PK,GSI1SK",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(!stderr(&out).contains("inferred"), "{}", stderr(&out));
    let report: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(report["total_items"], 201);
    let bad = run(&["scan", "--export", &folder, "--key", "A,B,C"]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(
        stderr(&bad).contains("--key 'A,B,C' is not PK or PK,SK"),
        "{}",
        stderr(&bad)
    );
}

#[test]
fn damaged_files_are_named_and_the_rest_is_still_reported() {
    let f = fixture();
    let dir = tempfile::tempdir().unwrap();
    let layout = write_full_export(dir.path(), &f.table, Format::DynamoJson, &f.scanned, 4, 1);
    let truncated = truncate(&layout, 0);
    let missing = remove(&layout, 1);
    let replaced = replace_with(&layout, 2, "");
    let folder = path(&layout.folder);
    let out = run(&["scan", "--export", &folder, "--output", "ddb-jsonl"]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(1), "{err}");
    let lines: Vec<&str> = err.lines().collect();
    assert!(
        lines
            .iter()
            .any(|l| l.contains(&format!("'{truncated}' is corrupt after"))),
        "{err}"
    );
    assert!(
        lines
            .iter()
            .any(|l| l.contains(&format!("'{missing}' is missing; its 101 items"))),
        "{err}"
    );
    assert!(
        lines
            .iter()
            .any(|l| l.contains(&format!("'{replaced}' has MD5"))
                && l.contains("; it also holds 0 items but manifest-files.json lists 100")),
        "{err}"
    );
    let written = stdout(&out).lines().count();
    let last = lines.last().unwrap();
    assert!(
        last.starts_with(&format!(
            "error: export incomplete: {written} of the 402 items"
        )),
        "{err}"
    );
    assert!(last.contains("3 of 5 data files had a problem"), "{err}");
    // The untouched file's items are all there.
    assert!(written >= 100, "{written}");
    // hotkeys still prints its report, then fails the same way.
    let out = run(&["hotkeys", "--export", &folder]);
    assert_eq!(out.status.code(), Some(1));
    let report: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(report["total_items"].as_u64().unwrap() as usize, written);
    assert!(stderr(&out)
        .lines()
        .last()
        .unwrap()
        .starts_with("error: export incomplete"));
}

#[test]
fn paths_that_are_not_one_export_are_refused_with_the_fix() {
    let dir = tempfile::tempdir().unwrap();
    let out = run(&["scan", "--export", &path(dir.path())]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("holds no manifest-summary.json"),
        "{}",
        stderr(&out)
    );
    let f = fixture();
    let out = run(&["scan", "--export", &path(&f.json.folder), "--max-rcu", "5"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("--max-rcu has no meaning with --export"));
}

#[test]
fn tail_export_prints_an_incremental_exports_changes_in_write_time_order() {
    use dynoscope::model::exports::table_export::Change;
    use dynoscope::model::item::value::{AttrValue, Item};
    let key = |pk: &str| {
        Item::from_attrs(vec![
            ("PK".into(), AttrValue::S(pk.into())),
            ("SK".into(), AttrValue::S("A".into())),
        ])
    };
    let image = |pk: &str, v: &str| {
        let mut item = key(pk);
        item.insert("v", AttrValue::N(v.into()));
        item.insert("evil", AttrValue::S("\x1b]0;pwned\x07".into()));
        item
    };
    // Written out of time order, and spread over files round-robin.
    let changes: Vec<Change> = [
        (5u64, "HOT", "3"),
        (1, "HOT", "1"),
        (4, "COLD", ""),
        (2, "COLD", "1"),
        (3, "HOT", "2"),
    ]
    .iter()
    .map(|&(t, pk, v)| Change {
        write_micros: 1_764_000_000_000_000 + t,
        keys: key(pk),
        new_image: (!v.is_empty()).then(|| image(pk, v)),
        old_image: (t > 2).then(|| image(pk, "0")),
    })
    .collect();
    let dir = tempfile::tempdir().unwrap();
    for format in [Format::DynamoJson, Format::Ion] {
        let layout = write_incremental_export(dir.path(), "orders-table", format, &changes, 3);
        let folder = path(&layout.folder);
        let out = ok(run(&["tail", "--export", &folder, "--key", "PK,SK"]));
        let lines = lines(&out);
        let seq: Vec<&str> = lines
            .iter()
            .map(|l| l["sequence_number"].as_str().unwrap())
            .collect();
        let want: Vec<String> = (1..=5)
            .map(|t| (1_764_000_000_000_000u64 + t).to_string())
            .collect();
        assert_eq!(seq, want, "{format:?}");
        let events: Vec<&str> = lines.iter().map(|l| l["event"].as_str().unwrap()).collect();
        assert_eq!(events, ["INSERT", "INSERT", "MODIFY", "REMOVE", "MODIFY"]);
        assert_eq!(lines[4]["new_image"]["v"], 3);
        assert!(out.contains("\\u001b]0;pwned\\u0007"), "escaped: {out}");
        let hot = ok(run(&[
            "tail",
            "--export",
            &folder,
            "--key",
            "PK,SK",
            "--follow-key",
            "HOT",
            "--count",
            "2",
            "--output",
            "ddb-jsonl",
        ]));
        let hot = common::lines(&hot);
        assert_eq!(hot.len(), 2);
        assert_eq!(hot[1]["new_image"]["v"]["N"], "2");
        // The other commands say what an incremental export is for.
        let scan = run(&["scan", "--export", &folder, "--key", "PK,SK"]);
        assert!(stderr(&scan)
            .contains("is incremental: it holds changes, not items; read them with tail --export"));
        let removed = remove(&layout, 1);
        let out = run(&["tail", "--export", &folder, "--key", "PK,SK"]);
        assert_eq!(out.status.code(), Some(1));
        assert!(
            stderr(&out).contains(&format!("'{removed}' is missing")),
            "{}",
            stderr(&out)
        );
        assert_eq!(stdout(&out).lines().count(), 3);
    }
}

#[test]
fn hotkeys_athena_prints_the_ddl_and_sql_without_reading_the_files() {
    let f = fixture();
    let dir = tempfile::tempdir().unwrap();
    let layout = write_full_export(dir.path(), &f.table, Format::DynamoJson, &f.scanned, 2, 0);
    // The data files are not needed: only the manifests and DescribeTable.
    remove(&layout, 0);
    remove(&layout, 1);
    let out = ok(run(&[
        "hotkeys",
        "--export",
        &path(&layout.folder),
        "--athena",
        "--top",
        "5",
    ]));
    assert!(
        out.contains(&format!(
            "LOCATION 's3://test-bucket/exports/AWSDynamoDB/{}/data/';",
            layout.id
        )),
        "{out}"
    );
    assert!(
        out.contains(r#"json_extract_scalar(line, '$["Item"]["GSI1PK"]["S"]')"#),
        "{out}"
    );
    assert_eq!(out.matches("LIMIT 5;").count(), 2, "{out}");
}

#[test]
fn hotkeys_export_holds_fixed_memory_past_max_exact_keys_and_states_the_bound() {
    let f = fixture();
    let folder = path(&f.json.folder);
    let out = ok(run(&[
        "hotkeys",
        "--export",
        &folder,
        "--max-exact-keys",
        "8",
        "--top",
        "1",
    ]));
    let report: serde_json::Value = serde_json::from_str(&out).unwrap();
    let a = &report["approximation"];
    assert_eq!(a["max_keys"], 8, "{out}");
    let error = a["max_items_error"].as_u64().unwrap();
    let hot = &report["top"][0];
    assert_eq!(hot["key"], "TENANT#hot");
    let items = hot["items"].as_u64().unwrap();
    assert!((100..=100 + error).contains(&items), "{out}");
    assert_eq!(report["total_items"], 402);
    // Exact when the keys fit: no approximation in the report.
    let exact: serde_json::Value =
        serde_json::from_str(&ok(run(&["hotkeys", "--export", &folder]))).unwrap();
    assert!(exact.get("approximation").is_none());
    let table = ok(run(&[
        "hotkeys",
        "--export",
        &folder,
        "--max-exact-keys",
        "8",
        "--output",
        "table",
    ]));
    assert!(
        table.contains(
            "approximate: more than 8 distinct keys; each key's items over-count by at most"
        ),
        "{table}"
    );
}

/// Issue 54, `model export --export`: the export's files give the design the table's own
/// sample gives (same kinds, same key templates on the table and on GSI1, whose KEYS_ONLY
/// projection is applied to the export's items), and DynamoDB is sent no read: the fault
/// proxy sees the table described and nothing else, and nothing consumed.
#[test]
fn model_export_reads_the_same_design_from_an_export_without_reading_the_table() {
    let f = fixture();
    let live: serde_json::Value = serde_json::from_str(&ok(run(&[
        "model",
        "export",
        &f.table,
        "--output",
        "json",
        "--max-rcu",
        "20",
    ])))
    .unwrap();
    let proxy = common::fault_proxy::FaultProxy::start(
        &local().endpoint,
        common::fault_proxy::FaultConfig::none(),
    );
    let folder = path(&f.json.folder);
    let out = run_at(
        &proxy.url,
        &["model", "export", "--export", &folder, "--output", "json"],
    );
    let err = stderr(&out);
    assert!(out.status.success(), "{err}");
    assert!(err.contains("no read capacity"), "{err}");
    let sent: Vec<String> = proxy.operations().into_keys().collect();
    // The table's description only (its keys and indexes), no data read.
    assert_eq!(
        sent,
        ["DescribeTable", "DescribeTimeToLive"],
        "{}",
        proxy.summary()
    );
    assert_eq!(proxy.consumed_units(), 0.0);
    let exported: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(exported["sampled"], 402, "the export is read whole");
    let kinds = |design: &serde_json::Value| -> std::collections::BTreeMap<String, Vec<String>> {
        design["kinds"]
            .as_array()
            .unwrap()
            .iter()
            .map(|k| {
                let templates = k["keys"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|t| {
                        format!(
                            "{} {} {}",
                            t["index"],
                            t["partition"][0][0]["template"],
                            t["sort"][0][0]["template"]
                        )
                    })
                    .collect();
                (k["name"].as_str().unwrap().to_owned(), templates)
            })
            .collect()
    };
    let (live_kinds, export_kinds) = (kinds(&live), kinds(&exported));
    assert!(live_kinds.contains_key("ORDER"), "{live:#}");
    // The table's sample may miss the two odd items; every kind it found is the export's too.
    for (name, templates) in &live_kinds {
        assert_eq!(
            export_kinds.get(name),
            Some(templates),
            "{name}: {exported:#}"
        );
    }
    let gsi = &exported["indexes"][0];
    assert_eq!(gsi["own_sample"], 201, "{gsi:#}");
    assert_eq!(
        gsi["projected"],
        "KEYS_ONLY: the table's and the index's keys"
    );
}
