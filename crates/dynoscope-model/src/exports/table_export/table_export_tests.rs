use proptest::prelude::*;

use super::ion::plain_number;
use super::*;
use crate::item::number::parse as parse_number;
use crate::item::value::{AttrValue, Item};

fn s(v: &str) -> AttrValue {
    AttrValue::S(v.to_string())
}

fn n(v: &str) -> AttrValue {
    AttrValue::N(v.to_string())
}

fn item(attrs: Vec<(&str, AttrValue)>) -> Item {
    Item::from_attrs(attrs.into_iter().map(|(k, v)| (k.to_string(), v)).collect())
}

fn full_item(record: Record) -> Item {
    match record {
        Record::Item(item) => item,
        Record::Change(c) => panic!("a change, not an item: {c:?}"),
    }
}

/// The example line of AWS's guide ("DynamoDB table export output format", Ion).
#[test]
fn the_guides_ion_example_reads_with_every_number_as_scan_returns_it() {
    let line = r#"$ion_1_0 {Item:{Authors:$dynamodb_SS::["Author1","Author2"],Dimensions:"8.5 x 11.0 x 1.5",ISBN:"333-3333333333",Id:103.,InPublication:false,PageCount:6d2,Price:2d3,ProductCategory:"Book",Title:"Book 103 Title"}}"#;
    let got = full_item(parse_ion_line(line, ExportType::Full).unwrap());
    let want = item(vec![
        (
            "Authors",
            AttrValue::Ss(vec!["Author1".into(), "Author2".into()]),
        ),
        ("Dimensions", s("8.5 x 11.0 x 1.5")),
        ("ISBN", s("333-3333333333")),
        ("Id", n("103")),
        ("InPublication", AttrValue::Bool(false)),
        ("PageCount", n("600")),
        ("Price", n("2000")),
        ("ProductCategory", s("Book")),
        ("Title", s("Book 103 Title")),
    ]);
    assert_eq!(got, want);
}

#[test]
fn ion_values_of_every_type_and_spelling() {
    let line = "$ion_1_0 {Item:{ 'quoted name':\"a\\\"b\\u00e9\\x07\\U0001F980\", \"string name\" : null.string,\
        b:{{ AAH/ }},bs:$dynamodb_BS::[{{AA==}},{{/w==}}],ns:$dynamodb_NS::[1.50,-0.001,1_000,12345678901234567890123456789012345678.],\
        l:[1,[true],{x:null}],m:{},d:1.5d-3,neg:-6D2,long:'''ab''' '''cd''',e:[]}}";
    let got = full_item(parse_ion_line(line, ExportType::Full).unwrap());
    let want = item(vec![
        ("quoted name", s("a\"bé\u{7}🦀")),
        ("string name", AttrValue::Null),
        ("b", AttrValue::B(vec![0, 1, 255])),
        ("bs", AttrValue::Bs(vec![vec![0], vec![255]])),
        (
            "ns",
            AttrValue::Ns(vec![
                "1.5".into(),
                "-0.001".into(),
                "1000".into(),
                "12345678901234567890123456789012345678".into(),
            ]),
        ),
        (
            "l",
            AttrValue::L(vec![
                n("1"),
                AttrValue::L(vec![AttrValue::Bool(true)]),
                AttrValue::M(item(vec![("x", AttrValue::Null)])),
            ]),
        ),
        ("m", AttrValue::M(Item::new())),
        ("d", n("0.0015")),
        ("neg", n("-600")),
        ("long", s("abcd")),
        ("e", AttrValue::L(vec![])),
    ]);
    assert_eq!(got, want);
}

#[test]
fn ion_that_dynamodb_never_writes_is_refused_by_name() {
    let cases = [
        ("$ion_1_0 {Item:{a:{{\"clob\"}}}}", "clob"),
        ("$ion_1_0 {Item:{a:nan}}", "symbol 'nan'"),
        ("$ion_1_0 {Item:{a:0x1F}}", "'0x1F' is not an Ion decimal"),
        ("$ion_1_0 {Item:{a:$dynamodb_XS::[1]}}", "'$dynamodb_XS'"),
        ("$ion_1_0 {Item:{a:$dynamodb_SS::[1]}}", "string set"),
        ("$ion_1_0 {Item:{a:\"open}}", "not closed"),
        ("$ion_1_0 {Item:{a:1}} x", "text after the record"),
        ("$ion_1_0 {Other:{}}", "no 'Item'"),
        ("$ion_1_0 [1]", "not a struct"),
    ];
    for (line, needle) in cases {
        let msg = parse_ion_line(line, ExportType::Full)
            .unwrap_err()
            .to_string();
        assert!(msg.contains(needle), "{line}: {msg}");
    }
    let deep = format!(
        "$ion_1_0 {{Item:{{a:{}{}}}}}",
        "[".repeat(200),
        "]".repeat(200)
    );
    let msg = parse_ion_line(&deep, ExportType::Full)
        .unwrap_err()
        .to_string();
    assert!(msg.contains("nested deeper"), "{msg}");
}

#[test]
fn incremental_records_in_both_formats() {
    let json = r#"{"Metadata":{"WriteTimestampMicros":{"N":"1680109764000000"}},"Keys":{"PK":{"S":"A"}},"NewImage":{"PK":{"S":"A"},"v":{"N":"2"}},"OldImage":{"PK":{"S":"A"},"v":{"N":"1"}}}"#;
    let ion = r#"$ion_1_0 {Metadata:{WriteTimestampMicros:1680109764000000},Keys:{PK:"A"},NewImage:{PK:"A",v:2.},OldImage:{PK:"A",v:1.}}"#;
    let want = Record::Change(Change {
        write_micros: 1_680_109_764_000_000,
        keys: item(vec![("PK", s("A"))]),
        new_image: Some(item(vec![("PK", s("A")), ("v", n("2"))])),
        old_image: Some(item(vec![("PK", s("A")), ("v", n("1"))])),
    });
    assert_eq!(
        parse_dynamo_line(json, ExportType::Incremental).unwrap(),
        want
    );
    assert_eq!(parse_ion_line(ion, ExportType::Incremental).unwrap(), want);
    let delete = r#"{"Metadata":{"WriteTimestampMicros":{"N":"7"}},"Keys":{"PK":{"S":"A"}}}"#;
    let Record::Change(change) = parse_dynamo_line(delete, ExportType::Incremental).unwrap() else {
        panic!("a change");
    };
    assert_eq!((change.new_image, change.old_image), (None, None));
    let msg = parse_dynamo_line(r#"{"Keys":{}}"#, ExportType::Incremental)
        .unwrap_err()
        .to_string();
    assert!(msg.contains("WriteTimestampMicros"), "{msg}");
}

#[test]
fn dynamo_json_lines_and_their_errors() {
    let line = r#"{"Item":{"PK":{"S":"A"},"n":{"N":"-1.5"},"z":{"NULL":true}}}"#;
    let got = full_item(parse_dynamo_line(line, ExportType::Full).unwrap());
    assert_eq!(
        got,
        item(vec![
            ("PK", s("A")),
            ("n", n("-1.5")),
            ("z", AttrValue::Null)
        ])
    );
    for (line, needle) in [
        ("{\"Item\":{\"a\":{\"Q\":1}}}", "attribute 'a'"),
        ("{\"Item\":", "not a DynamoDB JSON export line"),
        ("[]", "expected a JSON object"),
        ("{\"Items\":{}}", "no 'Item'"),
    ] {
        let msg = parse_dynamo_line(line, ExportType::Full)
            .unwrap_err()
            .to_string();
        assert!(msg.contains(needle), "{line}: {msg}");
    }
}

#[test]
fn manifests_as_the_guide_shows_them() {
    let summary = r#"{"version":"2020-06-30","exportArn":"arn:aws:dynamodb:us-east-1:123456789012:table/ProductCatalog/export/01234567890123-a1b2c3d4","startTime":"2020-11-04T07:28:34.028Z","endTime":"2020-11-04T07:33:43.897Z","tableArn":"arn:aws:dynamodb:us-east-1:123456789012:table/ProductCatalog","tableId":"12345a12-abcd-123a-ab12-1234abc12345","exportTime":"2020-11-04T07:28:34.028Z","s3Bucket":"ddb-productcatalog-export","s3Prefix":"2020-Nov","s3SseAlgorithm":"AES256","s3SseKmsKeyId":null,"manifestFilesS3Key":"AWSDynamoDB/01234567890123-a1b2c3d4/manifest-files.json","billedSizeBytes":0,"itemCount":8,"outputFormat":"DYNAMODB_JSON"}"#;
    let m = ManifestSummary::parse(summary).unwrap();
    assert_eq!(m.export_id, "01234567890123-a1b2c3d4");
    assert_eq!(m.table.as_deref(), Some("ProductCatalog"));
    assert_eq!(m.format, ExportFormat::DynamoJson);
    assert_eq!(m.export_type, ExportType::Full);
    assert_eq!(m.item_count, Some(8));
    let files = DataFile::parse_all(
        "{\"itemCount\":8,\"md5Checksum\":\"sQMSpEILNgoQmarvDFonGQ==\",\"etag\":\"af83d6f217c19b8b0fff8023d8ca4716-1\",\"dataFileS3Key\":\"2020-Nov/AWSDynamoDB/01234567890123-a1b2c3d4/data/yrtsd6tnpa2o3k6h6mxsbo5tm.json.gz\"}\n\n",
    )
    .unwrap();
    assert_eq!(files.len(), 1);
    assert_eq!(
        files[0].relative_key("01234567890123-a1b2c3d4"),
        "data/yrtsd6tnpa2o3k6h6mxsbo5tm.json.gz"
    );
    assert_eq!(files[0].name(), "yrtsd6tnpa2o3k6h6mxsbo5tm.json.gz");

    let msg = ManifestSummary::parse(r#"{"exportArn":"a/b","outputFormat":"CSV"}"#)
        .unwrap_err()
        .to_string();
    assert!(msg.contains("'CSV'"), "{msg}");
    let msg = DataFile::parse_all("{\"itemCount\":1}\n")
        .unwrap_err()
        .to_string();
    assert!(msg.contains("line 1"), "{msg}");
    let incremental = ManifestSummary::parse(
        r#"{"exportArn":"x/export/ID","outputFormat":"ION","exportType":"INCREMENTAL_EXPORT","exportFromTime":"a","exportToTime":"b"}"#,
    )
    .unwrap();
    assert_eq!(incremental.export_type, ExportType::Incremental);
    assert_eq!(incremental.format, ExportFormat::Ion);
}

#[test]
fn keys_are_inferred_from_attributes_on_every_item() {
    let mut k = KeyInference::default();
    assert!(k.schema().is_none());
    k.add(&item(vec![("PK", s("a")), ("SK", s("1")), ("x", n("1"))]));
    k.add(&item(vec![("PK", s("b")), ("SK", s("2")), ("y", n("1"))]));
    let schema = k.schema().unwrap();
    assert_eq!(schema.names(), ["PK", "SK"]);
    let mut k = KeyInference::default();
    k.add(&item(vec![("tenant", s("a")), ("n", n("1"))]));
    k.add(&item(vec![("tenant", s("b")), ("n", s("1"))]));
    assert_eq!(k.schema().unwrap().names(), ["tenant"]);
}

#[test]
fn ion_numbers_as_dynamodb_writes_them() {
    for (text, ion) in [
        ("103", "103."),
        ("600", "6d2"),
        ("1.5", "1.5"),
        ("-0.002", "-0.002"),
        ("0", "0."),
        ("1E-130", "1d-130"),
    ] {
        assert_eq!(ion_number(text), ion, "{text}");
    }
}

/// Strings of the hostile fixtures (terminal escapes, controls, bidi, wide text).
fn hostile_string() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("cls\x1b[2Jcls".to_string()),
        Just("\x1b]52;c;ZXZpbA==\x07".to_string()),
        Just("cr\rnul\0del\x7ftab\tbell\x07c1\u{9b}2Jend".to_string()),
        Just("invoice\u{202e}fdp.exe".to_string()),
        Just("zero\u{200b}width\u{feff}bom".to_string()),
        Just("漢字テキスト🦀中文".to_string()),
        Just("'''\"\\'\\".to_string()),
        ".{0,12}",
    ]
}

/// A number as DynamoDB returns it: up to 38 digits, plain text.
fn number() -> impl Strategy<Value = String> {
    (any::<bool>(), "[1-9][0-9]{0,37}", -40i64..40).prop_map(|(neg, digits, shift)| {
        let sign = if neg { "-" } else { "" };
        let d = parse_number(&format!("{sign}{digits}e{shift}")).expect("a number");
        plain_number(&d)
    })
}

fn name() -> impl Strategy<Value = String> {
    prop_oneof![
        "[A-Za-z_][A-Za-z0-9_]{0,6}",
        Just("null".to_string()),
        Just("$x".to_string()),
        hostile_string().prop_filter("names are not empty", |s| !s.is_empty()),
    ]
}

fn scalar() -> impl Strategy<Value = AttrValue> {
    prop_oneof![
        hostile_string().prop_map(AttrValue::S),
        number().prop_map(AttrValue::N),
        proptest::collection::vec(any::<u8>(), 0..12).prop_map(AttrValue::B),
        Just(AttrValue::Null),
        any::<bool>().prop_map(AttrValue::Bool),
        proptest::collection::btree_set(hostile_string(), 1..4)
            .prop_map(|s| AttrValue::Ss(s.into_iter().collect())),
        proptest::collection::btree_set(number(), 1..4)
            .prop_map(|s| AttrValue::Ns(s.into_iter().collect())),
        proptest::collection::btree_set(proptest::collection::vec(any::<u8>(), 1..6), 1..4)
            .prop_map(|s| AttrValue::Bs(s.into_iter().collect())),
    ]
}

fn value() -> impl Strategy<Value = AttrValue> {
    scalar().prop_recursive(4, 24, 4, |inner| {
        prop_oneof![
            proptest::collection::vec(inner.clone(), 0..4).prop_map(AttrValue::L),
            proptest::collection::vec((name(), inner), 0..4)
                .prop_map(|attrs| AttrValue::M(Item::from_attrs(attrs))),
        ]
    })
}

fn items() -> impl Strategy<Value = Item> {
    proptest::collection::vec((name(), value()), 1..6).prop_map(Item::from_attrs)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(crate::fixtures::proptest_cases(500)))]

    #[test]
    fn an_item_survives_both_formats_exactly(item in items()) {
        let mut line = String::new();
        write_dynamo_line(&mut line, &item);
        prop_assert_eq!(full_item(parse_dynamo_line(&line, ExportType::Full).unwrap()), item.clone());
        let mut line = String::new();
        write_ion_line(&mut line, &item);
        let back = parse_ion_line(&line, ExportType::Full);
        prop_assert!(back.is_ok(), "{line}: {back:?}");
        prop_assert_eq!(full_item(back.unwrap()), item);
    }

    #[test]
    fn a_change_survives_both_formats_exactly(
        keys in items(), new in proptest::option::of(items()), old in proptest::option::of(items()),
        micros in any::<u64>(),
    ) {
        let change = Change { write_micros: micros, keys, new_image: new, old_image: old };
        let mut line = String::new();
        write_dynamo_change(&mut line, &change);
        prop_assert_eq!(parse_dynamo_line(&line, ExportType::Incremental).unwrap(), Record::Change(change.clone()));
        let mut line = String::new();
        write_ion_change(&mut line, &change);
        prop_assert_eq!(parse_ion_line(&line, ExportType::Incremental).unwrap(), Record::Change(change));
    }
}

/// Edits that keep a line JSON-like: cut a span, or put a JSON-significant text anywhere.
fn mutated(line: String, at: usize, len: usize, insert: &str) -> Option<String> {
    let bytes = line.as_bytes();
    let at = at % (bytes.len() + 1);
    let end = (at + len % 6).min(bytes.len());
    let mut out = bytes[..at].to_vec();
    out.extend_from_slice(insert.as_bytes());
    out.extend_from_slice(&bytes[end..]);
    String::from_utf8(out).ok()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(crate::fixtures::proptest_cases(1000)))]

    /// The direct reader of full lines reads what the general reader reads, and no line it
    /// accepts (however damaged) means anything else to the general reader.
    #[test]
    fn the_direct_reader_agrees_with_the_general_one(
        item in items(), at in any::<usize>(), len in any::<usize>(),
        insert in prop_oneof![Just(""), Just(","), Just("\"\""), Just("{"), Just("}"), Just(":"),
            Just("\"S\":\"x\","), Just("\"NULL\":false,"), Just("\"Item\":{},"), Just("1"), Just("\\u0053")],
    ) {
        let mut line = String::new();
        write_dynamo_line(&mut line, &item);
        let general = dynamo_json::parse_general(&line, ExportType::Full).unwrap();
        prop_assert_eq!(dynamo_json_direct::item_of_full_line(&line).map(Record::Item), Some(general));
        if let Some(damaged) = mutated(line, at, len, insert) {
            if let Some(direct) = dynamo_json_direct::item_of_full_line(&damaged) {
                let general = dynamo_json::parse_general(&damaged, ExportType::Full);
                prop_assert_eq!(general.ok(), Some(Record::Item(direct)), "{}", damaged);
            }
        }
    }
}

#[test]
fn the_direct_reader_leaves_the_odd_lines_to_the_general_one() {
    let both = |line: &str| {
        let direct = dynamo_json_direct::item_of_full_line(line).map(Record::Item);
        let general = parse_dynamo_line(line, ExportType::Full).ok();
        (direct, general)
    };
    // Read alike: a repeated attribute keeps its last value, NULL takes any value, other
    // fields are ignored, a descriptor may be spelled with escapes.
    for line in [
        r#"{"Item":{"a":{"S":"1"},"a":{"N":"2"}}}"#,
        r#"{"Item":{"a":{"NULL":false}}}"#,
        r#"{"Other":[1,{"x":2}],"Item":{"a":{"\u0053":"x"}}}"#,
    ] {
        let (direct, general) = both(line);
        assert!(direct.is_some(), "{line}");
        assert_eq!(direct, general, "{line}");
    }
    // Left to the general reader: a repeated descriptor or field, no Item, not an object.
    for line in [
        r#"{"Item":{"a":{"S":"1","S":"2"}}}"#,
        r#"{"Item":{},"Item":{"a":{"S":"1"}}}"#,
        r#"{"Item":null}"#,
        "[1]",
    ] {
        assert_eq!(both(line).0, None, "{line}");
    }
}

#[test]
fn athena_ddl_and_sql_for_both_formats() {
    use crate::design::schema::{IndexInfo, IndexKind, KeyAttr, KeySchema, KeyType};
    let mut info = crate::fixtures::demo_info();
    info.name = "app".into();
    // The issue's multi-attribute GSI, a number among its sort attributes.
    let attr = |name: &str, key_type| KeyAttr::new(name, key_type);
    info.indexes.push(IndexInfo {
        name: "TournamentRegionIndex".into(),
        kind: IndexKind::Gsi,
        keys: KeySchema::new(
            vec![attr("tournamentId", KeyType::S), attr("region", KeyType::S)],
            vec![attr("round", KeyType::N), attr("bracket", KeyType::S)],
        )
        .unwrap(),
        ..info.indexes[0].clone()
    });
    let summary = |format: &str| {
        ManifestSummary::parse(&format!(
            r#"{{"exportArn":"arn:aws:dynamodb:us-east-1:1:table/app/export/01700000000000-abcdef12","exportTime":"2026-12-01T11:00:00.000Z","s3Bucket":"triage-bucket","s3Prefix":"exports/","outputFormat":"{format}"}}"#
        ))
        .unwrap()
    };
    insta::assert_snapshot!(
        "athena_dynamodb_json",
        athena_sql(&info, &summary("DYNAMODB_JSON"), 10)
    );
    insta::assert_snapshot!("athena_ion", athena_sql(&info, &summary("ION"), 10));
}
