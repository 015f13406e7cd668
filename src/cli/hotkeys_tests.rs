use super::*;
use crate::model::item::value::{AttrValue, Item};
use crate::model::traffic::distribution::key_text;

#[test]
fn the_warnings_section_says_none_or_lists_them_sanitised() {
    let mut out = String::new();
    write_warnings(&mut out, std::iter::empty());
    assert_eq!(out, "\nwarnings: none\n");
    let mut out = String::new();
    write_warnings(
        &mut out,
        ["USER#1\u{1b}[2J takes 40% of writes"].into_iter(),
    );
    assert_eq!(out, "\nwarnings:\n! USER#1\\x1b[2J takes 40% of writes\n");
}

#[test]
fn key_text_by_type() {
    let item = Item::from_attrs(vec![
        ("s".into(), AttrValue::S("USER#1".into())),
        ("n".into(), AttrValue::N("-1.50".into())),
        ("b".into(), AttrValue::B(vec![0, 1, 255])),
        ("l".into(), AttrValue::L(vec![])),
    ]);
    let cases = [
        ("s", "USER#1"),
        ("n", "-1.50"),
        ("b", "AAH/"),
        ("l", "(L l)"),
        ("PK", "(no PK)"),
    ];
    for (name, want) in cases {
        assert_eq!(key_text(&item, name), want, "{name}");
    }
}

#[test]
fn human_bytes_units() {
    for (n, want) in [
        (0, "0 B"),
        (1023, "1023 B"),
        (1536, "1.5 KB"),
        (3 << 30, "3.0 GB"),
    ] {
        assert_eq!(bytes(n), want);
    }
}
