use super::*;
use crate::formats::json::{append_plain_json, parse_dynamo_item, plain_to_attr};
use crate::item::value::{AttrValue, Item};
use crate::text::cell::cell_text;

const BIG: &str = "12345678901234567890123456789012345678";
const TINY: &str = "-0.00000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000001";

/// Every type, 38-digit and tiny numbers, binary that is no text, and strings full of what a
/// terminal, a JSON parser or a CSV reader could trip on.
pub(crate) fn typed_and_hostile() -> Vec<Item> {
    let s = |v: &str| AttrValue::S(v.to_string());
    let nested = Item::from_attrs(vec![
        (
            "inner".into(),
            AttrValue::L(vec![AttrValue::Null, AttrValue::Bool(false)]),
        ),
        ("quote\"d".into(), s("a,b\r\nc")),
    ]);
    vec![
        Item::from_attrs(vec![
            ("PK".into(), s("TYPES#1")),
            ("SK".into(), s("ALL")),
            ("big".into(), AttrValue::N(BIG.into())),
            ("neg".into(), AttrValue::N(format!("-{BIG}"))),
            ("tiny".into(), AttrValue::N(TINY.into())),
            ("bin".into(), AttrValue::B(vec![0, 1, 0xff, 0x1b, b'\n'])),
            ("ss".into(), AttrValue::Ss(vec!["x".into(), "y,z".into()])),
            ("ns".into(), AttrValue::Ns(vec!["1".into(), BIG.into()])),
            ("bs".into(), AttrValue::Bs(vec![vec![1], vec![2, 3]])),
            ("map".into(), AttrValue::M(nested)),
            (
                "list".into(),
                AttrValue::L(vec![AttrValue::N("3.14".into()), s("")]),
            ),
            ("nul".into(), AttrValue::Null),
            ("yes".into(), AttrValue::Bool(true)),
        ]),
        Item::from_attrs(vec![
            ("PK".into(), s("EVIL#\u{1b}[2J\u{1b}]0;pwned\u{7}")),
            ("SK".into(), s("cr\rnul\0del\u{7f}tab\tc1\u{9b}end")),
            ("bidi".into(), s("invoice\u{202e}fdp.exe")),
            ("csv".into(), s("\"quoted\", comma\nnewline")),
            ("wide".into(), s("漢字テキスト🦀中文")),
            ("name\u{1b}[31mred".into(), s("an escape in a name")),
        ]),
        Item::from_attrs(vec![("PK".into(), s("SPARSE")), ("SK".into(), s("1"))]),
    ]
}

fn encode(format: ExportFormat, columns: Vec<String>, items: &[Item]) -> (Vec<u8>, ItemEncoder) {
    let mut encoder = ItemEncoder::new(format, columns);
    let mut out = Vec::new();
    // Two calls, as pages arrive: the header and separators must still come out right.
    encoder.encode(&items[..1], &mut out);
    encoder.encode(&items[1..], &mut out);
    encoder.finish(&mut out);
    (out, encoder)
}

fn plain(item: &Item) -> String {
    let mut line = String::new();
    append_plain_json(&mut line, item);
    line
}

#[test]
fn ddb_jsonl_gives_back_every_type_exactly() {
    let items = typed_and_hostile();
    let (out, encoder) = encode(ExportFormat::DdbJsonl, Vec::new(), &items);
    assert_eq!(encoder.items(), 3);
    let text = String::from_utf8(out).unwrap();
    assert!(!text.contains('\u{1b}'), "escapes stay escaped: {text}");
    let back: Vec<Item> = text
        .lines()
        .map(|l| parse_dynamo_item(l).unwrap())
        .collect();
    assert_eq!(back, items);
}

#[test]
fn jsonl_and_json_give_back_the_same_plain_json_byte_for_byte() {
    let items = typed_and_hostile();
    let (jsonl, _) = encode(ExportFormat::Jsonl, Vec::new(), &items);
    let jsonl = String::from_utf8(jsonl).unwrap();
    let (json, _) = encode(ExportFormat::Json, Vec::new(), &items);
    let json = String::from_utf8(json).unwrap();
    assert!(json.starts_with("[\n") && json.ends_with("\n]\n"), "{json}");

    let lines: Vec<&str> = jsonl.lines().collect();
    let array: serde_json::Value = serde_json::from_str(&json).unwrap();
    let array = array.as_array().unwrap();
    assert_eq!((lines.len(), array.len()), (3, 3));
    for ((item, line), element) in items.iter().zip(&lines).zip(array) {
        assert_eq!(*line, plain(item));
        // Parsed and written again: the same bytes, numbers to the last digit.
        let parsed: serde_json::Value = serde_json::from_str(line).unwrap();
        assert_eq!(&parsed, element);
        let AttrValue::M(again) = plain_to_attr(parsed).unwrap() else {
            panic!("an object")
        };
        assert_eq!(plain(&again), *line);
    }
    assert!(jsonl.contains(&format!("\"big\":{BIG}")), "{jsonl}");
    assert!(jsonl.contains(&format!("\"tiny\":{TINY}")), "{jsonl}");
}

#[test]
fn an_empty_export_is_still_a_valid_file() {
    let (json, _) = encode_nothing(ExportFormat::Json, Vec::new());
    assert_eq!(json, b"[]\n");
    let (csv, _) = encode_nothing(ExportFormat::Csv, vec!["PK".into(), "SK".into()]);
    assert_eq!(csv, b"PK,SK\r\n");
    assert!(encode_nothing(ExportFormat::Jsonl, Vec::new()).0.is_empty());
}

fn encode_nothing(format: ExportFormat, columns: Vec<String>) -> (Vec<u8>, ItemEncoder) {
    let mut encoder = ItemEncoder::new(format, columns);
    let mut out = Vec::new();
    encoder.encode(&[], &mut out);
    encoder.finish(&mut out);
    (out, encoder)
}

#[test]
fn csv_read_back_by_the_crates_reader_gives_the_same_cells() {
    let items = typed_and_hostile();
    let keys = vec!["PK".to_string(), "SK".to_string()];
    let columns = all_attributes(&keys, &items);
    assert_eq!(&columns[..2], ["PK", "SK"]);
    assert_eq!(columns.len(), 2 + 11 + 4);
    let (out, encoder) = encode(ExportFormat::Csv, columns.clone(), &items);
    assert!(encoder.left_out().is_empty());
    let mut reader = csv::ReaderBuilder::new().from_reader(out.as_slice());
    let header: Vec<String> = reader.headers().unwrap().iter().map(String::from).collect();
    assert_eq!(header, columns);
    let rows: Vec<Vec<String>> = reader
        .records()
        .map(|r| r.unwrap().iter().map(String::from).collect())
        .collect();
    assert_eq!(rows.len(), items.len());
    for (item, row) in items.iter().zip(&rows) {
        for (column, cell) in columns.iter().zip(row) {
            let want = item.get(column).map(cell_text).unwrap_or_default();
            assert_eq!(*cell, want, "column {column:?}");
        }
    }
    assert_eq!(
        rows[0][columns.iter().position(|c| c == "big").unwrap()],
        BIG
    );
}

#[test]
fn csv_reports_attributes_no_column_holds() {
    let items = typed_and_hostile();
    let columns = csv_columns(&["PK".into(), "SK".into()], &["yes".into(), "PK".into()]);
    assert_eq!(columns, ["PK", "SK", "yes"]);
    let (out, encoder) = encode(ExportFormat::Csv, columns, &items);
    assert_eq!(encoder.left_out()[0], "big");
    assert!(encoder.left_out().contains(&"bidi".to_string()));
    let text = String::from_utf8(out).unwrap();
    // A CR inside a cell is quoted, so it ends no record.
    assert!(text.contains("\"cr\rnul\0del"), "{text}");
    assert_eq!(text.matches("\r\n").count(), 1 + 3, "{text}");
}
