//! Issue 50: invisible format characters and untrusted names, end to end through the real
//! binary. Items in DynamoDB Local whose keys and values carry every kind of character the
//! escaper's table covers (tag characters spelling "ADMIN" after `USER#1`, U+034F, a lone
//! VS16, U+17B4, the Hangul fillers, Arabic number signs, bidi and zero-width characters, C1
//! controls), and a patterns file whose names and index carry an OSC 52, a window title and a
//! clear screen: `scan --output table`, `hotkeys --output table`, `scan --output jsonl` and
//! `patterns check --output text` write none of them raw, the JSON stays exact, and the tables
//! line up by display width.

use crate::common;

use std::collections::HashMap;
use std::sync::OnceLock;

use aws_sdk_dynamodb::types::AttributeValue;
use common::tables::TableSpec;
use common::*;
use unicode_width::UnicodeWidthStr;

/// `USER#1` followed by tag characters spelling "ADMIN": the same on screen as `USER#1`.
pub const TAGGED: &str = "USER#1\u{e0041}\u{e0044}\u{e004d}\u{e0049}\u{e004e}";

/// One of each kind the findings named, and the controls around them.
pub const INVISIBLE: &[(&str, char)] = &[
    ("ESC", '\u{1b}'),
    ("BEL", '\u{7}'),
    ("DEL", '\u{7f}'),
    ("C1 CSI", '\u{9b}'),
    ("combining grapheme joiner", '\u{34f}'),
    ("Arabic number sign", '\u{600}'),
    ("Arabic letter mark", '\u{61c}'),
    ("Hangul choseong filler", '\u{115f}'),
    ("Hangul jungseong filler", '\u{1160}'),
    ("Khmer inherent vowel", '\u{17b4}'),
    ("zero width space", '\u{200b}'),
    ("line separator", '\u{2028}'),
    ("paragraph separator", '\u{2029}'),
    ("right-to-left override", '\u{202e}'),
    ("left-to-right isolate", '\u{2066}'),
    ("Hangul filler", '\u{3164}'),
    ("variation selector 16", '\u{fe0f}'),
    ("byte order mark", '\u{feff}'),
    ("halfwidth Hangul filler", '\u{ffa0}'),
    ("language tag", '\u{e0001}'),
    ("tag A", '\u{e0041}'),
];

/// Every invisible character in one string, each between letters.
pub fn every_invisible() -> String {
    INVISIBLE.iter().map(|(_, c)| format!("x{c}")).collect()
}

fn s(v: &str) -> AttributeValue {
    AttributeValue::S(v.to_string())
}

async fn create(table: &str) {
    let c = client().await;
    TableSpec::pk_sk(table).create(&c).await;
    let items: Vec<HashMap<String, AttributeValue>> = vec![
        HashMap::from([
            ("PK".into(), s("USER#1")),
            ("SK".into(), s("A")),
            ("note".into(), s("plain")),
        ]),
        HashMap::from([
            ("PK".into(), s(TAGGED)),
            ("SK".into(), s("A")),
            ("note".into(), s(&every_invisible())),
            ("name\u{200b}\u{e0041}".to_string(), s("漢字")),
        ]),
    ];
    // Each character in a short value of its own, so that no table cell cuts it off.
    let each = INVISIBLE.iter().enumerate().map(|(i, (_, c))| {
        HashMap::from([
            ("PK".into(), s(&format!("FMT#{i:02}"))),
            ("SK".into(), s("A")),
            ("note".into(), s(&format!("x{c}x"))),
        ])
    });
    for item in items.into_iter().chain(each) {
        c.put_item()
            .table_name(table)
            .set_item(Some(item))
            .send()
            .await
            .unwrap();
    }
}

/// The table, created once in the shared DynamoDB Local.
pub fn table() -> &'static str {
    static TABLE: OnceLock<String> = OnceLock::new();
    TABLE.get_or_init(|| {
        let table = table_name("hostile-text");
        tokio::runtime::Runtime::new()
            .unwrap()
            .block_on(create(&table));
        table
    })
}

/// No character of [`INVISIBLE`] in `out`, nor any other C0 control than a newline.
pub fn assert_none_raw(what: &str, out: &str) {
    for (name, c) in INVISIBLE {
        assert!(!out.contains(*c), "raw {name} in {what}:\n{out}");
    }
    let controls: Vec<char> = out
        .chars()
        .filter(|&c| c.is_control() && c != '\n')
        .collect();
    assert!(controls.is_empty(), "raw {controls:?} in {what}:\n{out}");
}

#[test]
fn scan_as_a_table_escapes_every_invisible_character() {
    let out = ok(run(&["scan", table(), "--output", "table"]));
    assert_none_raw("scan --output table", &out);
    // The tagged key is told apart from USER#1 on screen.
    assert!(out.contains(r"USER#1\u{e0041}\u{e0044}"), "{out}");
    for (i, (name, c)) in INVISIBLE.iter().enumerate() {
        let row = out
            .lines()
            .find(|l| l.starts_with(&format!("FMT#{i:02} ")))
            .unwrap_or_else(|| panic!("no row for {name}: {out}"));
        let escape = match *c {
            '\u{1b}' => r"x\x1bx".to_string(),
            '\u{7}' => r"x\x07x".to_string(),
            '\u{7f}' => r"x\x7fx".to_string(),
            c => format!(r"x\u{{{:x}}}x", u32::from(c)),
        };
        assert!(row.contains(&escape), "{name}: {row}");
    }
}

#[test]
fn hotkeys_as_a_table_escapes_the_tagged_key() {
    let out = ok(run(&["hotkeys", table(), "--output", "table"]));
    assert_none_raw("hotkeys --output table", &out);
    assert!(out.contains(r"USER#1\u{e0041}\u{e0044}\u{e004d}"), "{out}");
}

#[test]
fn jsonl_escapes_every_invisible_character_and_stays_exact() {
    let out = ok(run(&["scan", table(), "--output", "jsonl"]));
    assert_none_raw("scan --output jsonl", &out);
    // Written as \u escapes (a surrogate pair beyond the BMP), read back as they were stored.
    assert!(
        out.contains(r"USER#1\udb40\udc41\udb40\udc44\udb40\udc4d\udb40\udc49\udb40\udc4e"),
        "{out}"
    );
    assert!(
        out.contains(r"x\u034fx\u0600x\u061cx\u115fx\u1160x\u17b4"),
        "{out}"
    );
    let items = lines(&out);
    let tagged = items
        .iter()
        .find(|v| v["PK"] == TAGGED)
        .unwrap_or_else(|| panic!("no tagged item in {out}"));
    assert_eq!(tagged["note"], every_invisible());
    assert_eq!(tagged["name\u{200b}\u{e0041}"], "漢字");
}

/// A shared patterns file: a pattern named in CJK, and one whose name and index carry an OSC 52
/// clipboard write, a window title and a clear screen (the index is not on the table, so the
/// plan names it).
fn patterns_file(dir: &std::path::Path) -> String {
    let text = format!(
        r#"
[[pattern]]
table = "{table}"
name = "注文一覧を顧客別に"
pk = "USER#{{user}}"

[[pattern]]
table = "{table}"
name = "by\u001b]0;pwned\u0007user\u200b"
index = "gsi\u001b]52;c;ZXZpbA==\u0007\u001b[2J\u202e"
index_pk = "GPK"
pk = "{{user}}"
"#,
        table = table()
    );
    let path = dir.join("patterns.toml");
    std::fs::write(&path, text).unwrap();
    path.to_string_lossy().into_owned()
}

#[test]
fn patterns_check_text_escapes_names_and_index_and_aligns_by_display_width() {
    let dir = tempfile::tempdir().unwrap();
    let file = patterns_file(dir.path());
    let out = run(&[
        "--patterns",
        &file,
        "patterns",
        "check",
        table(),
        "--output",
        "text",
    ]);
    let stdout = stdout(&out);
    // The pattern on a missing index is a Scan: a failed check, exit 3.
    assert_eq!(out.status.code(), Some(3), "{}\n{stdout}", stderr(&out));
    assert_none_raw("patterns check --output text", &stdout);
    assert_none_raw("patterns check's stderr", &stderr(&out));
    let header = stdout
        .lines()
        .position(|l| l.starts_with("pattern ") && l.contains("verdict"))
        .unwrap_or_else(|| panic!("no summary table in {stdout}"));
    let table: Vec<&str> = stdout.lines().skip(header).take(3).collect();
    let hostile = table
        .iter()
        .find(|l| l.starts_with("by"))
        .unwrap_or_else(|| panic!("no row of the hostile pattern: {table:#?}"));
    assert!(
        hostile.contains(r"gsi\x1b]52;c;ZXZpbA==\x07\x1b[2J\u{202e}"),
        "{hostile}"
    );
    // The plan column starts at the same screen column on the header and both rows.
    let plan_at = |line: &str| {
        let at = ["plan", "Query", "Scan"]
            .iter()
            .filter_map(|w| line.find(w))
            .min()
            .unwrap_or_else(|| panic!("no plan cell: {line}"));
        line[..at].width()
    };
    let columns: Vec<usize> = table.iter().map(|l| plan_at(l)).collect();
    assert!(
        columns.iter().all(|&c| c == columns[0]),
        "{columns:?}: {table:#?}"
    );
}
