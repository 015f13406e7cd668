//! Hostile item data, end to end: strings and binary values full of escape sequences, control
//! characters, bidi overrides, invisible and wide characters, a 350 KB string and a 30-deep map,
//! written with the SDK and then browsed in the real explorer in a pty. What reaches the
//! terminal is checked byte by byte; the headless outputs are checked for exactness.

use crate::common;

use std::collections::HashMap;
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use aws_sdk_dynamodb::primitives::Blob;
use aws_sdk_dynamodb::types::AttributeValue;
use common::pty::*;
use common::tables::{self, TableSpec};
use common::*;

type Ddb = HashMap<String, AttributeValue>;

const CLEAR: &str = "cls\x1b[2Jcls";
const MOVE: &str = "cur\x1b[10;10Hsor";
const TITLE: &str = "\x1b]0;pwned\x07";
const CLIPBOARD: &str = "\x1b]52;c;ZXZpbA==\x07";
const CONTROLS: &str = "cr\rnul\0del\x7ftab\tbell\x07c1\u{9b}2Jend";
const BIDI: &str = "invoice\u{202e}fdp.exe";
const ZERO_WIDTH: &str = "zero\u{200b}width\u{feff}bom";
const WIDE: &str = "漢字テキスト🦀中文";
const BIG_LEN: usize = 350_000;
const DEPTH: usize = 30;
const LEAF: &str = "deep\x1b[2Jleaf\u{202e}";

/// The byte sequences of the data that must never reach the terminal as they are.
const FORBIDDEN: &[(&str, &[u8])] = &[
    ("clear screen", b"cls\x1b[2Jcls"),
    ("cursor move", b"cur\x1b[10;10Hsor"),
    ("window title", b"\x1b]0;pwned"),
    ("OSC 52", b"\x1b]52;c;ZXZpbA=="),
    ("any OSC 52", b"\x1b]52;"),
    ("BEL", b"\x07"),
    ("NUL", b"\x00"),
    ("DEL", b"\x7f"),
    ("CR in data", b"cr\rnul"),
    ("C1 CSI", "\u{9b}".as_bytes()),
    ("RLO", "\u{202e}".as_bytes()),
    ("ZWSP", "\u{200b}".as_bytes()),
    ("BOM", "\u{feff}".as_bytes()),
    ("leaf", b"deep\x1b[2Jleaf"),
];

fn s(v: &str) -> AttributeValue {
    AttributeValue::S(v.to_string())
}

/// 350 000 chars: a window-title sequence first, wide chars around the detail view's cut at
/// 2 000 chars, a clear-screen in the middle.
fn big_string() -> String {
    let mut big = String::with_capacity(BIG_LEN + 64);
    big.push_str(TITLE);
    big.push_str(&"x".repeat(1_990 - TITLE.chars().count()));
    big.push_str("漢字漢字漢字漢字漢字漢字漢字漢字漢字漢字");
    big.push_str(&"y".repeat(BIG_LEN / 2 - big.chars().count()));
    big.push_str(CLEAR);
    let rest = BIG_LEN - big.chars().count();
    big.push_str(&"z".repeat(rest));
    assert_eq!(big.chars().count(), BIG_LEN);
    big
}

fn deep_map() -> AttributeValue {
    let mut v = AttributeValue::M(HashMap::from([("leaf".to_string(), s(LEAF))]));
    for level in (0..DEPTH - 1).rev() {
        v = AttributeValue::M(HashMap::from([(format!("level{level}"), v)]));
    }
    v
}

fn item(pk: &str, sk: &str, attrs: Vec<(&str, AttributeValue)>) -> Ddb {
    let mut item: Ddb = HashMap::from([("PK".into(), s(pk)), ("SK".into(), s(sk))]);
    for (k, v) in attrs {
        item.insert(k.to_string(), v);
    }
    item
}

fn hostile_items() -> Vec<Ddb> {
    vec![
        item(
            &format!("EVIL#{CLEAR}{TITLE}"),
            &format!("SK#{MOVE}"),
            vec![
                ("clear", s(CLEAR)),
                ("move", s(MOVE)),
                ("title", s(TITLE)),
                ("clipboard", s(CLIPBOARD)),
                ("controls", s(CONTROLS)),
                ("bidi", s(BIDI)),
                ("zero_width", s(ZERO_WIDTH)),
                ("wide", s(WIDE)),
                (
                    "bin",
                    AttributeValue::B(Blob::new(
                        format!("{TITLE}{CLIPBOARD}{CLEAR}\0\x7f").into_bytes(),
                    )),
                ),
                (
                    "set",
                    AttributeValue::Ss(vec![CLEAR.into(), TITLE.into(), BIDI.into()]),
                ),
                (
                    "list",
                    AttributeValue::L(vec![s(MOVE), s(CONTROLS), s(WIDE)]),
                ),
                ("name\x1b[31mred", s("attribute name with an escape")),
            ],
        ),
        item(
            "WIDE#漢字🦀中文",
            "宽字符🦀键",
            vec![("wide", s(WIDE)), ("note", s("全角ＡＢＣ"))],
        ),
        item(
            &format!("BIDI#{BIDI}"),
            &format!("ZW#{ZERO_WIDTH}"),
            vec![("bidi", s(BIDI)), ("controls", s(CONTROLS))],
        ),
        item(
            "BIG#1",
            "big",
            vec![("big", s(&big_string())), ("note", s(TITLE))],
        ),
        item("DEEP#1", "deep", vec![("deep", deep_map())]),
    ]
}

/// The same shapes with nothing hostile in them.
fn clean_items() -> Vec<Ddb> {
    ["A", "B", "C", "D", "E"]
        .iter()
        .map(|k| {
            item(
                &format!("CLEAN#{k}"),
                "SK#1",
                vec![
                    ("note", s("plain text")),
                    ("n", AttributeValue::N("1".into())),
                ],
            )
        })
        .collect()
}

async fn create_table(items: Vec<Ddb>) -> String {
    let c = client().await;
    let table = table_name("hostile");
    TableSpec::pk_sk(&table).create(&c).await;
    for item in items {
        c.put_item()
            .table_name(&table)
            .set_item(Some(item))
            .send()
            .await
            .unwrap();
    }
    table
}

fn setup(items: fn() -> Vec<Ddb>) -> String {
    tokio::runtime::Runtime::new()
        .unwrap()
        .block_on(create_table(items()))
}

fn hostile_table() -> &'static str {
    static TABLE: OnceLock<String> = OnceLock::new();
    TABLE.get_or_init(|| setup(hostile_items))
}

const ROWS: u16 = 40;
const COLS: u16 = 120;

/// Columns of border glyphs on each row between the kinds bar and the status bar: the boxes'
/// edges and corners, the request log's among them.
fn borders(s: &Session) -> Vec<Vec<usize>> {
    let cells = s.cells();
    cells[2..ROWS as usize - 1]
        .iter()
        .map(|row| {
            row.iter()
                .enumerate()
                .filter(|(_, c)| matches!(c.as_str(), "│" | "┌" | "┐" | "└" | "┘"))
                .map(|(i, _)| i)
                .collect()
        })
        .collect()
}

fn loaded_view(s: &Session) -> String {
    s.wait_for("the table view with its items", |sc| {
        sc.contains("Collections by PK (5)") && sc.contains("all loaded")
    })
}

/// The border layout of a clean table, drawn in the same terminal size.
fn clean_borders() -> Vec<Vec<usize>> {
    let table = setup(clean_items);
    let mut s = Session::start(&[&table]);
    loaded_view(&s);
    let mut layouts = vec![borders(&s)];
    s.keys("\r");
    s.keys("\r");
    s.wait_text("% of 400 KB");
    layouts.push(borders(&s));
    assert_eq!(layouts[0], layouts[1], "items and detail share the frame");
    s.keys("q");
    assert!(s.wait_exit().success());
    layouts.remove(0)
}

/// Every view of the hostile table so far: the screen and its borders, for the assertions.
struct Seen {
    screens: Vec<String>,
    expected: Vec<Vec<usize>>,
}

impl Seen {
    fn check(&mut self, s: &Session, step: &str) {
        let screen = s.settle(Duration::from_millis(150), Duration::from_secs(5));
        assert!(
            screen.contains("Requests (") && screen.contains("Collections by PK"),
            "{step}: the frame is gone:\n{screen}"
        );
        let got = borders(s);
        for (row, (want, got)) in self.expected.iter().zip(&got).enumerate() {
            assert_eq!(
                want,
                got,
                "{step}: border columns of screen row {} moved:\n{screen}",
                row + 2
            );
        }
        self.screens.push(screen);
    }
}

#[test]
fn hostile_items_reach_the_screen_as_visible_escapes_only() {
    let table = hostile_table();
    let expected = clean_borders();
    let mut s = Session::spawn(
        &["--endpoint-url", &local().endpoint, table],
        &[],
        ROWS,
        COLS,
    );
    loaded_view(&s);
    let mut seen = Seen {
        screens: Vec::new(),
        expected,
    };
    seen.check(&s, "first page");

    let mut big_checked = false;
    // Twice: with long lines wrapped (the default), then clipped and scrolled sideways (`w`).
    for pass in 0..2 {
        if pass == 1 {
            s.keys("g"); // the first collection again
            s.keys("w");
        }
        for n in 0..5 {
            if n > 0 {
                s.keys("\u{1b}[B"); // next collection
            }
            seen.check(&s, &format!("pass {pass}, collection {n}"));
            s.keys("\t"); // items
            seen.check(&s, &format!("items of collection {n}"));
            for _ in 0..3 {
                s.keys("\u{1b}[C"); // scroll the columns right
            }
            seen.check(&s, &format!("columns of collection {n} scrolled"));
            // Scrolling stops at the last column, so `←` from there would soon leave the pane.
            s.keys("\r"); // the item's detail
            s.wait_text("% of 400 KB");
            seen.check(&s, &format!("detail of collection {n}"));
            let is_big = s.screen().contains("\"BIG#1\"");
            if is_big {
                // Still responsive with 350 KB on screen: a key changes the screen within 2 s.
                let before = s.screen();
                assert!(
                    before.contains("\"big\": \"\\u001b]0;pwned\\u0007xxxx"),
                    "{before}"
                );
                let sent = Instant::now();
                s.send("t");
                s.wait_for_within("the DynamoDB JSON view", Duration::from_secs(2), |sc| {
                    sc != before && sc.contains("{\"S\": ")
                });
                assert!(sent.elapsed() < Duration::from_secs(2));
                s.keys("t");
                big_checked = true;
            }
            for _ in 0..4 {
                s.keys("\u{1b}[B"); // scroll down
            }
            s.keys("\u{1b}[6~"); // page down
            seen.check(&s, &format!("detail of collection {n} scrolled"));
            s.keys("t");
            s.wait_text("DynamoDB JSON · t: plain JSON");
            seen.check(&s, &format!("DynamoDB JSON of collection {n}"));
            s.keys("\u{1b}[6~\u{1b}[6~\u{1b}[6~");
            seen.check(&s, &format!("DynamoDB JSON of collection {n} scrolled"));
            s.keys("t");
            // Two Escs the explorer reads at once are one key to crossterm (ESC ESC parses as a
            // single Esc), so the second waits until the first has closed the detail.
            s.keys("\u{1b}"); // close the detail
            s.wait_for("the detail closed", |sc| !sc.contains("% of 400 KB"));
            s.keys("\u{1b}"); // back to the collections
            seen.check(&s, &format!("back from collection {n}"));
        }
    }
    assert!(big_checked, "the 350 KB item was opened");

    // The escapes are there to see: the sanitiser's in the panes, JSON's in the item detail
    // (which is valid JSON: `\u001b`, not `\x1b`), whichever pane showed the character.
    let all = seen.screens.join("\n");
    for visible in [
        ["\\x1b[2J", "\\u001b[2J"],
        ["\\x1b[10;10H", "\\u001b[10;10H"],
        ["\\x1b]0;pwned\\x07", "\\u001b]0;pwned\\u0007"],
        ["\\x1b]52;c;ZXZpbA==\\x07", "\\u001b]52;c;ZXZpbA==\\u0007"],
        ["\\r", "\\r"],
        ["\\0", "\\u0000"],
        ["\\x7f", "\\u007f"],
        ["\\u{202e}", "\\u202e"],
        ["\\u{200b}", "\\u200b"],
        ["\\u{9b}", "\\u009b"],
        ["漢字", "漢字"],
        ["🦀", "🦀"],
        ["level28", "level28"],
        // 29 levels in, the line is clipped at the pane's edge (when not wrapped), in the
        // middle of JSON's six-character escape.
        ["\"leaf\": \"deep\\u001b[", "\"leaf\": \"deep\\u001b["],
    ] {
        assert!(
            visible.iter().any(|v| all.contains(v)),
            "{visible:?} never shown:\n{all}"
        );
    }

    s.keys("q");
    let status = s.wait_exit();
    assert!(status.success(), "exit status {status:?}");
    let raw = s.raw_after_exit();
    for (what, bytes) in FORBIDDEN {
        if let Some(at) = find_bytes(&raw, bytes) {
            let from = at.saturating_sub(40);
            panic!(
                "{what} reached the terminal at byte {at}: {:?}",
                String::from_utf8_lossy(&raw[from..(at + 40).min(raw.len())])
            );
        }
    }
    let parser = s.parser.lock().unwrap();
    let recorded = parser.callbacks();
    assert!(
        recorded.titles.is_empty(),
        "window title set: {:?}",
        recorded.titles
    );
    assert!(recorded.icon_names.is_empty());
    assert!(recorded.clipboard.is_empty(), "clipboard written");
    assert_eq!(recorded.bells, 0, "bell rung");
    assert!(
        recorded.unhandled_osc.is_empty(),
        "{:?}",
        recorded.unhandled_osc
    );
}

fn headless(args: &[&str]) -> String {
    let mut full = vec!["scan", hostile_table()];
    full.extend_from_slice(args);
    ok(run(&full))
}

fn find_item<'a>(items: &'a [serde_json::Value], pk_prefix: &str) -> &'a serde_json::Value {
    items
        .iter()
        .find(|v| {
            v["PK"]
                .as_str()
                .or(v["PK"]["S"].as_str())
                .unwrap_or("")
                .starts_with(pk_prefix)
        })
        .unwrap_or_else(|| panic!("no {pk_prefix} item"))
}

#[test]
fn table_output_is_sanitised_and_aligned() {
    let out = headless(&["--output", "table"]);
    for (what, bytes) in FORBIDDEN {
        assert!(
            find_bytes(out.as_bytes(), bytes).is_none(),
            "{what} in table output"
        );
    }
    assert!(!out.contains('\u{1b}') && !out.contains('\r'));
    assert!(
        out.contains("\\x1b[2J") && out.contains("\\u{202e}"),
        "{out}"
    );
    // Columns start where the header's rule says, whatever the widths of the chars before.
    let lines: Vec<&str> = out.lines().collect();
    let rule = lines[1];
    let starts: Vec<usize> = rule
        .char_indices()
        .filter(|&(i, c)| c == '-' && (i == 0 || rule[..i].ends_with("  ")))
        .map(|(i, _)| i)
        .collect();
    assert!(starts.len() >= 3, "{rule}");
    for line in &lines {
        let mut col = 0;
        let mut char_starts = vec![0usize];
        let mut spaces_before = vec![0usize];
        let mut run = 0;
        for c in line.chars() {
            col += unicode_width::UnicodeWidthChar::width(c).unwrap_or(0);
            run = if c == ' ' { run + 1 } else { 0 };
            char_starts.push(col);
            spaces_before.push(run);
        }
        for &start in starts.iter().skip(1) {
            if start < col {
                let at = char_starts
                    .iter()
                    .position(|&c| c == start)
                    .unwrap_or_else(|| panic!("a char straddles column {start}: {line}"));
                assert!(spaces_before[at] >= 2, "column {start} not padded: {line}");
            }
        }
    }
}

/// JSON output escapes everything the sanitiser would: controls, DEL, C1, bidi and invisible
/// characters all arrive as `\u` escapes.
fn assert_json_inert(out: &str) {
    for (what, bytes) in FORBIDDEN {
        assert!(
            find_bytes(out.as_bytes(), bytes).is_none(),
            "{what} raw in JSON output"
        );
    }
}

#[test]
fn jsonl_is_exact_for_every_hostile_string_the_350kb_one_and_the_deep_map() {
    let out = headless(&["--output", "jsonl"]);
    assert_json_inert(&out);
    let items = lines(&out);
    assert_eq!(items.len(), 5);
    let evil = find_item(&items, "EVIL#");
    assert_eq!(evil["PK"], format!("EVIL#{CLEAR}{TITLE}"));
    assert_eq!(evil["SK"], format!("SK#{MOVE}"));
    for (name, want) in [
        ("clear", CLEAR),
        ("move", MOVE),
        ("title", TITLE),
        ("clipboard", CLIPBOARD),
        ("controls", CONTROLS),
        ("bidi", BIDI),
        ("zero_width", ZERO_WIDTH),
        ("wide", WIDE),
    ] {
        assert_eq!(evil[name], want, "{name}");
    }
    use base64::Engine as _;
    let bin = base64::engine::general_purpose::STANDARD
        .decode(evil["bin"].as_str().unwrap())
        .unwrap();
    assert_eq!(bin, format!("{TITLE}{CLIPBOARD}{CLEAR}\0\x7f").into_bytes());
    assert_eq!(evil["name\x1b[31mred"], "attribute name with an escape");
    assert_eq!(evil["list"][1], CONTROLS);

    let big = find_item(&items, "BIG#");
    assert_eq!(big["big"].as_str().unwrap().len(), big_string().len());
    assert!(big["big"] == big_string(), "the 350 KB string is exact");

    let deep = find_item(&items, "DEEP#");
    let mut v = &deep["deep"];
    for level in 0..DEPTH - 1 {
        v = &v[format!("level{level}")];
        assert!(v.is_object(), "level {level}: {v}");
    }
    assert_eq!(v["leaf"], LEAF);
}

#[test]
fn ddb_jsonl_is_exact_for_the_350kb_string_and_the_deep_map() {
    let out = headless(&["--output", "ddb-jsonl"]);
    assert_json_inert(&out);
    let items = lines(&out);
    assert_eq!(items.len(), 5);
    let big = find_item(&items, "BIG#");
    assert!(
        big["big"]["S"] == big_string(),
        "the 350 KB string is exact"
    );
    assert_eq!(big["note"]["S"], TITLE);
    let evil = find_item(&items, "EVIL#");
    assert_eq!(evil["controls"]["S"], CONTROLS);
    assert_eq!(evil["list"]["L"][0]["S"], MOVE);
    let deep = find_item(&items, "DEEP#");
    let mut v = &deep["deep"];
    for level in 0..DEPTH - 1 {
        v = &v["M"][format!("level{level}")];
        assert!(v["M"].is_object(), "level {level}: {v}");
    }
    assert_eq!(v["M"]["leaf"]["S"], LEAF);
}

/// A table whose key attribute names and partition key values carry DEL, C1 and bidi controls
/// (serde_json, which `describe` and `hotkeys` used, leaves those raw).
async fn create_hostile_keys_table() -> String {
    let c = client().await;
    let table = table_name("hostilekeys");
    TableSpec::new(&table, tables::s(HOSTILE_KEY_NAME))
        .create(&c)
        .await;
    for value in HOSTILE_KEY_VALUES {
        c.put_item()
            .table_name(&table)
            .item(HOSTILE_KEY_NAME, s(value))
            .send()
            .await
            .unwrap();
    }
    table
}

const HOSTILE_KEY_NAME: &str = "pk\u{202e}\u{7f}\u{9b}2J\u{2066}";
const HOSTILE_KEY_VALUES: [&str; 3] = [
    "USER#\u{202e}exe.txt",
    "USER#\u{7f}\u{85}\u{9b}31m",
    "USER#\u{200b}\u{feff}\u{61c}",
];

#[test]
fn describe_and_hotkeys_json_escape_del_c1_and_bidi() {
    let table = tokio::runtime::Runtime::new()
        .unwrap()
        .block_on(create_hostile_keys_table());
    let out = ok(run(&["describe", &table]));
    assert_json_inert(&out);
    assert!(out.contains(r"pk\u202e\u007f\u009b2J\u2066"), "{out}");
    let desc: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(desc["keys"]["partition"][0]["name"], HOSTILE_KEY_NAME);

    let out = run(&["hotkeys", &table, "--stats"]);
    let stdout = ok(out.clone());
    assert_json_inert(&stdout);
    assert_json_inert(&stderr(&out));
    let report: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    let mut keys: Vec<&str> = report["top"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["key"].as_str().unwrap())
        .collect();
    keys.sort();
    let mut want = HOSTILE_KEY_VALUES.to_vec();
    want.sort();
    assert_eq!(keys, want);
}
