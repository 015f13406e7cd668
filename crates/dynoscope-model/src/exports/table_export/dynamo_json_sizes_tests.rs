use proptest::prelude::*;

use super::*;
use crate::exports::table_export::key_sizes::tally_of_item;
use crate::exports::table_export::{parse_dynamo_line, write_dynamo_line, ExportType, Record};
use crate::item::number::validate_number;
use crate::item::value::{AttrValue, Item};

#[path = "dynamo_json_sizes_lines.rs"]
mod lines;
use lines::*;

/// What the full reader and the definition say of `line`: `None` for a line it rejects.
fn full(line: &str, plan: &SizePlan) -> Option<(String, Tally)> {
    match parse_dynamo_line(line, ExportType::Full) {
        Ok(Record::Item(item)) => {
            let mut key = String::new();
            let tally = tally_of_item(&item, plan, &mut key);
            Some((key, tally))
        }
        _ => None,
    }
}

/// What the pass says; its buffer is left as it was when it defers.
fn fast(line: &str, plan: &SizePlan) -> Option<(String, Tally)> {
    let mut key = String::from("before|");
    let mut scratch = SizeScratch::default();
    let tally = tally_full_line(line, plan, &mut key, &mut scratch);
    if tally.is_none() || tally == Some(Tally::Skipped) {
        assert_eq!(key, "before|", "{line}");
    }
    tally.map(|t| (key["before|".len()..].to_string(), t))
}

fn plans() -> Vec<SizePlan> {
    let names = |n: &[&str]| n.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    vec![
        SizePlan::table("PK"),
        SizePlan {
            key: "GSI1PK".into(),
            required: names(&["GSI1PK", "SK"]),
            keep: None,
        },
        SizePlan {
            key: "GSI1PK".into(),
            required: names(&["GSI1PK"]),
            keep: Some(names(&["PK", "SK", "GSI1PK", "x"])),
        },
        // A key the projection drops: the view shows it missing.
        SizePlan {
            key: "x".into(),
            required: Vec::new(),
            keep: Some(names(&["PK"])),
        },
    ]
}

/// Both answers for every plan: the pass gives the full reader's, or defers.
fn agree(line: &str) -> Result<Vec<bool>, TestCaseError> {
    let mut answered = Vec::new();
    for plan in plans() {
        let (fast, full) = (fast(line, &plan), full(line, &plan));
        if fast.is_some() {
            prop_assert_eq!(&fast, &full, "{} {:?}", line, plan);
        }
        answered.push(fast.is_some());
    }
    Ok(answered)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(crate::fixtures::proptest_cases(1000)))]

    /// The DynamoDB JSON writer's own lines: the pass answers whenever it can (no escape in the
    /// line, a key of S, N or B, or none) and agrees with the full reader.
    #[test]
    fn the_pass_reads_written_lines_as_the_full_reader_does(attrs in attrs()) {
        let item = Item::from_attrs(attrs);
        let mut line = String::new();
        write_dynamo_line(&mut line, &item);
        let answered = agree(&line)?;
        let scalar_key = |name: &str| !matches!(
            item.get(name),
            Some(v) if !matches!(v, AttrValue::S(_) | AttrValue::N(_) | AttrValue::B(_))
        );
        let numbers_fit = full(&line, &plans()[0]).is_some();
        if !line.contains('\\') && numbers_fit {
            prop_assert!(!scalar_key("PK") || answered[0], "{}", line);
            prop_assert!(!scalar_key("GSI1PK") || answered[1], "{}", line);
        }
    }

    /// Lines spelled every way JSON allows, and some ways it does not, then damaged: whatever
    /// the pass answers is the full reader's answer; and a valid line whose key and names need
    /// no escape is answered by the pass.
    #[test]
    fn the_pass_agrees_with_the_full_reader_or_defers(
        attrs in attrs(),
        noise in proptest::collection::vec(any::<u8>(), 0..64),
        defects in any::<bool>(),
        at in any::<usize>(), len in any::<usize>(),
        insert in prop_oneof![Just(""), Just(","), Just("\"\""), Just("{"), Just("}"), Just(":"),
            Just("\"S\":\"x\","), Just("\"NULL\":false,"), Just("\"Item\":{},"), Just("1"),
            Just("\\u0053"), Just("\\"), Just("\\ud800"), Just(" "), Just("\u{1}"), Just("é"),
            Just("{\"M\":{}}"), Just("]"), Just("[")],
        damage in any::<bool>(),
    ) {
        let (line, escaped) = spelled(&attrs, &noise, defects);
        let answered = agree(&line)?;
        let item = Item::from_attrs(attrs.clone());
        let names: std::collections::HashSet<_> = attrs.iter().map(|(n, _)| n).collect();
        let plain_key = |key: &str| {
            !escaped.iter().any(|n| n == key)
                && matches!(item.get(key), None | Some(AttrValue::S(_) | AttrValue::N(_) | AttrValue::B(_)))
        };
        // Names JSON must escape, nested ones too, are left to the full reader.
        let simple = !defects && names.len() == attrs.len() && !escaped_name(&attrs);
        if simple && full(&line, &plans()[0]).is_some() {
            prop_assert!(!plain_key("PK") || answered[0], "{}", line);
            prop_assert!(!plain_key("GSI1PK") || answered[1], "{}", line);
        }
        if damage {
            if let Some(damaged) = mutated(&line, at, len, insert) {
                agree(&damaged)?;
            }
        }
    }

    /// The number check without allocations says yes exactly when `validate_number` does.
    #[test]
    fn number_fits_is_validate_number(text in prop_oneof![number(), ".{0,8}"]) {
        prop_assert_eq!(
            crate::item::number::number_fits(&text),
            validate_number(&text).is_ok(),
            "{}", text
        );
    }
}

#[test]
fn typical_lines_are_answered_by_the_pass() {
    let line = r#"{"Item":{"PK":{"S":"TENANT#1#USER#2"},"SK":{"S":"ORDER#1"},"total":{"N":"123.40"},"lines":{"L":[{"M":{"sku":{"S":"SKU-1"},"qty":{"N":"2"}}}]},"tags":{"SS":["gift","rush"]},"b":{"B":"AAH/"},"n":{"NULL":true},"ok":{"BOOL":false}}}"#;
    let plan = SizePlan::table("PK");
    let answer = fast(line, &plan);
    assert_eq!(answer, full(line, &plan));
    // 2+15, 2+7, 5+3, 5+(3+(3+(3+5+1)+(3+2+1))+1), 4+(4+4), 1+3, 1+1, 2+1
    assert_eq!(
        answer,
        Some((
            "TENANT#1#USER#2".to_string(),
            Tally::Counted {
                bytes: 17 + 9 + 8 + 27 + 12 + 4 + 2 + 3
            }
        ))
    );
    let binary_key = r#"{"Item":{"PK":{"B":"AAE="}}}"#;
    assert_eq!(fast(binary_key, &plan), full(binary_key, &plan));
    assert_eq!(fast(binary_key, &plan).unwrap().0, "AAE=");
}

#[test]
fn odd_lines_are_left_to_the_full_reader() {
    let plan = SizePlan::table("PK");
    for line in [
        // Read alike by the full reader, but not by the pass.
        r#"{"Item":{"a":{"S":"1"},"a":{"N":"2"}}}"#,
        r#"{"Item":{"a":{"NULL":false}}}"#,
        r#"{"Other":1,"Item":{"a":{"S":"x"}}}"#,
        r#"{"Item":{"\u0050K":{"S":"x"}}}"#,
        r#"{"Item":{"PK":{"S":"a\"b"}}}"#,
        r#"{"Item":{"PK":{"M":{}}}}"#,
        // Not lines at all.
        r#"{"Item":{"a":{"S":"1","S":"2"}}}"#,
        r#"{"Item":{"a":{"S":"\ud800"}}}"#,
        r#"{"Item":{"a":{"N":"1e999"}}}"#,
        r#"{"Item":{"a":{"B":"!"}}}"#,
        r#"{"Item":{}} x"#,
        r#"{"Item":null}"#,
        "[1]",
        "",
    ] {
        assert_eq!(fast(line, &plan), None, "{line}");
    }
}
