use super::super::{Finding, FindingKind, PatternPlan, ReadShape};
use super::*;
use crate::text::sanitize::needs_escape;

fn report(name: &str, index: &str) -> PatternReport {
    let verdict = Finding {
        kind: FindingKind::Served,
        text: "served by one Query".into(),
    };
    PatternReport {
        name: name.into(),
        source: "patterns.toml".into(),
        plan: PatternPlan {
            shape: ReadShape::Query {
                index: Some(index.into()),
            },
            projection: Some(format!("INCLUDE {index}")),
            fit: None,
            pk_attributes: Vec::new(),
            sk_attributes: Vec::new(),
            reads_gsi: true,
        },
        measured: None,
        unmeasured: Some("no stored key fits".into()),
        risk: None,
        key_sample: None,
        findings: vec![verdict.clone()],
        verdict,
    }
}

/// An index name from a shared patterns file or DescribeTable carrying an OSC 52 clipboard
/// write, a window title and a clear screen, and a tag-character suffix.
const HOSTILE_INDEX: &str =
    "gsi\u{1b}]52;c;ZXZpbA==\u{7}\u{1b}]0;pwned\u{7}\u{1b}[2J\u{e0041}\u{202e}";

#[test]
fn no_raw_control_or_format_character_reaches_the_text() {
    let r = CheckReport::new(
        "t",
        25.0,
        vec![report("byUser\u{200b}\u{fe0f}", HOSTILE_INDEX)],
    );
    let text = text(&r);
    let raw: Vec<char> = text
        .chars()
        .filter(|&c| c != '\n' && needs_escape(c))
        .collect();
    assert!(raw.is_empty(), "raw {raw:?} in {text}");
    // The summary table's row names the index too, escaped.
    let row = text
        .lines()
        .find(|l| l.starts_with("byUser") && l.contains("served"))
        .expect("the summary row");
    assert!(row.contains(r"gsi\x1b]52;c;ZXZpbA==\x07"), "{row}");
    assert!(row.contains(r"\u{e0041}\u{202e}"), "{row}");
}

#[test]
fn the_summary_table_pads_by_display_width() {
    let r = CheckReport::new(
        "t",
        25.0,
        vec![
            report("注文一覧を顧客別に", "byCustomer"),
            report("orders", "byCustomer"),
        ],
    );
    let text = text(&r);
    let table: Vec<&str> = text
        .lines()
        .filter(|l| l.starts_with("pattern ") || l.contains("Query on byCustomer  "))
        .collect();
    assert_eq!(table.len(), 3, "{text}");
    // The plan column starts at the same screen column on the header and every row.
    let plan_column = |line: &str| {
        let at = line
            .find("plan")
            .or_else(|| line.find("Query on"))
            .expect("a plan cell");
        display_width(&line[..at])
    };
    let columns: Vec<usize> = table.iter().map(|l| plan_column(l)).collect();
    // Nine CJK characters are eighteen columns wide, then the two spaces between columns.
    assert_eq!(columns, vec![20, 20, 20], "{table:#?}");
}
