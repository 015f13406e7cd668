//! The one gate between untrusted item text and the terminal.
//!
//! Item data holds whatever any client wrote: escape sequences that clear the screen, retitle the
//! window or write the clipboard (OSC 52), bidi overrides that reorder what the user reads, and
//! invisible characters that make two different keys look identical. Each such char is shown as
//! a visible escape instead, so the output is inert and unambiguous. Because ESC itself becomes
//! the text `\x1b`, no escape sequence can survive, whatever follows it.
//!
//! What is escaped is the one table in `escaped.rs`: controls, every format character and
//! every default-ignorable code point, and the line and paragraph separators.
//!
//! Backslashes are left alone: the escapes are for the eye, not for round-tripping, and escaping
//! them would make every Windows path or regex noisy.

use std::borrow::Cow;
use std::fmt::Write;

use unicode_width::{UnicodeWidthChar, UnicodeWidthStr};

pub use super::escaped::needs_escape;

pub fn sanitize(text: &str) -> Cow<'_, str> {
    // Printable ASCII is by far the common case and needs no char decoding at all.
    if text.bytes().all(|b| (0x20..0x7f).contains(&b)) {
        return Cow::Borrowed(text);
    }
    let Some(first) = text.find(needs_escape) else {
        return Cow::Borrowed(text);
    };
    let mut out = String::with_capacity(text.len() + 16);
    out.push_str(&text[..first]);
    for c in text[first..].chars() {
        if needs_escape(c) {
            push_escaped(&mut out, c);
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

fn push_escaped(out: &mut String, c: char) {
    match c {
        '\0' => out.push_str("\\0"),
        '\t' => out.push_str("\\t"),
        '\n' => out.push_str("\\n"),
        '\r' => out.push_str("\\r"),
        // Writing to a String cannot fail.
        '\u{0}'..='\u{1f}' | '\u{7f}' => {
            let _ = write!(out, "\\x{:02x}", c as u32);
        }
        _ => {
            let _ = write!(out, "\\u{{{:x}}}", c as u32);
        }
    }
}

pub fn display_width(text: &str) -> usize {
    text.width()
}

pub fn truncate_display(text: &str, max_width: usize) -> Cow<'_, str> {
    if text.width() <= max_width {
        return Cow::Borrowed(text);
    }
    let Some(budget) = max_width.checked_sub(1) else {
        return Cow::Borrowed("");
    };
    let mut used = 0;
    let mut end = 0;
    for (i, c) in text.char_indices() {
        let w = c.width().unwrap_or(1);
        if used + w > budget {
            break;
        }
        used += w;
        end = i + c.len_utf8();
    }
    // Summed char widths can undercount a ligature (a VS16 makes a narrow symbol wide), so back
    // off until the whole-string rule the renderer uses agrees.
    let mut head = &text[..end];
    while head.width() > budget {
        let mut chars = head.chars();
        chars.next_back();
        head = chars.as_str();
    }
    Cow::Owned(format!("{head}…"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_each_control_class() {
        let cases: &[(&str, &str, &str)] = &[
            ("NUL", "a\0b", "a\\0b"),
            ("TAB", "a\tb", "a\\tb"),
            ("LF", "a\nb", "a\\nb"),
            ("CR", "a\rb", "a\\rb"),
            ("ESC", "\x1b", "\\x1b"),
            ("BEL", "\x07", "\\x07"),
            ("other C0", "\x01\x1f", "\\x01\\x1f"),
            ("DEL", "\x7f", "\\x7f"),
            ("C1 NEL", "\u{85}", "\\u{85}"),
            ("C1 CSI", "\u{9b}2J", "\\u{9b}2J"),
            ("bidi RLO", "abc\u{202e}def", "abc\\u{202e}def"),
            ("bidi ALM", "\u{61c}", "\\u{61c}"),
            ("bidi marks", "\u{200e}\u{200f}", "\\u{200e}\\u{200f}"),
            ("bidi embeddings", "\u{202a}\u{202d}", "\\u{202a}\\u{202d}"),
            ("bidi isolates", "\u{2066}x\u{2069}", "\\u{2066}x\\u{2069}"),
            ("zero width space", "a\u{200b}b", "a\\u{200b}b"),
            ("zwnj zwj", "\u{200c}\u{200d}", "\\u{200c}\\u{200d}"),
            ("word joiner", "\u{2060}", "\\u{2060}"),
            ("BOM", "\u{feff}x", "\\u{feff}x"),
            ("soft hyphen", "ab\u{ad}c", "ab\\u{ad}c"),
            ("line separator", "a\u{2028}b", "a\\u{2028}b"),
            ("paragraph separator", "a\u{2029}b", "a\\u{2029}b"),
            (
                "tag characters",
                "USER#1\u{e0041}\u{e0044}",
                "USER#1\\u{e0041}\\u{e0044}",
            ),
            ("combining grapheme joiner", "a\u{34f}b", "a\\u{34f}b"),
            ("lone VS16", "\u{fe0f}", "\\u{fe0f}"),
            ("Khmer inherent vowel", "\u{17b4}", "\\u{17b4}"),
            ("Hangul fillers", "\u{115f}\u{1160}", "\\u{115f}\\u{1160}"),
            ("after non-ASCII", "é\x1b", "é\\x1b"),
        ];
        for (name, input, want) in cases {
            assert_eq!(sanitize(input), *want, "{name}");
        }
    }

    #[test]
    fn no_escape_sequence_survives() {
        let cases: &[(&str, &str, &str)] = &[
            (
                "OSC 52 clipboard write",
                "\x1b]52;c;ZXZpbA==\x07",
                "\\x1b]52;c;ZXZpbA==\\x07",
            ),
            ("CSI clear screen", "\x1b[2J\x1b[H", "\\x1b[2J\\x1b[H"),
            (
                "OSC window title, ST-terminated",
                "\x1b]0;pwned\x1b\\",
                "\\x1b]0;pwned\\x1b\\",
            ),
            (
                "OSC 8 hyperlink",
                "\x1b]8;;http://x\x07y",
                "\\x1b]8;;http://x\\x07y",
            ),
        ];
        for (name, input, want) in cases {
            let out = sanitize(input);
            assert_eq!(out, *want, "{name}");
            assert!(!out.chars().any(needs_escape), "{name}");
        }
    }

    /// Every character of the table, exhaustively, comes out as printable ASCII.
    #[test]
    fn every_escaped_char_comes_out_as_printable_ascii() {
        for &(lo, hi) in crate::text::escaped::ESCAPED {
            for c in (lo..=hi).filter_map(char::from_u32) {
                let input = format!("é{c}");
                let out = sanitize(&input);
                let escape = out.strip_prefix('é').expect("the text before it kept");
                assert!(
                    escape.starts_with('\\') && escape.bytes().all(|b| (0x20..0x7f).contains(&b)),
                    "U+{:04X} became {escape:?}",
                    u32::from(c)
                );
            }
        }
    }

    #[test]
    fn printable_text_is_borrowed_unchanged() {
        let cases: &[(&str, &str)] = &[
            ("empty", ""),
            ("ascii", "USER#123 hello ~"),
            ("backslash", "C:\\temp\\x1b"),
            ("cjk", "日本語テキスト"),
            ("emoji", "🦀 ok 👍🏽"),
            ("combining marks", "e\u{301}a\u{308}"),
            ("latin-1 letters", "naïve café"),
            ("rtl letters", "שלום مرحبا"),
        ];
        for (name, input) in cases {
            let out = sanitize(input);
            assert!(matches!(out, Cow::Borrowed(_)), "{name}");
            assert_eq!(out, *input, "{name}");
        }
    }

    #[test]
    fn display_width_counts_columns() {
        let cases: &[(&str, usize)] = &[
            ("", 0),
            ("abc", 3),
            ("日本", 4),
            ("🦀", 2),
            ("e\u{301}", 1),
            ("…", 1),
        ];
        for (input, want) in cases {
            assert_eq!(display_width(input), *want, "{input:?}");
        }
    }

    #[test]
    fn truncates_to_width_with_ellipsis() {
        let cases: &[(&str, usize, &str)] = &[
            ("hello", 5, "hello"),
            ("hello", 10, "hello"),
            ("hello", 4, "hel…"),
            ("hello", 1, "…"),
            ("hello", 0, ""),
            ("", 0, ""),
            ("日本語", 6, "日本語"),
            ("日本語", 5, "日本…"),
            // The next wide char would overflow by one column, so the cut leaves a gap.
            ("日本語", 4, "日…"),
            ("日本語", 2, "…"),
            ("a🦀b", 3, "a…"),
            ("a🦀b", 4, "a🦀b"),
            // A combining mark stays with its base.
            ("e\u{301}e\u{301}e\u{301}", 3, "e\u{301}e\u{301}e\u{301}"),
            ("e\u{301}e\u{301}e\u{301}", 2, "e\u{301}…"),
            // A VS16 turns the narrow heart into a wide emoji; it must not overflow.
            ("a\u{2764}\u{fe0f}b", 3, "a\u{2764}…"),
        ];
        for (input, max, want) in cases {
            let out = truncate_display(input, *max);
            assert_eq!(out, *want, "{input:?} at {max}");
            assert!(display_width(&out) <= *max, "{input:?} at {max}");
        }
    }

    #[test]
    fn untruncated_text_is_borrowed() {
        assert!(matches!(truncate_display("abc", 3), Cow::Borrowed(_)));
    }
}
