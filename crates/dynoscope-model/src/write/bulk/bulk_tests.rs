use super::cost::item_cost;
use super::journal::{self, Header, Outcome};
use super::preview::{self, Report};
use super::*;
use crate::query::partiql::fixtures::app;
use crate::query::partiql::parse_write;

fn s(v: &str) -> AttrValue {
    AttrValue::S(v.into())
}

fn item(pairs: &[(&str, AttrValue)]) -> Item {
    Item::from_attrs(
        pairs
            .iter()
            .map(|(n, v)| (n.to_string(), v.clone()))
            .collect(),
    )
}

#[test]
fn an_update_sets_and_removes_and_a_delete_leaves_nothing() {
    let info = app();
    let stmt =
        parse_write("UPDATE app SET status = 'DONE', total = 12.5 REMOVE note WHERE PK = 'a'")
            .unwrap();
    let set = stmt.bound_set(&[]);
    check_change(&stmt, &set, &info).unwrap();
    let before = item(&[
        ("PK", s("a")),
        ("SK", s("1")),
        ("status", s("NEW")),
        ("total", s("12.5")),
        ("note", s("x")),
    ]);
    let planned = plan_items(&stmt, &set, vec![before.clone()]);
    let after = planned[0].after.as_ref().unwrap();
    assert_eq!(after.get("status"), Some(&s("DONE")));
    assert_eq!(after.get("total"), Some(&AttrValue::N("12.5".into())));
    assert_eq!(after.get("note"), None);
    assert!(!planned[0].unchanged());
    let del = parse_write("DELETE FROM app WHERE PK = 'a'").unwrap();
    assert_eq!(plan_items(&del, &[], vec![before])[0].after, None);
}

#[test]
fn key_attributes_and_mistyped_index_keys_are_refused() {
    let info = app();
    let stmt = parse_write("UPDATE app SET SK = 'b' WHERE PK = 'a'").unwrap();
    let err = check_change(&stmt, &stmt.bound_set(&[]), &info).unwrap_err();
    assert!(err.contains("'SK' is a key attribute"), "{err}");
    let stmt = parse_write("UPDATE app SET GSI1PK = 5 WHERE PK = 'a'").unwrap();
    let err = check_change(&stmt, &stmt.bound_set(&[]), &info).unwrap_err();
    assert!(err.contains("must be of type S"), "{err}");
}

#[test]
fn statements_the_bulk_writer_cannot_run_are_refused_with_the_reason() {
    for (text, want) in [
        ("UPDATE app SET a.b = 1 WHERE PK = 'a'", "nested path"),
        ("UPDATE app SET a = b WHERE PK = 'a'", "takes a value"),
        ("UPDATE app WHERE PK = 'a'", "SET or REMOVE"),
        ("UPDATE app SET a = 1, a = 2 WHERE PK = 'a'", "SET twice"),
        (
            "UPDATE app SET a = 1 REMOVE a WHERE PK = 'a'",
            "both SET and REMOVEd",
        ),
        ("DELETE app WHERE PK = 'a'", "FROM"),
        (
            "DELETE FROM app WHERE PK = 'a' LIMIT 3",
            "end of the statement",
        ),
    ] {
        let err = parse_write(text).unwrap_err();
        assert!(err.message.contains(want), "{text}: {}", err.message);
    }
    let stmt = parse_write("UPDATE \"app\".\"GSI1\" SET GSI1PK = ? WHERE GSI1PK = ?").unwrap();
    assert_eq!(stmt.select.parameters, 2);
    assert_eq!(stmt.select.index.as_deref(), Some("GSI1"));
    assert_eq!(
        stmt.bound_set(&[s("x"), s("y")]),
        vec![("GSI1PK".to_string(), s("x"))]
    );
}

#[test]
fn the_cost_counts_the_larger_image_and_each_index_entry_touched() {
    let info = app();
    let big = "x".repeat(1500);
    let before = item(&[
        ("PK", s("a")),
        ("SK", s("1")),
        ("GSI1PK", s("g")),
        ("GSI1SK", s("h")),
        ("v", s(&big)),
    ]);
    // A re-keyed index entry is a delete and a put.
    let mut after = before.clone();
    after.insert("GSI1PK", s("g2"));
    let cost = item_cost(&info, &before, Some(&after));
    assert_eq!(cost.table, 2.0);
    assert_eq!(cost.indexes, vec![("GSI1".to_string(), 4.0)]);
    // Leaving the (sparse) index is one delete of the entry; a delete costs the item deleted.
    let cost = item_cost(&info, &before, None);
    assert_eq!(
        (cost.table, cost.indexes.clone()),
        (2.0, vec![("GSI1".to_string(), 2.0)])
    );
    // An attribute outside every index: the table only, at least one unit.
    let small = item(&[("PK", s("a")), ("SK", s("1"))]);
    let mut changed = small.clone();
    changed.insert("z", s("1"));
    let cost = item_cost(&info, &small, Some(&changed));
    assert_eq!((cost.table, cost.indexes.len()), (1.0, 0));
}

#[test]
fn the_journal_reads_back_and_a_cut_last_line_leaves_its_item_unfinished() {
    let info = app();
    let header = Header {
        verb: "UPDATE".into(),
        statement: "UPDATE app SET a = 1 WHERE PK = 'a'".into(),
        parameters: None,
        table: "app".into(),
        endpoint: "http://localhost:8000".into(),
    };
    let items: Vec<BulkItem> = (0..3)
        .map(|i| {
            let before = item(&[
                ("PK", s("a")),
                ("SK", s(&i.to_string())),
                (
                    "n",
                    AttrValue::N("12345678901234567890.123456789012345678".into()),
                ),
            ]);
            let mut after = before.clone();
            after.insert("a", AttrValue::N("1".into()));
            BulkItem {
                before,
                after: Some(after),
            }
        })
        .collect();
    let mut text = journal::header_line(&header);
    for (n, it) in items.iter().enumerate() {
        text.push_str(&journal::item_line(n, &it.key(&info), it));
    }
    text.push_str(&journal::planned_line(3));
    text.push_str(&journal::outcome_line(0, &Outcome::Written));
    text.push_str(&journal::outcome_line(
        1,
        &Outcome::Failed("throttled".into()),
    ));
    text.push_str("{\"n\":2,\"outc");
    let j = journal::parse(&text).unwrap();
    assert_eq!(j.header, header);
    assert_eq!(
        j.items, items,
        "images read back exactly, 38-digit numbers too"
    );
    assert_eq!(j.planned, Some(3));
    assert_eq!(j.unfinished(), vec![1, 2]);
    // Without the planned line nothing was written, and resume must say so.
    let cut = text.split("{\"planned\"").next().unwrap();
    assert_eq!(journal::parse(cut).unwrap().planned, None);
    assert!(journal::parse("{\"x\":1}\n")
        .unwrap_err()
        .contains("not a dynoscope bulk journal"));
}

/// A write DynamoDB refused for good is journaled as a failure marked permanent: read back it
/// is settled (a resumed run leaves it), and a reader that predates the mark sees "failed".
#[test]
fn a_permanent_failure_is_settled_and_reads_as_failed_without_the_mark() {
    let line = journal::outcome_line(0, &Outcome::Refused("ValidationException".into()));
    assert!(
        line.contains("\"outcome\":\"failed\",\"permanent\":true"),
        "{line}"
    );
    let header = journal::header_line(&Header {
        verb: "UPDATE".into(),
        statement: "UPDATE app SET a = 1 WHERE PK = 'a'".into(),
        parameters: None,
        table: "app".into(),
        endpoint: "http://localhost:8000".into(),
    });
    let item = BulkItem {
        before: Item::from_attrs(vec![("PK".into(), AttrValue::S("a".into()))]),
        after: None,
    };
    let key = item.before.clone();
    let text = format!(
        "{header}{}{}{line}",
        journal::item_line(0, &key, &item),
        journal::planned_line(1)
    );
    let j = journal::parse(&text).unwrap();
    assert_eq!(
        j.outcomes[0],
        Some(Outcome::Refused("ValidationException".into()))
    );
    assert!(j.unfinished().is_empty());
    let unmarked = text.replace(",\"permanent\":true", "");
    assert_eq!(journal::parse(&unmarked).unwrap().unfinished(), vec![0]);
}

#[test]
fn the_dry_run_shows_types_and_units_as_text_and_valid_json() {
    let info = app();
    let stmt = parse_write("UPDATE app SET amount = 12.5 WHERE PK = 'a'").unwrap();
    let before = item(&[("PK", s("a")), ("SK", s("1")), ("amount", s("12.5\u{1b}"))]);
    let same = item(&[
        ("PK", s("a")),
        ("SK", s("2")),
        ("amount", AttrValue::N("12.5".into())),
    ]);
    let items = plan_items(&stmt, &stmt.bound_set(&[]), vec![before, same]);
    let summary = preview::summarize(&info, &items);
    assert_eq!(
        (summary.matched, summary.to_write, summary.unchanged),
        (2, 1, 1)
    );
    let report = Report {
        verb: "UPDATE",
        table: "app",
        read: "Query",
        info: &info,
        items: &items,
        summary: &summary,
        rate: Some(2.0),
    };
    let text = preview::text(&report);
    assert!(
        text.contains(r#"amount: {"S":"12.5\u001b"} → {"N":"12.5"}"#),
        "{text}"
    );
    assert!(text.contains("about 0.5 s"), "{text}");
    let json: serde_json::Value = serde_json::from_str(&preview::json(&report)).unwrap();
    assert_eq!(json["wcu"]["total"], 1.0);
    assert_eq!(json["sample"][0]["changes"][0]["new"]["N"], "12.5");
}
