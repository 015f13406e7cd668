//! The table the export tests read two ways, and its exports: DynamoDB Local holds the items
//! (hostile text, every type, a hot key, a GSI), and the exports are written from the table's
//! own Scan in AWS's layout, one per format (tests/integration/table_export.rs on disk,
//! tests/integration/table_export_s3.rs in a local S3 server).

use std::collections::HashMap;

use crate::common::table_export::*;
use crate::common::*;
use aws_sdk_dynamodb::primitives::Blob;
use aws_sdk_dynamodb::types::{
    AttributeDefinition, AttributeValue, BillingMode, GlobalSecondaryIndex, KeySchemaElement,
    KeyType, Projection, ProjectionType, ScalarAttributeType,
};

pub type Ddb = HashMap<String, AttributeValue>;

pub fn s(v: &str) -> AttributeValue {
    AttributeValue::S(v.to_string())
}

pub fn n(v: &str) -> AttributeValue {
    AttributeValue::N(v.to_string())
}

/// Hostile text (as tests/integration/e2e_hostile.rs), every type, exact numbers, and a hot key.
pub fn items() -> Vec<Ddb> {
    let mut items = vec![
        HashMap::from([
            ("PK".into(), s("EVIL#cls\x1b[2Jcls\x1b]0;pwned\x07")),
            ("SK".into(), s("SK#cur\x1b[10;10Hsor")),
            (
                "controls".into(),
                s("cr\rnul\0del\x7ftab\tbell\x07c1\u{9b}2Jend"),
            ),
            ("bidi".into(), s("invoice\u{202e}fdp.exe")),
            ("wide".into(), s("漢字テキスト🦀中文")),
            ("quotes".into(), s("'''\"\\'")),
            (
                "bin".into(),
                AttributeValue::B(Blob::new(b"\x1b]52;c;ZXZpbA==\x07\0\xff".to_vec())),
            ),
            (
                "set".into(),
                AttributeValue::Ss(vec!["cls\x1b[2Jcls".into(), "b".into()]),
            ),
            ("name\x1b[31mred".into(), s("attribute name with an escape")),
            ("$dollar".into(), s("a field name Ion must quote")),
            ("null".into(), AttributeValue::Null(true)),
        ]),
        HashMap::from([
            ("PK".into(), s("TYPES#1")),
            ("SK".into(), s("all")),
            ("big".into(), n("12345678901234567890123456789012345678")),
            ("small".into(), n("-0.000000000000000000000000000000000001")),
            (
                "huge".into(),
                n("9.9999999999999999999999999999999999999E+125"),
            ),
            ("tiny".into(), n("1E-130")),
            ("trailing".into(), n("1.500")),
            ("hundred".into(), n("100")),
            (
                "ns".into(),
                AttributeValue::Ns(vec!["1".into(), "2.5".into(), "-3".into()]),
            ),
            (
                "bs".into(),
                AttributeValue::Bs(vec![Blob::new(vec![0u8]), Blob::new(vec![255u8, 1])]),
            ),
            ("flag".into(), AttributeValue::Bool(true)),
            ("off".into(), AttributeValue::Bool(false)),
            (
                "list".into(),
                AttributeValue::L(vec![n("1"), s("two"), AttributeValue::Null(true)]),
            ),
            (
                "map".into(),
                AttributeValue::M(HashMap::from([
                    ("inner".into(), AttributeValue::L(vec![])),
                    ("deep".into(), AttributeValue::M(HashMap::new())),
                ])),
            ),
            ("GSI1PK".into(), s("KIND#types")),
            ("GSI1SK".into(), s("1")),
        ]),
    ];
    for i in 0..400 {
        let pk = if i % 4 == 0 {
            "TENANT#hot".to_string()
        } else {
            format!("TENANT#{}", i % 37)
        };
        let mut item: Ddb = HashMap::from([
            ("PK".into(), s(&pk)),
            ("SK".into(), s(&format!("ORDER#{i:05}"))),
            ("total".into(), n(&format!("{}.{}", i, i % 10))),
            (
                "status".into(),
                s(if i % 3 == 0 { "SHIPPED" } else { "OPEN" }),
            ),
        ]);
        if i % 2 == 0 {
            item.insert("GSI1PK".into(), s(&format!("STATUS#{}", i % 5)));
            item.insert("GSI1SK".into(), s(&format!("{i}")));
        }
        items.push(item);
    }
    items
}

pub async fn create_table() -> String {
    let c = client().await;
    let table = table_name("export");
    let attr = |name: &str| {
        AttributeDefinition::builder()
            .attribute_name(name)
            .attribute_type(ScalarAttributeType::S)
            .build()
            .unwrap()
    };
    let key = |name: &str, kind| {
        KeySchemaElement::builder()
            .attribute_name(name)
            .key_type(kind)
            .build()
            .unwrap()
    };
    c.create_table()
        .table_name(&table)
        .attribute_definitions(attr("PK"))
        .attribute_definitions(attr("SK"))
        .attribute_definitions(attr("GSI1PK"))
        .attribute_definitions(attr("GSI1SK"))
        .key_schema(key("PK", KeyType::Hash))
        .key_schema(key("SK", KeyType::Range))
        .global_secondary_indexes(
            GlobalSecondaryIndex::builder()
                .index_name("GSI1")
                .key_schema(key("GSI1PK", KeyType::Hash))
                .key_schema(key("GSI1SK", KeyType::Range))
                .projection(
                    Projection::builder()
                        .projection_type(ProjectionType::KeysOnly)
                        .build(),
                )
                .build()
                .unwrap(),
        )
        .billing_mode(BillingMode::PayPerRequest)
        .send()
        .await
        .unwrap();
    for item in items() {
        c.put_item()
            .table_name(&table)
            .set_item(Some(item))
            .send()
            .await
            .unwrap();
    }
    table
}

pub struct Fixture {
    pub table: String,
    /// `scan TABLE --output ddb-jsonl`, one item a line.
    pub scanned: Vec<String>,
    pub _dir: tempfile::TempDir,
    pub json: ExportLayout,
    pub ion: ExportLayout,
}

/// The fixture in the calling module's database (`super::local`), made once there.
pub fn fixture() -> &'static Fixture {
    static F: super::OnceMap<String, Fixture> =
        std::sync::Mutex::new(std::collections::BTreeMap::new());
    super::once_for(&F, super::test_module()).get_or_init(|| {
        let table = tokio::runtime::Runtime::new()
            .unwrap()
            .block_on(create_table());
        let scanned: Vec<String> = ok(run(&["scan", &table, "--output", "ddb-jsonl"]))
            .lines()
            .map(str::to_string)
            .collect();
        let dir = tempfile::tempdir().unwrap();
        let json = write_full_export(
            &dir.path().join("json"),
            &table,
            Format::DynamoJson,
            &scanned,
            5,
            2,
        );
        let ion = write_full_export(&dir.path().join("ion"), &table, Format::Ion, &scanned, 4, 1);
        Fixture {
            table,
            scanned,
            _dir: dir,
            json,
            ion,
        }
    })
}

pub fn sorted(text: &str) -> Vec<String> {
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    lines.sort();
    lines
}

pub fn path(p: &std::path::Path) -> String {
    p.display().to_string()
}
