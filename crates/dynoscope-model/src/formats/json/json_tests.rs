//! Both JSON spellings, the escaper against a char-by-char reference, and parsing.

use super::*;
use crate::item::value::{AttrValue, Item};
use crate::text::sanitize::needs_escape;
use serde_json::Value;

fn every_type() -> Item {
    Item::from_attrs(vec![
        ("s".into(), AttrValue::S("a\"b\\c\u{1b}[2J".into())),
        (
            "n".into(),
            AttrValue::N("12345678901234567890123456789012345678".into()),
        ),
        (
            "f".into(),
            AttrValue::N("-0.000000000000000000000000000000000001".into()),
        ),
        ("b".into(), AttrValue::B(vec![0, 255, 10])),
        ("ss".into(), AttrValue::Ss(vec!["x".into(), "y".into()])),
        (
            "ns".into(),
            AttrValue::Ns(vec![
                "1".into(),
                "99999999999999999999999999999999999999".into(),
            ]),
        ),
        ("bs".into(), AttrValue::Bs(vec![vec![1], vec![2, 3]])),
        (
            "m".into(),
            AttrValue::M(Item::from_attrs(vec![("k".into(), AttrValue::Null)])),
        ),
        (
            "l".into(),
            AttrValue::L(vec![AttrValue::Bool(true), AttrValue::N("1".into())]),
        ),
        ("z".into(), AttrValue::Null),
        ("t".into(), AttrValue::Bool(false)),
    ])
}

#[test]
fn dynamo_json_round_trips_every_type() {
    let item = every_type();
    let mut line = String::new();
    append_dynamo_json(&mut line, &item);
    assert_eq!(parse_dynamo_item(&line).unwrap(), item);
}

#[test]
fn plain_json_keeps_38_digits_and_escapes_controls() {
    let mut line = String::new();
    append_plain_json(&mut line, &every_type());
    assert!(
        line.contains("\"n\":12345678901234567890123456789012345678"),
        "{line}"
    );
    assert!(
        line.contains("\"f\":-0.000000000000000000000000000000000001"),
        "{line}"
    );
    assert!(line.contains("\"b\":\"AP8K\""), "{line}");
    assert!(line.contains("\"z\":null"), "{line}");
    assert!(line.contains("\\u001b[2J"), "{line}");
    assert!(!line.contains('\u{1b}'));
    // Plain JSON must still be JSON.
    let parsed: Value = serde_json::from_str(&line).unwrap();
    assert_eq!(
        parsed["ns"][1].to_string(),
        "99999999999999999999999999999999999999"
    );
}

#[test]
fn json_strings_escape_exactly_what_json_needs() {
    let cases = [
        ("plain", r#""plain""#),
        ("q\"b\\", r#""q\"b\\""#),
        ("a\nb\rc\td", r#""a\nb\rc\td""#),
        ("\u{1b}[2J\u{0}\u{7f}", r#""\u001b[2J\u0000\u007f""#),
        ("c1\u{85}é漢😀", r#""c1\u0085é漢😀""#),
        (
            "bidi\u{202e}\u{2066}\u{200f}\u{61c}zw\u{200b}\u{feff}shy\u{ad}",
            r#""bidi\u202e\u2066\u200f\u061czw\u200b\ufeffshy\u00ad""#,
        ),
        ("kept: ™ – ‘q’ © ก က あ 🦀", "\"kept: ™ – ‘q’ © ก က あ 🦀\""),
        (
            "ar\u{600}cgj\u{34f}vs\u{fe0f}fill\u{3164}tag\u{e0041}",
            r#""ar\u0600cgj\u034fvs\ufe0ffill\u3164tag\udb40\udc41""#,
        ),
    ];
    for (input, want) in cases {
        let mut out = String::new();
        append_json_string(&mut out, input);
        assert_eq!(out, want);
        let back: String = serde_json::from_str(&out).unwrap();
        assert_eq!(back, input);
    }
}

/// The escaper reads eight bytes at a time; a char-by-char spelling of the same rules is
/// the reference, with the special characters at every offset of a word.
fn reference_escape(s: &str) -> String {
    let mut out = String::from('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if needs_escape(c) => {
                let mut units = [0u16; 2];
                for unit in c.encode_utf16(&mut units) {
                    out.push_str(&format!("\\u{unit:04x}"));
                }
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

proptest::proptest! {
    #![proptest_config(proptest::test_runner::Config::with_cases(crate::fixtures::proptest_cases(1000)))]
    /// Mostly clean text with a special character now and then, so that clean words, dirty
    /// words and every length of tail (the overlapping loads) all come up.
    #[test]
    fn word_at_a_time_escaping_matches_the_reference(
        chars in proptest::collection::vec(
            proptest::prop_oneof![
                6 => proptest::sample::select(vec!['a', 'Z', ' ', '~', '0', '\u{a0}', 'é', '漢', '😀']),
                1 => proptest::sample::select(vec![
                    '"', '\\', '\n', '\r', '\t', '\u{0}', '\u{1b}', '\u{1f}', '\u{7f}', '\u{80}',
                    '\u{85}', '\u{9f}', '\u{c2}', '\u{ad}', '\u{a9}', '\u{61c}', '\u{600}',
                    '\u{180e}', '\u{1000}', '\u{200b}', '\u{200f}', '\u{2010}', '\u{2028}',
                    '\u{202e}', '\u{2066}', '\u{2069}', '\u{2122}', '\u{feff}', '\u{fffa}',
                    '\u{fffd}', '\u{f8ff}', '\u{34f}', '\u{6dd}', '\u{7ff}', '\u{890}',
                    '\u{3042}', '\u{3164}', '\u{fe0f}', '\u{ffa0}', '\u{1f600}', '\u{13430}',
                    '\u{e0041}', '\u{e01ef}', '\u{f0000}',
                ]),
            ],
            0..40,
        )
    ) {
        let input: String = chars.into_iter().collect();
        let mut out = String::new();
        append_json_string(&mut out, &input);
        proptest::prop_assert_eq!(&out, &reference_escape(&input));
        let back: String = serde_json::from_str(&out).unwrap();
        proptest::prop_assert_eq!(back, input);
    }
}

/// Every code point, alone (the gathered short-string check) and after a clean word (the
/// word-at-a-time check): escaped exactly as the reference says, every other one copied.
#[test]
fn every_char_is_escaped_as_the_table_says() {
    let (mut input, mut out) = (String::new(), String::new());
    for c in (0..=u32::from(char::MAX)).filter_map(char::from_u32) {
        for prefix in ["", "abcdefg"] {
            input.clear();
            input.push_str(prefix);
            input.push(c);
            out.clear();
            append_json_string(&mut out, &input);
            let copied = out.len() == input.len() + 2 && out[1..out.len() - 1] == input;
            if needs_escape(c) || c == '"' || c == '\\' {
                assert_eq!(out, reference_escape(&input), "U+{:04X}", u32::from(c));
            } else {
                assert!(copied, "U+{:04X} became {out}", u32::from(c));
            }
        }
    }
}

#[test]
fn a_number_that_is_not_one_is_written_as_a_string() {
    let item = Item::from_attrs(vec![
        (
            "bad".into(),
            AttrValue::N("\u{1b}]52;c;ZXZpbA==\u{7}".into()),
        ),
        ("word".into(), AttrValue::N("NaN".into())),
        ("ns".into(), AttrValue::Ns(vec!["1".into(), "1}".into()])),
        ("ok".into(), AttrValue::N(".5".into())),
        (
            "big".into(),
            AttrValue::N("-1.2345678901234567890123456789012345678E+125".into()),
        ),
    ]);
    let mut line = String::new();
    append_plain_json(&mut line, &item);
    let parsed: Value = serde_json::from_str(&line).expect("still one JSON object");
    assert_eq!(parsed["bad"], "\u{1b}]52;c;ZXZpbA==\u{7}");
    assert!(!line.contains('\u{1b}'), "{line}");
    assert_eq!(parsed["word"], "NaN");
    assert_eq!(parsed["ns"][0].to_string(), "1");
    assert_eq!(parsed["ns"][1], "1}");
    assert_eq!(parsed["ok"].to_string(), "0.5");
    assert!(
        line.contains("\"big\":-1.2345678901234567890123456789012345678E+125"),
        "{line}"
    );
}

#[test]
fn safe_json_escapes_what_serde_json_leaves_raw() {
    let value = serde_json::json!({
        "name": "t\u{7f}\u{9b}2J\u{202e}gpj.exe\u{1b}[0m",
        "indexes": {"i\u{2066}": 1},
        "fine": "日本 🦀 é",
    });
    for pretty in [false, true] {
        let text = to_safe_json(&value, pretty);
        assert!(
            !text
                .chars()
                .any(|c| needs_escape(c) && c != '\n' && c != ' '),
            "{text}"
        );
        assert!(
            text.contains(r"t\u007f\u009b2J\u202egpj.exe\u001b[0m"),
            "{text}"
        );
        assert!(text.contains("日本 🦀 é"), "{text}");
        let back: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(back, value);
    }
}

#[test]
fn plain_values_are_typed() {
    let vals = parse_plain_values(r#"{":s":"SHIPPED",":n":5,":b":true,":z":null,":big":1234567890123456789012345678901234567}"#).unwrap();
    assert_eq!(vals[0], (":s".into(), AttrValue::S("SHIPPED".into())));
    assert_eq!(vals[1], (":n".into(), AttrValue::N("5".into())));
    assert_eq!(vals[2], (":b".into(), AttrValue::Bool(true)));
    assert_eq!(vals[3], (":z".into(), AttrValue::Null));
    assert_eq!(
        vals[4].1,
        AttrValue::N("1234567890123456789012345678901234567".into())
    );
}

#[test]
fn bad_json_is_named() {
    let cases = [
        (parse_plain_values("{"), "'{' is not valid JSON"),
        (
            parse_plain_values("[1]"),
            "--values must be a JSON object, got '[1]'",
        ),
        (
            parse_dynamo_values(r#"{":a":{"X":"1"}}"#),
            "unknown type descriptor",
        ),
        (parse_dynamo_values(r#"{":a":{"N":"1x"}}"#), "'1x'"),
        (
            parse_dynamo_values(r#"{":a":"plain"}"#),
            "expected an object",
        ),
    ];
    for (result, needle) in cases {
        let msg = result.unwrap_err().to_string();
        assert!(msg.contains(needle), "{msg:?} lacks {needle:?}");
    }
}

/// Every JSON reader goes through serde_json, whose recursion limit (128 levels) is the depth
/// bound: a deep document is one error line, never a stack overflow, in each of them.
#[test]
fn deep_json_is_one_error_line_in_every_reader() {
    std::thread::Builder::new()
        .stack_size(1024 * 1024)
        .spawn(|| {
            let deep_array = "[".repeat(100_000);
            let deep_dynamo = r#"{"a":{"L":["#.repeat(50_000);
            let deep_plain = r#"{"a":"#.repeat(50_000);
            let errors = [
                parse_plain_values(&deep_plain).unwrap_err().to_string(),
                parse_dynamo_item(&deep_dynamo).unwrap_err().to_string(),
                parse_dynamo_values(&deep_dynamo).unwrap_err().to_string(),
                crate::query::partiql::parse_parameters(&deep_array)
                    .unwrap_err()
                    .to_string(),
                crate::exports::table_export::parse_dynamo_line(
                    &format!("{{\"Item\":{deep_dynamo}"),
                    crate::exports::table_export::ExportType::Full,
                )
                .unwrap_err()
                .to_string(),
            ];
            for e in errors {
                assert!(e.contains("recursion limit exceeded"), "{e:.200}");
                assert!(!e.contains('\n'), "one line");
            }
        })
        .unwrap()
        .join()
        .unwrap();
}
