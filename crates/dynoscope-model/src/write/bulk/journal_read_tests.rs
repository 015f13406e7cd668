use super::*;
use crate::item::value::{AttrValue, Item};
use crate::query::partiql::fixtures::app;
use crate::write::bulk::journal::{self, Header, Outcome};
use crate::write::bulk::BulkItem;

fn journal_text() -> String {
    let info = app();
    let header = Header {
        verb: "DELETE".into(),
        statement: "DELETE FROM app WHERE PK = 'a'".into(),
        parameters: None,
        table: "app".into(),
        endpoint: "http://localhost:8000".into(),
    };
    let mut text = journal::header_line(&header);
    for n in 0..2 {
        let before = Item::from_attrs(vec![
            ("PK".into(), AttrValue::S("a".into())),
            ("SK".into(), AttrValue::S(n.to_string())),
        ]);
        let item = BulkItem {
            before,
            after: None,
        };
        text.push_str(&journal::item_line(n, &item.key(&info), &item));
    }
    text.push_str(&journal::planned_line(2));
    text.push_str(&journal::outcome_line(0, &Outcome::Written));
    text
}

#[test]
fn a_torn_last_line_is_set_apart_with_where_the_whole_lines_end() {
    let whole = journal_text();
    let lines = whole.lines().count();
    // Cut mid-line (no newline), cut after a whole JSON line but before its newline, a line
    // cut mid-character, and a glued line an older version left (newline, not JSON).
    for tail in [
        "{\"n\":1,\"outc".as_bytes().to_vec(),
        b"{\"n\":1,\"outcome\":\"written\"}".to_vec(),
        vec![b'{', 0xe2, 0x82],
        b"{\"n\":1,\"outc{\"n\":1,\"outcome\":\"written\"}\n".to_vec(),
    ] {
        let mut bytes = whole.as_bytes().to_vec();
        bytes.extend_from_slice(&tail);
        let r = read(&bytes).unwrap();
        assert_eq!(r.whole_len, whole.len() as u64);
        assert_eq!(
            r.torn,
            Some(Torn {
                line: lines + 1,
                bytes: tail.len()
            })
        );
        assert_eq!(r.journal.unfinished(), vec![1]);
    }
    let r = read(whole.as_bytes()).unwrap();
    assert_eq!((r.whole_len, r.torn), (whole.len() as u64, None));
}

#[test]
fn a_bad_line_before_the_last_is_corruption() {
    let whole = journal_text();
    let mut lines: Vec<&str> = whole.lines().collect();
    lines.insert(4, "{\"n\":1,\"outc");
    let text = lines.join("\n") + "\n";
    let e = read(text.as_bytes()).unwrap_err();
    assert!(e.starts_with("journal line 5: not JSON"), "{e}");
    assert!(e.contains("corrupt"), "{e}");
    // An outcome before the planned line: never written so.
    let mut lines: Vec<&str> = whole.lines().collect();
    lines.insert(2, "{\"n\":0,\"outcome\":\"written\"}");
    let text = lines.join("\n") + "\n";
    let e = read(text.as_bytes()).unwrap_err();
    assert!(e.starts_with("journal line 3: an outcome before"), "{e}");
}

#[test]
fn a_line_longer_than_any_journal_writes_is_refused() {
    let mut text = journal_text();
    text.push_str(&format!(
        "{{\"n\":1,\"outcome\":\"failed\",\"error\":\"{}\"}}\n",
        "x".repeat(MAX_LINE_BYTES)
    ));
    text.push_str(&journal::outcome_line(1, &Outcome::Written));
    let e = read(text.as_bytes()).unwrap_err();
    assert!(e.starts_with("journal line 6: "), "{e}");
    assert!(e.contains("longer than any line"), "{e}");
}
