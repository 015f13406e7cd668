use regex_syntax::hir::{Class, HirKind};
use unicode_width::UnicodeWidthChar;

use super::*;

/// The code points of a regex character class, as regex-syntax's Unicode tables give them
/// (sorted, merged, surrogates left out).
fn class(pattern: &str) -> Vec<(u32, u32)> {
    let hir = regex_syntax::Parser::new().parse(pattern).expect("a class");
    match hir.kind() {
        HirKind::Class(Class::Unicode(class)) => class
            .ranges()
            .iter()
            .map(|r| (u32::from(r.start()), u32::from(r.end())))
            .collect(),
        other => panic!("{pattern} is not a Unicode class: {other:?}"),
    }
}

fn contains(ranges: &[(u32, u32)], c: char) -> bool {
    let cp = u32::from(c);
    ranges.iter().any(|&(lo, hi)| (lo..=hi).contains(&cp))
}

fn every_char() -> impl Iterator<Item = char> {
    (0..=u32::from(char::MAX)).filter_map(char::from_u32)
}

#[test]
fn the_table_is_exactly_controls_separators_format_and_default_ignorables() {
    let derived = class(
        r"[\x00-\x1f\x7f-\x9f\u{2028}\u{2029}\p{General_Category=Format}\p{Default_Ignorable_Code_Point}]",
    );
    assert_eq!(ESCAPED, derived.as_slice());
}

#[test]
fn ranges_are_sorted_and_apart() {
    for pair in ESCAPED.windows(2) {
        let ((lo, hi), (next, _)) = (pair[0], pair[1]);
        assert!(lo <= hi, "{lo:x}..{hi:x}");
        assert!(hi + 1 < next, "{hi:x} then {next:x}");
    }
}

#[test]
fn needs_escape_agrees_with_the_properties_at_every_code_point() {
    let format = class(r"\p{General_Category=Format}");
    let ignorable = class(r"\p{Default_Ignorable_Code_Point}");
    let mut escaped = 0;
    for c in every_char() {
        let want = c.is_control()
            || c == '\u{2028}'
            || c == '\u{2029}'
            || contains(&format, c)
            || contains(&ignorable, c);
        assert_eq!(needs_escape(c), want, "U+{:04X}", u32::from(c));
        escaped += usize::from(want);
    }
    // 65 controls, 2 separators, and the 4,206 Cf and default-ignorable code points of
    // Unicode 16 (the plane-14 block's 4,096 among them).
    assert_eq!(escaped, 65 + 2 + 4_206);
}

#[test]
fn the_findings_characters_are_escaped() {
    let cases: &[(&str, char)] = &[
        ("ESC", '\u{1b}'),
        ("BEL", '\u{7}'),
        ("DEL", '\u{7f}'),
        ("C1 CSI", '\u{9b}'),
        ("combining grapheme joiner", '\u{34f}'),
        ("Arabic letter mark", '\u{61c}'),
        ("Arabic number sign", '\u{600}'),
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
        ("Egyptian hieroglyph control", '\u{13430}'),
        ("tag A", '\u{e0041}'),
        ("cancel tag", '\u{e007f}'),
        ("variation selector 256", '\u{e01ef}'),
    ];
    for (name, c) in cases {
        assert!(needs_escape(*c), "{name}");
    }
}

#[test]
fn visible_text_is_not_escaped() {
    for c in [
        'a', ' ', '~', 'é', '\u{a0}', '漢', 'ア', '한', '🦀', '\u{301}', '\u{fffd}',
    ] {
        assert!(!needs_escape(c), "U+{:04X}", u32::from(c));
    }
}

/// The old rule escaped what unicode-width gives no width: the table still covers it.
#[test]
fn every_char_without_a_width_is_escaped() {
    for c in every_char().filter(|c| c.width().is_none()) {
        assert!(needs_escape(c), "U+{:04X}", u32::from(c));
    }
}
