//! The Ion reader decodes exactly what the DynamoDB JSON reader decodes: surrogate pairs
//! validated, numbers held to DynamoDB's precision and range without expanding the exponent,
//! no empty set. A differential property test feeds both readers the same values.

use proptest::prelude::*;

use super::{parse_ion_line, plain_number};
use crate::exports::table_export::{parse_dynamo_line, ExportType, Record};
use crate::item::number::parse as parse_number;
use crate::item::value::{AttrValue, Item};

fn ion(value: &str) -> Result<AttrValue, String> {
    let line = format!("$ion_1_0 {{Item:{{a:{value}}}}}");
    match parse_ion_line(&line, ExportType::Full) {
        Ok(Record::Item(item)) => Ok(item.get("a").expect("a").clone()),
        Ok(other) => panic!("{other:?}"),
        Err(e) => Err(e.to_string()),
    }
}

fn json(value: &str) -> Result<AttrValue, String> {
    let line = format!("{{\"Item\":{{\"a\":{value}}}}}");
    match parse_dynamo_line(&line, ExportType::Full) {
        Ok(Record::Item(item)) => Ok(item.get("a").expect("a").clone()),
        Ok(other) => panic!("{other:?}"),
        Err(e) => Err(e.to_string()),
    }
}

#[test]
fn surrogate_pairs_are_validated() {
    assert_eq!(ion(r#""\ud83e\udd80""#), Ok(AttrValue::S("🦀".into())));
    assert_eq!(ion(r#""a\u00e9""#), Ok(AttrValue::S("aé".into())));
    for (text, why) in [
        (r#""\ud800\u0041""#, "not followed by a low surrogate"),
        (r#""\ud800x""#, "lone UTF-16 surrogate"),
        (r#""\udc00""#, "lone UTF-16 surrogate"),
        (r#""\ud800\udbff""#, "not followed by a low surrogate"),
        (r#""\u+041""#, "hex digits"),
        (r#""\U0000d800""#, "not a character"),
    ] {
        let e = ion(text).expect_err(text);
        assert!(e.contains(why), "{text}: {e}");
        assert!(e.contains("not an Ion export line"), "{text}: {e}");
        assert!(!e.contains('\n'), "one line: {e}");
    }
}

#[test]
fn numbers_are_held_to_dynamodbs_precision_and_range() {
    assert_eq!(
        ion("1d125"),
        Ok(AttrValue::N(format!("1{}", "0".repeat(125))))
    );
    assert_eq!(
        ion("1d-130"),
        Ok(AttrValue::N(format!("0.{}1", "0".repeat(129))))
    );
    assert_eq!(ion(&"9".repeat(38)), Ok(AttrValue::N("9".repeat(38))));
    for (text, why) in [
        ("1d126", "too large"),
        ("1d-131", "too small"),
        (&"1".repeat(40) as &str, "40 significant digits"),
        (
            "-1234567890123456789012345678901234567.89",
            "39 significant digits",
        ),
    ] {
        let e = ion(text).expect_err(text);
        assert!(e.contains(why), "{text}: {e}");
        // The DynamoDB JSON reader refuses the same number.
        assert!(json(&format!("{{\"N\":\"{}\"}}", text.replace('d', "e"))).is_err());
    }
}

/// `1d999999999` was expanded to a billion zeros (1.5 GB each, 6 GB in 9 s for eight on one
/// line) before anything looked at its size; now the parts are checked first. Refused, and
/// quickly: the bound is generous slack for a loaded machine, the work is microseconds.
#[test]
fn a_huge_exponent_is_refused_without_writing_it_out() {
    let started = std::time::Instant::now();
    let values: Vec<String> = (0..8).map(|i| format!("{}d999999999", i + 1)).collect();
    let line = format!("$ion_1_0 {{Item:{{a:[{}]}}}}", values.join(","));
    let e = parse_ion_line(&line, ExportType::Full).expect_err("too large");
    assert!(e.to_string().contains("too large for DynamoDB"), "{e}");
    for tiny in ["1d-999999999", "-5d-999999999999999999999"] {
        assert!(ion(tiny).expect_err(tiny).contains("too small"));
    }
    assert!(started.elapsed() < std::time::Duration::from_secs(5));
}

#[test]
fn empty_sets_are_refused_by_both_readers() {
    for (ion_text, json_text) in [
        ("$dynamodb_SS::[]", r#"{"SS":[]}"#),
        ("$dynamodb_NS::[]", r#"{"NS":[]}"#),
        ("$dynamodb_BS::[]", r#"{"BS":[]}"#),
    ] {
        let e = ion(ion_text).expect_err(ion_text);
        assert!(e.contains("empty set"), "{e}");
        let e = json(json_text).expect_err(json_text);
        assert!(e.contains("at least one element"), "{e}");
    }
    assert_eq!(ion("[]"), Ok(AttrValue::L(Vec::new())));
}

/// One value written both ways: DynamoDB JSON text and Ion text.
#[derive(Debug, Clone)]
enum Spec {
    /// Mantissa digits, fraction digits, exponent.
    Number(String, String, i64, bool),
    /// UTF-16 code units, each written as a `\uXXXX` escape (surrogates included, paired or not).
    Units(Vec<u16>),
    Bool(bool),
    Null,
    StringSet(Vec<String>),
    NumberSet(Vec<(String, i64)>),
    List(Vec<Spec>),
    Map(Vec<(String, Spec)>),
}

fn escapes(units: &[u16]) -> String {
    units.iter().map(|u| format!("\\u{u:04x}")).collect()
}

impl Spec {
    fn json(&self) -> String {
        match self {
            Spec::Number(int, frac, exp, neg) => format!(
                "{{\"N\":\"{}{int}{}e{exp}\"}}",
                if *neg { "-" } else { "" },
                if frac.is_empty() {
                    String::new()
                } else {
                    format!(".{frac}")
                }
            ),
            Spec::Units(u) => format!("{{\"S\":\"{}\"}}", escapes(u)),
            Spec::Bool(b) => format!("{{\"BOOL\":{b}}}"),
            Spec::Null => "{\"NULL\":true}".into(),
            Spec::StringSet(v) => format!(
                "{{\"SS\":[{}]}}",
                v.iter()
                    .map(|s| format!("\"{s}\""))
                    .collect::<Vec<_>>()
                    .join(",")
            ),
            Spec::NumberSet(v) => format!(
                "{{\"NS\":[{}]}}",
                v.iter()
                    .map(|(m, e)| format!("\"{m}e{e}\""))
                    .collect::<Vec<_>>()
                    .join(",")
            ),
            Spec::List(v) => format!(
                "{{\"L\":[{}]}}",
                v.iter().map(Spec::json).collect::<Vec<_>>().join(",")
            ),
            Spec::Map(v) => format!(
                "{{\"M\":{{{}}}}}",
                v.iter()
                    .map(|(k, s)| format!("\"{k}\":{}", s.json()))
                    .collect::<Vec<_>>()
                    .join(",")
            ),
        }
    }

    fn ion(&self) -> String {
        match self {
            Spec::Number(int, frac, exp, neg) => {
                format!("{}{int}.{frac}d{exp}", if *neg { "-" } else { "" })
            }
            Spec::Units(u) => format!("\"{}\"", escapes(u)),
            Spec::Bool(b) => b.to_string(),
            Spec::Null => "null".into(),
            Spec::StringSet(v) => format!(
                "$dynamodb_SS::[{}]",
                v.iter()
                    .map(|s| format!("\"{s}\""))
                    .collect::<Vec<_>>()
                    .join(",")
            ),
            Spec::NumberSet(v) => format!(
                "$dynamodb_NS::[{}]",
                v.iter()
                    .map(|(m, e)| format!("{m}d{e}"))
                    .collect::<Vec<_>>()
                    .join(",")
            ),
            Spec::List(v) => format!(
                "[{}]",
                v.iter().map(Spec::ion).collect::<Vec<_>>().join(",")
            ),
            Spec::Map(v) => format!(
                "{{{}}}",
                v.iter()
                    .map(|(k, s)| format!("'{k}':{}", s.ion()))
                    .collect::<Vec<_>>()
                    .join(",")
            ),
        }
    }
}

fn number_parts() -> impl Strategy<Value = (String, String, i64, bool)> {
    (
        prop_oneof![Just("0".to_string()), "[1-9][0-9]{0,44}"],
        "[0-9]{0,6}",
        prop_oneof![-140i64..140, Just(999_999_999), Just(-999_999_999)],
        any::<bool>(),
    )
}

fn spec() -> impl Strategy<Value = Spec> {
    let units = prop::collection::vec(
        prop_oneof![
            0x20u16..0x7f,
            0xd800u16..0xdc00,
            0xdc00u16..0xe000,
            Just(0xd83e),
            Just(0xdd80),
            0xe000u16..=0xffff,
        ],
        0..4,
    );
    let leaf = prop_oneof![
        number_parts().prop_map(|(i, f, e, n)| Spec::Number(i, f, e, n)),
        units.prop_map(Spec::Units),
        any::<bool>().prop_map(Spec::Bool),
        Just(Spec::Null),
        prop::collection::vec("[a-c]", 0..3).prop_map(Spec::StringSet),
        prop::collection::vec(("[1-9][0-9]{0,40}", -130i64..130), 0..3).prop_map(Spec::NumberSet),
    ];
    leaf.prop_recursive(4, 24, 4, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Spec::List),
            prop::collection::vec(("[a-d]", inner), 0..4).prop_map(|mut v| {
                // Both formats keep a repeated name's last value; keep names distinct so
                // neither reader's choice is what the test is about.
                v.sort_by(|a, b| a.0.cmp(&b.0));
                v.dedup_by(|a, b| a.0 == b.0);
                Spec::Map(v)
            }),
        ]
    })
}

/// Numbers as their value, not their spelling: the JSON reader keeps the text, Ion spells it
/// plain.
fn canonical(v: &AttrValue) -> AttrValue {
    let n = |t: &String| plain_number(&parse_number(t).expect("a number"));
    match v {
        AttrValue::N(t) => AttrValue::N(n(t)),
        AttrValue::Ns(ts) => AttrValue::Ns(ts.iter().map(n).collect()),
        AttrValue::L(vs) => AttrValue::L(vs.iter().map(canonical).collect()),
        AttrValue::M(item) => AttrValue::M(Item::from_attrs(
            item.iter()
                .map(|(k, v)| (k.to_string(), canonical(v)))
                .collect(),
        )),
        other => other.clone(),
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(crate::fixtures::proptest_cases(400)))]
    #[test]
    fn the_ion_reader_and_the_dynamodb_json_reader_agree(s in spec()) {
        let (from_json, from_ion) = (json(&s.json()), ion(&s.ion()));
        match (&from_json, &from_ion) {
            (Ok(a), Ok(b)) => prop_assert_eq!(canonical(a), canonical(b)),
            (Err(_), Err(_)) => {}
            _ => prop_assert!(
                false,
                "json {} -> {:?}\nion {} -> {:?}",
                s.json(),
                from_json,
                s.ion(),
                from_ion
            ),
        }
    }
}
